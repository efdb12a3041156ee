/// How a video track's samples lie in its file and how long they last: read from the sample table
/// (``MovieSampleIndex/layout(fileSize:)``) or from the index FFmpeg's demuxer builds of it
/// (``MediaInput/sampleLayout(ofStream:)``), for ``VideoPlausibility`` to judge.
struct SampleLayout: Sendable, Hashable {
    /// The samples the table places.
    var samples: Int
    /// Those whose bytes all lie within the file (a truncated file's last ones do not).
    var inFile: Int
    /// Those whose bytes overlap another sample's: a real file stores each sample once.
    var shared: Int
    /// The time the samples span, in seconds, when the table says.
    var duration: Double?
}
