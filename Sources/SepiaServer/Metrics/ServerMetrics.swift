import Foundation
import Prometheus
import Synchronization

/// The server's metrics, in a registry of its own (not the process-wide metrics system, so that several
/// servers in one test process keep apart), answered by `GET /metrics` in Prometheus' text format.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    /// The metrics every request touches, looked up once per label set (the registry's own look-up builds
    /// the label list and takes its lock each time).
    private struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    private let requestCounters = Mutex<[RequestKey: Counter]>([:])
    private let requestDurations = Mutex<[String: DurationHistogram]>([:])
    private let renditionCounters: [String: Counter]
    private let renditionByteCounter: Counter
    /// Renditions answered on the event loop, before routing.
    private let earlyAnswers: Counter
    /// Counters of early answers, one per event loop, folded into the registry when metrics are read.
    private let earlyShards = Mutex<(shards: [ObjectIdentifier: EarlyAnswerCounters], folded: EarlyAnswerCounters.Totals)>(([:], .init()))

    init() {
        var counters: [String: Counter] = [:]
        for origin in ["memory", "disk", "rendered"] {
            counters[origin] = registry.makeCounter(descriptor: Self.renditions, labels: [("origin", origin)])
        }
        renditionCounters = counters
        renditionByteCounter = registry.makeCounter(descriptor: Self.renditionBytes)
        earlyAnswers = registry.makeCounter(descriptor: Self.early)
    }

    private static let durationBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]
    private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "sepia", metricName: metric, unitName: unit, helpText: help)
    }
    private static var requests: MetricNameDescriptor { name("http_requests", "total", "HTTP requests by route, method and status.") }
    private static var requestDuration: MetricNameDescriptor { name("http_request_duration", "seconds", "HTTP request durations by route.") }
    private static var renderDuration: MetricNameDescriptor {
        name("render_duration", "seconds", "Time spent rendering, by kind: import, rendition, preview, strip, edit, face.")
    }
    private static var renditions: MetricNameDescriptor {
        name("rendition_requests", "total", "Renditions served, by where they came from: memory and disk are cache hits.")
    }
    private static var renditionBytes: MetricNameDescriptor { name("rendition", "bytes_total", "Bytes of renditions served.") }
    private static var uploads: MetricNameDescriptor {
        name("uploads", "total", "Uploads by outcome: created, duplicate, recovered (from Recently Deleted), refused.")
    }
    private static var uploadBytes: MetricNameDescriptor { name("upload", "bytes_total", "Bytes uploaded.") }
    private static var early: MetricNameDescriptor {
        name("rendition_early_answers", "total", "Renditions answered from memory on the connection, before routing (part of the memory origin).")
    }
    private static var earlyMemory: MetricNameDescriptor {
        name("rendition_early_answer_memory", "bytes", "Bytes held by the answers prepared for renditions answered before routing.")
    }
    /// Reads the bytes the early answers hold (set by the server that prepares them).
    private let earlyAnswerMemory = Mutex<(@Sendable () -> Int)?>(nil)
    private static var memoryCache: MetricNameDescriptor {
        name("rendition_cache_memory", "bytes", "Bytes of renditions in the owner's memory cache.")
    }
    private static var jobs: MetricNameDescriptor {
        name(
            "jobs", "total",
            "Deferred jobs this server ran, by kind and outcome: done, retried, failed (for good), released (given back on shutdown), "
                + "cancelled (their video deleted, or the job withdrawn).")
    }
    private static var jobsWaiting: MetricNameDescriptor {
        name("jobs_waiting", "", "Jobs in the deployment's queue, due or not, taken or not (every server sees the same queue).")
    }
    private static var jobsFailed: MetricNameDescriptor {
        name("jobs_failed", "", "Jobs in the deployment's queue that failed five times and are no longer taken.")
    }
    private static var encodeProgress: MetricNameDescriptor {
        name(
            "video_encode_progress", "ratio",
            "How far the playable version this server is encoding in each job lane (quick, long) has come (0 to 1), of the video's real duration.")
    }
    private static var encodes: MetricNameDescriptor { name("video_encodes_running", "", "Playable versions this server is encoding.") }
    /// The encodes running now, by job: their lane and how far they have come.
    private let encoding = Mutex<[Int64: (lane: String, fraction: Double)]>([:])
    private static var jobDuration: MetricNameDescriptor { name("job_duration", "seconds", "Time spent on deferred jobs, by kind.") }
    private static var diskCache: MetricNameDescriptor { name("rendition_cache_disk", "bytes", "Bytes of renditions in the owner's disk cache.") }

    /// Counts a request and its duration.
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        countRequest(route: route, method: method, status: status)
        let histogram = requestDurations.withLock { histograms in
            if let histogram = histograms[route] { return histogram }
            let histogram = registry.makeDurationHistogram(
                descriptor: Self.requestDuration, labels: [("route", route)], buckets: Self.durationBuckets)
            histograms[route] = histogram
            return histogram
        }
        histogram.record(duration)
    }

    /// Counts a request without its duration (answers given before routing take microseconds, and are not
    /// in the duration histogram).
    func countRequest(route: String, method: String, status: Int) {
        requestCounter(route: route, method: method, status: status).increment()
    }

    private func requestCounter(route: String, method: String, status: Int) -> Counter {
        let key = RequestKey(route: route, method: method, status: status)
        return requestCounters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = registry.makeCounter(
                descriptor: Self.requests, labels: [("route", route), ("method", method), ("status", String(status))])
            counters[key] = counter
            return counter
        }
    }

    /// Records a render (`import`, `rendition`, `preview`, `strip`, `edit`, `face`) and its duration.
    func recordRender(_ kind: String, duration: Duration) {
        registry.makeDurationHistogram(descriptor: Self.renderDuration, labels: [("kind", kind)], buckets: Self.durationBuckets).record(duration)
    }

    /// Records where a rendition came from (`memory`, `disk`, `rendered`) and its bytes.
    func recordRendition(origin: String, bytes: Int) {
        (renditionCounters[origin] ?? registry.makeCounter(descriptor: Self.renditions, labels: [("origin", origin)])).increment()
        renditionByteCounter.increment(by: Int64(bytes))
    }

    /// The counters for answers given before routing on connections of `eventLoop`. Each event loop has
    /// its own, so that threads answering thousands of requests a second do not contend for the same
    /// counters; ``exposition()`` adds them to the registry's.
    func earlyAnswerCounters(for eventLoop: AnyObject) -> EarlyAnswerCounters {
        earlyShards.withLock { state in
            if let shard = state.shards[ObjectIdentifier(eventLoop)] { return shard }
            let shard = EarlyAnswerCounters()
            state.shards[ObjectIdentifier(eventLoop)] = shard
            return shard
        }
    }

    /// Adds what the early answers counted since the last time to the registry's counters.
    private func foldEarlyAnswers() {
        earlyShards.withLock { state in
            var totals = EarlyAnswerCounters.Totals()
            for shard in state.shards.values { totals.add(shard.totals) }
            let ok = totals.ok - state.folded.ok
            let notModified = totals.notModified - state.folded.notModified
            let bytes = totals.bytes - state.folded.bytes
            state.folded = totals
            guard ok + notModified > 0 else { return }
            earlyAnswers.increment(by: Int64(ok + notModified))
            renditionCounters["memory"]?.increment(by: Int64(ok + notModified))
            renditionByteCounter.increment(by: Int64(bytes))
            if ok > 0 { requestCounter(route: CachedRenditionResolver.route, method: "GET", status: 200).increment(by: Int64(ok)) }
            if notModified > 0 {
                requestCounter(route: CachedRenditionResolver.route, method: "GET", status: 304).increment(by: Int64(notModified))
            }
        }
    }

    /// Records an upload's outcome (`created`, `duplicate`, `recovered`, `refused`) and its bytes.
    func recordUpload(outcome: String, bytes: Int) {
        registry.makeCounter(descriptor: Self.uploads, labels: [("outcome", outcome)]).increment()
        registry.makeCounter(descriptor: Self.uploadBytes).increment(by: Int64(bytes))
    }

    /// Records a job this server ran (`done`, `retried`, `failed`) and its duration.
    func recordJob(_ kind: String, outcome: String, duration: Duration) {
        registry.makeCounter(descriptor: Self.jobs, labels: [("kind", kind), ("outcome", outcome)]).increment()
        registry.makeDurationHistogram(descriptor: Self.jobDuration, labels: [("kind", kind)], buckets: Self.durationBuckets).record(duration)
    }

    /// Sets how far the encode of `job`, in `lane`, has come, or, with nil, that it has ended. A lane's gauge
    /// shows the least advanced of its encodes (0 when none runs).
    func recordEncodeProgress(_ fraction: Double?, lane: String, job: Int64) {
        let (running, least) = encoding.withLock { encodes in
            encodes[job] = fraction.map { (lane, $0) }
            return (encodes.count, encodes.values.filter { $0.lane == lane }.map(\.fraction).min())
        }
        registry.makeGauge(descriptor: Self.encodes).set(Double(running))
        registry.makeGauge(descriptor: Self.encodeProgress, labels: [("lane", lane)]).set(least ?? 0)
    }

    /// Sets the job queue's lengths (read when metrics are scraped): jobs waiting, and jobs that failed for good.
    func recordJobQueue(waiting: Int, failed: Int) {
        registry.makeGauge(descriptor: Self.jobsWaiting).set(Double(waiting))
        registry.makeGauge(descriptor: Self.jobsFailed).set(Double(failed))
    }

    /// Sets the rendition caches' sizes (read when metrics are scraped).
    func recordCacheSizes(memoryBytes: Int, diskBytes: Int?) {
        registry.makeGauge(descriptor: Self.memoryCache).set(Double(memoryBytes))
        if let diskBytes { registry.makeGauge(descriptor: Self.diskCache).set(Double(diskBytes)) }
    }

    /// Names what reports the bytes held by the answers prepared for renditions answered before routing.
    func measureEarlyAnswerMemory(_ bytes: @escaping @Sendable () -> Int) {
        earlyAnswerMemory.withLock { $0 = bytes }
    }

    /// The metrics in Prometheus' text format.
    func exposition() -> String {
        foldEarlyAnswers()
        if let bytes = earlyAnswerMemory.withLock({ $0 }) {
            registry.makeGauge(descriptor: Self.earlyMemory).set(Double(bytes()))
        }
        return registry.emitToString()
    }
}

/// Counts of the answers given before routing on one event loop's connections: written by that loop's thread
/// alone, read when metrics are scraped.
final class EarlyAnswerCounters: Sendable {
    struct Totals {
        var ok = 0
        var notModified = 0
        var bytes = 0

        mutating func add(_ other: Totals) {
            ok += other.ok
            notModified += other.notModified
            bytes += other.bytes
        }
    }

    private let ok = Atomic<Int>(0)
    private let notModified = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)

    /// Counts an answer: `200` with a body of `bodyBytes`, or `304`.
    func count(notModified isNotModified: Bool, bodyBytes: Int) {
        if isNotModified {
            notModified.add(1, ordering: .relaxed)
        } else {
            ok.add(1, ordering: .relaxed)
            bytes.add(bodyBytes, ordering: .relaxed)
        }
    }

    var totals: Totals {
        Totals(ok: ok.load(ordering: .relaxed), notModified: notModified.load(ordering: .relaxed), bytes: bytes.load(ordering: .relaxed))
    }
}
