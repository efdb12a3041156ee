import Foundation
import SepiaPlaces
import SepiaTestSupport
import Testing

/// Reverse geocoding from the GeoNames tables Debian ships, checked against a brute-force NumPy search of the
/// same table (scripts/references/nearest_cities.py) and against places whose names are known.
@Suite struct ReverseGeocoderTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func namesKnownPlaces() throws {
        let geocoder = try ReverseGeocoder.shared(directory: ReverseGeocoder.systemDirectory)
        #expect(geocoder.cityCount > 20_000)
        let cases: [(Double, Double, String, String, String)] = [
            (38.7139, -9.1394, "Lisbon", "Portugal", "PT"),  // Praça do Comércio
            (48.1374, 11.5755, "Munich", "Germany", "DE"),  // Marienplatz
            (-33.8568, 151.2153, "Sydney", "Australia", "AU"),  // the Opera House
            (40.7580, -73.9855, "Manhattan", "United States", "US"),  // Times Square
            (69.6492, 18.9553, "Tromsø", "Norway", "NO"),  // far north
            (-18.1248, 178.4501, "Suva", "Fiji", "FJ"),  // beside the antimeridian
            (35.6595, 139.7005, "Tokyo", "Japan", "JP"),  // Shibuya Crossing: the table has Tokyo, not its wards
        ]
        for (latitude, longitude, city, country, code) in cases {
            let place = try #require(geocoder.place(latitude: latitude, longitude: longitude), "\(city)")
            #expect(place.city == city)
            #expect(place.country == country)
            #expect(place.countryCode == code)
        }
        #expect(geocoder.place(latitude: 38.7139, longitude: -9.1394)?.region == "Lisbon")
        #expect(geocoder.place(latitude: 48.1374, longitude: 11.5755)?.region == "Bavaria")
        #expect(geocoder.place(latitude: 48.1374, longitude: 11.5755)?.displayName == "Munich, Bavaria, Germany")
    }

    @Test func farFromEveryCityIsNowhere() throws {
        let geocoder = try ReverseGeocoder.shared(directory: ReverseGeocoder.systemDirectory)
        // The middle of the Pacific, and the South Pole: the nearest cities are thousands of kilometres away.
        #expect(geocoder.place(latitude: -30, longitude: -140) == nil)
        #expect(geocoder.place(latitude: -90, longitude: 0) == nil)
        let (_, metres) = try #require(geocoder.nearestCity(latitude: -30, longitude: -140))
        #expect(metres > 1_000_000)
        // Not positions at all.
        #expect(geocoder.nearestCity(latitude: .nan, longitude: 0) == nil)
        #expect(geocoder.nearestCity(latitude: 91, longitude: 0) == nil)
        #expect(geocoder.nearestCity(latitude: 0, longitude: -180.5) == nil)
        #expect(geocoder.nearestCity(latitude: 0, longitude: .infinity) == nil)
    }

    /// 3 000 positions — random ones over the globe, and ones a few kilometres from random cities, where the
    /// nearest is contested — answer the same city as a brute-force haversine search of every city in NumPy.
    @Test func agreesWithBruteForce() throws {
        let geocoder = try ReverseGeocoder.shared(directory: ReverseGeocoder.systemDirectory)
        var random = SplitMix64(seed: 36)
        var positions: [(Double, Double)] = []
        for _ in 0..<1_500 {
            // Uniform on the sphere.
            let z = random.unit() * 2 - 1
            positions.append((asin(z) * 180 / .pi, random.unit() * 360 - 180))
        }
        let cities = try String(contentsOfFile: geocoder.citiesPath, encoding: .utf8).split(separator: "\n")
        for _ in 0..<1_500 {
            let fields = cities[Int(random.next() % UInt64(cities.count))].split(separator: "\t", omittingEmptySubsequences: false)
            let latitude = min(90, max(-90, Double(fields[4])! + (random.unit() - 0.5) * 0.2))
            var longitude = Double(fields[5])! + (random.unit() - 0.5) * 0.2
            if longitude > 180 { longitude -= 360 }
            if longitude < -180 { longitude += 360 }
            positions.append((latitude, longitude))
        }
        let input = positions.map { "\($0.0) \($0.1)" }.joined(separator: "\n")
        let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-places-\(UUID().uuidString).txt")
        try input.write(to: inputFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: inputFile) }
        let reference = try ExternalProgram.run(
            "/bin/sh",
            ["-c", "exec \"$0\" \"$1\" \"$2\" < \"$3\"", Self.python, Self.script, geocoder.citiesPath, inputFile.path])
        try #require(reference.status == 0, "the reference failed: \(reference.errors); scripts/testdata-raw makes .venv with NumPy")
        let expected = reference.output.split(separator: "\n")
        try #require(expected.count == positions.count)
        var disagreements = 0
        for (position, line) in zip(positions, expected) {
            let parts = line.split(separator: " ")
            let (id, metres) = (Int(parts[0])!, Double(parts[1])!)
            let (place, found) = try #require(geocoder.nearestCity(latitude: position.0, longitude: position.1))
            // Two cities at the same distance (to a millimetre) may be answered either way.
            if place.id != id && abs(found - metres) > 0.001 { disagreements += 1 }
            #expect(abs(found - metres) < 0.01 * max(1, metres / 1_000), "\(position): \(found) m, the reference \(metres) m")
        }
        #expect(disagreements == 0)
    }

    @Test func damagedOrMissingTablesNameTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-geonames-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Nothing there.
        let missing = #expect(throws: PlacesError.self) { try ReverseGeocoder(directory: folder.path) }
        #expect(missing?.path.hasSuffix("cities500.txt") == true)
        #expect(missing?.reason.contains("libtimezonemap-data") == true)
        // A cities table cut in the middle of a row.
        for name in ["admin1Codes.txt", "countryInfo.txt"] {
            try FileManager.default.copyItem(atPath: ReverseGeocoder.systemDirectory + "/" + name, toPath: folder.path + "/" + name)
        }
        let cities = try Data(contentsOf: URL(fileURLWithPath: ReverseGeocoder.systemDirectory + "/cities15000.txt"))
        try cities.prefix(100_000).write(to: folder.appendingPathComponent("cities15000.txt"))
        let damaged = #expect(throws: PlacesError.self) { try ReverseGeocoder(directory: folder.path) }
        #expect(damaged?.path.hasSuffix("cities15000.txt") == true)
        #expect(damaged?.description.contains("cities table") == true)
        // Random bytes.
        var random = SplitMix64(seed: 7)
        try Data((0..<50_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }).write(to: folder.appendingPathComponent("cities15000.txt"))
        #expect(throws: PlacesError.self) { try ReverseGeocoder(directory: folder.path) }
        // Whole again, with one row of a short table: a geocoder of what it holds.
        try cities.prefix(while: { $0 != 0x0A }).write(to: folder.appendingPathComponent("cities15000.txt"))
        let one = try ReverseGeocoder(directory: folder.path)
        #expect(one.cityCount == 1)
    }

    static var python: String {
        let venv = repository.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/python3"
    }

    static var script: String { repository.appendingPathComponent("scripts/references/nearest_cities.py").path }
}

/// A small seeded generator, so that every run checks the same positions.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
