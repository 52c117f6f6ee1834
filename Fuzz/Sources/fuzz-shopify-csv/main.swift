// Shopify product CSV (2023 and 2024 headers) through the catalog importer.
import FuzzSupport
import ShopImport

fuzzCatalog(.shopifyCSV)
