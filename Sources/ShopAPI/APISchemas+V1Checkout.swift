/// The JSON Schemas of the `/api/v1` checkout and order wire types (`V1Models+Checkout.swift`).
extension APIRoute {
    /// The checkout and order wire types, listed under `#/components/schemas`.
    static var v1CheckoutWireTypes: [any JSONSchemaDescribed.Type] {
        [V1Address.self, V1CheckoutAddress.self, V1ShippingChoice.self, V1ShippingOption.self, V1OrderLine.self,
         V1CheckoutQuote.self, V1Checkout.self, V1Order.self, V1Orders.self, V1StockLeft.self, V1FieldProblem.self,
         V1CheckoutError.self, V1ChosenValue.self, V1Fulfilment.self]
    }
}

extension V1Address: JSONSchemaDescribed {
    public static let schemaName = "Address"
    public static let jsonSchema: JSONValue = .objectSchema([
        "firstName": ["type": "string"],
        "lastName": ["type": "string"],
        "phone": .stringSchema("5–20 digits, with `+ ( ) - . /` and spaces besides."),
        "email": .stringSchema("An email for the carrier (not where the confirmation goes)."),
        "line1": ["type": "string"],
        "line2": ["type": "string"],
        "city": ["type": "string"],
        "postalCode": ["type": "string"],
        "region": ["type": "string"],
        "country": .stringSchema("ISO 3166-1 alpha-2 (`US`)."),
    ], optional: ["firstName", "lastName", "phone", "email", "line1", "line2", "city", "postalCode", "region", "country"],
       description: "A postal address. Sent, it is checked by the storefront's rules (names, phone, line 1, city, postal "
        + "code and country required; at most 100 characters a field); answered, the required ones are always there.")
}

extension V1CheckoutAddress: JSONSchemaDescribed {
    public static let schemaName = "CheckoutAddress"
    public static let jsonSchema: JSONValue = .objectSchema([
        "address": V1Address.schemaReference,
        "savedAddressId": ["type": "integer", "minimum": 1, "maximum": .integer(Int64.max),
                           "description": "An account's saved address (instead of `address`)."],
        "email": .stringSchema("Guests: where the confirmation goes (required for them)."),
        "saveAddress": ["type": "boolean", "description": "Accounts: save the typed address when the order is placed."],
    ], optional: ["address", "savedAddressId", "email", "saveAddress"])
}

extension V1ShippingChoice: JSONSchemaDescribed {
    public static let schemaName = "ShippingChoice"
    public static let jsonSchema: JSONValue = .objectSchema([
        "method": .stringSchema("The `id` of one of the checkout's `shippingOptions`."),
    ])
}

extension V1ShippingOption: JSONSchemaDescribed {
    public static let schemaName = "ShippingOption"
    public static let jsonSchema: JSONValue = .objectSchema([
        "id": ["type": "string"],
        "name": ["type": "string"],
        "cost": V1Money.schemaReference,
    ])
}

extension V1OrderLine: JSONSchemaDescribed {
    public static let schemaName = "OrderLine"
    public static let jsonSchema: JSONValue = .objectSchema([
        "productId": ["type": "integer", "description": "Left out when the product was deleted since."],
        "variantId": ["type": "integer"],
        "title": ["type": "string"],
        "variantTitle": ["type": "string"],
        "sku": ["type": "string"],
        "unitPrice": V1Money.schemaReference,
        "quantity": ["type": "integer", "minimum": 1],
        "discount": V1Money.schemaReference,
        "total": V1Money.schemaReference,
        "chosenValues": ["type": "array", "items": V1ChosenValue.schemaReference,
                         "description": "The values picked for the variant's open options; left out for other lines."],
        "refundedQuantity": ["type": "integer", "minimum": 0,
                             "description": "On an order's lines: how many units have been refunded. Not on a quote's."],
    ], optional: ["productId", "variantId", "sku", "chosenValues", "refundedQuantity"])
}

extension V1CheckoutQuote: JSONSchemaDescribed {
    public static let schemaName = "CheckoutQuote"
    public static let jsonSchema: JSONValue = .objectSchema([
        "lines": .arraySchema(of: V1OrderLine.schemaReference),
        "subtotal": V1Money.schemaReference,
        "discount": V1Money.schemaReference,
        "voucherCode": .stringSchema("The applied voucher code."),
        "shippingMethod": V1ShippingOption.schemaReference,
        "total": V1Money.schemaReference,
        "address": V1Address.schemaReference,
    ], optional: ["voucherCode"], description: "The order the checkout would place now.")
}

extension V1Checkout: JSONSchemaDescribed {
    public static let schemaName = "Checkout"
    public static let jsonSchema: JSONValue = .objectSchema([
        "email": .stringSchema("Where the confirmation goes (a guest's once given)."),
        "address": V1Address.schemaReference,
        "savedAddressId": ["type": "integer"],
        "shippingMethod": .stringSchema("The chosen method's id."),
        "shippingOptions": .arraySchema(of: V1ShippingOption.schemaReference),
        "quote": V1CheckoutQuote.schemaReference,
        "nextStep": ["type": "string", "enum": ["cart", "address", "shipping", "review"]],
        "heldUntil": ["type": "string", "format": "date-time", "description": "After a review: when the hold ends."],
    ], optional: ["email", "address", "savedAddressId", "shippingMethod", "quote", "heldUntil"])
}

extension V1Order: JSONSchemaDescribed {
    public static let schemaName = "Order"
    public static let jsonSchema: JSONValue = .objectSchema([
        "number": ["type": "string"],
        "status": ["type": "string", "enum": ["awaiting_payment", "paid", "fulfilled", "delivered", "cancelled"]],
        "placedAt": ["type": "string", "format": "date-time"],
        "email": ["type": "string"],
        "shippingAddress": V1Address.schemaReference,
        "lines": .arraySchema(of: V1OrderLine.schemaReference),
        "subtotal": V1Money.schemaReference,
        "discount": V1Money.schemaReference,
        "voucherCode": ["type": "string"],
        "shippingMethod": ["type": "string"],
        "shippingCost": V1Money.schemaReference,
        "total": V1Money.schemaReference,
        "guestToken": .stringSchema("A guest's order secret, only when placing: `GET /api/v1/orders/{number}?token=`."),
        "fulfilment": V1Fulfilment.schemaReference,
        "refunded": V1Money.schemaReference,
    ], optional: ["voucherCode", "guestToken", "fulfilment"])
}

extension V1Fulfilment: JSONSchemaDescribed {
    public static let schemaName = "Fulfilment"
    public static let jsonSchema: JSONValue = .objectSchema([
        "carrier": ["type": "string"],
        "trackingNumber": ["type": "string"],
    ])
}

extension V1Orders: JSONSchemaDescribed {
    public static let schemaName = "Orders"
    public static let jsonSchema: JSONValue = .objectSchema([
        "orders": ["type": "array", "items": V1Order.schemaReference, "description": "Newest first."],
    ])
}

extension V1StockLeft: JSONSchemaDescribed {
    public static let schemaName = "StockLeft"
    public static let jsonSchema: JSONValue = .objectSchema([
        "variantId": ["type": "integer"],
        "title": ["type": "string"],
        "requested": ["type": "integer", "minimum": 0],
        "available": ["type": "integer", "minimum": 0],
    ])
}

extension V1FieldProblem: JSONSchemaDescribed {
    public static let schemaName = "FieldProblem"
    public static let jsonSchema: JSONValue = .objectSchema([
        "field": .stringSchema("The body member: `address.postalCode`, `email`, …"),
        "code": ["type": "string", "description": "`missing`, `too_long`, `invalid_email`, `invalid_phone`, `unknown_country`, `invalid_postal_code`."],
        "message": ["type": "string"],
    ])
}

extension V1CheckoutError: JSONSchemaDescribed {
    public static let schemaName = "CheckoutError"
    public static let jsonSchema: JSONValue = .objectSchema([
        "error": .objectSchema([
            "code": ["type": "string"],
            "message": ["type": "string"],
            "field": ["type": "string"],
        ], optional: ["field"]),
        "problems": .arraySchema(of: V1FieldProblem.schemaReference),
        "available": .arraySchema(of: V1StockLeft.schemaReference),
        "checkout": V1Checkout.schemaReference,
    ], optional: ["problems", "available", "checkout"],
       description: "The error envelope plus what a checkout failure adds; read only `error`, it is the envelope.")
}

extension V1ChosenValue: JSONSchemaDescribed {
    public static let schemaName = "ChosenValue"
    public static let jsonSchema: JSONValue = .objectSchema([
        "option": .stringSchema("The option's name, as in the product's `options`."),
        "value": .stringSchema("One of the variant's `choices` for it."),
    ], description: "A value picked for an open option (WooCommerce \"any\").")
}
