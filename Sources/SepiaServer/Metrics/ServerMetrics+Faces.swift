import Prometheus
import SepiaLibrary

extension ServerMetrics {
    private static func descriptor(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "sepia", metricName: metric, unitName: unit, helpText: help)
    }
    private static var facesIndexed: MetricNameDescriptor {
        descriptor(
            "face_index_assets", "total",
            "Assets this server searched for faces, by outcome: indexed, failed (left for the next pass), modelsMissing (the models "
                + "or the engine missing; nothing can be indexed).")
    }
    private static var facesFound: MetricNameDescriptor {
        descriptor("faces_found", "total", "Faces this server found in the assets it indexed.")
    }
    private static var assetsToIndex: MetricNameDescriptor {
        descriptor("face_index_assets_waiting", "", "Assets of the owner's library whose faces are still to be found.")
    }
    private static var faces: MetricNameDescriptor {
        descriptor("faces", "", "Faces the owner's library keeps.")
    }
    private static var unassignedFaces: MetricNameDescriptor {
        descriptor("faces_unassigned", "", "Faces of the owner's library that belong to no one yet.")
    }
    private static var people: MetricNameDescriptor {
        descriptor("people", "", "People of the owner's library (listed in People, hidden ones too).")
    }
    private static var modelsMissing: MetricNameDescriptor {
        descriptor("face_models_missing", "", "1 when this server cannot find faces: the face models missing or damaged, or the engine missing.")
    }

    /// Counts an asset this server searched for faces (`indexed`, `failed`, `modelsMissing`) and the faces found.
    func recordFaceIndexing(outcome: String, faces: Int) {
        registry.makeCounter(descriptor: Self.facesIndexed, labels: [("outcome", outcome)]).increment()
        if faces > 0 { registry.makeCounter(descriptor: Self.facesFound).increment(by: Int64(faces)) }
    }

    /// Sets where the owner's library's face indexing is (read when metrics are scraped), and whether this server
    /// can find faces.
    func recordFaceIndexStatus(_ status: FaceIndexStatus?, modelsMissing: Bool) {
        if let status {
            registry.makeGauge(descriptor: Self.assetsToIndex).set(Double(status.assetsToIndex))
            registry.makeGauge(descriptor: Self.faces).set(Double(status.faces))
            registry.makeGauge(descriptor: Self.unassignedFaces).set(Double(status.unassignedFaces))
            registry.makeGauge(descriptor: Self.people).set(Double(status.people))
        }
        registry.makeGauge(descriptor: Self.modelsMissing).set(modelsMissing ? 1.0 : 0.0)
    }
}
