import Foundation
import HTTPServer
import ShopCore
import ShopImport
import ShopStore
import ShopStoreSQLite
import ShopWeb

extension CommandLine {
    static let usage = """
    shoppable — a shop: storefront web app and catalog tools.

    USAGE
      shoppable serve   [--host 127.0.0.1] [--port 8080] [--database PATH] [--currency USD]
                        [--timezone UTC] [--locale en|tr|es] [--threads N] [--public-url URL] [--media DIR]
                        [--no-demo]
      shoppable import  FILE [--format auto|fakestore|seed-json|shoppable-json|shopify-csv|woocommerce-csv]
                        [--dry-run] [--merge-duplicate-skus] [--database PATH] [--currency USD] [--media DIR]
                        [--media-root DIR] [--fetch-images[=HOST,HOST…]] [--fetch-images-ca FILE]
      shoppable export  --format shopify-csv|woocommerce-csv|shoppable-json FILE|- [--database PATH] [--currency USD]
                        (the whole catalog, published or not; - writes to standard output; docs/IMPORT.md)
      shoppable migrate [--database PATH]
      shoppable users   create --email EMAIL --name NAME [--operator] [--unverified] [--database PATH]
                        (asks for the password without echo; reads it from standard input in scripts)
      shoppable users   list [--database PATH]
      shoppable staff   create --email EMAIL --name NAME --role owner|manager|support [--language en|tr|es]
                        [--database PATH]
                        (a back-office account, signed in at /admin; asks for the password like users create)
      shoppable staff   list [--database PATH]
      shoppable staff   set-role EMAIL owner|manager|support [--database PATH]
      shoppable staff   remove EMAIL [--database PATH]   (ends their sessions; the last owner stays)
      shoppable campaigns import FILE [--dry-run] [--database PATH] [--currency USD] [--timezone UTC]
                        (checks the whole file, then replaces every stored campaign: docs/CAMPAIGNS.md)
      shoppable campaigns list [--database PATH] [--timezone UTC]
      shoppable orders  list [--status awaiting_payment|paid|fulfilled|delivered|cancelled] [--database PATH] [--timezone UTC]
                        (one line each: number, date, email, total, status; newest first)
      shoppable orders  show NUMBER [--database PATH] [--timezone UTC]
      shoppable orders  mark-paid|mark-delivered|cancel NUMBER [--database PATH] [--public-url URL]
      shoppable orders  fulfil NUMBER --carrier NAME --tracking NUMBER [--database PATH] [--public-url URL]
      shoppable orders  refund NUMBER LINE=QTY [LINE=QTY…] [--database PATH] [--public-url URL]
                        (the order's next step, by the rules of docs/ORDERS.md; a cancel gives its
                        stock back; the shopper is emailed through the outbox, linking to --public-url;
                        exit 65 for an unknown order or a step its status does not allow)
      shoppable stock   set SKU QTY [--database PATH]
                        (sets the variant's stock and tracks it; exit 65 for an unknown SKU)
      shoppable db      copy --from sqlite:PATH --to postgres://USER@HOST/DB [--replace]
                        (moves a shop to PostgreSQL in one transaction, ids kept, counts checked;
                        refuses a target holding data unless --replace: docs/DEPLOY.md)

    OPTIONS (each also read from SHOPPABLE_<NAME>, e.g. SHOPPABLE_DATABASE)
      --database PATH   the shop's database: a SQLite file path or sqlite: URL (default
                        var/shoppable.sqlite3), or a PostgreSQL URL postgres://USER[:PASSWORD]@HOST[:PORT]/DB
                        (libpq options after ?, e.g. ?sslmode=verify-full); several servers may share one
      --currency CODE   shop currency, ISO 4217 (default USD)
      --timezone NAME   shop time zone for dates (default UTC)
      --locale CODE     serve: the shop's default language, en, tr or es (default en), for shoppers
                        who chose none and whose browser asks for none of them
      --port N          port to listen on (default 8080; 0 picks a free one)
      --host ADDRESS    address to listen on (default 127.0.0.1)
      --threads N       HTTP worker threads (default: one per core)
      --public-url URL  the shop's public URL; https makes cookies Secure
      --media DIR       folder for imported local images (default: media/ beside the SQLite file, var/media
                        for PostgreSQL; servers sharing a PostgreSQL database need one shared folder)
      --max-connections-per-address N  serve: open connections one client address may hold
                        (default 128; docs/SECURITY.md)
      --trusted-proxy ADDR[,ADDR…]  serve: reverse proxies whose X-Forwarded-For gives the client
                        address (for the throttles); exempt from the per-address limit
      --cors-origin ORIGIN[,ORIGIN…]  serve: web origins (https://app.example, or *) whose pages may
                        call the JSON API from a browser (CORS; default: none)
      --media-root DIR  import: local images may come from here too, not only from the catalog
                        file's folder (docs/IMPORT.md, "Local images")
      --fetch-images[=HOST,…]  import: download http(s) image URLs into the media folder (checked,
                        resized, content-named like local files); alone: any host, public addresses
                        only; with hosts: only those (any address); others stay remote URLs
      --fetch-images-ca FILE  import: trust https image servers whose certificate chains to the
                        authorities in this PEM file instead of the system's
      --no-demo         do not load the demo catalog (and its campaigns) into an empty database
      --smtp-url URL    serve: deliver email over SMTP (e.g. smtp://127.0.0.1:1025); without it
                        emails are written as .eml files to var/outbox/ (SHOPPABLE_SMTP_URL)
      --mail-from ADDR  serve: sender address of emails (default shop@localhost)
      --import-wait SECONDS  serve: how long the back office's catalog upload waits for its check
                        or import before it shows the job's progress page instead (default 2, 0…60)
      --shop-config FILE  serve: shipping methods, payment instructions, reservation minutes and
                        unpaid-order days (JSON, docs/ORDERS.md; default: the demo's shop.json)
      --dry-run         import, campaigns import: read and check the file, write nothing (import: list
                        what would be created, updated and left alone, per product)
      --format NAME     import: the file's format (default auto); export: the format to write
      --merge-duplicate-skus  import: a SKU repeated in the file stays with its first variant
                        (warning) instead of refusing the file (docs/IMPORT.md, "SKU identity")
      --status STATUS   orders list: only orders in this status
      --carrier NAME, --tracking NUMBER  orders fulfil: who carries it and its tracking number
    """

    /// Runs a command line; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        do {
            let options = try Options(arguments)
            guard let command = options.arguments.first, !options.has("help") else {
                print(usage)
                return options.has("help") ? 0 : 64
            }
            let known: Set<String> = switch command {
            case "serve": ["host", "port", "database", "currency", "timezone", "locale", "threads", "public-url", "media", "no-demo",
                           "smtp-url", "mail-from", "shop-config", "max-connections-per-address",
                           "trusted-proxy", "cors-origin", "import-wait", "help"]
            case "import": ["format", "dry-run", "merge-duplicate-skus", "database", "currency", "media", "media-root", "fetch-images",
                             "fetch-images-ca", "help"]
            case "export": ["format", "database", "currency", "help"]
            case "migrate": ["database", "help"]
            case "users": ["database", "email", "name", "unverified", "operator", "help"]
            case "staff": ["database", "email", "name", "role", "language", "help"]
            case "campaigns": ["database", "currency", "timezone", "dry-run", "help"]
            case "orders": ["database", "timezone", "status", "carrier", "tracking", "public-url", "help"]
            case "stock": ["database", "help"]
            case "db": ["from", "to", "replace", "help"]
            case "bench-search": ["database", "currency", "rounds", "count-limit", "help"]
            default: []
            }
            if let unknown = options.unknownFlags(known: known).first {
                throw UsageError("unknown option --\(unknown) for `\(command)`")
            }
            switch command {
            case "serve": try Serve.run(options)
            case "import": try ImportCommand.run(options)
            case "export": try ExportCommand.run(options)
            case "migrate": try Migrate.run(options)
            case "db": try DatabaseCopyCommand.run(options)
            case "users": try UsersCommand.run(options)
            case "staff": try StaffCommand.run(options)
            case "campaigns": try CampaignsCommand.run(options)
            case "orders": try OrdersCommand.run(options)
            case "stock": try StockCommand.run(options)
            case "bench-search": try BenchSearchCommand.run(options)  // bench/search's tool, not in the usage
            case "help": print(usage)
            default: throw UsageError("unknown command “\(command)”")
            }
            return 0
        } catch let error as UsageError {
            printError("shoppable: \(error.description)\nRun `shoppable --help` for usage.")
            return 64
        } catch let error as OperatorDataError {
            printError("shoppable: \(error.description)")
            return 65
        } catch let error as CampaignFileError {
            printError("shoppable campaigns: \(error.description)\nNothing was imported; the stored campaigns are unchanged.")
            return 65
        } catch let error as ImportError {
            printError("shoppable import: \(error.description)\nNothing was imported.")
            return 65
        } catch {
            printError("shoppable: \((error as? any LocalizedError)?.errorDescription ?? "\(error)")")
            return 1
        }
    }
}

/// Writes one line to standard output unbuffered (log lines must not wait in a buffer; a write of
/// one line is atomic, so lines from several threads never interleave).
func printLine(_ line: String) {
    // Written at once, after any access-log lines gathered before it (`LineLog`).
    LineLog.standardOutput.write(line)
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// The media folder: `--media`, else `media/` beside the SQLite file (`var/media` for PostgreSQL).
func mediaDirectory(_ options: Options) throws -> URL {
    if let media = options.value("media") { return URL(fileURLWithPath: media) }
    let folder = try options.database.localFolder
    return URL(fileURLWithPath: folder.isEmpty ? "." : folder).appendingPathComponent("media")
}

enum Migrate {
    static func run(_ options: Options) throws {
        let database = try openDatabase(options, poolSize: 1)
        defer { database.close() }
        print("database \(try options.database) is at schema version \(try database.appliedMigrations().max() ?? 0)")
    }
}
