/// Why ``HTTPServer/start()`` failed. `message` is a complete sentence for the operator, e.g.
/// `could not listen on 127.0.0.1:8080 (address in use?): …`.
public struct HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kind of failure; an open set of named values.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// Stable identifier, e.g. `"listen-failed"`.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// A configuration value is out of range (negative limit, port > 65535, …).
        public static let invalidConfiguration = Code("invalid-configuration")
        /// `host` is not a numeric IPv4/IPv6 address (or `localhost`).
        public static let invalidAddress = Code("invalid-address")
        /// The engine could not start: bind/listen failed (port in use, no permission) or
        /// threads could not be created.
        public static let listenFailed = Code("listen-failed")
        /// `start()` was called on a server that is already running.
        public static let alreadyRunning = Code("already-running")

        /// The identifier.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// What failed, for logs and the terminal.
    public var message: String

    /// An error of kind `code` explained by `message`.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
