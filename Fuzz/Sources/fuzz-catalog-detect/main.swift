// Format detection, then whichever reader it picks: what `shoppable import FILE` does.
import FuzzSupport
import ShopImport

fuzzCatalog(nil)
