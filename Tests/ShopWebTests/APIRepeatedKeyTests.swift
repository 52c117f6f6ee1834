import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopImport
import ShopTestSupport
@testable import ShopWeb
import Testing

/// A JSON body naming one key twice in one object (`{"quantity": 1, "quantity": 100}`) was read
/// as its first (Foundation's choice); another reader may take the last. It is refused.
@Suite("API bodies: a key named twice")
struct APIRepeatedKeyTests {
    @Test(arguments: [
        (#"{"a": 1, "a": 2}"#, "a"),
        (#"{"a": 1, "\u0061": 2}"#, "a"),
        (#"{"caf\u00e9": 1, "café": 2}"#, "café"),
        (#"{"😀": 1, "\ud83d\ude00": 2}"#, "😀"),
        (#"{"x": {"a": 1, "b": {"c": 1, "c": 2}}}"#, "c"),
        (#"[{"a": 1}, {"a": 1, "b": 2, "a": 3}]"#, "a"),
        (#"{"q\"": 1, "q\"": 2}"#, "q\""),
    ] as [(String, String?)])
    func aRepeatedKeyIsFound(_ body: String, _ key: String?) {
        #expect(JSONFields.repeatedField(in: Array(body.utf8)) == key)
    }

    @Test(arguments: [
        #"{"a": 1, "b": 2}"#,
        #"{"a": {"a": {"a": 1}}}"#,
        #"[{"a": 1}, {"a": 2}]"#,
        #"{"a": "a", "b": ["a", "a"], "c": {"a": "b"}}"#,
        #"{"a": "\"a\"", "b": ", \"a\": 1"}"#,
        #"{"a": 1, "A": 2}"#,
        "{",
        #"{"a": "unterminated"#,
    ])
    func noKeyIsRepeated(_ body: String) {
        #expect(JSONFields.repeatedField(in: Array(body.utf8)) == nil)
    }

    @Test func theAPIRefusesABodyWithARepeatedKey() throws {
        let shop = try TestShop()
        let refused = try shop.api(.post, "/api/v1/account",
                                   json: #"{"email": "a@example.com", "password": "Tulip9garden", "name": "Bo", "name": "Al"}"#)
        let error = try decoded(APIErrorEnvelope.self, refused).error
        #expect(refused.status == 400 && error.code == "malformed_body" && error.field == "name")
        #expect(error.message == "The body names “name” twice in one object: send each field once.")
        #expect(try shop.api(.post, "/api/v1/account",
                             json: #"{"email": "a@example.com", "password": "Tulip9garden", "name": "Bo"}"#).status == 201)
    }
}
