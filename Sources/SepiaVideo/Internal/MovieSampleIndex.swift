import Foundation

/// Where one track's samples are in an MP4 or MOV file and when each is shown, from its sample tables (`stts`,
/// `ctts`, `stss`, `stsc`, `stsz`, `stco`/`co64`) and its edit list: what finding and reading one keyframe
/// needs, without a demuxer.
///
/// A poster is one keyframe, so ``FrameGrabber`` reads it from here and decodes it with libavcodec alone,
/// never loading libavformat (about 40 more shared objects) or reading the tables a second time.
///
/// Built only when the tables are all present and agree with one another; nil otherwise, and FFmpeg's demuxer
/// reads the file. Every count is bounded by the bytes of the table that declares it, and those by the `moov`
/// box read (``MovieProbe/maximumMovieBoxBytes``).
struct MovieSampleIndex: Sendable {
    /// One sample: where its bytes are and when it is shown.
    struct Sample: Equatable {
        /// Its number, from 0.
        var number: Int
        /// Its first byte in the file and its size.
        var offset: Int
        var size: Int
        /// Its presentation time in seconds (the edit list applied), and in the media's timescale.
        var time: Double
        var timestamp: Int64
    }

    /// A run of `count` items with the same value, as the tables store them.
    private struct Run<Value: Sendable>: Sendable {
        var count: Int
        var value: Value
    }

    /// The media's timescale: ticks per second.
    let timescale: UInt32
    /// The number of samples.
    let sampleCount: Int
    /// The codec configuration record (`avcC`, `hvcC`, `av1C`), for the decoder.
    let configuration: [UInt8]
    /// Seconds added to a sample's media time to give its presentation time (empty edits, minus the media time
    /// the first real edit starts at).
    private let editOffset: Double
    /// Sizes of each sample, or one size for all.
    private let sizes: [UInt32]
    private let uniformSize: UInt32
    /// Chunk offsets, and runs of chunks with the same number of samples.
    private let chunkOffsets: [UInt64]
    private let chunkRuns: [Run<Int>]
    /// Runs of sample durations (`stts`) and composition offsets (`ctts`).
    private let durations: [Run<UInt32>]
    private let compositionOffsets: [Run<Int32>]
    /// The keyframes' numbers from 0, ascending; nil when every sample is one.
    private let keyframes: [Int]?

    /// The index of `track` in `moov` (the movie's timescale is `movieTimescale`), or nil when a table is
    /// missing, damaged or disagrees with the others.
    init?(moov d: [UInt8], track: MovieHeaders.Track, movieTimescale: UInt32) {
        let t = track.tables
        guard track.timescale > 0, let stsz = t["stsz"], let stts = t["stts"], let stsc = t["stsc"], let chunks = t["stco"] ?? t["co64"]
        else { return nil }
        timescale = track.timescale
        configuration = track.configuration
        let be32 = { (i: Int) in QuickTimeBoxes.be32(d, i) }

        // stsz: version and flags, a size for all (or 0), the count, then the sizes.
        guard stsz.start + 12 <= stsz.end else { return nil }
        uniformSize = be32(stsz.start + 4)
        sampleCount = Int(be32(stsz.start + 8))
        guard sampleCount > 0 else { return nil }
        if uniformSize == 0 {
            guard sampleCount <= (stsz.end - stsz.start - 12) / 4 else { return nil }
            sizes = (0..<sampleCount).map { be32(stsz.start + 12 + $0 * 4) }
        } else {
            sizes = []
        }

        // stco (32-bit) or co64 (64-bit) chunk offsets.
        let wide = t["stco"] == nil
        guard chunks.start + 8 <= chunks.end else { return nil }
        let chunkCount = Int(be32(chunks.start + 4))
        guard chunkCount > 0, chunkCount <= (chunks.end - chunks.start - 8) / (wide ? 8 : 4) else { return nil }
        chunkOffsets = (0..<chunkCount).map { wide ? QuickTimeBoxes.be64(d, chunks.start + 8 + $0 * 8) : UInt64(be32(chunks.start + 8 + $0 * 4)) }

        // stsc: first chunk (from 1) and samples per chunk of each run; the first run starts at chunk 1, first
        // chunks ascend. Stored as runs of chunks.
        guard stsc.start + 8 <= stsc.end else { return nil }
        let stscCount = Int(be32(stsc.start + 4))
        guard stscCount > 0, stscCount <= (stsc.end - stsc.start - 8) / 12 else { return nil }
        var runs: [Run<Int>] = []
        runs.reserveCapacity(stscCount)
        for e in 0..<stscCount {
            let first = Int(be32(stsc.start + 8 + e * 12))
            let perChunk = Int(be32(stsc.start + 12 + e * 12))
            let next = e + 1 < stscCount ? Int(be32(stsc.start + 20 + e * 12)) : chunkCount + 1
            guard first >= 1, perChunk > 0, e > 0 || first == 1 else { return nil }
            let end = min(next, chunkCount + 1)
            guard end >= first else { return nil }
            if end > first { runs.append(Run(count: end - first, value: perChunk)) }
        }
        chunkRuns = runs

        // stts: sample count and duration of each run.
        guard stts.start + 8 <= stts.end else { return nil }
        let sttsCount = Int(be32(stts.start + 4))
        guard sttsCount > 0, sttsCount <= (stts.end - stts.start - 8) / 8 else { return nil }
        durations = (0..<sttsCount).map { Run(count: Int(be32(stts.start + 8 + $0 * 8)), value: be32(stts.start + 12 + $0 * 8)) }

        // ctts: sample count and composition offset of each run (signed in version 1, and in practice in 0).
        if let ctts = t["ctts"] {
            guard ctts.start + 8 <= ctts.end else { return nil }
            let count = Int(be32(ctts.start + 4))
            guard count <= (ctts.end - ctts.start - 8) / 8 else { return nil }
            compositionOffsets = (0..<count).map {
                Run(count: Int(be32(ctts.start + 8 + $0 * 8)), value: Int32(bitPattern: be32(ctts.start + 12 + $0 * 8)))
            }
        } else {
            compositionOffsets = []
        }

        // stss: keyframe numbers from 1, ascending; those past the last sample are ignored.
        if let stss = t["stss"] {
            guard stss.start + 8 <= stss.end else { return nil }
            let count = Int(be32(stss.start + 4))
            guard count <= (stss.end - stss.start - 8) / 4 else { return nil }
            var numbers: [Int] = []
            numbers.reserveCapacity(count)
            for e in 0..<count {
                let number = Int(be32(stss.start + 8 + e * 4)) - 1
                guard number >= 0, number < sampleCount else { continue }
                guard number > (numbers.last ?? -1) else { return nil }
                numbers.append(number)
            }
            guard !numbers.isEmpty else { return nil }
            keyframes = numbers
        } else {
            keyframes = nil
        }

        if let elst = t["elst"] {
            guard movieTimescale > 0,
                let offset = QuickTimeBoxes.editOffset(d, elst, movieScale: movieTimescale, mediaScale: track.timescale), offset.isFinite
            else { return nil }
            editOffset = offset
        } else {
            editOffset = 0
        }
    }

    /// The keyframe shown nearest `seconds` (of two as near, the earlier), or nil when none can be located.
    func keyframe(near seconds: Double) -> Sample? {
        var best: (number: Int, timestamp: Int64, distance: Double)?
        var decodeTime: Int64 = 0
        var number = 0
        var durationRun = 0, durationLeft = durations.first?.count ?? 0
        var offsetRun = 0, offsetLeft = compositionOffsets.first?.count ?? 0
        var keyframeAt = 0
        // One pass over the samples up to the last keyframe, keeping the decode time and composition offset.
        let last = keyframes?.last ?? (sampleCount - 1)
        while number <= last {
            while durationLeft == 0 && durationRun + 1 < durations.count {
                durationRun += 1
                durationLeft = durations[durationRun].count
            }
            while offsetLeft == 0 && offsetRun + 1 < compositionOffsets.count {
                offsetRun += 1
                offsetLeft = compositionOffsets[offsetRun].count
            }
            let isKeyframe: Bool
            if let keyframes {
                isKeyframe = keyframeAt < keyframes.count && keyframes[keyframeAt] == number
                if isKeyframe { keyframeAt += 1 }
            } else {
                isKeyframe = true
            }
            if isKeyframe {
                let composition = offsetLeft > 0 ? Int64(compositionOffsets[offsetRun].value) : 0
                let timestamp = decodeTime + composition
                let distance = abs(time(of: timestamp) - seconds)
                if distance < (best?.distance ?? .infinity) {
                    best = (number, timestamp, distance)
                } else if best != nil && time(of: timestamp) > seconds {
                    break  // keyframes are shown in order: the rest are farther
                }
            }
            let duration = durationLeft > 0 ? Int64(durations[durationRun].value) : 0
            decodeTime += duration
            if durationLeft > 0 { durationLeft -= 1 }
            if offsetLeft > 0 { offsetLeft -= 1 }
            number += 1
        }
        guard let best, var sample = sample(best.number) else { return nil }
        sample.timestamp = best.timestamp
        sample.time = max(0, time(of: best.timestamp))
        return sample
    }

    /// Where sample `number` is (its times are left 0), or nil when the tables do not place it.
    func sample(_ number: Int) -> Sample? {
        guard number >= 0, number < sampleCount else { return nil }
        var chunk = 0
        var before = 0
        for run in chunkRuns {
            let (samples, overflow) = run.count.multipliedReportingOverflow(by: run.value)
            if overflow || number < before + samples {
                let within = number - before
                chunk += within / run.value
                let first = number - within % run.value
                guard chunk < chunkOffsets.count else { return nil }
                var offset = UInt64(chunkOffsets[chunk])
                if uniformSize != 0 {
                    offset += UInt64(uniformSize) * UInt64(number - first)
                } else {
                    for n in first..<number { offset += UInt64(sizes[n]) }
                }
                let size = uniformSize != 0 ? Int(uniformSize) : Int(sizes[number])
                guard offset <= UInt64(Int.max - size) else { return nil }
                return Sample(number: number, offset: Int(offset), size: size, time: 0, timestamp: 0)
            }
            before += samples
            chunk += run.count
        }
        return nil
    }

    /// How the samples lie in a file of `fileSize` bytes and how long they last (``SampleLayout``), chunk by chunk:
    /// the samples of a chunk follow one another, so two samples share bytes only when their chunks do. One pass
    /// when the chunks are in file order, as muxers write them; otherwise a second one sorts them by offset.
    func layout(fileSize: Int) -> SampleLayout {
        let size = UInt64(max(0, fileSize))
        var placed = 0, inFile = 0
        var end: UInt64 = 0
        var ascending = true
        forEachChunk { start, bytes, first, count in
            placed += count
            if uniformSize != 0 {
                inFile += start >= size ? 0 : min(count, Int((size - start) / UInt64(uniformSize)))
            } else {
                var within: UInt64 = 0
                for n in first..<(first + count) {
                    within += UInt64(sizes[n])
                    if start <= size && within <= size - start { inFile += 1 }
                }
            }
            guard bytes > 0 else { return }
            if start < end { ascending = false }
            end = max(end, start.addingReportingOverflow(bytes).overflow ? .max : start + bytes)
        }
        var shared = 0
        if !ascending {
            var chunks: [(start: UInt64, end: UInt64, samples: Int)] = []
            forEachChunk { start, bytes, _, count in
                if bytes > 0 { chunks.append((start, start.addingReportingOverflow(bytes).overflow ? .max : start + bytes, count)) }
            }
            chunks.sort { $0.start < $1.start }
            end = 0
            for chunk in chunks {
                if chunk.start < end { shared += chunk.samples }
                end = max(end, chunk.end)
            }
        }
        let ticks = durations.reduce(0.0) { $0 + Double($1.count) * Double($1.value) }
        return SampleLayout(samples: placed, inFile: inFile, shared: shared, duration: ticks / Double(timescale))
    }

    /// Calls `body` with each chunk's offset, byte count, first sample and sample count, in table order.
    private func forEachChunk(_ body: (_ start: UInt64, _ bytes: UInt64, _ first: Int, _ count: Int) -> Void) {
        var placed = 0
        var chunk = 0
        for run in chunkRuns {
            for _ in 0..<run.count {
                guard chunk < chunkOffsets.count, placed < sampleCount else { return }
                let count = min(run.value, sampleCount - placed)
                var bytes: UInt64 = 0
                if uniformSize != 0 {
                    bytes = UInt64(uniformSize) * UInt64(count)
                } else {
                    for n in placed..<(placed + count) { bytes += UInt64(sizes[n]) }
                }
                body(chunkOffsets[chunk], bytes, placed, count)
                placed += count
                chunk += 1
            }
        }
    }

    /// A media timestamp in seconds of presentation.
    private func time(of timestamp: Int64) -> Double {
        Double(timestamp) / Double(timescale) + editOffset
    }
}
