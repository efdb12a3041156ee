import Foundation
import Testing

@testable import SepiaObjectStore

/// The signing examples of Amazon's Signature V4 documentation for S3 ("Examples: Signature Calculations in
/// AWS Signature Version 4"), computed independently of this implementation.
struct SignatureV4Tests {
    let signer = SignatureV4(
        credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1")
    let date = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z
    let host = "examplebucket.s3.amazonaws.com"

    func signature(_ headers: [(String, String)]) -> String? {
        headers.first { $0.0 == "Authorization" }?.1.components(separatedBy: "Signature=").last
    }

    @Test func getObjectWithRange() {
        let headers = signer.sign(
            method: "GET", path: "/test.txt", query: [], headers: [("Host", host), ("Range", "bytes=0-9")],
            payloadHash: SignatureV4.emptyPayloadHash, date: date)
        #expect(signature(headers) == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        let authorization = headers.first { $0.0 == "Authorization" }?.1 ?? ""
        #expect(authorization.contains("Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request"))
        #expect(authorization.contains("SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"))
    }

    @Test func putObjectWithAnEncodedKey() {
        let headers = signer.sign(
            method: "PUT", path: "/test$file.text", query: [],
            headers: [("Host", host), ("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY")],
            payloadHash: "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072", date: date)
        #expect(signature(headers) == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
    }

    @Test func subresourceWithoutValue() {
        let headers = signer.sign(
            method: "GET", path: "/", query: [("lifecycle", "")], headers: [("Host", host)], payloadHash: SignatureV4.emptyPayloadHash,
            date: date)
        #expect(signature(headers) == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
    }

    @Test func listingQuerySorted() {
        let headers = signer.sign(
            method: "GET", path: "/", query: [("prefix", "J"), ("max-keys", "2")], headers: [("Host", host)],
            payloadHash: SignatureV4.emptyPayloadHash, date: date)
        #expect(signature(headers) == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    @Test func presignedURL() {
        let query = signer.presign(method: "GET", host: host, path: "/test.txt", query: [], expires: 86_400, date: date)
        #expect(query.last?.0 == "X-Amz-Signature")
        #expect(query.last?.1 == "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test func encoding() {
        #expect(SignatureV4.encodePath("/a b/ü+=&~.-_") == "/a%20b/%C3%BC%2B%3D%26~.-_")
        #expect(SignatureV4.canonicalQuery([("b", "x/y"), ("a", ""), ("a", " ")]) == "a=&a=%20&b=x%2Fy")
    }
}

struct S3LocationTests {
    @Test func parses() throws {
        let location = try S3Location(parsing: "s3://photos/club/main?endpoint=http://127.0.0.1:9000/&region=eu-west-1")
        #expect(location.bucket == "photos")
        #expect(location.prefix == "club/main/")
        #expect(location.region == "eu-west-1")
        #expect(location.endpoint.absoluteString == "http://127.0.0.1:9000")
        #expect(location.url(key: "a b.jpg", query: "") == "http://127.0.0.1:9000/photos/club/main/a%20b.jpg")
        let amazon = try S3Location(parsing: "s3://photos?region=eu-west-1&addressing=virtual")
        #expect(amazon.url(key: "x", query: "") == "https://photos.s3.eu-west-1.amazonaws.com/x")
    }

    @Test(arguments: [
        "http://photos", "s3://", "s3://Photos", "s3://ph", "s3://photos?endpoint=ftp://x", "s3://photos?endpoint=http://x/path",
        "s3://photos?colour=blue", "s3://photos?addressing=sideways", "s3://photos?region=a/b",
    ])
    func refuses(_ text: String) {
        #expect {
            try S3Location(parsing: text)
        } throws: { error in
            let error = error as? S3Error
            return error?.kind == .configuration && error?.description.contains("s3://BUCKET") == true
        }
    }

    @Test func credentialsFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("s3-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "# keys\nexport AWS_ACCESS_KEY_ID=\"test:tester\"\nAWS_SECRET_ACCESS_KEY = 'se=cret'\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let credentials = try S3Credentials.fromFile(path)
        #expect(credentials == S3Credentials(accessKeyID: "test:tester", secretAccessKey: "se=cret"))
        try "AWS_ACCESS_KEY_ID=x\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: S3Error.self) { try S3Credentials.fromFile(path) }
    }
}
