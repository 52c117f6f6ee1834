/// The JSON Schemas of the `/api/v1` wire types (`V1Models.swift`). A field the encoder leaves
/// out when it is nil (`image`, `rating`, `nextCursor`, `problem`, …) is an optional member, never
/// `null`.
extension APIRoute {
    /// The `/api/v1` wire types, listed under `#/components/schemas`.
    static var v1WireTypes: [any JSONSchemaDescribed.Type] {
        [V1Money.self, V1Category.self, V1Rating.self, V1ProductSummary.self, V1ProductPage.self, V1Facets.self, V1Variant.self,
         V1Image.self, V1ImageRendition.self, V1CategoryRef.self, V1Product.self, V1GuestToken.self, V1AddLine.self, V1LineChange.self,
         V1Voucher.self, V1Problem.self, V1Cart.self, V1Favorites.self, V1Featured.self]
    }
}

extension V1Money: JSONSchemaDescribed {
    public static let schemaName = "Money"
    public static let jsonSchema: JSONValue = .objectSchema([
        "minorUnits": ["type": "integer", "description": "Minor units (cents for USD, whole yen for JPY)."],
        "currency": ["type": "string", "pattern": "^[A-Z]{3}$", "description": "ISO 4217 code."],
        "formatted": .stringSchema("For display only; compute with `minorUnits`."),
    ], description: "An amount of money: integer minor units, never a floating-point number.")
}

extension V1Category: JSONSchemaDescribed {
    public static let schemaName = "V1Category"
    public static let jsonSchema: JSONValue = .objectSchema([
        "id": ["type": "integer", "minimum": 1],
        "handle": .stringSchema("URL key: `GET /api/v1/products?category={handle}`."),
        "name": ["type": "string"],
        "productCount": ["type": "integer", "minimum": 0, "description": "Published products in it."],
        "image": .stringSchema("An image for its tile (absolute URL); left out when there is none."),
    ], optional: ["image"])
}

extension V1Rating: JSONSchemaDescribed {
    public static let schemaName = "V1Rating"
    public static let jsonSchema: JSONValue = .objectSchema([
        "rateHundredths": ["type": "integer", "minimum": 0, "maximum": 500, "description": "`392` is 3.92 stars."],
        "count": ["type": "integer", "minimum": 0],
    ])
}

extension V1ProductSummary: JSONSchemaDescribed {
    public static let schemaName = "V1ProductSummary"
    public static let jsonSchema: JSONValue = .objectSchema([
        "id": ["type": "integer", "minimum": 1],
        "handle": ["type": "string"],
        "title": ["type": "string"],
        "vendor": ["type": "string"],
        "price": ["$ref": "#/components/schemas/Money", "description": "The lowest variant price."],
        "image": .stringSchema("Absolute URL of the main image (a stored image's 1280-pixel JPEG/PNG copy, not the original); left out when there is none."),
        "rating": V1Rating.schemaReference,
        "soldOut": ["type": "boolean", "description": "No variant can be bought."],
    ], optional: ["price", "image", "rating"], description: "A product in a list: what a card shows.")
}

extension V1ProductPage: JSONSchemaDescribed {
    public static let schemaName = "V1ProductPage"
    public static let jsonSchema: JSONValue = .objectSchema([
        "products": .arraySchema(of: V1ProductSummary.schemaReference),
        "totalCount": ["type": "integer", "minimum": 0, "description": "All products matching the query."],
        "nextCursor": .stringSchema("Pass as `cursor` for the next page; left out on the last page."),
        "suggestion": .stringSchema(
            "\"Did you mean\": when a search (`q`) finds nothing, words that would find something (folded: lower case, no accents); left out otherwise."),
        "facets": ["$ref": "#/components/schemas/V1Facets", "description": "Only with `facets=1`."],
    ], optional: ["nextCursor", "suggestion", "facets"])
}

extension V1Facets: JSONSchemaDescribed {
    public static let schemaName = "V1Facets"
    public static let jsonSchema: JSONValue = .objectSchema([
        "categories": .arraySchema(of: .objectSchema([
            "handle": ["type": "string"], "name": ["type": "string"], "count": ["type": "integer", "minimum": 1],
        ])),
        "uncategorized": ["type": "integer", "minimum": 0, "description": "Products without a category."],
        "vendors": .arraySchema(of: .objectSchema([
            "vendor": ["type": "string"], "count": ["type": "integer", "minimum": 1],
        ])),
        "priceBands": .arraySchema(of: .objectSchema([
            "key": .stringSchema("The `price` filter's value."),
            "min": V1Money.schemaReference,
            "max": ["$ref": "#/components/schemas/Money", "description": "Exclusive; left out for the top band."],
            "count": ["type": "integer", "minimum": 0],
        ], optional: ["max"])),
        "inStock": ["type": "integer", "minimum": 0, "description": "Products that can be bought now (`instock=1`)."],
    ], description: "Filter values with counts; a facet's counts keep every other filter but not its own.")
}

extension V1Variant: JSONSchemaDescribed {
    public static let schemaName = "V1Variant"
    public static let jsonSchema: JSONValue = .objectSchema([
        "id": ["type": "integer", "minimum": 1],
        "sku": ["type": "string"],
        "options": ["type": "array", "items": ["type": "string"],
                    "description": "The option values, in the order of the product's `options`."],
        "price": V1Money.schemaReference,
        "compareAtPrice": ["$ref": "#/components/schemas/Money", "description": "The \"was\" price, when on sale."],
        "available": ["type": "integer", "minimum": 0,
                      "description": "How many can be bought now, net of other shoppers' holds; left out when not limited."],
        "soldOut": ["type": "boolean"],
        "barcode": ["type": "string",
                    "description": "The barcode (GTIN, UPC, EAN, ISBN) as the merchant wrote it; left out without one."],
        "choices": ["type": "array", "items": ["type": "array", "items": ["type": "string"]],
                    "description": .string("Open options (WooCommerce \"any\", `\"\"` in `options`): the values the shopper "
                        + "picks from, in the order of the product's `options` (empty for a fixed one); send one per "
                        + "open option as `chosenValues` when adding. Left out for other variants.")],
    ], optional: ["sku", "compareAtPrice", "available", "barcode", "choices"])
}

extension V1Image: JSONSchemaDescribed {
    public static let schemaName = "V1Image"
    public static let jsonSchema: JSONValue = .objectSchema([
        "url": .stringSchema("Absolute URL of the image as imported (a stored image's original: pick a rendition to show)."),
        "altText": ["type": "string"],
        "width": ["type": "integer", "minimum": 1, "description": "The original's width in pixels; left out when unknown (remote URL)."],
        "height": ["type": "integer", "minimum": 1, "description": "The original's height in pixels; left out when unknown."],
        "renditions": ["type": "array", "items": V1ImageRendition.schemaReference,
                       "description": "Smaller copies, narrowest first (WebP, then JPEG or PNG, per width); left out when there are none."],
    ], optional: ["width", "height", "renditions"])
}

extension V1ImageRendition: JSONSchemaDescribed {
    public static let schemaName = "V1ImageRendition"
    public static let jsonSchema: JSONValue = .objectSchema([
        "width": ["type": "integer", "minimum": 1],
        "url": .stringSchema("Absolute URL; immutable."),
        "type": ["type": "string", "enum": ["image/webp", "image/jpeg", "image/png"]],
    ], description: "A smaller copy of a stored image.")
}

extension V1CategoryRef: JSONSchemaDescribed {
    public static let schemaName = "V1CategoryRef"
    public static let jsonSchema: JSONValue = .objectSchema(["handle": ["type": "string"], "name": ["type": "string"]])
}

extension V1Product: JSONSchemaDescribed {
    public static let schemaName = "V1Product"
    public static let jsonSchema: JSONValue = .objectSchema([
        "id": ["type": "integer", "minimum": 1],
        "handle": ["type": "string"],
        "title": ["type": "string"],
        "descriptionHTML": .stringSchema("Sanitized HTML, as the storefront shows it."),
        "descriptionText": .stringSchema("Plain text."),
        "vendor": ["type": "string"],
        "category": V1CategoryRef.schemaReference,
        "tags": .arraySchema(of: ["type": "string"]),
        "publishedAt": ["type": "string", "format": "date-time"],
        "images": .arraySchema(of: V1Image.schemaReference),
        "rating": V1Rating.schemaReference,
        "options": ["type": "array", "items": ["type": "string"],
                    "description": "The option names; empty for a product without options."],
        "variants": .arraySchema(of: V1Variant.schemaReference),
        "related": ["type": "array", "maxItems": 8, "items": V1ProductSummary.schemaReference,
                    "description": "Products of the same category, as the product page shows them."],
    ], optional: ["category", "publishedAt", "rating"])
}

extension V1GuestToken: JSONSchemaDescribed {
    public static let schemaName = "GuestToken"
    public static let jsonSchema: JSONValue = .objectSchema([
        "token": .stringSchema("Send as `Authorization: Bearer <token>`; signing in with it merges its cart and favorites."),
        "expiresAt": ["type": "string", "format": "date-time",
                      "description": "When it ends unless used (each use slides it: 30 days of use)."],
    ])
}

extension V1AddLine: JSONSchemaDescribed {
    public static let schemaName = "AddLine"
    public static let jsonSchema: JSONValue = .objectSchema([
        "product": .stringSchema("The product's handle (or send `productId`)."),
        "productId": ["type": "integer", "minimum": 1],
        "variantId": ["type": "integer", "minimum": 1,
                      "description": "The variant; needed when the product has options (else 422 `variant_not_chosen`)."],
        "quantity": ["type": "integer", "minimum": 1, "maximum": 99, "description": "Default 1."],
        "chosenValues": ["type": "array", "items": V1ChosenValue.schemaReference,
                         "description": .string("A value for each open option of the variant (its `choices`); else 422 "
                             + "`value_not_chosen` / `value_not_allowed`.")],
    ], optional: ["product", "productId", "variantId", "quantity", "chosenValues"],
       description: "A product by `product` (handle) or `productId`; without either, 400 `missing_field`.")
}

extension V1LineChange: JSONSchemaDescribed {
    public static let schemaName = "LineChange"
    public static let jsonSchema: JSONValue = .objectSchema([
        "quantity": ["type": "integer", "minimum": 0, "maximum": 99, "description": "0 removes the line."],
        "selected": ["type": "boolean", "description": "Ticked for checkout (counts toward the totals)."],
        "chosenValues": ["type": "array", "items": V1ChosenValue.schemaReference,
                         "description": "Which line of an open variant: the line's `chosenValues`."],
    ], optional: ["quantity", "selected", "chosenValues"], description: "`quantity`, `selected` or both; neither is 400 `missing_field`.")
}

extension V1Voucher: JSONSchemaDescribed {
    public static let schemaName = "Voucher"
    public static let jsonSchema: JSONValue = .objectSchema([
        "code": ["type": "string", "pattern": "^[A-Za-z0-9_-]+$",
                 "description": "Letters, digits, `-` and `_` (else 400 `invalid_voucher_code`)."],
    ])
}

extension V1Problem: JSONSchemaDescribed {
    public static let schemaName = "Problem"
    public static let jsonSchema: JSONValue = .objectSchema([
        "code": .stringSchema("Stable: `sold_out`, `quantity_exceeds_stock`, `voucher_expired`, … (docs/API.md)."),
        "message": .stringSchema("For a person."),
    ])
}

extension V1Cart: JSONSchemaDescribed {
    public static let schemaName = "V1Cart"
    public static let jsonSchema: JSONValue = .objectSchema([
        "lines": .arraySchema(of: .objectSchema([
            "variantId": ["type": "integer", "minimum": 1],
            "productId": ["type": "integer", "minimum": 1],
            "handle": ["type": "string"],
            "title": ["type": "string"],
            "variantTitle": .stringSchema("The option values joined (`Red / M`); empty without options."),
            "image": .stringSchema("Absolute URL; left out when there is none."),
            "quantity": ["type": "integer", "minimum": 1],
            "selected": ["type": "boolean", "description": "Counts toward the totals and goes to checkout."],
            "unitPrice": V1Money.schemaReference,
            "amount": V1Money.schemaReference,
            "discount": V1Money.schemaReference,
            "total": V1Money.schemaReference,
            "quantityLimit": ["type": "integer", "minimum": 0,
                              "description": "The most this line may hold now (stock net of others' holds, the line maximum)."],
            "problem": ["$ref": "#/components/schemas/Problem",
                        "description": "Why it cannot be bought as it stands (`sold_out`, `quantity_exceeds_stock`)."],
            "chosenValues": ["type": "array", "items": V1ChosenValue.schemaReference,
                             "description": "The values picked for the variant's open options; left out for other lines."],
        ], optional: ["image", "problem", "chosenValues"])),
        "subtotal": V1Money.schemaReference,
        "discount": V1Money.schemaReference,
        "total": V1Money.schemaReference,
        "itemCount": ["type": "integer", "minimum": 0],
        "selectedItemCount": ["type": "integer", "minimum": 0],
        "voucher": .objectSchema([
            "code": ["type": "string"],
            "status": ["type": "string", "enum": ["applied", "rejected"]],
            "campaign": .stringSchema("The applied campaign's title."),
            "problem": ["$ref": "#/components/schemas/Problem", "description": "Why a `rejected` code gives no discount."],
        ], optional: ["campaign", "problem"], description: "Left out when no code was entered."),
        "unavailable": .arraySchema(of: .objectSchema([
            "productId": ["type": "integer", "minimum": 1],
            "variantId": ["type": "integer", "minimum": 1],
            "quantity": ["type": "integer", "minimum": 1],
            "chosenValues": ["type": "array", "items": V1ChosenValue.schemaReference,
                             "description": "Which line of an open variant: a pick the variant no longer offers."],
        ], optional: ["chosenValues"])),
    ], optional: ["voucher"], description: "The cart priced in one pass (`CartQuote`): the cart page's numbers.")
}

extension V1Featured: JSONSchemaDescribed {
    public static let schemaName = "V1Featured"
    public static let jsonSchema: JSONValue = .objectSchema([
        "products": ["type": "array", "items": V1ProductSummary.schemaReference, "maxItems": 12,
                     "description": "The home page's row: featured, or the caller's recommendations."],
        "recommendations": ["type": "boolean", "description": "`true` when these are the caller's recommendations."],
    ])
}

extension V1Favorites: JSONSchemaDescribed {
    public static let schemaName = "V1Favorites"
    public static let jsonSchema: JSONValue = .objectSchema([
        "products": ["type": "array", "items": V1ProductSummary.schemaReference,
                     "description": "Most recently added first; products no longer sold drop out."],
    ])
}
