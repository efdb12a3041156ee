#if canImport(Glibc)
import Glibc
#endif

/// Hands the memory a large decode freed back to the system.
///
/// glibc keeps what `free` returns in its arenas for later allocations, and raises its threshold for mapping
/// large blocks as they are freed, so after one large decode a long-running process (the server, a batch
/// command) stays near its peak resident memory while it does nothing. `malloc_trim` returns the arenas' free
/// pages. It walks every arena, so a render calls it only when it has finished with a source of at least
/// ``minimumSourcePixels`` pixels, once its decoder and buffers are released. Elsewhere than glibc it does
/// nothing.
enum FreedMemory {
    /// The decoded size, in pixels, of a source after whose render freed memory is returned: 16 MP, a 128 MB
    /// frame at the widest working pixel.
    static let minimumSourcePixels = 16_000_000

    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        #if canImport(Glibc)
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
        #else
        return nil
        #endif
    }()

    /// Returns the free pages of the allocator's arenas to the system; false where that cannot be done.
    @discardableResult
    static func returnToSystem() -> Bool {
        guard let trim else { return false }
        _ = trim(0)
        return true
    }
}
