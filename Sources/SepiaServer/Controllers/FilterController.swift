import Hummingbird
import SepiaImage

/// The filters, the catalog and the Adjust panel the editor shows: `/api/v1/filters`, `/filters/catalog`,
/// `/filters/adjustments`.
struct FilterController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .anyone))
            .get(use: list)
            .get("catalog", use: catalog)
            .get("adjustments", use: adjustments)
        return routes
    }

    struct FilterList: ResponseEncodable {
        var filters: [FilterDescriptor]
    }

    struct SliderKey: Encodable {
        var key: String
        var scale: Double
        var minimum: Double?
        var maximum: Double?

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(key, forKey: .key)
            try c.encode(scale, forKey: .scale)
            try c.encode(minimum, forKey: .minimum)
            try c.encode(maximum, forKey: .maximum)
        }

        enum CodingKeys: String, CodingKey { case key, scale, minimum, maximum }
    }

    struct CatalogItem: Encodable {
        var index: Int
        var name: String
        var filter: String
        var parameters: [String: FilterValue]
        var group: String
        var intensity: Double
        var slider: [SliderKey]
    }

    struct Catalog: ResponseEncodable {
        var items: [CatalogItem]
    }

    struct AdjustmentPanel: ResponseEncodable {
        struct Section: Encodable {
            var id: String
            var title: String
            var adjustments: [Adjustment]
        }
        var sections: [Section]
    }

    /// `GET /filters/adjustments`: the Adjust panel's sliders by section, each with the mappings from its
    /// position to a recipe step (``Adjustment``).
    @Sendable func adjustments(_ request: Request, context: AppRequestContext) async throws -> AdjustmentPanel {
        AdjustmentPanel(
            sections: Adjustment.Section.allCases.map { section in
                AdjustmentPanel.Section(id: section.rawValue, title: section.title, adjustments: Adjustment.panel.filter { $0.section == section })
            })
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> FilterList {
        FilterList(filters: FilterRegistry.descriptors)
    }

    @Sendable func catalog(_ request: Request, context: AppRequestContext) async throws -> Catalog {
        Catalog(
            items: services.catalog.enumerated().map { index, entry in
                CatalogItem(
                    index: index, name: entry.item.name, filter: entry.item.filter, parameters: entry.item.parameters, group: entry.group,
                    intensity: entry.intensity, slider: Self.slider(for: entry.item.filter))
            })
    }

    /// Instafilter's slider on a filter: the keys it drives, each value t × scale clamped to the parameter's
    /// range (``FilterRegistry/sliderParameters(for:intensity:)``).
    static func slider(for filter: String) -> [SliderKey] {
        guard let descriptor = FilterRegistry.type(named: filter)?.descriptor else { return [] }
        return descriptor.parameters.compactMap { p in
            FilterRegistry.sliderScales.first { $0.coreImageKey == p.coreImageKey }.map {
                SliderKey(key: p.coreImageKey, scale: $0.scale, minimum: p.minimum, maximum: p.maximum)
            }
        }
    }
}
