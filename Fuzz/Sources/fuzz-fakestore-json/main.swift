// Fake Store API JSON through the catalog importer.
import FuzzSupport
import ShopImport

fuzzCatalog(.fakeStore)
