/// How urgently a render is wanted: a render context's workers serve interactive renders first, so that work
/// nobody waits for (a server's thumbnails after an import, a cache being filled) makes way for the render a
/// person is looking at.
///
/// A render takes the priority of the task that asks for it, ``current``; tasks are interactive unless they
/// say otherwise, and child tasks inherit what their parent said:
///
/// ```swift
/// try await RenderPriority.$current.withValue(.background) {
///     try await library.prepareStandardRenditions(ofAsset: id)
/// }
/// ```
///
/// A worker on a background render leaves it after its current tile when an interactive one is queued, and
/// comes back to it once none is. Renders of one priority share the workers as they arrive.
public enum RenderPriority: Int, Sendable, Comparable {
    /// Work no one is waiting for.
    case background = 0
    /// A render someone is waiting for: the default.
    case interactive = 1

    /// The priority of renders asked for by the current task.
    @TaskLocal public static var current: RenderPriority = .interactive

    /// Whether `lhs` is served after `rhs`.
    public static func < (lhs: RenderPriority, rhs: RenderPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
