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
// paths outside its roots) and remote image URLs are kept as they are. The messages are the
// CLI's problems (`ImportProblem`), worded in the staff member's language, and where the CLI
// offers a flag (`--merge-duplicate-skus`, `--format`) the page says what the browser can do.
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

    /// How many of the last checks and imports the import page lists.
    static let recentImports = 10

    /// The upload path and its body limit and timeout (64 MiB in at most 5 minutes).
    static let importUpload = (path: "/admin/products/import",
                               limit: HTTPServer.Configuration.UploadLimit(maxBodyBytes: 64 << 20, bodyTimeout: 300))

    /// The page, with what the last check or import did and the format it was asked for.
    static func productsImportPage(_ context: inout AdminContext, outcome: ImportJobOutcome?, format: String = "",
                                   status: HTTPStatus = .ok) -> Response {
        // The last checks and imports, so a job's page is found again once its tab is closed.
        let recent = (try? context.environment.importJobs?.recent(AdminApp.recentImports)) ?? []
        return context.page(title: context.l10n(.adminImportTitle), nav: .products,
                            AdminViews.productsImport(outcome: outcome, format: format, csrfToken: context.maskedCSRFToken(),
                                                      recent: recent, timeZone: context.environment.timeZone, l10n: context.l10n),
                            status: status)
    }

    /// Starts checking or importing the uploaded file (`ImportJobs`) and waits for it a little
    /// (`AppEnvironment.importAnswerWait`): a small file's result is the answer, a 422 naming the
    /// line and column when refused; a larger one's is the job's page, which shows its progress.
    static func productsImport(_ context: inout AdminContext) throws -> Response {
        guard let actor = context.actor else { return context.errorPage(.forbidden) }
        let environment = context.environment
        guard let jobs = environment.importJobs else { return context.errorPage(.notFound) }
        let request = context.request, l10n = context.l10n
        let formatText = request.formValue("format") ?? ""
        // No file chosen comes as a part without a name; a chosen empty file is the importer's to
        // refuse ("the file is empty", a fresh tester's upload was told to choose a file).
        guard let file = request.file("file"), !(file.data.isEmpty && file.fileName.isEmpty) else {
            return productsImportPage(&context, outcome: .refused(.text(l10n(.adminImportNoFile))), format: formatText,
                                      status: .unprocessableContent)
        }
        let format = CatalogFormat(rawValue: formatText)
        if format == nil && !formatText.isEmpty {
            return productsImportPage(&context, outcome: .refused(.text(l10n(.adminImportUnknownFormat))), status: .unprocessableContent)
        }
        let dryRun = request.formValue("mode") != "import"
        // The name only (a browser may send a whole Windows path), for messages.
        let fileName = file.fileName.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? "upload"
        let service = CatalogImportService(catalog: environment.catalog,
                                           media: .directory(environment.mediaDirectory ?? FileManager.default.temporaryDirectory),
                                           currency: environment.currency, now: environment.now)
        let job = jobs.start(Data(file.data), fileName: fileName, format: format, dryRun: dryRun, actor: actor,
                             using: service)
        guard jobs.wait(job.id, upTo: environment.importAnswerWait), let status = try jobs.status(job.id),
              let outcome = status.outcome else {
            return .redirect(to: AdminRoute.productsImportJob(job.id).path)
        }
        if case .refused = outcome {
            return productsImportPage(&context, outcome: outcome, format: formatText, status: .unprocessableContent)
        }
        return productsImportPage(&context, outcome: outcome, format: formatText)
    }

    /// A job's page: its step and counts while it runs (reloading itself every second), then
    /// what it did, above the form.
    static func productsImportJob(_ context: inout AdminContext, id: String) throws -> Response {
        guard let jobs = context.environment.importJobs, let status = try jobs.status(id) else {
            return context.errorPage(.notFound)
        }
        if let outcome = status.outcome {
            return productsImportPage(&context, outcome: outcome)
        }
        let l10n = context.l10n
        return context.page(title: l10n(.adminImportTitle), nav: .products,
                            AdminViews.importProgress(status.job, timeZone: context.environment.timeZone, l10n: l10n),
                            refreshAfter: 1)
    }
}

extension AdminViews {
    static func productsImport(outcome: ImportJobOutcome?, format: String, csrfToken: String, recent: [ImportJobStatus] = [],
                               timeZone: TimeZone = .gmt, l10n: Localizer) -> Node {
        section(.class("stack")) {
            a(.class("admin-back"), .href(AdminRoute.products(AdminProductFilter()).path)) { l10n(.adminProductsTitle) }
            h1(.class("page-title")) { l10n(.adminImportTitle) }
            switch outcome {
            case nil: p(.class("muted")) { l10n(.adminImportIntro) }
            case let .refused(message):
                div(.class("form-card"), .role("alert")) {
                    h2 { l10n(.adminImportRefused) }
                    p(.class("import-message")) { l10n.message(for: message) }
                    p(.class("muted small")) { l10n(.adminImportNothingWritten) }
                }
            case let .report(report): importReport(report, l10n: l10n)
            case .stopped:
                div(.class("form-card"), .role("alert")) {
                    h2 { l10n(.adminImportStoppedTitle) }
                    p { l10n(.adminImportStopped) }
                }
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
            if !recent.isEmpty { recentImports(recent, timeZone: timeZone, l10n: l10n) }
        }
    }

    /// The last checks and imports, each linked to its page, with what became of it.
    private static func recentImports(_ recent: [ImportJobStatus], timeZone: TimeZone, l10n: Localizer) -> Node {
        div(.class("form-card")) {
            h2 { l10n(.adminImportRecent) }
            ul(.class("admin-import-list")) {
                for status in recent {
                    let job = status.job
                    let state: String = switch status.outcome {
                    case nil: l10n(.adminImportStateRunning)
                    case .report: l10n(job.isDryRun ? .adminImportStateChecked : .adminImportStateImported)
                    // A check and an import of one bad file both refuse: the list tells them apart.
                    case .refused: l10n(job.isDryRun ? .adminImportStateCheckRefused : .adminImportStateRefused)
                    case .stopped: l10n(.adminImportStateStopped)
                    }
                    li {
                        a(.href(AdminRoute.productsImportJob(job.id).path)) { job.fileName }
                        span(.class("muted small")) {
                            " · " + state + " · " + job.startedBy + " · "
                                + l10n.date(job.startedAt, timeZone: timeZone) + " " + l10n.time(job.startedAt, timeZone: timeZone)
                        }
                    }
                }
            }
        }
    }

    /// A job under way: its step, a bar of its counts, who started it and when.
    static func importProgress(_ job: ImportJob, timeZone: TimeZone, l10n: Localizer) -> Node {
        let counts = ["done": l10n.number(job.done), "total": l10n.number(job.total)]
        let step: String = switch job.step {
        case .reading where job.total > 0: l10n(.adminImportStepReadingCount, counts)
        case .reading: l10n(.adminImportStepReading)
        case .checkingImages: l10n(.adminImportStepCheckingImages, ["count": l10n.number(job.total)])
        case .downloadingImages: l10n(.adminImportStepDownloading, ["count": l10n.number(job.total)])
        case .writing where job.isDryRun: l10n(.adminImportStepComparing, counts)
        case .writing, .finished: l10n(.adminImportStepWriting, counts)
        }
        let time = l10n.time(job.startedAt, timeZone: timeZone)
        return section(.class("stack")) {
            a(.class("admin-back"), .href(AdminRoute.products(AdminProductFilter()).path)) { l10n(.adminProductsTitle) }
            h1(.class("page-title")) { l10n(job.isDryRun ? .adminImportChecking : .adminImporting, ["file": job.fileName]) }
            div(.class("form-card"), .role("status")) {
                p { step }
                if job.total > 0 && job.step != .checkingImages && job.step != .downloadingImages {
                    HTML.progress(.class("admin-import-progress"), .max(job.total), .value(min(job.done, job.total)),
                                  .aria("label", step)) { "\(job.done)/\(job.total)" }
                } else {
                    HTML.progress(.class("admin-import-progress"), .aria("label", step))
                }
                p(.class("muted small")) { l10n(.adminImportStartedBy, ["who": job.startedBy, "time": time]) }
                p(.class("muted small")) { l10n(.adminImportKeepsGoing) }
                a(.class("button button-small"), .href(AdminRoute.productsImportJob(job.id).path)) { l10n(.adminImportRefresh) }
            }
        }
    }

    private static func importReport(_ report: ImportSummary, l10n: Localizer) -> Node {
        let counts = ["products": l10n.count(report.productCount, .categoryProductCount),
                      "variants": l10n.count(report.variantCount, .adminImportVariantCount),
                      "images": l10n.count(report.imageCount, .adminImportImageCount), "file": report.fileName]
        return div(.class("form-card"), .role("status")) {
            h2 { l10n(report.isDryRun ? .adminImportChecked : .adminImportDone) }
            p { l10n(.adminImportRead, counts) }
            p {
                l10n(report.isDryRun ? .adminImportWould : .adminImportChanged,
                     ["created": l10n.number(report.created), "updated": l10n.number(report.updated),
                      "unchanged": l10n.number(report.unchanged)])
            }
            if report.isDryRun { p(.class("muted small")) { l10n(.adminImportNothingWritten) } }
            // Which products, as `shoppable import --dry-run` lists them: the new and the changed.
            if !report.products.isEmpty {
                details {
                    summary { l10n.count(report.productsTouched, report.isDryRun ? .adminImportWhichCheck : .adminImportWhich) }
                    ul(.class("admin-import-list")) {
                        for product in report.products {
                            li {
                                span(.class("muted small")) {
                                    l10n(product.isNew ? .adminImportNew : .adminImportChangedOne) + " "
                                }
                                code { product.handles }
                            }
                        }
                        if report.productsTouched > report.products.count {
                            li(.class("muted small")) {
                                l10n(.adminImportMore, ["count": l10n.number(report.productsTouched - report.products.count)])
                            }
                        }
                    }
                }
            }
            if !report.warnings.isEmpty {
                h3 { l10n(.adminImportWarnings) }
                ul {
                    for warning in report.warnings { li(.class("import-message")) { l10n.message(for: warning) } }
                }
            }
        }
    }
}

extension Localizer {
    /// An import job's refusal or warning in this language: the file's problems from
    /// ShopImport's tables (with the file, line and column), a failure that is not the file's
    /// from ours, and a text stored before messages were typed as it was stored.
    func message(for message: ImportJobMessage) -> String {
        switch message {
        case let .refusal(error): error.message(in: language)
        case let .warning(warning): warning.message(in: language)
        case let .skipped(row): row.message(in: language)
        case let .failed(file, detail): self(.adminImportFailed, ["file": file, "detail": detail])
        case let .unreadable(file): self(.adminImportUnreadable, ["file": file])
        case let .text(text): text
        }
    }
}
