import Foundation
import SepiaCodecs
import SepiaImage
import Testing

@testable import SepiaVideo

@Suite("QuickTime metadata, Live Photos and the poster's time")
struct VideoMetadataTests {
    @Test("an iPhone movie's creation date (with its offset), camera, software, ISO 6709 location and content identifier")
    func quickTimeKeys() throws {
        // Given a movie with the keys an iPhone writes
        let info = try VideoProbe.probe(path: try Clips.quickTimeMetadata())
        let m = info.metadata
        // Then each is read, the creation date keeping its offset from UTC
        let date = try #require(m.captureDate)
        #expect(date.description == "2023-06-14T18:42:31+02:00")
        #expect(date.origin == .quickTime)
        #expect(date.date == ISO8601DateFormatter().date(from: "2023-06-14T16:42:31Z"))
        #expect(m.cameraMake == "Apple")
        #expect(m.cameraModel == "iPhone 15 Pro")
        #expect(m.software == "17.1")
        let location = try #require(m.location)
        #expect(abs(location.latitude - 48.8584) < 1e-9)
        #expect(abs(location.longitude - 2.2945) < 1e-9)
        #expect(location.altitude == 35)
        #expect(m.contentIdentifier == Clips.contentIdentifier)
        #expect(m.isLivePhotoMotion)
        #expect(info.majorBrand == "qt  ")
        // And the image view of the video carries them too
        let video = try VideoSource(path: try Clips.quickTimeMetadata())
        #expect(video.metadata.cameraModel == "iPhone 15 Pro")
        #expect(video.metadata.captureDate?.origin == .quickTime)
        #expect(video.details.contains("Live Photo"))
    }

    @Test("without QuickTime's date, the container's creation time (UTC) is the capture date")
    func containerCreationTime() throws {
        let source = try Clips.h264MP4()
        let path = try Clips.make(
            "created.mp4",
            ["-i", source, "-c", "copy", "-metadata", "creation_time=2021-03-04T05:06:07Z", "-metadata", "location=-33.8568+151.2153/"])
        let m = try VideoProbe.probe(path: path).metadata
        #expect(m.captureDate?.description == "2021-03-04T05:06:07Z")
        #expect(m.captureDate?.origin == .containerCreation)
        #expect(m.location.map { abs($0.latitude + 33.8568) < 1e-9 && abs($0.longitude - 151.2153) < 1e-9 } == true)
        #expect(m.contentIdentifier == nil)
        // A clip written without a time reads none (not 1970 or 1904).
        #expect(try VideoProbe.probe(path: try Clips.vp9WebM()).metadata.captureDate == nil)
    }

    @Test(
        "ISO 6709 in degrees, degrees and minutes, degrees minutes and seconds",
        arguments: [
            ("+48.8584+002.2945/", 48.8584, 2.2945, nil),
            ("+37.3349-122.0090+012.345/", 37.3349, -122.0090, 12.345),
            ("-3351.41+15112.92/", -(33 + 51.41 / 60), 151 + 12.92 / 60, nil),
            ("+402646.2-0795855.8CRSWGS_84/", 40 + 26 / 60.0 + 46.2 / 3600, -(79 + 58 / 60.0 + 55.8 / 3600), nil),
        ] as [(String, Double, Double, Double?)])
    func iso6709(_ text: String, latitude: Double, longitude: Double, altitude: Double?) throws {
        let location = try #require(ContainerMetadata.parseISO6709(text))
        #expect(abs(location.latitude - latitude) < 1e-9)
        #expect(abs(location.longitude - longitude) < 1e-9)
        #expect(location.altitude == altitude)
    }

    @Test("ISO 6709 that is not: nil", arguments: ["", "hello", "+91.0+000.0/", "+10.0/", "48.8+2.29/", "+4860.0+00200.0/"])
    func notISO6709(_ text: String) {
        #expect(ContainerMetadata.parseISO6709(text) == nil)
    }

    @Test("a Live Photo's still-image time (its mebx track) is read and chosen for the poster")
    func stillImageTime() throws {
        // Given a Live Photo's movie: content identifier, keyframes every half second, still image at 1.6 s
        let source = try Clips.make(
            "live-source.mov",
            ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=3"] + [
                "-c:v", "libx264", "-g", "15", "-keyint_min", "15", "-sc_threshold", "0",
            ]
                + Clips.bt709 + ["-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.content.identifier=\(Clips.contentIdentifier)"])
        let path = Clips.folder.appendingPathComponent("live.mov").path
        try LivePhotoMovie.addStillImageTrack(to: source, output: path, at: 1.6)
        // When it is opened
        let video = try VideoSource(path: path)
        // Then the still-image time is read, and the poster is the keyframe nearest it
        let still = try #require(video.info.metadata.stillImageTime)
        #expect(abs(still - 1.6) < 0.01)
        #expect(abs(video.posterTime - 1.6) < 0.01)
        let frame = try video.frame()
        #expect(abs(frame.time - 1.5) < 0.001, "frame at \(frame.time)")
        let reference = try Clips.reference(path, time: frame.time, width: 320, height: 240)
        let difference = PixelDifference(frame.bitmap.bytes, reference)
        #expect(difference.max <= 2, "\(difference)")
        // FFmpeg sees the metadata track as a data stream beside the video.
        #expect(video.info.streamCount == 2)
    }

    @Test("the poster is 1 s into a long video, 10 % into a short one, on the nearest keyframe, never past the end")
    func posterTime() throws {
        // A 12 s clip with a keyframe every second: 1 s.
        let long = try VideoSource(path: try Clips.keyframes())
        #expect(long.posterTime == 1)
        let frame = try long.frame()
        #expect(abs(frame.time - 1) < 0.001)
        // The keyframe nearest 5.4 s is at 5 s; nearest 5.6 s, at 6 s.
        #expect(abs(try long.frame(at: 5.4).time - 5) < 0.001)
        #expect(abs(try long.frame(at: 5.6).time - 6) < 0.001)
        // Past the end: the last keyframe.
        #expect(abs(try long.frame(at: 99).time - 11) < 0.001)
        // A 2 s clip: 0.2 s asked for, its only keyframe (at 0) shown.
        let short = try VideoSource(path: try Clips.h264MP4())
        #expect(abs(short.posterTime - 0.2) < 1e-9)
        #expect(try short.frame().time == 0)
        // Options choose the time.
        let chosen = try VideoSource(path: try Clips.keyframes(), options: VideoOptions(posterTime: 7.1))
        #expect(abs(try chosen.frame().time - 7) < 0.001)
    }
}
