// Not a Benchmark-framework benchmark: scripts/bench-places runs it beside the peer and prints the table.
// Reads positions ("latitude longitude" per line) from the file given, answers them with ReverseGeocoder in one
// thread, round after round, and prints JSON: the tables' load time and the lookups per second of each round.
import Foundation
import SepiaPlaces

@main
struct PlacesBenchmark {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: PlacesBenchmark POSITIONS [ROUNDS]\n".utf8))
            exit(2)
        }
        let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
        let text = try String(contentsOfFile: arguments[1], encoding: .utf8)
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { continue }
            latitudes.append(latitude)
            longitudes.append(longitude)
        }
        let loadStart = ContinuousClock.now
        let geocoder = try ReverseGeocoder()
        let loadSeconds = seconds(ContinuousClock.now - loadStart)
        var perSecond: [Double] = []
        var ids = [Int](repeating: 0, count: latitudes.count)
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            for index in latitudes.indices {
                ids[index] = geocoder.nearestCity(latitude: latitudes[index], longitude: longitudes[index])?.place.id ?? 0
            }
            perSecond.append(Double(latitudes.count) / seconds(ContinuousClock.now - start))
        }
        let report: [String: Any] = [
            "cities": geocoder.cityCount, "table": geocoder.citiesPath, "loadSeconds": loadSeconds, "lookups": latitudes.count,
            "lookupsPerSecond": perSecond, "ids": ids,
        ]
        let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
