import Foundation
import Testing

@testable import SepiaServer

@Suite("Two-factor sign-in: one-time passwords and recovery codes")
struct TwoFactorTests {
    /// RFC 6238, Appendix B: the SHA-1 secret "12345678901234567890", eight digits, at each of the listed times.
    @Test func rfc6238TestVectors() {
        let totp = OneTimePassword(secret: Array("12345678901234567890".utf8), digits: 8)
        let vectors: [(Double, String)] = [
            (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
            (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
        ]
        for (time, code) in vectors {
            #expect(totp.code(at: Date(timeIntervalSince1970: time)) == code, "at \(time)")
        }
    }

    /// Codes for random secrets at random times agree with oathtool's (Debian's oath-toolkit), given the secret in
    /// base32 as an authenticator app reads it from the QR code: the HMAC, the truncation and Base32 all checked.
    @Test func agreesWithOathtool() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let totp = OneTimePassword(secret: OneTimePassword.newSecret())
            let time = Int64.random(in: 0...4_000_000_000, using: &generator)
            let secret = Base32.encode(totp.secret)
            #expect(Base32.decode(secret) == totp.secret)
            let expected = try oathtool(["--totp", "--base32", "--now", "@\(time)", secret])
            #expect(totp.code(at: Date(timeIntervalSince1970: Double(time))) == expected, "secret \(secret) at \(time)")
        }
    }

    /// A code is good for its step and the one on either side (a phone's clock a little off), not two steps away;
    /// once used, neither it nor an earlier step's code is good again.
    @Test func windowAndReplay() {
        let totp = OneTimePassword(secret: OneTimePassword.newSecret())
        let now = Date(timeIntervalSince1970: 1_800_000_015)
        let step = totp.step(at: now)
        #expect(totp.verify(totp.code(forStep: step), at: now) == step)
        #expect(totp.verify(totp.code(forStep: step - 1), at: now) == step - 1)
        #expect(totp.verify(totp.code(forStep: step + 1), at: now) == step + 1)
        #expect(totp.verify(totp.code(forStep: step - 2), at: now) == nil || totp.code(forStep: step - 2) == totp.code(forStep: step))
        #expect(totp.verify(totp.code(forStep: step + 2), at: now) == nil || totp.code(forStep: step + 2) == totp.code(forStep: step))
        // Replay: the step used last and those before it are refused.
        #expect(totp.verify(totp.code(forStep: step), at: now, after: step) == nil)
        #expect(totp.verify(totp.code(forStep: step - 1), at: now, after: step) == nil)
        #expect(totp.verify(totp.code(forStep: step + 1), at: now, after: step) == step + 1)
        // Spaces as apps show them are fine; anything that is not six digits is not a code.
        let code = totp.code(forStep: step)
        #expect(totp.verify(String(code.prefix(3)) + " " + String(code.suffix(3)), at: now) == step)
        for typed in ["", "12345", "1234567", "12345a", "١٢٣٤٥٦", String(repeating: "9", count: 10_000)] {
            #expect(totp.verify(typed, at: now) == nil, "\(typed.prefix(12))")
        }
    }

    @Test func provisioningURI() throws {
        let totp = OneTimePassword(secret: Array("12345678901234567890".utf8))
        let uri = totp.provisioningURI(account: "ada@example.org", issuer: "Sepia")
        #expect(uri.hasPrefix("otpauth://totp/Sepia:ada@example.org?"))
        let items = URLComponents(string: uri)?.queryItems ?? []
        #expect(items.first { $0.name == "secret" }?.value == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(items.first { $0.name == "issuer" }?.value == "Sepia")
        #expect(items.first { $0.name == "digits" }?.value == "6")
    }

    /// Base32 against RFC 4648's test vectors (written without padding), and decoding what people type.
    @Test func base32() {
        let vectors = ["": "", "f": "MY", "fo": "MZXQ", "foo": "MZXW6", "foob": "MZXW6YQ", "fooba": "MZXW6YTB", "foobar": "MZXW6YTBOI"]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(Base32.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base32.decode("mzxw 6ytb-oi======") == Array("foobar".utf8))
        #expect(Base32.decode("MZXW1") == nil)
    }

    /// Ten distinct codes of the shown form; each is recognised however it is typed, and nothing else is.
    @Test func recoveryCodes() {
        let codes = RecoveryCodes.generate()
        #expect(codes.count == 10 && Set(codes).count == 10)
        for code in codes {
            #expect(code.count == 11 && code.split(separator: "-").map(\.count) == [5, 5], "\(code)")
            let stored = RecoveryCodes.storedForm(of: code)
            #expect(stored != nil)
            #expect(RecoveryCodes.storedForm(of: code.uppercased().replacingOccurrences(of: "-", with: " ")) == stored)
        }
        #expect(RecoveryCodes.storedForm(of: "0000o-1111l") == RecoveryCodes.storedForm(of: "00000-11111"))
        #expect(RecoveryCodes.storedForm(of: "abcde-fghju") == nil)  // u is not in the alphabet
        #expect(RecoveryCodes.storedForm(of: "abcde-fgh") == nil)
    }

    /// The QR code of a provisioning URI, drawn 8 pixels a module with its quiet zone, is read back by zbar (an
    /// independent decoder); the SVG's path covers exactly its dark modules; a text too long for a QR code has none.
    @Test func qrCodeReadsBack() throws {
        let uri = OneTimePassword(secret: OneTimePassword.newSecret()).provisioningURI(account: "zoë.family", issuer: "Sepia")
        let (width, dark) = try #require(QRCodeImage.modules(uri))
        let scale = 8
        let side = (width + 8) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<side {
            for x in 0..<side {
                let (mx, my) = (x / scale - 4, y / scale - 4)
                if (0..<width).contains(mx), (0..<width).contains(my), dark[my * width + mx] { pixels[y * side + x] = 0 }
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = folder.appendingPathComponent("code.pgm")
        try (Data("P5\n\(side) \(side)\n255\n".utf8) + Data(pixels)).write(to: image)
        #expect(try run("zbarimg", ["--raw", "-q", image.path]) == uri)

        // The path's rectangles, "M x y h w v1 h-w z", put back on a grid: the same modules.
        let svg = try #require(QRCodeImage.svg(uri))
        #expect(svg.hasPrefix("<svg ") && svg.contains("viewBox=\"0 0 \(width + 8) \(width + 8)\""))
        var drawn = [Bool](repeating: false, count: width * width)
        let path = try #require(svg.split(separator: "d=\"").last?.split(separator: "\"").first)
        for command in path.split(separator: "z") {
            let numbers = command.split(whereSeparator: { "Mhv ".contains($0) }).compactMap { Int($0) }
            let (x, y, run) = (numbers[0] - 4, numbers[1] - 4, numbers[2])
            for i in 0..<run { drawn[y * width + x + i] = true }
        }
        #expect(drawn == dark)
        #expect(QRCodeImage.svg(String(repeating: "x", count: 3000)) == nil)
    }

    private func oathtool(_ arguments: [String]) throws -> String { try run("oathtool", arguments) }

    /// The output of one of Debian's tools the tests check against.
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        guard let path = ["/usr/bin/\(tool)", "/usr/local/bin/\(tool)"].first(where: FileManager.default.isExecutableFile) else {
            throw TwoFactorTestError("\(tool) is not installed: run scripts/setup")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TwoFactorTestError("\(tool) \(arguments) failed") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

private struct TwoFactorTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
