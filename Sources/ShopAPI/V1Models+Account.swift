public import Foundation

// The wire types of the `/api/v1` account, token, campaign and address-book routes.

/// The body of `POST /api/v1/account`: the web's registration form (no confirmation field: a
/// client confirms the password itself).
public struct V1Registration: Codable, Hashable, Sendable {
    public var email: String
    public var password: String
    /// The full name.
    public var name: String

    public init(email: String, password: String, name: String) {
        self.email = email
        self.password = password
        self.name = name
    }
}

/// An account's profile: `GET /api/v1/account`.
public struct V1Account: Codable, Hashable, Sendable {
    public var id: Int64
    public var email: String
    public var name: String
    /// Whether the email was confirmed (`POST /api/v1/account/verification/confirm`).
    public var verified: Bool
    /// `shopper` or `operator`.
    public var role: String

    public init(id: Int64, email: String, name: String, verified: Bool, role: String) {
        self.id = id
        self.email = email
        self.name = name
        self.verified = verified
        self.role = role
    }
}

/// A body holding an emailed token: `POST /api/v1/account/verification/confirm`.
public struct V1TokenBody: Codable, Hashable, Sendable {
    /// The token from the emailed link (the last path segment).
    public var token: String

    public init(token: String) { self.token = token }
}

/// The body of `POST /api/v1/account/password-reset`.
public struct V1PasswordResetRequest: Codable, Hashable, Sendable {
    public var email: String

    public init(email: String) { self.email = email }
}

/// The body of `POST /api/v1/account/password-reset/confirm`.
public struct V1PasswordReset: Codable, Hashable, Sendable {
    /// The token from the emailed reset link.
    public var token: String
    /// The new password (the web's rules).
    public var password: String

    public init(token: String, password: String) {
        self.token = token
        self.password = password
    }
}

/// The body of `POST /api/v1/auth/tokens`.
public struct V1SignIn: Codable, Hashable, Sendable {
    /// The account's email (or its username).
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// The body of `POST /api/v1/auth/refresh`.
public struct V1RefreshRequest: Codable, Hashable, Sendable {
    public var refreshToken: String

    public init(refreshToken: String) { self.refreshToken = refreshToken }
}

/// What signing in and refreshing answer (RFC 6749 §5.1 in camel case).
public struct V1TokenPair: Codable, Hashable, Sendable {
    /// Send as `Authorization: Bearer <accessToken>`.
    public var accessToken: String
    /// Exchange once for the next pair (`POST /api/v1/auth/refresh`); a spent one used again ends the session.
    public var refreshToken: String
    /// Always `Bearer`.
    public var tokenType: String
    /// Seconds the access token works.
    public var expiresIn: Int

    public init(accessToken: String, refreshToken: String, tokenType: String = "Bearer", expiresIn: Int) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
    }
}

/// A 202 answer: what was done (or will be).
public struct V1Accepted: Codable, Hashable, Sendable {
    public var message: String

    public init(message: String) { self.message = message }
}

/// A campaign's discount: a percentage or a fixed amount.
public struct V1CampaignDiscount: Codable, Hashable, Sendable {
    /// `percentage` or `fixed_amount`.
    public var kind: String
    /// For `percentage`: 1–100.
    public var percent: Int?
    /// For `fixed_amount`.
    public var amount: V1Money?

    public init(kind: String, percent: Int? = nil, amount: V1Money? = nil) {
        self.kind = kind
        self.percent = percent
        self.amount = amount
    }
}

/// A running campaign, as the campaigns page shows it.
public struct V1Campaign: Codable, Hashable, Sendable {
    /// Its key: `GET /api/v1/campaigns/{handle}`.
    public var handle: String
    public var title: String
    public var description: String
    /// Absolute URL of its picture.
    public var image: String?
    /// When it starts (inclusive).
    public var startsAt: Date
    /// When it ends (exclusive).
    public var endsAt: Date
    public var discount: V1CampaignDiscount
    /// The code to enter in the cart, when the campaign needs one.
    public var voucherCode: String?
    /// What it discounts: `cart`, `category` or `products`.
    public var appliesTo: String
    /// For `category`: its handle.
    public var category: String?
    /// For `products`: their handles.
    public var productHandles: [String]?
    /// The least subtotal of discounted goods it needs.
    public var minimumSubtotal: V1Money?
    /// `GET /api/v1/campaigns/{handle}` only: the products it applies to, best rated first (at most 48).
    public var products: [V1ProductSummary]?

    public init(handle: String, title: String, description: String, image: String?, startsAt: Date, endsAt: Date,
                discount: V1CampaignDiscount, voucherCode: String?, appliesTo: String, category: String?,
                productHandles: [String]?, minimumSubtotal: V1Money?, products: [V1ProductSummary]? = nil) {
        self.handle = handle
        self.title = title
        self.description = description
        self.image = image
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.discount = discount
        self.voucherCode = voucherCode
        self.appliesTo = appliesTo
        self.category = category
        self.productHandles = productHandles
        self.minimumSubtotal = minimumSubtotal
        self.products = products
    }
}

/// `GET /api/v1/campaigns`.
public struct V1Campaigns: Codable, Hashable, Sendable {
    /// Running now, in the campaigns page's order.
    public var campaigns: [V1Campaign]

    public init(campaigns: [V1Campaign]) { self.campaigns = campaigns }
}

/// An address of the address book.
public struct V1SavedAddress: Codable, Hashable, Sendable {
    public var id: Int64
    public var address: V1Address
    /// The one checkout offers first.
    public var isDefault: Bool

    public init(id: Int64, address: V1Address, isDefault: Bool) {
        self.id = id
        self.address = address
        self.isDefault = isDefault
    }
}

/// The body of `POST /api/v1/addresses` and `PUT /api/v1/addresses/{id}`.
public struct V1AddressInput: Codable, Hashable, Sendable {
    /// Checked by the address form's rules.
    public var address: V1Address
    /// Make it the default (the others stop being it); default `false`.
    public var isDefault: Bool?

    public init(address: V1Address, isDefault: Bool? = nil) {
        self.address = address
        self.isDefault = isDefault
    }
}

/// `GET /api/v1/addresses`.
public struct V1AddressBook: Codable, Hashable, Sendable {
    /// By name, as the address book page lists them.
    public var addresses: [V1SavedAddress]

    public init(addresses: [V1SavedAddress]) { self.addresses = addresses }
}
