import HTTPTypes

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
    static let xRequestID = Self("X-Request-ID")!
    static let xCSRFToken = Self("X-CSRF-Token")!
    static let lastEventID = Self("Last-Event-ID")!
    static let xSepiaStripCount = Self("X-Sepia-Strip-Count")!
    static let xSepiaStripPresets = Self("X-Sepia-Strip-Presets")!
    static let xAccelBuffering = Self("X-Accel-Buffering")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let permissionsPolicy = Self("Permissions-Policy")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
}
