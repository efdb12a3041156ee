import Foundation

/// A person's words for the browser or program a `User-Agent` names: "Firefox on Linux", "Safari on iPhone",
/// "curl". For the list of signed-in devices only: a client can say anything here, so nothing decides on it.
enum DeviceDescription {
    /// The description of `userAgent`; "Unknown browser" when it says nothing recognisable.
    static func of(userAgent: String) -> String {
        let agent = userAgent.trimmingCharacters(in: .whitespaces)
        guard !agent.isEmpty else { return "Unknown browser" }
        let browser = browserName(agent)
        guard let system = systemName(agent) else { return browser }
        return browser + " on " + system
    }

    private static func browserName(_ agent: String) -> String {
        let known: [(marker: String, name: String)] = [
            ("Edg/", "Edge"), ("EdgiOS/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser/", "Samsung Internet"), ("Firefox/", "Firefox"),
            ("FxiOS/", "Firefox"), ("HeadlessChrome/", "Chrome (headless)"), ("Chromium/", "Chromium"), ("CriOS/", "Chrome"),
            ("Chrome/", "Chrome"), ("Version/", "Safari"), ("curl/", "curl"), ("Wget/", "Wget"), ("python-requests/", "Python"),
            ("Python", "Python"), ("Go-http-client/", "Go"),
        ]
        for (marker, name) in known where agent.contains(marker) { return name }
        // The first product token, such as "MyScript/2.0": its name, shortened.
        let product = agent.prefix { $0 != "/" && $0 != " " && $0 != "(" }
        return product.isEmpty ? "Unknown browser" : String(product.prefix(40))
    }

    private static func systemName(_ agent: String) -> String? {
        let known: [(marker: String, name: String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"), ("Windows", "Windows"),
            ("Macintosh", "Mac"), ("Mac OS X", "Mac"), ("Linux", "Linux"), ("FreeBSD", "FreeBSD"),
        ]
        for (marker, name) in known where agent.contains(marker) { return name }
        return nil
    }
}
