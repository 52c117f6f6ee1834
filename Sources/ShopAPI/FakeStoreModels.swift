public import Foundation

/// A product as Fake Store shows it. Shoppable adds `handle`, `currency` and `variants`; the
/// Fake Store fields keep their names and types.
public struct FakeStoreProduct: Codable, Hashable, Sendable {
    public struct Rating: Codable, Hashable, Sendable {
        /// Average rating, 0–5.
        public var rate: Double
        /// How many ratings.
        public var count: Int

        public init(rate: Double, count: Int) {
            self.rate = rate
            self.count = count
        }
    }

    public var id: Int64
    public var title: String
    /// Major units of `currency` (Fake Store's number; exact to the minor unit: `49.9`).
    public var price: Decimal
    /// Plain text.
    public var description: String
    /// The category's name ("" when the product has none).
    public var category: String
    /// Absolute URL of the main image ("" when there is none).
    public var image: String
    public var rating: Rating
    /// Shoppable: the product's URL key.
    public var handle: String
    /// Shoppable: ISO 4217 code of `price`.
    public var currency: String

    public init(id: Int64, title: String, price: Decimal, description: String, category: String, image: String,
                rating: Rating, handle: String, currency: String) {
        self.id = id
        self.title = title
        self.price = price
        self.description = description
        self.category = category
        self.image = image
        self.rating = rating
        self.handle = handle
        self.currency = currency
    }
}

/// The body of `POST /api/products`, `PUT` and `PATCH /api/products/{id}`: Fake Store's product
/// fields. `POST` and `PUT` need `title` and `price`; `PATCH` changes the fields sent.
public struct FakeStoreProductInput: Codable, Hashable, Sendable {
    public var title: String?
    /// Major units of the shop currency, a JSON number; no more decimals than the currency has.
    public var price: Decimal?
    /// Plain text.
    public var description: String?
    /// A category name; a new one creates the category.
    public var category: String?
    /// The main image's absolute URL ("" removes it).
    public var image: String?

    public init(title: String? = nil, price: Decimal? = nil, description: String? = nil, category: String? = nil,
                image: String? = nil) {
        self.title = title
        self.price = price
        self.description = description
        self.category = category
        self.image = image
    }
}

/// An account in Fake Store's user shape. The password is never part of an answer.
public struct FakeStoreUser: Codable, Hashable, Sendable {
    public struct Name: Codable, Hashable, Sendable {
        public var firstname: String
        public var lastname: String

        public init(firstname: String, lastname: String) {
            self.firstname = firstname
            self.lastname = lastname
        }
    }

    public struct Address: Codable, Hashable, Sendable {
        public struct Geolocation: Codable, Hashable, Sendable {
            public var lat: String
            public var long: String

            public init(lat: String = "", long: String = "") {
                self.lat = lat
                self.long = long
            }
        }

        public var city: String
        public var street: String
        public var number: Int
        public var zipcode: String
        public var geolocation: Geolocation

        public init(city: String = "", street: String = "", number: Int = 0, zipcode: String = "",
                    geolocation: Geolocation = .init()) {
            self.city = city
            self.street = street
            self.number = number
            self.zipcode = zipcode
            self.geolocation = geolocation
        }
    }

    public var id: Int64
    public var email: String
    /// The account's username, or its email when it has none (accounts made on the web or by
    /// the CLI sign in with their email).
    public var username: String
    public var name: Name
    public var address: Address
    public var phone: String

    public init(id: Int64, email: String, username: String, name: Name, address: Address = .init(), phone: String = "") {
        self.id = id
        self.email = email
        self.username = username
        self.name = name
        self.address = address
        self.phone = phone
    }
}

/// The body of `POST /api/users`, `PUT` and `PATCH /api/users/{id}`: Fake Store's user fields,
/// each optional here (which are required depends on the method; see `docs/API.md`).
public struct FakeStoreUserInput: Codable, Hashable, Sendable {
    public struct Name: Codable, Hashable, Sendable {
        public var firstname: String?
        public var lastname: String?

        public init(firstname: String? = nil, lastname: String? = nil) {
            self.firstname = firstname
            self.lastname = lastname
        }
    }

    public struct Address: Codable, Hashable, Sendable {
        public var city: String?
        public var street: String?
        public var number: Int?
        public var zipcode: String?
        public var geolocation: FakeStoreUser.Address.Geolocation?

        public init(city: String? = nil, street: String? = nil, number: Int? = nil, zipcode: String? = nil,
                    geolocation: FakeStoreUser.Address.Geolocation? = nil) {
            self.city = city
            self.street = street
            self.number = number
            self.zipcode = zipcode
            self.geolocation = geolocation
        }
    }

    public var email: String?
    public var username: String?
    /// Never answered; stored only as its hash.
    public var password: String?
    public var name: Name?
    public var address: Address?
    public var phone: String?

    public init(email: String? = nil, username: String? = nil, password: String? = nil, name: Name? = nil,
                address: Address? = nil, phone: String? = nil) {
        self.email = email
        self.username = username
        self.password = password
        self.name = name
        self.address = address
        self.phone = phone
    }
}

/// A Fake Store cart: a dated list of products of one account (Shoppable keeps it apart from
/// the storefront's live cart; see `docs/API.md`).
public struct FakeStoreCart: Codable, Hashable, Sendable {
    public struct Line: Codable, Hashable, Sendable {
        public var productId: Int64
        public var quantity: Int

        public init(productId: Int64, quantity: Int) {
            self.productId = productId
            self.quantity = quantity
        }
    }

    public var id: Int64
    public var userId: Int64
    /// ISO 8601 in UTC with milliseconds, as Fake Store writes it: `2020-03-02T00:00:00.000Z`.
    public var date: String
    public var products: [Line]

    public init(id: Int64, userId: Int64, date: String, products: [Line]) {
        self.id = id
        self.userId = userId
        self.date = date
        self.products = products
    }
}

/// The body of `POST /api/carts`, `PUT` and `PATCH /api/carts/{id}`.
public struct FakeStoreCartInput: Codable, Hashable, Sendable {
    /// The owner; left out, the caller.
    public var userId: Int64?
    /// An ISO 8601 date (`2020-02-03`) or date and time; left out on `POST`, now.
    public var date: String?
    public var products: [FakeStoreCart.Line]?

    public init(userId: Int64? = nil, date: String? = nil, products: [FakeStoreCart.Line]? = nil) {
        self.userId = userId
        self.date = date
        self.products = products
    }
}

/// Fake Store's dates: read as ISO 8601 — a calendar date (`2020-02-03`, midnight UTC) or an
/// RFC 3339 date and time with seconds and a zone (`2020-02-03T10:00:00Z`,
/// `2020-02-03T10:00:00.000+02:00`) — and written in UTC with milliseconds
/// (`2020-02-03T00:00:00.000Z`).
public enum FakeStoreDate {
    /// The date `text` names, or nil when it is not one of the forms above: nothing before or
    /// after it, every field in range (`2021-02-29` and `25:61` are not dates), a time with its
    /// seconds and its zone (`2020-02-03T10:30` would leave the zone to guess).
    public static func parse(_ text: String) -> Date? {
        var reader = Reader(Array(text.utf8))
        guard let year = reader.number(digits: 4), reader.skip("-"), let month = reader.number(digits: 2), reader.skip("-"),
              let day = reader.number(digits: 2), let midnight = midnightUTC(year: year, month: month, day: day) else { return nil }
        var seconds = Int(midnight.timeIntervalSince1970)
        if reader.isAtEnd { return midnight }
        guard reader.skip("T"), let hour = reader.number(digits: 2), reader.skip(":"), let minute = reader.number(digits: 2),
              reader.skip(":"), let second = reader.number(digits: 2),
              hour < 24, minute < 60, second < 60 else { return nil }
        seconds += hour * 3_600 + minute * 60 + second
        var fraction = 0.0
        if reader.skip(".") {
            var value = 0, scale = 1, digits = 0
            while digits < 10, let digit = reader.digit() {
                value = value * 10 + digit
                scale *= 10
                digits += 1
            }
            guard (1...9).contains(digits) else { return nil }
            fraction = Double(value) / Double(scale)
        }
        if reader.skip("Z") {
        } else if let sign = reader.skip("+") ? 1 : reader.skip("-") ? -1 : nil {
            guard let hours = reader.number(digits: 2), reader.skip(":"), let minutes = reader.number(digits: 2),
                  hours < 24, minutes < 60 else { return nil }
            seconds -= sign * (hours * 3_600 + minutes * 60)
        } else {
            return nil
        }
        guard reader.isAtEnd else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// Midnight UTC of the day, or nil when the month has no such day: Foundation's Gregorian
    /// calendar does the arithmetic (ShopAPI stays Foundation-only, so an app embeds it) and
    /// rolls `2021-02-29` over to March 1st, which reading the day back refuses.
    private static func midnightUTC(year: Int, month: Int, day: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day),
              let date = utc.date(from: DateComponents(year: year, month: month, day: day)) else { return nil }
        let read = utc.dateComponents([.year, .month, .day], from: date)
        return read.year == year && read.month == month && read.day == day ? date : nil
    }

    /// Reads ASCII fields of a date off its UTF-8 bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        /// Skips `character` if it comes next.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - UInt8(ascii: "0"))
        }

        /// Exactly `digits` decimal digits.
        mutating func number(digits: Int) -> Int? {
            var value = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }

    /// `date` as Fake Store writes it.
    public static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}

/// `POST /api/auth/login`'s body.
public struct FakeStoreLogin: Codable, Hashable, Sendable {
    /// The account's username or its email.
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// `POST /api/auth/login`'s answer: a bearer token for the other routes.
public struct FakeStoreToken: Codable, Hashable, Sendable {
    public var token: String

    public init(token: String) { self.token = token }
}

/// The one error shape of every API answer that is not a success:
/// `{"error": {"code": "...", "message": "...", "field": "..."}}`.
public struct APIErrorEnvelope: Codable, Hashable, Sendable {
    public struct Body: Codable, Hashable, Sendable {
        /// Stable, machine-readable: `not_found`, `malformed_id`, `invalid_credentials`, …
        public var code: String
        /// For a person, in the request's language.
        public var message: String
        /// The request field at fault, when there is one.
        public var field: String?

        public init(code: String, message: String, field: String? = nil) {
            self.code = code
            self.message = message
            self.field = field
        }
    }

    public var error: Body

    public init(_ error: Body) { self.error = error }
}
