// Seed JSON through the catalog importer.
import FuzzSupport
import ShopImport

fuzzCatalog(.seedJSON)
