// The campaign file (`shoppable campaigns import`).
import Foundation
import FuzzSupport
import ShopImport

fuzz { bytes in
    for currency in fuzzCurrencies {
        _ = try? CampaignFile.read(Data(bytes), fileName: "campaigns.json", currency: currency)
    }
}
