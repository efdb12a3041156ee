import CDynamicLibrary
import Foundation
import Testing

/// The loader the C targets load their libraries with on first use (`sepia_dl.h`): what it reports when a
/// library or a function is missing, that a loader is tried once, and that threads loading at once agree.
@Suite struct DynamicLibraryTests {
    /// A loader over `sonames` that finds `functions` (library index, name), kept at a stable address.
    final class Loader: @unchecked Sendable {
        let loader = UnsafeMutablePointer<sepia_dl_loader>.allocate(capacity: 1)
        let libraries: UnsafeMutablePointer<sepia_dl_library>
        let symbols: UnsafeMutablePointer<sepia_dl_symbol>
        let pointers: UnsafeMutablePointer<UnsafeMutableRawPointer?>
        private var strings: [UnsafeMutablePointer<CChar>] = []
        let functionCount: Int

        init(
            _ sonames: [(soname: String, name: String)], functions: [(library: Int, name: String)], prerequisite: Loader? = nil,
            initialize: (@convention(c) (UnsafeMutablePointer<CChar>?, Int) -> Int32)? = nil
        ) {
            libraries = .allocate(capacity: max(1, sonames.count))
            symbols = .allocate(capacity: max(1, functions.count))
            pointers = .allocate(capacity: max(1, functions.count))
            pointers.initialize(repeating: nil, count: max(1, functions.count))
            functionCount = functions.count
            for (index, library) in sonames.enumerated() {
                (libraries + index).initialize(to: sepia_dl_library(soname: string(library.soname), name: string(library.name), handle: nil))
            }
            for (index, function) in functions.enumerated() {
                (symbols + index).initialize(
                    to: sepia_dl_symbol(library: UnsafePointer(libraries + function.library), name: string(function.name), pointer: pointers + index))
            }
            loader.initialize(to: sepia_dl_loader())
            loader.pointee.component = UnsafePointer(string("SepiaCodecsTests"))
            loader.pointee.description = UnsafePointer(string("the test's libraries"))
            loader.pointee.packages = UnsafePointer(string("nothing"))
            loader.pointee.prerequisite = prerequisite?.loader
            loader.pointee.libraries = libraries
            loader.pointee.library_count = sonames.count
            loader.pointee.symbols = UnsafePointer(symbols)
            loader.pointee.symbol_count = functions.count
            loader.pointee.initialize = initialize
            pthread_mutex_init(&loader.pointee.lock, nil)
        }

        private func string(_ text: String) -> UnsafeMutablePointer<CChar> {
            let copy = strdup(text)!
            strings.append(copy)
            return copy
        }

        /// sepia_dl_load's answer and its reason.
        func load() -> (loaded: Bool, reason: String) {
            var reason = [CChar](repeating: 0, count: 600)
            let loaded = sepia_dl_load(loader, &reason, reason.count) == 1
            return (loaded, String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }

        deinit {
            pthread_mutex_destroy(&loader.pointee.lock)
            loader.deallocate()
            libraries.deallocate()
            symbols.deallocate()
            pointers.deallocate()
            strings.forEach { free($0) }
        }
    }

    @Test("a missing library is reported with dlopen's reason, and not tried again")
    func missingLibrary() {
        let loader = Loader([("libsepia-absent.so.7", "libsepia-absent")], functions: [(0, "sepia_absent")])
        let first = loader.load()
        #expect(!first.loaded)
        #expect(first.reason.contains("libsepia-absent.so.7"), "\(first.reason)")
        #expect(first.reason.contains("cannot open shared object file"), "\(first.reason)")
        #expect(loader.loader.pointee.attempted == 1)
        let second = loader.load()
        #expect(!second.loaded && second.reason == first.reason)
    }

    @Test("a library without one of the functions is reported with the library's name and the function's")
    func missingFunction() {
        let loader = Loader([("libz.so.1", "zlib")], functions: [(0, "zlibVersion"), (0, "sepia_not_in_zlib")])
        let result = loader.load()
        #expect(!result.loaded)
        #expect(result.reason == "zlib has no sepia_not_in_zlib")
    }

    @Test("the functions are found in their library, and work")
    func found() throws {
        let loader = Loader([("libz.so.1", "zlib")], functions: [(0, "zlibVersion"), (0, "adler32")])
        let result = loader.load()
        #expect(result.loaded, "\(result.reason)")
        #expect(result.reason.isEmpty)
        let version = unsafeBitCast(try #require(loader.pointers[0]), to: (@convention(c) () -> UnsafePointer<CChar>).self)
        #expect(String(cString: version()).hasPrefix("1."))
        let adler32 = unsafeBitCast(try #require(loader.pointers[1]), to: (@convention(c) (UInt, UnsafePointer<UInt8>?, UInt32) -> UInt).self)
        // Adler-32 of "Wikipedia", the worked example of its article.
        let bytes = Array("Wikipedia".utf8)
        #expect(adler32(1, bytes, UInt32(bytes.count)) == 0x11E6_0398)
    }

    @Test("a loader finds only the functions of its own libraries in a table it shares with another loader")
    func sharedTable() {
        let loader = Loader(
            [("libz.so.1", "zlib"), ("libsepia-absent.so.7", "libsepia-absent")], functions: [(0, "zlibVersion"), (1, "sepia_absent")])
        loader.loader.pointee.library_count = 1
        let result = loader.load()
        #expect(result.loaded, "\(result.reason)")
        #expect(loader.pointers[0] != nil)
        #expect(loader.pointers[1] == nil)
    }

    @Test("a loader whose prerequisite failed fails with the prerequisite's reason, and finds no function")
    func prerequisite() {
        let missing = Loader([("libsepia-absent.so.7", "libsepia-absent")], functions: [])
        let dependent = Loader([("libz.so.1", "zlib")], functions: [(0, "zlibVersion")], prerequisite: missing)
        let result = dependent.load()
        #expect(!result.loaded)
        #expect(result.reason.contains("libsepia-absent.so.7"), "\(result.reason)")
        #expect(dependent.pointers[0] == nil)
    }

    @Test("an initialisation that fails fails the load with its reason")
    func initializationFails() {
        let loader = Loader([("libz.so.1", "zlib")], functions: [(0, "zlibVersion")]) { error, size in
            _ = "zlib refused to start".withCString { strncpy(error!, $0, size - 1) }
            return 0
        }
        let result = loader.load()
        #expect(!result.loaded)
        #expect(result.reason == "zlib refused to start")
    }

    @Test("threads loading at once all see it loaded, and it is opened once")
    func concurrent() async {
        let loader = Loader([("libz.so.1", "zlib")], functions: [(0, "zlibVersion"), (0, "crc32")])
        let answers = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask { loader.load().loaded }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(answers == Array(repeating: true, count: 16))
        #expect(loader.loader.pointee.attempted == 1)
    }
}
