import Foundation
import HTML
public import HTTPServer
import ShopCore
import ShopImport
import ShopService
import ShopStore

// Importing a catalog file from the browser (issue #16, point 4): the same `CatalogImportService`
// as `shoppable import`, so the same readers, checks and messages (file, line, column), the same
// dry run ("Check the file") and the same all-or-nothing write, recorded in the audit log as the
// staff member's. An upload has no folder, so local image paths are refused (as the CLI refuses
// paths outside its roots) and remote image URLs are kept as they are.
//
// The form is `multipart/form-data`; the server lets this one path take a body of up to
// `AdminApp.importUpload`'s limit (`ShopApp.uploads`, `HTTPServer.Configuration.uploads`).

extension ShopApp {
    /// The paths allowed a larger body than the server's default, with their limits: the
    /// back office's catalog upload (`HTTPServer.Configuration.uploads`) — only for a request
    /// whose cookies name a signed-in staff member who may change the catalog, decided from its
    /// head before any of the body is read; anyone else keeps the 1 MiB limit.
    public static func uploads(_ environment: AppEnvironment) -> [String: HTTPServer.Configuration.UploadLimit] {
        var limit = AdminApp.importUpload.limit
        limit.admits = { headers in AdminApp.mayUpload(headers, environment) }
        return [AdminApp.importUpload.path: limit]
    }
}

extension AdminApp {
    /// Whether a request's cookies name a live staff session, past its second factor, of a role
    /// that may change the catalog.
    static func mayUpload(_ headers: HTTPHeaders, _ environment: AppEnvironment) -> Bool {
        let cookies = Cookie.parse(headerValues: headers.values(for: "Cookie"))
        guard let service = environment.staffService,
              let found = try? service.resume(token: cookies[sessionCookie]) else { return false }
        return !found.session.needsSecondFactor && found.member.role.allows(.manageCatalog)
    }

    /// The upload path and its body limit and timeout (64 MiB in at most 5 minutes).
    static let importUpload = (path: "/admin/products/import",
                               limit: HTTPServer.Configuration.UploadLimit(maxBodyBytes: 64 << 20, bodyTimeout: 300))

    /// What the last check or import of the page did.
    enum ImportOutcome {
        case report(CatalogImportReport)
        case refused(String)
    }

    /// The page, with what the last check or import did and the format it was asked for.
    static func productsImportPage(_ context: inout AdminContext, outcome: ImportOutcome?, format: String = "",
                                   status: HTTPStatus = .ok) -> Response {
        context.page(title: context.l10n(.adminImportTitle), nav: .products,
                     AdminViews.productsImport(outcome: outcome, format: format, csrfToken: context.maskedCSRFToken(),
                                               l10n: context.l10n),
                     status: status)
    }

    /// Checks or imports the uploaded file; a refused file is a 422 naming the line and column.
    static func productsImport(_ context: inout AdminContext) throws -> Response {
        guard let actor = context.actor else { return context.errorPage(.forbidden) }
        let request = context.request, l10n = context.l10n
        let formatText = request.formValue("format") ?? ""
        guard let file = request.file("file"), !file.data.isEmpty else {
            return productsImportPage(&context, outcome: .refused(l10n(.adminImportNoFile)), format: formatText,
                                      status: .unprocessableContent)
        }
        let format = CatalogFormat(rawValue: formatText)
        if format == nil && !formatText.isEmpty {
            return productsImportPage(&context, outcome: .refused(l10n(.adminImportUnknownFormat)), status: .unprocessableContent)
        }
        let dryRun = request.formValue("mode") != "import"
        // The name only (a browser may send a whole Windows path), for messages.
        let fileName = file.fileName.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? "upload"
        let environment = context.environment
        let service = CatalogImportService(catalog: environment.catalog,
                                           media: .directory(environment.mediaDirectory ?? FileManager.default.temporaryDirectory),
                                           currency: environment.currency, now: environment.now)
        do {
            let report = try service.importCatalog(Data(file.data), fileName: fileName, format: format,
                                                   options: .init(dryRun: dryRun, actor: actor))
            environment.log("catalog file \(fileName) \(dryRun ? "checked" : "imported") by \(actor.name)")
            return productsImportPage(&context, outcome: .report(report), format: formatText)
        } catch let error as ImportError {
            return productsImportPage(&context, outcome: .refused(error.description), format: formatText,
                                      status: .unprocessableContent)
        } catch let error as CatalogStoreError {
            return productsImportPage(&context, outcome: .refused("\(fileName): \(error.errorDescription ?? "\(error)")"),
                                      format: formatText, status: .unprocessableContent)
        }
    }
}

extension AdminViews {
    static func productsImport(outcome: AdminApp.ImportOutcome?, format: String, csrfToken: String, l10n: Localizer) -> Node {
        section(.class("stack")) {
            a(.class("back-link"), .href(AdminRoute.products(AdminProductFilter()).path)) { l10n(.adminProductsTitle) }
            h1(.class("page-title")) { l10n(.adminImportTitle) }
            switch outcome {
            case nil: p(.class("muted")) { l10n(.adminImportIntro) }
            case let .refused(message):
                div(.class("form-card"), .role("alert")) {
                    h2 { l10n(.adminImportRefused) }
                    p { code { message } }
                    p(.class("muted small")) { l10n(.adminImportNothingWritten) }
                }
            case let .report(report): importReport(report, l10n: l10n)
            }
            HTML.form(.class("form-card"), .method("post"), .action(AdminRoute.productsImportRun.path),
                      .attribute("enctype", "multipart/form-data")) {
                csrfInput(csrfToken)
                div(.class("field")) {
                    label(.for("file")) { l10n(.adminImportFile) }
                    input(.type("file"), .name("file"), .id("file"), .attribute("accept", ".csv,.json,text/csv,application/json"),
                          .boolean("required"))
                }
                div(.class("field")) {
                    label(.for("format")) { l10n(.adminImportFormat) }
                    select(.name("format"), .id("format")) {
                        option(.value(""), .selected(CatalogFormat(rawValue: format) == nil)) { l10n(.adminImportFormatDetect) }
                        for (choice, name) in [(CatalogFormat.shopifyCSV, "Shopify CSV"), (.wooCommerceCSV, "WooCommerce CSV"),
                                               (.shoppableJSON, "JSON")] {
                            option(.value(choice.rawValue), .selected(format == choice.rawValue)) { name }
                        }
                    }
                }
                p(.class("muted small")) { l10n(.adminImportHint) }
                div(.class("admin-filter-buttons")) {
                    button(.type("submit"), .name("mode"), .value("check"), .class("button")) { l10n(.adminImportCheck) }
                    button(.type("submit"), .name("mode"), .value("import"), .class("button button-primary")) { l10n(.adminImportRun) }
                }
            }
        }
    }

    private static func importReport(_ report: CatalogImportReport, l10n: Localizer) -> Node {
        let counts = ["products": String(report.productCount), "variants": String(report.variantCount),
                      "images": String(report.imageCount), "file": report.fileName]
        return div(.class("form-card"), .role("status")) {
            h2 { l10n(report.isDryRun ? .adminImportChecked : .adminImportDone) }
            p { l10n(.adminImportRead, counts) }
            if let outcome = report.changes ?? report.preview {
                p {
                    l10n(report.isDryRun ? .adminImportWould : .adminImportChanged,
                         ["created": String(outcome.productsCreated), "updated": String(outcome.productsUpdated),
                          "unchanged": String(outcome.productsUnchanged)])
                }
            }
            if report.isDryRun { p(.class("muted small")) { l10n(.adminImportNothingWritten) } }
            // Which products, as `shoppable import --dry-run` lists them: the new and the changed.
            if let outcome = report.changes ?? report.preview {
                let touched = outcome.products.filter { $0.change != .unchanged }
                if !touched.isEmpty {
                    details {
                        summary { l10n(.adminImportWhich, ["count": String(touched.count)]) }
                        ul(.class("admin-import-list")) {
                            for product in touched.prefix(1_000) {
                                li {
                                    span(.class("muted small")) {
                                        l10n(product.change == .created ? .adminImportNew : .adminImportChangedOne) + " "
                                    }
                                    code { product.handle }
                                }
                            }
                            if touched.count > 1_000 { li(.class("muted small")) { "…" } }
                        }
                    }
                }
            }
            if !report.warnings.isEmpty || !report.skipped.isEmpty {
                h3 { l10n(.adminImportWarnings) }
                ul {
                    for warning in report.warnings { li { code { warning.description } } }
                    for row in report.skipped { li { code { row.description } } }
                }
            }
        }
    }
}
