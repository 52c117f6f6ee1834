import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite

/// `shoppable bench-search --database PATH [--rounds N] [--count-limit N] [--currency USD]` (not in the usage
/// text: a tool for `bench/search`, docs/BENCHMARKS.md). Times `CatalogStore.products` itself —
/// the store a search page calls, through one pooled connection — over a mix of queries written
/// for the catalog `bench/search` generates (English, Turkish and Spanish words), each as the
/// search page asks for it (24 products, facets) on pages 1 and 3, and without facets (the API).
/// Prints p50/p95/p99 per kind of query and overall, in milliseconds: wall-clock time, then the
/// thread's CPU time (on a machine shared with other work, the part that is the store's own).
/// `--count-limit` replaces `ProductPage.searchCountLimit` (a large one measures without it).
enum BenchSearchCommand {
    /// What a query stands for, as the report groups them.
    enum Kind: String, CaseIterable {
        case oneWord = "1 word"
        case twoWords = "2 words"
        case typing = "prefix while typing"
        case stem = "plural/stem"
        case typo = "typo"
        case sku = "SKU"
        case noHit = "no hit, did you mean"
    }

    static let queries: [(text: String, locale: SearchLocale, kind: Kind)] = [
        ("oak", .english, .oneWord), ("lamp", .english, .oneWord), ("brass", .english, .oneWord),
        ("silla", .spanish, .oneWord), ("kilim", .turkish, .oneWord), ("ışık", .turkish, .oneWord),
        ("café", .english, .oneWord), ("straße", .english, .oneWord),
        ("walnut chair", .english, .twoWords), ("ceviz masa", .turkish, .twoWords), ("glass vase", .english, .twoWords),
        ("mesa roble", .spanish, .twoWords), ("yumuşak yastık", .turkish, .twoWords), ("velvet sofa", .english, .twoWords),
        ("b", .english, .typing), ("l", .english, .typing), ("la", .english, .typing), ("lam", .english, .typing),
        ("ta", .english, .typing), ("velv", .english, .typing), ("modern so", .english, .typing),
        ("linen c", .english, .typing), ("çini tab", .turkish, .typing), ("ısık lam", .turkish, .typing),
        ("lambalar", .turkish, .stem), ("sillas", .spanish, .stem), ("mugs", .english, .stem),
        ("chiar", .english, .typo), ("wallnut chiar", .english, .typo), ("lapm", .english, .typo),
        ("S-4242", .english, .sku), ("s-777-1", .english, .sku),
        ("lmpa", .english, .noHit), ("deri koltuk", .turkish, .noHit), ("xylophone", .english, .noHit),
    ]

    /// One timed call: a query of the mix as a page asks for it.
    struct Run {
        var kind: Kind
        var variant: String
        var query: ProductQuery
    }

    static func run(_ options: Options) throws {
        let rounds = try options.int("rounds", default: 10)
        guard rounds > 0 else { throw UsageError("--rounds must be at least 1") }
        guard let database = try openExistingDatabase(options) else {
            throw UsageError("no database at \(try options.database) (bench/search imports one)")
        }
        defer { database.close() }
        let store = database.catalog(currency: try options.currency(),
                                     searchCountLimit: try options.int("count-limit", default: ProductPage.searchCountLimit))
        let runs = queries.flatMap { text, locale, kind in
            [Run(kind: kind, variant: "page 1, facets", query: ProductQuery(text: text, locale: locale, includesFacets: true)),
             Run(kind: kind, variant: "page 3, facets",
                 query: ProductQuery(text: text, locale: locale, includesFacets: true, offset: 48)),
             Run(kind: kind, variant: "page 1, no facets", query: ProductQuery(text: text, locale: locale))]
        }
        var totals: [String: Int] = [:]
        for run in runs {  // warm-up round: the page cache of the file, prepared statements
            totals[run.query.text!] = try store.products(run.query).totalCount
        }
        var byKind: [Kind: [Double]] = [:]
        var byVariant: [String: [Double]] = [:]
        var byText: [String: [Double]] = [:]
        var all: [Double] = []
        var cpuByKind: [Kind: [Double]] = [:]
        var cpuAll: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<rounds {
            for run in runs {
                let cpuStart = threadCPUMilliseconds()
                let elapsed = try clock.measure { _ = try store.products(run.query) }
                let cpu = threadCPUMilliseconds() - cpuStart
                let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
                byKind[run.kind, default: []].append(milliseconds)
                byVariant[run.variant, default: []].append(milliseconds)
                if run.query.includesFacets && run.query.offset == 0 {
                    byText[run.query.text!, default: []].append(milliseconds)
                }
                all.append(milliseconds)
                cpuByKind[run.kind, default: []].append(cpu)
                cpuAll.append(cpu)
            }
        }
        print("bench-search: \(rounds) rounds of \(runs.count) store calls (\(queries.count) queries × page 1 with facets, "
              + "page 3 with facets, page 1 without), 24 products a page, one connection")
        func line(_ name: String, _ values: [Double]) -> String {
            let sorted = values.sorted()
            func percentile(_ fraction: Double) -> String {
                String(format: "%8.2f", sorted[min(sorted.count - 1, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)])
            }
            return name.padding(toLength: 26, withPad: " ", startingAt: 0)
                + " \(String(format: "%6d", sorted.count)) \(percentile(0.5)) \(percentile(0.95)) \(percentile(0.99)) "
                + String(format: "%8.2f", sorted.last!)
        }
        print("\("".padding(toLength: 26, withPad: " ", startingAt: 0))  calls   p50 ms   p95 ms   p99 ms   max ms")
        for kind in Kind.allCases { if let values = byKind[kind] { print(line(kind.rawValue, values)) } }
        for variant in ["page 1, facets", "page 3, facets", "page 1, no facets"] {
            print(line(variant, byVariant[variant]!))
        }
        print(line("overall", all))
        print("\nCPU time of the calling thread (the same calls)")
        for kind in Kind.allCases { if let values = cpuByKind[kind] { print(line(kind.rawValue, values)) } }
        print(line("overall", cpuAll))
        print("\nper query (page 1 with facets): matches, p50 ms, max ms")
        for (text, locale, _) in queries {
            let sorted = byText[text]!.sorted()
            print("  \(text) (\(locale.rawValue))".padding(toLength: 26, withPad: " ", startingAt: 0)
                  + String(format: " %7d %8.2f %8.2f", totals[text] ?? 0, sorted[(sorted.count - 1) / 2], sorted.last!))
        }
    }

    /// The CPU time this thread has used, in milliseconds.
    static func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
    }
}
