public import ShopImport
public import ShopStore

extension ImportError {
    /// The import error for the store's refusal of a file's products, as the CLI and the back
    /// office show it. A refusal the file's own line can be named for is typed (and so shown in
    /// each reader's language): a SKU of a stored product that a new handle only partly covers
    /// (`products.csv:2: SKU “mug-1” belongs to product “mug”; to change that product …`), and a
    /// SKU another product has (`take2.csv:2: SKU “mug-1” belongs to product “mug”; a SKU names
    /// one variant of one product`). Any other is the store's own English, after the file name.
    /// - Parameters:
    ///   - file: the file name as given to the importer.
    ///   - refusal: what the store refused.
    public init(file: String, refusal: CatalogStoreError) {
        switch refusal {
        case let .skuOfAnotherProduct(sku, _, line, owner):
            self.init(file: file, line: line > 0 ? line : nil, problem: .skuOfAnotherProduct(sku: sku, owner: owner))
        case let .skuTaken(sku, _, line, owner):
            self.init(file: file, line: line > 0 ? line : nil, problem: .skuTaken(sku: sku, owner: owner))
        case let .skuNotAVariant(sku, handle, line):
            self.init(file: file, line: line > 0 ? line : nil, problem: .skuNotAVariant(sku: sku, handle: handle))
        case let .variantsNeedOptions(handle, line):
            self.init(file: file, line: line > 0 ? line : nil, problem: .variantsNeedOptions(handle: handle))
        case let .variantNeedsSKU(_, line):
            self.init(file: file, line: line > 0 ? line : nil, problem: .variantNeedsSKUWithoutOptions)
        default:
            self.init(file: file, line: nil, problem: .catalogRefused(refusal.errorDescription ?? "\(refusal)"))
        }
    }
}
