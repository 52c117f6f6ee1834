import Foundation
import HTTPServer
import Mailer
import ShopCore
import ShopImport
import ShopService
import ShopStore
import ShopStoreSQLite
import ShopWeb
import ShopWebLive
import Sodium

/// `shoppable serve`: open and migrate the database, load the demo catalog into an empty shop,
/// and serve until SIGINT/SIGTERM, finishing in-flight requests before closing the database.
enum Serve {
    static func run(_ options: Options) throws {
        let threads = try options.int("threads", default: ProcessInfo.processInfo.activeProcessorCount)
        let port = try options.int("port", default: 8080)
        guard port <= 65_535 else { throw UsageError("--port must be 0…65535") }
        let currency = try options.currency()
        let timeZone = try options.timeZone()
        let language = try options.language()
        // Every option is checked before the database is opened (or created and migrated).
        let perAddress = try options.int("max-connections-per-address", default: 128)
        guard perAddress >= 1 else { throw UsageError("--max-connections-per-address must be at least 1") }
        let proxies = (options.value("trusted-proxy") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        for proxy in proxies where ClientAddress.canonical(proxy) == nil {
            throw UsageError("--trusted-proxy: “\(proxy)” is not a numeric IPv4 or IPv6 address")
        }
        let corsOrigins = try options.corsOrigins()
        let database = try openDatabase(options, poolSize: max(threads, 1) + 1)
        defer { database.close() }
        let catalog = database.catalog(currency: currency)
        // One catalog, one currency: a server in another would show and sell the stored prices
        // beside its own (a cart holding both cannot be totalled).
        if let stored = try catalog.storedCurrency(), stored != currency {
            throw UsageError("the shop's prices are in \(stored.code), not \(currency.code); serve with --currency \(stored.code)")
        }
        if !options.has("no-demo"), try catalog.productCount() == 0 {
            try DemoCatalog.load(into: catalog, media: .directory(try mediaDirectory(options)), currency: currency)
        }
        if !options.has("no-demo") {
            try DemoCatalog.loadCampaigns(into: database.campaigns, catalog: catalog, currency: currency)
        }
        let host = options.value("host", default: "127.0.0.1")!
        let publicURL = options.value("public-url") ?? "http://\(host):\(port)"
        let accounts = database.accounts
        let orders = database.orders
        let shopConfig = try loadShopConfig(options, currency: currency)
        var environment = AppEnvironment(
            catalog: catalog.caching(), sessions: database.sessions, accounts: accounts,
            campaigns: database.campaigns,
            crypto: .sodium(guestSessionKey: try database.serverSecret(ServerSecrets.guestSession)),
            publicURL: publicURL, currency: currency, timeZone: timeZone,
            log: { line in printLine(line) }, secureCookies: publicURL.lowercased().hasPrefix("https://"),
            mediaDirectory: try mediaDirectory(options), healthCheck: { _ = try catalog.productCount() })
        environment.orders = orders
        environment.readingTogether = database.readingTogether
        environment.addresses = database.addresses
        environment.savedCarts = database.savedCarts
        environment.apiTokens = database.apiTokens
        environment.staff = database.staff
        environment.audit = database.audit
        environment.qrCode = AppEnvironment.liveQRCode
        environment.dashboard = database.dashboard
        if let text = options.value("import-wait") {
            guard let seconds = Double(text), seconds >= 0, seconds <= 60 else {
                throw UsageError("--import-wait must be a number of seconds from 0 to 60")
            }
            environment.importAnswerWait = seconds
        }
        environment.importJobs = ImportJobs(store: database.importJobs, now: Date.init, newID: environment.crypto.randomToken,
                                            log: { printLine($0) })
        environment.shippingMethods = shopConfig.shippingMethods
        environment.paymentInstructions = shopConfig.paymentInstructions
        environment.optionNames = shopConfig.optionNames
        environment.reservationLifetime = shopConfig.reservationDuration
        environment.corsAllowedOrigins = corsOrigins
        environment.defaultLanguage = language

        let outbox = OutboxWorker(accounts: accounts, transport: try mailTransport(options),
                                  sender: EmailAddress(options.value("mail-from", default: "shop@localhost")!,
                                                       displayName: "Shoppable"),
                                  log: { printLine($0) })
        let sessions = SessionService(sessions: environment.sessions, crypto: environment.crypto, now: Date.init)
        let throttleHorizon = environment.throttles.longestWindow
        let unpaidLifetime = shopConfig.unpaidOrderLifetime
        let liveEnvironment = environment
        outbox.housekeeping = {
            let now = Date()
            // Logged with its count: several servers sweep one database, each hold is deleted by one.
            if let swept = try? orders.sweepExpiredReservations(now), swept > 0 {
                printLine("shoppable: swept \(swept) expired stock hold\(swept == 1 ? "" : "s")")
            }
            // Issue #16: unpaid orders past their time give their stock back.
            do {
                // Each shopper is told, in their order's language, with the cancel.
                let round = try orders.cancelUnpaid(placedBefore: now.addingTimeInterval(-unpaidLifetime), now: now) { order in
                    OrderEmails.step(.cancel, order: order, fulfilment: nil, publicURL: publicURL, unpaidInTime: true, now: now)
                }
                for cancelled in round.cancelled {
                    printLine("shoppable: cancelled unpaid order \(cancelled.order.number) (placed "
                              + "\(cancelled.order.placedAt.formatted(.iso8601.year().month().day())))")
                }
                for (number, error) in round.failed {
                    printLine("shoppable: cancelling unpaid order \(number) failed: \(error)")
                }
            } catch {
                printLine("shoppable: cancelling unpaid orders failed: \(error)")
            }
            _ = try? sessions.purgeExpired()
            _ = try? accounts.purgeAttempts(now.addingTimeInterval(-throttleHorizon))  // outside every window
        }
        outbox.start()
        defer { outbox.stop() }

        let configuration = HTTPServer.Configuration(host: host, port: port,
                                                     threadCount: max(threads, 1),
                                                     maxConnectionsPerAddress: perAddress,
                                                     trustedProxies: proxies,
                                                     uploads: ShopApp.uploads(liveEnvironment))
        let server = HTTPServer(configuration: configuration, logger: { printLine($0) },
                                accessLog: { LineLog.standardOutput.append($0) },
                                refusal: { ShopApp.refusal($0, $1, target: $2, headers: $3, liveEnvironment) }) { request in
            ShopApp.handle(request, liveEnvironment)
        }
        try server.start()
        printLine("shoppable: serving http://\(configuration.host):\(server.port) (database \(try options.database), \(threads) threads). Ctrl-C stops.")
        server.runUntilSignalled()
        // A catalog import started from the back office runs on its own thread: it is stopped
        // (it writes nothing) and its outcome stored before the database closes. One whose
        // every product has passed its checks is committing already, and finishes: each job
        // logs which of the two it was.
        if let jobs = liveEnvironment.importJobs, !jobs.waitForAll(upTo: 0) {
            printLine("shoppable: stopping the catalog imports under way (each stops whole, writing nothing, "
                      + "unless it is already committing)")
            jobs.stopAll()
            if !jobs.waitForAll(upTo: 60) {
                printLine("shoppable: a catalog import did not stop within 60 s (still reading its file); "
                          + "it ends with the server and writes nothing")
            }
        }
        printLine("shoppable: stopped; in-flight requests finished, closing the database")
    }
}

/// The built-in demo catalog (`DemoCatalog/catalog.json`, shoppable-json format).
enum DemoCatalog {
    static func load(into catalog: CatalogStore, media: MediaLibrary, currency: Currency) throws {
        guard let url = Bundle.module.url(forResource: "catalog", withExtension: "json", subdirectory: "DemoCatalog"),
              let data = FileManager.default.contents(atPath: url.path) else {
            printLine("shoppable: demo catalog not found in the app bundle; starting with an empty shop")
            return
        }
        let report = try CatalogImportService(catalog: catalog, media: media, currency: currency)
            .importCatalog(data, fileName: "demo catalog", format: .shoppableJSON, options: .init(actor: .shop))
        let created = report.changes?.productsCreated ?? 0
        // Another server sharing the database may have loaded it a moment before (PostgreSQL).
        printLine(created > 0 ? "shoppable: loaded the demo catalog (\(created) products)"
                              : "shoppable: the demo catalog was already loaded by another server")
    }
}

extension DemoCatalog {
    /// Loads `DemoCatalog/campaigns.json` when no campaign is stored and the catalog is the demo
    /// one (it has every product the demo campaigns list), so a merchant's own catalog never gets
    /// the demo's codes. Like the demo catalog, it comes back at the next start if all campaigns
    /// are removed; `--no-demo` prevents that.
    ///
    /// The file names no currency and its texts name no amount: like the demo catalog's prices,
    /// its amounts (a fixed discount, minimum subtotals) are read in the shop's currency, so
    /// `serve --currency TRY` (or EUR, JPY, KWD) starts with the same campaigns, the pages writing
    /// the amounts in the shopper's locale.
    ///
    /// Demo campaigns stored before they were translated (issue #11) — every stored campaign is a
    /// demo one, exactly as the file has it but for the translations — get the translations.
    static func loadCampaigns(into campaigns: CampaignStore, catalog: CatalogStore, currency: Currency) throws {
        let stored = try campaigns.all()
        guard stored.isEmpty || stored.allSatisfy({ $0.title.translations.isEmpty }) else { return }
        guard let url = Bundle.module.url(forResource: "campaigns", withExtension: "json", subdirectory: "DemoCatalog"),
              let data = FileManager.default.contents(atPath: url.path) else {
            printLine("shoppable: demo campaigns not found in the app bundle; starting without campaigns")
            return
        }
        let demo = try CampaignFile.read(data, fileName: "demo campaigns", currency: currency)
        if !stored.isEmpty {
            let untranslated = demo.map { campaign in
                var campaign = campaign
                campaign.title = LocalizedText(campaign.title.defaultText)
                campaign.description = LocalizedText(campaign.description.defaultText)
                return campaign
            }
            guard Set(stored) == Set(untranslated) else { return }
        }
        for campaign in demo {
            guard case let .products(handles) = campaign.target else { continue }
            for handle in handles where try catalog.productByHandle(handle) == nil { return }
        }
        let result = try campaigns.replaceAll(demo, by: .shop)
        if stored.isEmpty {
            printLine("shoppable: loaded the demo campaigns (\(result.added.count) campaigns)")
        } else {
            printLine("shoppable: translated the demo campaigns (\(result.updated.count) campaigns)")
        }
    }
}

/// SMTP when `--smtp-url` / `SHOPPABLE_SMTP_URL` is set; otherwise `.eml` files in `var/outbox/`
/// (beside the SQLite file; `var/outbox/` for PostgreSQL), each logged, so the email flows work on a laptop.
func mailTransport(_ options: Options) throws -> MailTransport {
    if let url = options.value("smtp-url") {
        printLine("shoppable: email goes out over SMTP to \(url.replacingOccurrences(of: #"//[^@/]*@"#, with: "//…@", options: .regularExpression))")
        return .smtp(url: url)
    }
    let folder = try options.database.localFolder
    let directory = URL(fileURLWithPath: folder.isEmpty ? "." : folder).appendingPathComponent("outbox")
    printLine("shoppable: no --smtp-url: emails are written to \(directory.path)/")
    return .files(directory: directory, onWrite: { printLine("outbox: wrote \($0)") })
}

/// The shop configuration (shipping methods, payment instructions, reservation time): the file
/// named by `--shop-config` / `SHOPPABLE_SHOP_CONFIG`, else the demo's `DemoCatalog/shop.json`.
func loadShopConfig(_ options: Options, currency: Currency) throws -> ShopConfig {
    let path: String
    if let given = options.value("shop-config") {
        path = given
    } else if let bundled = Bundle.module.url(forResource: "shop", withExtension: "json", subdirectory: "DemoCatalog") {
        path = bundled.path
    } else {
        return ShopConfig(shippingMethods: [], paymentInstructions: "", reservationMinutes: ShopConfig.defaultReservationMinutes)
    }
    guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("cannot read the shop configuration “\(path)”") }
    do {
        return try ShopConfigFile.read(data, fileName: (path as NSString).lastPathComponent, currency: currency)
    } catch {
        throw UsageError("shop configuration: \(error.description)")
    }
}
