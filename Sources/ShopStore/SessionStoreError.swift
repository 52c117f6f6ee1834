public import Foundation
public import ShopCore

/// Why a session store refused a change.
public enum SessionStoreError: Error, Equatable, Sendable, LocalizedError {
    /// `create` was given an id that is already stored.
    case sessionAlreadyExists(Session.ID)
    /// `saveCart` was given an id that is not stored.
    case sessionNotFound(Session.ID)
    /// A cart line has a quantity below 1, or its variant appears on two lines.
    case invalidCartLine(Variant.ID)

    /// English text for logs.
    public var errorDescription: String? {
        switch self {
        case .sessionAlreadyExists: "A session with this id already exists."
        case .sessionNotFound: "The session does not exist."
        case let .invalidCartLine(variant): "The cart line for variant \(variant) is invalid."
        }
    }
}

extension SessionStoreError {
    /// Checks that every line has a quantity ≥ 1 and a distinct variant, as storage requires.
    /// - Throws: `SessionStoreError.invalidCartLine`.
    public static func checkLines(of cart: Cart) throws(SessionStoreError) {
        var seen: Set<String> = []  // a line is its variant and its chosen values
        for line in cart.lines {
            guard line.quantity >= 1, seen.insert("\(line.variantID.rawValue)\n\(line.chosen.text)").inserted else {
                throw .invalidCartLine(line.variantID)
            }
        }
    }
}
