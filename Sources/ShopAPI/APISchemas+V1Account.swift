/// The JSON Schemas of the `/api/v1` account, token, campaign and address-book wire types
/// (`V1Models+Account.swift`).
extension APIRoute {
    /// Listed under `#/components/schemas`.
    static var v1AccountWireTypes: [any JSONSchemaDescribed.Type] {
        [V1Registration.self, V1Account.self, V1TokenBody.self, V1PasswordResetRequest.self, V1PasswordReset.self,
         V1SignIn.self, V1RefreshRequest.self, V1TokenPair.self, V1Accepted.self, V1CampaignDiscount.self, V1Campaign.self,
         V1Campaigns.self, V1SavedAddress.self, V1AddressInput.self, V1AddressBook.self]
    }
}

extension V1Registration: JSONSchemaDescribed {
    public static let schemaName = "Registration"
    public static let jsonSchema: JSONValue = .objectSchema([
        "email": ["type": "string", "format": "email"],
        "password": .stringSchema("8–128 characters with a letter and a digit, not the name, no `123`."),
        "name": .stringSchema("The full name (1–100 characters)."),
    ], description: "Checked by the web's registration rules; a value the rules refuse is 400 `invalid_field` naming it.")
}

extension V1Account: JSONSchemaDescribed {
    public static let schemaName = "Account"
    public static let jsonSchema: JSONValue = .objectSchema([
        "id": ["type": "integer", "minimum": 1],
        "email": ["type": "string"],
        "name": ["type": "string"],
        "verified": ["type": "boolean", "description": "The email was confirmed."],
        "role": ["type": "string", "enum": ["shopper", "operator"]],
    ])
}

extension V1TokenBody: JSONSchemaDescribed {
    public static let schemaName = "TokenBody"
    public static let jsonSchema: JSONValue = .objectSchema([
        "token": .stringSchema("The token of the emailed link."),
    ])
}

extension V1PasswordResetRequest: JSONSchemaDescribed {
    public static let schemaName = "PasswordResetRequest"
    public static let jsonSchema: JSONValue = .objectSchema([
        "email": ["type": "string", "format": "email"],
    ])
}

extension V1PasswordReset: JSONSchemaDescribed {
    public static let schemaName = "PasswordReset"
    public static let jsonSchema: JSONValue = .objectSchema([
        "token": .stringSchema("The token of the emailed reset link."),
        "password": .stringSchema("The new password: 8–128 characters with a letter and a digit, not the name, no `123`."),
    ])
}

extension V1SignIn: JSONSchemaDescribed {
    public static let schemaName = "SignIn"
    public static let jsonSchema: JSONValue = .objectSchema([
        "email": .stringSchema("The account's email (or username)."),
        "password": ["type": "string"],
    ])
}

extension V1RefreshRequest: JSONSchemaDescribed {
    public static let schemaName = "RefreshRequest"
    public static let jsonSchema: JSONValue = .objectSchema([
        "refreshToken": .stringSchema("The `refreshToken` of the last pair; it is spent by this request."),
    ])
}

extension V1TokenPair: JSONSchemaDescribed {
    public static let schemaName = "TokenPair"
    public static let jsonSchema: JSONValue = .objectSchema([
        "accessToken": .stringSchema("Send as `Authorization: Bearer <accessToken>`; it works for `expiresIn` seconds."),
        "refreshToken": .stringSchema("Exchange once for the next pair (`POST /api/v1/auth/refresh`); it works while the "
            + "session lives (30 days of use). Presenting it again after that ends the session."),
        "tokenType": ["type": "string", "enum": ["Bearer"]],
        "expiresIn": ["type": "integer", "minimum": 1, "description": "Seconds the access token works."],
    ])
}

extension V1Accepted: JSONSchemaDescribed {
    public static let schemaName = "Accepted"
    public static let jsonSchema: JSONValue = .objectSchema([
        "message": .stringSchema("What happens next, for a person."),
    ])
}

extension V1CampaignDiscount: JSONSchemaDescribed {
    public static let schemaName = "CampaignDiscount"
    public static let jsonSchema: JSONValue = .objectSchema([
        "kind": ["type": "string", "enum": ["percentage", "fixed_amount"]],
        "percent": ["type": "integer", "minimum": 1, "maximum": 100, "description": "For `percentage`."],
        "amount": V1Money.schemaReference,
    ], optional: ["percent", "amount"])
}

extension V1Campaign: JSONSchemaDescribed {
    public static let schemaName = "Campaign"
    public static let jsonSchema: JSONValue = .objectSchema([
        "handle": .stringSchema("`GET /api/v1/campaigns/{handle}`."),
        "title": ["type": "string"],
        "description": ["type": "string"],
        "image": .stringSchema("Absolute URL of its picture."),
        "startsAt": ["type": "string", "format": "date-time"],
        "endsAt": ["type": "string", "format": "date-time", "description": "Exclusive."],
        "discount": V1CampaignDiscount.schemaReference,
        "voucherCode": .stringSchema("The code to enter in the cart (`PUT /api/v1/cart/voucher`), when it needs one."),
        "appliesTo": ["type": "string", "enum": ["cart", "category", "products"]],
        "category": .stringSchema("For `category`: the category's handle."),
        "productHandles": .arraySchema(of: ["type": "string"]),
        "minimumSubtotal": V1Money.schemaReference,
        "products": .arraySchema(of: V1ProductSummary.schemaReference),
    ], optional: ["image", "voucherCode", "category", "productHandles", "minimumSubtotal", "products"],
       description: "A running campaign. `products` (the products it applies to, best rated first, at most 48) only "
        + "in `GET /api/v1/campaigns/{handle}`.")
}

extension V1Campaigns: JSONSchemaDescribed {
    public static let schemaName = "Campaigns"
    public static let jsonSchema: JSONValue = .objectSchema([
        "campaigns": .arraySchema(of: V1Campaign.schemaReference),
    ])
}

extension V1SavedAddress: JSONSchemaDescribed {
    public static let schemaName = "SavedAddress"
    public static let jsonSchema: JSONValue = .objectSchema([
        "id": ["type": "integer", "minimum": 1, "description": "`savedAddressId` at checkout."],
        "address": V1Address.schemaReference,
        "isDefault": ["type": "boolean"],
    ])
}

extension V1AddressInput: JSONSchemaDescribed {
    public static let schemaName = "AddressInput"
    public static let jsonSchema: JSONValue = .objectSchema([
        "address": V1Address.schemaReference,
        "isDefault": ["type": "boolean", "description": "Make it the default (default `false`)."],
    ], optional: ["isDefault"])
}

extension V1AddressBook: JSONSchemaDescribed {
    public static let schemaName = "AddressBook"
    public static let jsonSchema: JSONValue = .objectSchema([
        "addresses": .arraySchema(of: V1SavedAddress.schemaReference),
    ])
}
