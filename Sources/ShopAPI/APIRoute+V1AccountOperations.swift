/// The OpenAPI description of the `/api/v1` account, token, campaign and address-book routes.
extension APIRoute {
    static let signedInOnly = APIOperation.Response.error(
        401, "`unauthorized`: no `Authorization: Bearer` header, or one that names no signed-in account (an access "
            + "token from `POST /api/v1/auth/tokens`, or a token from `POST /api/auth/login`; a guest token is not enough).",
        headers: ["WWW-Authenticate": "`Bearer`."])

    /// A guest's valid token where an account is needed.
    static let guestTokenRefused = APIOperation.Response.error(
        403, "`sign_in_required`: the token is a guest's (`POST /api/v1/sessions/guest`); sign in for one that names an account.")

    static let addressID = APIOperation.Parameter.path(
        "id", "The saved address's id: a positive whole number.",
        schema: ["type": "integer", "minimum": 1, "maximum": .integer(Int64.max)])

    static let addressRefused = APIOperation.Response(
        400, "\(bodyErrors), or `invalid_address`: `problems` lists every field at fault (`address.postalCode`, …) "
            + "with a code (`missing`, `too_long`, `invalid_email`, `invalid_phone`, `unknown_country`, `invalid_postal_code`), `error.field` "
            + "the first — the address form's rules and messages.", schema: V1CheckoutError.schemaReference)

    static let v1AccountOperations: [APIOperation] = [
        APIOperation("POST", "/api/v1/account", id: "registerV1Account", summary: "Register an account",
                     description: "The web's registration: the same rules and messages, throttled per client address, the "
                        + "verification email queued. The account may sign in at once (`POST /api/v1/auth/tokens`).",
                     tag: "v1 account", requestBody: V1Registration.schemaReference,
                     responses: [.created("The new account (unverified).", V1Account.schemaReference),
                                 .error(400, "\(bodyErrors); `invalid_field` for a value the rules refuse (`field`: `email`, "
                                        + "`password` or `name`)."),
                                 .error(409, "`email_taken`: another account has this email (its owner is told by email)."),
                                 throttled] + APIOperation.Response.always),
        APIOperation("GET", "/api/v1/account", id: "getV1Account", summary: "The signed-in account's profile",
                     tag: "v1 account", requiresBearer: true,
                     responses: [.personal("The account.", V1Account.schemaReference), signedInOnly, guestTokenRefused]
                        + APIOperation.Response.always),
        APIOperation("POST", "/api/v1/account/verification", id: "resendV1Verification",
                     summary: "Send the verification email again",
                     description: "With a new link (earlier links stop working); nothing is sent for a verified account.",
                     tag: "v1 account", requiresBearer: true,
                     responses: [APIOperation.Response(202, "Queued (or not needed).", schema: V1Accepted.schemaReference),
                                 signedInOnly, guestTokenRefused, throttled] + APIOperation.Response.always),
        APIOperation("POST", "/api/v1/account/verification/confirm", id: "confirmV1Verification",
                     summary: "Confirm the email with the emailed token",
                     tag: "v1 account", requestBody: V1TokenBody.schemaReference,
                     responses: [.ok("The account, now verified.", V1Account.schemaReference),
                                 .error(400, "\(bodyErrors), or `invalid_token`: the token is unknown, used or expired.")]
                        + APIOperation.Response.always),
        APIOperation("POST", "/api/v1/account/password-reset", id: "requestV1PasswordReset",
                     summary: "Email a password-reset link",
                     description: "Answers 202 whether or not the email has an account (the web's reset email goes to "
                        + "an account only).",
                     tag: "v1 account", requestBody: V1PasswordResetRequest.schemaReference,
                     responses: [APIOperation.Response(202, "Sent, if the email has an account.", schema: V1Accepted.schemaReference),
                                 .error(400, "\(bodyErrors); `invalid_field` for text that is not an email."),
                                 throttled] + APIOperation.Response.always),
        APIOperation("POST", "/api/v1/account/password-reset/confirm", id: "confirmV1PasswordReset",
                     summary: "Set a new password with the emailed token",
                     description: "Ends every session of the account (and so every token): sign in again.",
                     tag: "v1 account", requestBody: V1PasswordReset.schemaReference,
                     responses: [APIOperation.Response(204, "The password is changed.", schema: nil),
                                 .error(400, "\(bodyErrors); `invalid_token` (unknown, used or expired), or "
                                        + "`invalid_field` (`field`: `password`) for a password the rules refuse.")]
                        + APIOperation.Response.always),
        APIOperation("POST", "/api/v1/auth/tokens", id: "createV1Tokens", summary: "Sign in: an access and a refresh token",
                     description: "Throttled exactly as the web's sign-in. Sent with a guest token (`Authorization: Bearer`), "
                        + "the guest's cart and favorites merge into the account's as at the web's sign-in.",
                     tag: "v1 auth", requestBody: V1SignIn.schemaReference, acceptsBearer: true,
                     responses: [.ok("The tokens.", V1TokenPair.schemaReference),
                                 .error(400, "\(bodyErrors)."),
                                 .error(401, "`invalid_credentials`: the email or password is wrong."),
                                 throttled] + APIOperation.Response.always),
        APIOperation("POST", "/api/v1/auth/refresh", id: "refreshV1Tokens", summary: "Exchange a refresh token for a new pair",
                     description: "The refresh token is spent: the answer's is the next one. A spent refresh token presented "
                        + "again ends the session it belonged to (every token of it).",
                     tag: "v1 auth", requestBody: V1RefreshRequest.schemaReference,
                     responses: [.ok("The next tokens.", V1TokenPair.schemaReference),
                                 .error(400, "\(bodyErrors)."),
                                 .error(401, "`invalid_refresh_token` (unknown, or its session ended) or "
                                        + "`refresh_token_reused` (spent before: the session is ended now).")]
                        + APIOperation.Response.always),
        APIOperation("POST", "/api/v1/auth/sign-out", id: "signOutV1", summary: "Sign out: end the bearer's session",
                     description: "Its access and refresh tokens stop working; with `everywhere=true` every session of "
                        + "the account ends (every device, the web's too).",
                     tag: "v1 auth",
                     parameters: [.query("everywhere", "`true`: every session of the account.",
                                         schema: ["type": "string", "enum": ["true", "false"]])],
                     requiresBearer: true,
                     responses: [APIOperation.Response(204, "Signed out.", schema: nil),
                                 .error(400, "`invalid_parameter`: `everywhere` is neither `true` nor `false`."), v1Unauthorized]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/v1/campaigns", id: "listV1Campaigns", summary: "The running campaigns",
                     tag: "v1 campaigns",
                     responses: [.catalogRead("The campaigns, as the campaigns page lists them.", V1Campaigns.schemaReference)]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/v1/campaigns/{handle}", id: "getV1Campaign",
                     summary: "One running campaign, with the products it applies to",
                     tag: "v1 campaigns",
                     parameters: [.path("handle", "The campaign's handle.", schema: ["type": "string", "minLength": 1])],
                     responses: [.catalogRead("The campaign.", V1Campaign.schemaReference),
                                 .error(404, "`not_found`: no campaign with this handle is running.")]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/v1/addresses", id: "listV1Addresses", summary: "The account's address book",
                     tag: "v1 addresses", requiresBearer: true,
                     responses: [.personal("The addresses, by name.", V1AddressBook.schemaReference), signedInOnly, guestTokenRefused]
                        + APIOperation.Response.always),
        APIOperation("POST", "/api/v1/addresses", id: "addV1Address", summary: "Add an address",
                     tag: "v1 addresses", requestBody: V1AddressInput.schemaReference, requiresBearer: true,
                     responses: [.created("The saved address.", V1SavedAddress.schemaReference), addressRefused, signedInOnly, guestTokenRefused]
                        + APIOperation.Response.always),
        APIOperation("PUT", "/api/v1/addresses/{id}", id: "replaceV1Address", summary: "Replace an address",
                     tag: "v1 addresses", parameters: [addressID], requestBody: V1AddressInput.schemaReference,
                     requiresBearer: true,
                     responses: [.ok("The saved address.", V1SavedAddress.schemaReference), addressRefused, signedInOnly, guestTokenRefused,
                                 .error(404, "`address_not_found`: the account has no address with this id.")]
                        + APIOperation.Response.always),
        APIOperation("DELETE", "/api/v1/addresses/{id}", id: "deleteV1Address", summary: "Delete an address",
                     tag: "v1 addresses", parameters: [addressID], requiresBearer: true,
                     responses: [APIOperation.Response(204, "Deleted.", schema: nil),
                                 .error(400, "`malformed_id`: the id is not a positive whole number."), signedInOnly, guestTokenRefused,
                                 .error(404, "`address_not_found`: the account has no address with this id.")]
                        + APIOperation.Response.always),
    ]
}
