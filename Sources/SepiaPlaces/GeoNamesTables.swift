import Foundation

/// The three GeoNames tables a reverse geocoder reads: populated places, first-level divisions and countries,
/// in the tab-separated form of GeoNames' dumps (https://download.geonames.org/export/dump/).
///
/// A folder holds `countryInfo.txt`, `admin1Codes.txt` (or GeoNames' `admin1CodesASCII.txt`) and one cities
/// table; of `cities500.txt`, `cities1000.txt`, `cities5000.txt` and `cities15000.txt` the most detailed present
/// is read. Debian's `libtimezonemap-data` installs the 15 000-people table in ``ReverseGeocoder/systemDirectory``.
struct GeoNamesTables: Sendable {
    struct City: Sendable {
        var id: Int
        var name: String
        var latitude: Double
        var longitude: Double
        var countryCode: String
        var regionCode: String
    }

    var cities: [City]
    /// First-level divisions by "CC.code" ("PT.14": "Lisbon").
    var regions: [String: String]
    /// Country names by ISO code ("PT": "Portugal").
    var countries: [String: String]
    /// The cities table that was read.
    var citiesPath: String

    static let citiesFiles = ["cities500.txt", "cities1000.txt", "cities5000.txt", "cities15000.txt"]
    static let regionsFiles = ["admin1Codes.txt", "admin1CodesASCII.txt"]
    static let countriesFile = "countryInfo.txt"
    /// GeoNames' largest cities table (all places of 500 people or more) is about 40 MB.
    static let maximumFileSize = 256 << 20

    /// Reads the tables in `directory`; a missing or damaged table is an error naming it.
    static func load(from directory: String) throws(PlacesError) -> GeoNamesTables {
        let fileManager = FileManager.default
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        func path(of names: [String]) throws(PlacesError) -> String {
            for name in names {
                let path = folder.appendingPathComponent(name).path
                if fileManager.fileExists(atPath: path) { return path }
            }
            throw PlacesError(
                path: folder.appendingPathComponent(names[0]).path,
                "missing; install Debian's libtimezonemap-data (scripts/setup does), or name a folder of GeoNames tables")
        }
        let citiesPath = try path(of: citiesFiles)
        let regionsPath = try path(of: regionsFiles)
        let countriesPath = try path(of: [countriesFile])

        var countries: [String: String] = [:]
        try forEachRow(of: countriesPath) { (fields: Row) throws(PlacesError) in
            guard fields.count > 4, fields[0].count == 2, !fields[4].isEmpty else {
                throw PlacesError(path: countriesPath, "a row is not GeoNames' country table (ISO code, …, country name)")
            }
            countries[String(fields[0])] = String(fields[4])
        }
        var regions: [String: String] = [:]
        try forEachRow(of: regionsPath) { (fields: Row) throws(PlacesError) in
            guard fields.count >= 3, fields[0].contains(".") else {
                throw PlacesError(path: regionsPath, "a row is not GeoNames' admin1 table (CC.code, name, ASCII name, …)")
            }
            // A few divisions have only their ASCII name ("MC.00", Monaco); one with neither goes unnamed.
            let name = fields[1].isEmpty ? fields[2] : fields[1]
            if !name.isEmpty { regions[String(fields[0])] = String(name) }
        }
        var cities: [City] = []
        try forEachRow(of: citiesPath) { (fields: Row) throws(PlacesError) in
            // GeoNames' cities tables have 19 columns; fewer is a row cut short.
            guard fields.count >= 19, let id = Int(fields[0]), !fields[1].isEmpty,
                let latitude = Double(fields[4]), let longitude = Double(fields[5]),
                abs(latitude) <= 90, abs(longitude) <= 180, fields[8].count == 2
            else {
                throw PlacesError(
                    path: citiesPath, "a row is not GeoNames' cities table (id, name, ascii name, alternate names, latitude, longitude, …)")
            }
            cities.append(
                City(
                    id: id, name: String(fields[1]), latitude: latitude, longitude: longitude, countryCode: String(fields[8]),
                    regionCode: String(fields[10])))
        }
        guard !cities.isEmpty else { throw PlacesError(path: citiesPath, "holds no cities") }
        return GeoNamesTables(cities: cities, regions: regions, countries: countries, citiesPath: citiesPath)
    }

    /// One line of a table, its fields decoded only when asked for: the cities table's long alternate-names
    /// column costs a scan for its tab and nothing more.
    struct Row {
        fileprivate let bytes: [UInt8]
        fileprivate var ranges: [Range<Int>]

        var count: Int { ranges.count }

        /// Field `index`; bytes that are not UTF-8 become U+FFFD rather than an error.
        subscript(index: Int) -> Substring {
            Substring(String(decoding: bytes[ranges[index]], as: UTF8.self))
        }
    }

    /// Calls `body` with each line of the file, split at tabs, skipping blank lines and comments.
    private static func forEachRow(of path: String, _ body: (Row) throws(PlacesError) -> Void) throws(PlacesError) {
        let data: Data
        do {
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            guard size <= maximumFileSize else {
                throw PlacesError(path: path, "is \(size) bytes, more than a GeoNames table's \(maximumFileSize)")
            }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as PlacesError {
            throw error
        } catch {
            throw PlacesError(path: path, "cannot be read (\(error.localizedDescription))")
        }
        var row = Row(bytes: [UInt8](data), ranges: [])
        let count = row.bytes.count
        var lineStart = 0
        while lineStart < count {
            var lineEnd = lineStart
            while lineEnd < count && row.bytes[lineEnd] != 0x0A { lineEnd += 1 }
            var contentEnd = lineEnd
            if contentEnd > lineStart && row.bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            defer { lineStart = lineEnd + 1 }
            if contentEnd == lineStart || row.bytes[lineStart] == UInt8(ascii: "#") { continue }
            row.ranges.removeAll(keepingCapacity: true)
            var fieldStart = lineStart
            for index in lineStart...contentEnd where index == contentEnd || row.bytes[index] == 0x09 {
                row.ranges.append(fieldStart..<index)
                fieldStart = index + 1
            }
            try body(row)
        }
    }
}
