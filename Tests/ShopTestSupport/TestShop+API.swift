public import Foundation
public import HTTPServer
public import ShopCore
public import ShopStore
public import ShopService
public import ShopWeb

extension TestShop {
    /// Creates a verified account (an operator with `role: .operator`) and signs it in through
    /// `POST /api/auth/login`.
    /// - Returns: the account and its bearer token.
    public func apiAccount(_ email: String, name: String = "Ana Lima", password: String = "Blue9sky!",
                           role: User.Role = .shopper) throws -> (user: User, token: String) {
        let user = try accounts.createUser(NewAccount(email: email, name: name,
                                                      passwordHash: try environment.crypto.hashPassword(password),
                                                      createdAt: clock.now, role: role), true)
        return (user, try apiToken(email, password: password))
    }

    /// A bearer token from `POST /api/auth/login`.
    public func apiToken(_ username: String, password: String = "Blue9sky!") throws -> String {
        let response = try api(.post, "/api/auth/login", json: #"{"username": "\#(username)", "password": "\#(password)"}"#)
        struct Token: Decodable { var token: String }
        return try JSONDecoder().decode(Token.self, from: Data(response.response.body)).token
    }

    /// An API request carrying `Authorization: Bearer token`.
    @discardableResult
    public func api(_ method: HTTPMethod, _ target: String, token: String?, json body: String? = nil) throws -> TestResponse {
        var headers: HTTPHeaders = [:]
        if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        return try api(method, target, json: body, headers: headers)
    }
}
