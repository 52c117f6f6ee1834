// The shop configuration file (`serve --shop-config`).
import Foundation
import FuzzSupport
import ShopCore
import ShopImport

fuzz { bytes in
    for currency in fuzzCurrencies {
        guard let config = try? ShopConfigFile.read(Data(bytes), fileName: "shop.json", currency: currency) else {
            continue
        }
        for method in config.shippingMethods {
            _ = config.shippingMethod(id: method.id.rawValue)
            for country in method.countries ?? ["US"] { _ = config.shippingMethods(to: country) }
        }
    }
}
