/// What an XMP packet may hold for Sepia to parse it: checked by a pass of expat that keeps nothing, before
/// Exempi sees the packet, so that no packet makes Exempi's parse slow or deep.
///
/// Exempi (the XMP Toolkit) adds each member of a node of its tree (a property, an attribute, a structure's
/// field) after looking for its name among those already there: a node with n members costs about n² steps, and
/// 100 000 attributes on one element took minutes while every other XMP read in the process waited. The
/// defaults are far above what digiKam, Lightroom (with its history) and darktable (with its history stack)
/// write — their largest node has some hundreds of members — and keep the slowest packet they let through to
/// a few hundredths of a second of Exempi's time (BENCHMARKS.md, "XMP").
public struct XMPLimits: Sendable, Hashable {
    /// The largest packet read, in bytes: 4 MiB. Sidecars are a few kilobytes (a darktable history with many
    /// modules some hundreds), and a packet embedded in a JPEG is at most 64 KiB (extended XMP aside).
    public var maximumBytes = 4 << 20
    /// The deepest element nesting: 100. Lightroom's masks nest about 20 deep; Exempi builds its tree
    /// recursively, and some thousands of levels overflow a thread's stack.
    public var maximumDepth = 100
    /// The most namespace declarations: 200. The XMP Toolkit registers every namespace it meets for the life of
    /// the process.
    public var maximumNamespaces = 200
    /// The most members one node may have: 2 000. A node's members are an element's attributes and child
    /// elements other than array items (`rdf:li`); the `rdf:Description` elements directly under `rdf:RDF` add
    /// theirs to one node, as Exempi merges them. Lightroom's top node, the largest in real sidecars, has some
    /// 250 (every Camera Raw setting there is).
    public var maximumMembers = 2_000
    /// The most elements and attributes in all: 100 000 (a darktable history of 2 000 steps has 22 000).
    public var maximumNodes = 100_000
    /// The most work the packet's nodes may ask of Exempi, counted as the squares of their member counts added
    /// up: 10 000 000 (Lightroom's sidecars about 100 000; a packet at this limit takes Exempi some hundredths
    /// of a second).
    public var maximumCost = 10_000_000

    /// The limits above.
    public init() {}

    /// The limits Sepia reads every packet with.
    public static let `default` = XMPLimits()
}
