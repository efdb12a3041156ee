import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

extension S3Client {
    /// Uploads `file` in parts of ``partSize`` (more when the file needs over 10 000 of them), one in memory
    /// at a time, then completes the upload; any failure aborts it so that the store frees the parts.
    func multipartUpload(
        _ file: borrowing FileReader, key: String, contentType: String?, metadata: [String: String]
    ) async throws(S3Error) -> String {
        var headers = metadata.sorted { $0.key < $1.key }.map { ("x-amz-meta-" + $0.key.lowercased(), $0.value) }
        if let contentType { headers.append(("content-type", contentType)) }
        let started = try await send(
            Request(method: .POST, key: key, query: [("uploads", "")], headers: headers, operation: "start an upload", repeatable: false))
        let startXML: S3XML
        do {
            var body = try await started.body.collect(upTo: 1 << 16)
            startXML = S3XML(body.readBytes(length: body.readableBytes) ?? [])
        } catch {
            throw S3Error(.unreachable, "the answer to starting an upload was cut off: \(error)", subject: key)
        }
        guard let uploadID = startXML.value("UploadId") else {
            throw S3Error(.invalidResponse, "the store did not name the upload it started", subject: key)
        }
        do throws(S3Error) {
            let size = max(partSize, 5 << 20, (file.size + 9_999) / 10_000)
            var parts: [(number: Int, etag: String)] = []
            var offset = 0
            while offset < file.size {
                let count = min(size, file.size - offset)
                let bytes = try file.read(at: offset, count: count)
                let md5 = Data(Insecure.MD5.hash(data: bytes))
                let number = parts.count + 1
                let response = try await send(
                    Request(
                        method: .PUT, key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)],
                        headers: [("content-md5", md5.base64EncodedString())], body: ByteBuffer(bytes: bytes),
                        operation: "store part \(number) of an upload"))
                parts.append((number, S3Client.unquoted(response.head.headers.first(name: "etag") ?? "")))
                offset += count
            }
            let list = parts.map { "<Part><PartNumber>\($0.number)</PartNumber><ETag>\"\($0.etag)\"</ETag></Part>" }.joined()
            let completed = try await send(
                Request(
                    method: .POST, key: key, query: [("uploadId", uploadID)],
                    body: ByteBuffer(string: "<CompleteMultipartUpload>\(list)</CompleteMultipartUpload>"), operation: "finish an upload"))
            // S3 may answer 200 with an error document when completing fails late.
            var body: ByteBuffer
            do {
                body = try await completed.body.collect(upTo: 1 << 16)
            } catch {
                throw S3Error(.unreachable, "the answer to finishing an upload was cut off: \(error)", subject: key)
            }
            let xml = S3XML(body.readBytes(length: body.readableBytes) ?? [])
            if let code = xml.value("Code") {
                throw S3Error(.failed, "cannot finish an upload: \(xml.value("Message") ?? code)", subject: key, status: 200, code: code)
            }
            guard let etag = xml.value("ETag") else {
                throw S3Error(.invalidResponse, "the store did not confirm the finished upload", subject: key)
            }
            return S3Client.unquoted(etag)
        } catch {
            try? await abortUpload(key: key, uploadID: uploadID)
            throw error
        }
    }

    /// Abandons a multipart upload; the store frees its parts.
    func abortUpload(key: String, uploadID: String) async throws(S3Error) {
        _ = try await send(
            Request(method: .DELETE, key: key, query: [("uploadId", uploadID)], operation: "abandon an upload"), accepting: [404])
    }
}
