import Prometheus

extension ServerMetrics {
    private static var rendersInFlight: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "sepia", metricName: "renders_in_flight", unitName: "",
            helpText: "Renders running on this server: previews, saves, strips and renditions that were not cached.")
    }
    private static var rendersQueued: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "sepia", metricName: "renders_queued", unitName: "", helpText: "Renders waiting for their turn.")
    }
    private static var rendersRefused: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "sepia", metricName: "renders_refused", unitName: "total",
            helpText: "Renders refused, by reason: queue_full and queue_timeout (503), cost (422).")
    }
    private static var rendersCancelled: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "sepia", metricName: "renders_cancelled", unitName: "total",
            helpText: "Renders stopped because their client went away before the answer.")
    }

    /// Sets the renders in flight and waiting.
    func recordRenders(inFlight: Int, queued: Int) {
        registry.makeGauge(descriptor: Self.rendersInFlight).set(Double(inFlight))
        registry.makeGauge(descriptor: Self.rendersQueued).set(Double(queued))
    }

    /// Counts a render refused (`queue_full`, `queue_timeout`, `cost`).
    func countRenderRefusal(_ reason: String) {
        registry.makeCounter(descriptor: Self.rendersRefused, labels: [("reason", reason)]).increment()
    }

    /// Counts a render stopped because its client went away.
    func countRenderCancellation() {
        registry.makeCounter(descriptor: Self.rendersCancelled).increment()
    }
}
