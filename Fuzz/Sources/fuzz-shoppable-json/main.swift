// Our own shoppable-json catalog format through the catalog importer.
import FuzzSupport
import ShopImport

fuzzCatalog(.shoppableJSON)
