// WooCommerce product CSV through the catalog importer.
import FuzzSupport
import ShopImport

fuzzCatalog(.wooCommerceCSV)
