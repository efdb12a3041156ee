internal import CExempi
import Synchronization

/// XMP namespaces Sepia reads and writes, and the prefixes used in messages.
enum Namespace {
    static let xmp = "http://ns.adobe.com/xap/1.0/"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    static let iptcCore = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
    static let crs = "http://ns.adobe.com/camera-raw-settings/1.0/"
    static let lightroom = "http://ns.adobe.com/lightroom/1.0/"
    static let digiKam = "http://www.digikam.org/ns/1.0/"
    /// Sepia's own namespace; registered with the prefix `sepia` (CExempi's loader).
    static let sepia = "http://ns.sepia.org/xmp/1.0/"
}

/// One Exempi document (`XmpPtr`), used only while ``ExempiDocument/lock`` is held.
///
/// The XMP Toolkit under Exempi keeps global state (its namespace registry) and reports errors through a
/// per-thread code; every use of it in SepiaXMP goes through ``ExempiDocument/withLock(_:)`` so that calls from
/// several threads never interleave.
final class ExempiDocument {
    private static let lock = Mutex(())

    // Exempi's option bits (xmp.h).
    static let arrayUnordered: UInt32 = 0x200
    static let arrayOrdered: UInt32 = 0x400
    static let compositeMask: UInt32 = 0x1F00
    static let serialReadOnlyPacket: UInt32 = 0x20

    private let pointer: XmpPtr

    /// Runs `body` with Exempi loaded and no other thread inside it.
    static func withLock<R>(_ body: () throws(XMPError) -> R) throws(XMPError) -> R {
        try load()
        return try lock.withLock { _ throws(XMPError) -> R in try body() }
    }

    /// Loads Exempi and expat on first use.
    static func load() throws(XMPError) {
        var reason = [CChar](repeating: 0, count: 600)
        guard sepia_xmp_load(&reason, reason.count) == 1 else {
            let detail = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw XMPError(
                .libraryUnavailable, "XMP needs Exempi 2.6 and expat, which could not be loaded (\(detail)); install Debian's libexempi8 package")
        }
    }

    /// An empty document.
    init() throws(XMPError) {
        guard let pointer = xmp_new_empty() else { throw XMPError(.malformed, "Exempi could not create a document (out of memory)") }
        self.pointer = pointer
    }

    /// Parses `bytes`; the caller has checked them first (``XMPPacket``).
    convenience init(parsing bytes: [UInt8]) throws(XMPError) {
        try self.init()
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmp_parse(pointer, $0.baseAddress, $0.count) }
        }
        guard parsed else {
            throw XMPError(.malformed, "Exempi could not parse the packet (error \(xmp_get_error())): it is XML, but not valid XMP (RDF)")
        }
    }

    deinit { xmp_free(pointer) }

    // MARK: - Reads

    /// A simple property's value, or nil when absent; `isSimple` is false when the property is an array or a
    /// structure.
    func property(_ namespace: String, _ name: String) -> (value: String, isSimple: Bool)? {
        let string = xmp_string_new()
        defer { xmp_string_free(string) }
        var options: UInt32 = 0
        guard xmp_get_property(pointer, namespace, name, string, &options) else { return nil }
        return (Self.text(string), options & Self.compositeMask == 0)
    }

    /// The items of an array property (bag, seq or alt), or nil when it is absent or not an array; the simple
    /// items only.
    func arrayItems(_ namespace: String, _ name: String) -> [String]? {
        guard let found = property(namespace, name), !found.isSimple else { return nil }
        var items: [String] = []
        let string = xmp_string_new()
        defer { xmp_string_free(string) }
        var index: Int32 = 1
        var options: UInt32 = 0
        while xmp_get_array_item(pointer, namespace, name, index, string, &options) {
            if options & Self.compositeMask == 0 { items.append(Self.text(string)) }
            index += 1
        }
        return items
    }

    /// The default-language text of a language alternative (`x-default`, else the first item), or nil.
    func localizedText(_ namespace: String, _ name: String) -> String? {
        let language = xmp_string_new()
        let value = xmp_string_new()
        defer {
            xmp_string_free(language)
            xmp_string_free(value)
        }
        var options: UInt32 = 0
        guard xmp_get_localized_text(pointer, namespace, name, "", "x-default", language, value, &options) else { return nil }
        return Self.text(value)
    }

    private static func text(_ string: XmpStringPtr?) -> String {
        guard let c = xmp_string_cstr(string) else { return "" }
        return String(cString: c)
    }

    // MARK: - Writes

    func delete(_ namespace: String, _ name: String) {
        _ = xmp_delete_property(pointer, namespace, name)
    }

    func set(_ namespace: String, _ name: String, _ value: String) throws(XMPError) {
        guard xmp_set_property(pointer, namespace, name, value, 0) else { throw Self.writeError(name) }
    }

    func setLocalizedText(_ namespace: String, _ name: String, _ value: String) throws(XMPError) {
        guard xmp_set_localized_text(pointer, namespace, name, "", "x-default", value, 0) else { throw Self.writeError(name) }
    }

    func append(_ namespace: String, _ name: String, ordered: Bool, _ value: String) throws(XMPError) {
        guard xmp_append_array_item(pointer, namespace, name, ordered ? Self.arrayOrdered : Self.arrayUnordered, value, 0) else {
            throw Self.writeError(name)
        }
    }

    /// The document as a complete, read-only XMP packet (UTF-8, with its `xpacket` wrapper and no padding).
    func serialize() throws(XMPError) -> [UInt8] {
        let string = xmp_string_new()
        defer { xmp_string_free(string) }
        guard xmp_serialize_and_format(pointer, string, Self.serialReadOnlyPacket, 0, "\n", " ", 0), let c = xmp_string_cstr(string) else {
            throw XMPError(.invalidValue, "Exempi could not serialize the packet (error \(xmp_get_error()))")
        }
        return Array(String(cString: c).utf8)
    }

    private static func writeError(_ name: String) -> XMPError {
        XMPError(.invalidValue, "Exempi refused to set \(name) (error \(xmp_get_error()))")
    }
}
