public import Foundation
public import ShopCore

/// Every string a shopper sees, by key. The texts live in one string table per language,
/// `Localizable/<code>.json` (`en.json` is the source; `StringTable`), each key a case's raw
/// value: a text, or for a counted phrase its CLDR plural forms
/// (`{"one": "1 product", "other": "{count} products"}`, `Localizer.count(_:_:_:)`).
///
/// Placeholders are `{name}`, replaced by `Localizer.callAsFunction(_:_:)`. A test keeps the
/// tables complete: the same keys in every language, no key without a case, no case without a
/// use, and every translation with English's placeholders.
public enum L10nKey: String, CaseIterable, Sendable {
    case shopName, skipToContent, languageLabel, mainNavigationLabel
    case tabHome, tabCategories, tabCart
    case homeTitle, homeHeroTitle, homeHeroText, homeCategoriesTitle, homeFeaturedTitle, seeAll
    case categoriesTitle, categoryProductCount, categoryEmpty, categoryNoMatches
    case allProductsTitle, allProductsLink, allProductsCategoryFilter, allProductsAnyCategory, allProductsUncategorized
    case paginationPrevious, paginationNext, paginationStatus
    case ratingLabel, ratingCount, onSale, from
    case stockInStock, stockOnlyLeft, stockSoldOut
    case productVendor, productPublished, productTags, productDescription, productCombinationUnavailable, productQuantity
    case addToCart, soldOutButton, addedToCart, viewCart
    case cartTitle, cartEmptyTitle, cartEmptyText, cartContinueShopping, cartItemCount
    case cartQuantity, cartUpdate, cartRemove, cartSubtotal, cartUnitPrice
    case cartRemoved, cartUpdated
    case errorNotFoundTitle, errorNotFoundText, errorServerTitle, errorServerText, errorBackHome
    case errorBadRequestTitle, errorBadRequestText
    case cartErrorQuantityNegative, cartErrorQuantityNotWhole, cartErrorQuantityNotANumber
    case cartErrorQuantityNotPositive, cartErrorSoldOut, cartErrorQuantityExceedsStock
    case cartErrorQuantityExceedsStockInCart, cartErrorQuantityExceedsMaximum, cartErrorLineNotFound
    case cartErrorVariantNotFound, cartErrorChooseVariant, cartErrorChooseValue, cartErrorValueNotAllowed
    case tabFavorites, accountLink, signInLink
    case favoritesTitle, favoritesEmptyTitle, favoritesEmptyText, favoriteAdd, favoriteRemove, favoriteAdded, favoriteRemoved
    case quickAdd, chooseOptions
    case categorySearchLabel, categorySearchPlaceholder, categorySearchEmpty, searchSubmit
    case layoutGrid, layoutList, relatedTitle
    case sortLabel, sortRelevance, sortFeatured, sortPriceAscending, sortPriceDescending, sortNewest, sortRating, sortName
    case filterTitle, filterMinPrice, filterMaxPrice, filterRating, filterAnyRating, filterRatingAtLeast, filterInStock, filterPriceUnreadable
    case filterVendor, filterTag, filterAny, filterApply, filterClear
    case filterOptionCount, filterPriceBand, filterAnyPrice, filterPriceUnder, filterPriceBetween, filterPriceFrom
    case tabCampaigns, campaignsTitle, campaignsEmpty, campaignDates, campaignCode, campaignCopy, campaignCopied
    case campaignPricesWithCode, campaignCardWithCode, campaignAppliesToCart, campaignProducts, campaignMinimum, campaignPercentOff, campaignAmountOff
    case homeSeeRecommendations, homeSeeAll, homeRecommendationsTitle
    case cartVoucherLabel, cartVoucherApply, cartVoucherRemove, cartVoucherApplied, cartDiscount, cartTotal
    case cartSelect, cartSelectAll, cartSelectNone, cartNothingSelected
    case voucherSignIn, voucherUsedUp, voucherUnknown, voucherNotStarted, voucherExpired, voucherMinimumNotMet, voucherNotApplicable, voucherInvalidFormat
    case addressesTitle, addressesEmpty, addressAdd, addressEditTitle, addressNewTitle, addressSave, addressSaved, addressDeleted, addressDelete, addressDeleteTitle, addressDeleteConfirm, addressDeleteCancel, addressDefault, addressMakeDefault, addressEdit, fieldFirstName, fieldLastName, fieldPhone, fieldEmailOptional, fieldLine1, fieldLine2, fieldCity, fieldPostalCode, fieldRegion, fieldCountry, checkoutButton, checkoutTitle, checkoutStepAddress, checkoutStepShipping, checkoutStepReview, checkoutContinue, checkoutUseAddress, checkoutNewAddress, checkoutSaveAddress, checkoutGuestEmail, checkoutNoShipping, checkoutChooseShipping, checkoutFree, checkoutShippingLine, checkoutPlace, checkoutHeld, checkoutHoldMinutes, checkoutHoldEnded, checkoutEdit, checkoutSoldOutTitle, checkoutSoldOutLine, checkoutSoldOutLineNone, checkoutHoldTrimmedTitle, checkoutHoldTrimmedLine, checkoutHoldTrimmedLineNone, checkoutBackToCart, checkoutChangedText, checkoutNothingSelected, checkoutSessionEnded, checkoutAwaitingPayment, orderPlacedTitle, orderTitle, ordersTitle, ordersEmpty, ordersGuestHint, orderPaymentTitle, orderStatusPaid, orderStatusShipped, orderStatusDelivered, orderStatusCancelled, orderShippedWith, orderTrackingNumber, orderShipTo, orderRefunded, orderRefundedUnits, orderEmailSubject, orderEmailBody, orderLinkSaved
    case searchTitle, searchPlaceholder, searchResults, searchResultsCapped, searchEmptyTitle, searchEmptyText, searchPrompt, searchDidYouMean
    case registerTitle, registerIntro, registerSubmit, registerHaveAccount, registerDone
    case registerNoticeSubject, registerNoticeBody
    case fieldName, fieldEmail, fieldPassword, fieldPasswordConfirmation, fieldCurrentPassword, fieldNewPassword
    case fieldRemember, passwordHint
    case signInTitle, signInSubmit, signInNoAccount, signInForgot, signInWrong, throttled, signInWelcome
    case signInCartCapped, signInRequired
    case signOutSubmit, signOutDone, signOutEverywhereSubmit, signOutEverywhereDone, signOutEverywhereHint
    case verifyBanner, verifyResend, verifyResent, verifyDoneTitle, verifyDoneText, verifyFailedTitle, verifyFailedText, verifyFailedSignedInText, verifyAlreadyTitle, verifyAlreadyText
    case verifyEmailSubject, verifyEmailBody
    case forgotTitle, forgotIntro, forgotSubmit, forgotSent
    case resetTitle, resetSubmit, resetDone, resetFailedTitle, resetFailedText, resetEmailSubject, resetEmailBody, emailChangedSubject, emailChangedBody
    case accountTitle, accountVerified, accountUnverified, accountChangePassword, accountPasswordChanged
    case errorForbiddenTitle, errorForbiddenText, errorCrossSiteTitle, errorCrossSiteText, errorBusyTitle, errorBusyText, cartLineRemoved
    case refusedTooLarge, refusedAddressTooLong, refusedHeadersTooLarge, refusedUnreadable, apiRefusedUnreadable
    // The back office (issue #16).
    case adminBulkChange, adminBulkAdjustPrice, adminBulkSetPrice, adminBulkSetStock, adminBulkValue, adminBulkHint, adminBulkApply, adminBulkTick
    case adminBulkNoneTicked, adminBulkBadValue, adminBulkBadPercent, adminBulkChangedSinceShown, adminProductErrorPriceTooHigh
    case adminCodeTitle, adminCodeIntro, adminCodeLabel, adminCodeSubmit, adminCodeWrong, adminSecondFactorTitle, adminSecondFactorIntro, adminSecondFactorManage
    case adminSecondFactorScan, adminSecondFactorQRLabel, adminSecondFactorKey, adminSecondFactorTurnOn, adminSecondFactorTurnOff, adminSecondFactorIsOn, adminSecondFactorOn, adminSecondFactorOff
    case adminBulkDone, adminProductErrorSKU, adminProductsExport, adminAccountTitle, adminPasswordChanged, adminPasswordHint
    case adminImportVariantCount, adminImportImageCount, adminImportFailed, adminImportUnreadable
    case adminExportTooManyOptions, adminExportOpenVariant, adminExportOpenVariantNoSKU
    case adminImportRecent, adminImportStateRunning, adminImportStateChecked, adminImportStateImported, adminImportStateRefused, adminImportStateCheckRefused, adminImportStateStopped
    case adminImportMore
    case adminImportChecking, adminImporting, adminImportStepReading, adminImportStepReadingCount, adminImportStepCheckingImages, adminImportStepDownloading, adminImportStepWriting, adminImportStepComparing, adminImportStartedBy, adminImportKeepsGoing, adminImportRefresh, adminImportStoppedTitle, adminImportStopped
    case adminImportWhich, adminImportWhichCheck, adminImportNew, adminImportChangedOne
    case adminAuditValueChanged, adminAuditValueUntracked, adminAuditValueShopper, adminAuditValueOperator, adminImportUnknownFormat
    case adminProductErrorPositionTwice
    case adminProductNewTitle, adminProductsNew, adminProductCreate, adminProductCreated
    case adminAuditFieldUsername, adminAuditFieldAddress
    case adminFieldImagePosition, adminProductErrorPosition
    case adminImportTitle, adminImportIntro, adminImportFile, adminImportFormat, adminImportFormatDetect, adminImportHint, adminImportCheck, adminImportRun, adminImportNoFile, adminImportRefused, adminImportNothingWritten, adminImportChecked, adminImportDone, adminImportRead, adminImportWould, adminImportChanged, adminImportWarnings, adminProductsImport
    case adminAuditActionImport, adminAuditActionSendVerification, adminAuditActionSendReset, adminSubjectCustomer
    case adminNavProducts, adminProductsTitle, adminProductsSearch, adminProductsEmpty, adminFilterVisibility, adminVisibilityAll, adminVisibilityPublished, adminVisibilityUnpublished
    case adminFilterCategory, adminFilterAnyCategory, adminColumnProduct, adminColumnPrice, adminColumnStock, adminColumnVariants, adminStockUntracked, adminPriceFrom
    case adminProductEditTitle, adminProductBack, adminProductView, adminFieldVendor, adminFieldTags, adminFieldTagsHint, adminFieldDescriptionHTML, adminFieldPublished
    case adminProductImages, adminFieldAltText, adminProductVariants, adminFieldSKU, adminFieldPrice, adminFieldCompareAt, adminFieldTracked, adminFieldStock
    case adminProductSave, adminProductSaved, adminProductUnchanged, adminProductChanged, adminProductErrorTitle, adminProductErrorPrice, adminProductErrorCompareAt, adminProductErrorCompareAtNotHigher, adminProductErrorDecimals, adminProductErrorStock, adminProductErrorStockUntracked
    case adminProductErrorText, adminProductErrorStore, adminSubjectProduct
    case adminNavCampaigns, adminCampaignsTitle, adminCampaignsIntro, adminCampaignsEmpty, adminCampaignNew, adminCampaignEditTitle, adminColumnCampaign, adminColumnCode
    case adminColumnDiscount, adminColumnWindow, adminColumnUses, adminColumnRevenue, adminCampaignStateActive, adminCampaignStateScheduled, adminCampaignStateEnded, adminCampaignStatePaused
    case adminCampaignNoCode, adminCampaignPercentOff, adminCampaignAmountOff, adminCampaignDiscountGiven, adminCampaignPause, adminCampaignResume, adminCampaignDelete, adminCampaignSave
    case adminCampaignCreate, adminCampaignBack, adminFieldCampaignID, adminFieldCampaignIDHint, adminFieldTitle, adminFieldDescription, adminFieldImage, adminFieldImageHint
    case adminFieldStarts, adminFieldEnds, adminFieldWindowHint, adminFieldDiscountType, adminDiscountPercentage, adminDiscountFixed, adminFieldPercent, adminFieldAmount
    case adminFieldAppliesTo, adminTargetCart, adminTargetCategory, adminTargetProducts, adminFieldCategory, adminFieldProducts, adminFieldProductsHint, adminFieldMinimum
    case adminFieldLeaveEmpty, adminFieldCode, adminFieldCodeHint, adminFieldLimit, adminFieldPaused, adminFieldAmountHint, adminCampaignErrorTitle, adminCampaignErrorID
    case adminCampaignErrorIDTaken, adminCampaignErrorImage, adminCampaignErrorDate, adminCampaignErrorSkippedTime, adminCampaignErrorYear, adminCampaignErrorEnds, adminCampaignErrorPercent, adminCampaignErrorAmount, adminCampaignErrorMinimum, adminCampaignErrorCategory
    case adminCampaignErrorProducts, adminCampaignErrorChoice, adminCampaignErrorProductTwice, adminCampaignErrorCode, adminCampaignErrorCodeTaken, adminCampaignErrorLimit, adminCampaignErrorForm, adminCampaignChanged, adminCampaignSaved
    case adminCampaignCreated, adminCampaignMissingProducts, adminCampaignPausedDone, adminCampaignResumedDone, adminCampaignDeleted, adminCampaignDeleteHint, adminCampaignTranslationsKept, adminAuditFieldDiscount, adminAuditFieldTarget
    case adminAuditActionCreate, adminAuditActionUpdate, adminAuditActionDelete, adminAuditActionSet, adminAuditFieldStatus, adminAuditFieldCarrier, adminAuditFieldTracking, adminAuditFieldItemsBack
    case adminAuditFieldRefund, adminAuditFieldStock, adminAuditFieldTracked, adminAuditFieldLineRefunded
    case adminDashToday, adminDashLast30, adminDashSales, adminDashAverage, adminDashChartTitle, adminDashChartDesc, adminDashTop, adminDashUnits
    case adminDashNoSales, adminDashLowStock, adminDashLowStockNone, adminDashLeft, adminDashEmails, adminDashEmailsNone, adminDashEmailsFailing
    case adminStaffChangeRole, adminStaffRemove, adminStaffRemoved, adminStaffRoleChanged, adminStaffLastOwner
    case adminRefundTitle, adminRefundHint, adminRefundUnits, adminRefundSubmit, adminRefundDone, adminNothingToShip, adminRefundNothing
    case adminRefundTooMany, adminRefundNotANumber, adminRefundChanged, orderRefundEmailSubject, orderRefundEmailBody
    case adminNavCustomers, adminCustomersTitle, adminCustomersSearch, adminCustomersEmpty, adminColumnVerified, adminColumnJoined, adminColumnOrders, adminYes
    case adminNo, adminCustomerTitle, adminCustomerLanguage, adminCustomerOperator, adminCustomerAddresses, adminCustomerNoAddresses, adminCustomerNoOrders, adminCustomerEmails
    case adminCustomerResendVerification, adminCustomerSendReset, adminCustomerEmailsHint, adminCustomerVerificationSent, adminCustomerAlreadyVerified, adminCustomerResetSent, adminPermissionEmailCustomers
    case adminNavAudit, adminAuditTitle, adminAuditIntro, adminAuditEmpty, adminFilterSource, adminFilterAnySource, adminSourceBackOffice, adminSourceCli
    case adminSourceShop, adminSourceApi, adminFilterSubject, adminFilterAnySubject, adminSubjectOrder, adminSubjectStaff, adminSubjectStock, adminSubjectCampaign
    case adminFilterActor, adminFilterSubjectID, adminColumnWhat, adminColumnChanges, adminAuditNone, adminPermissionViewAudit
    case orderPaidEmailSubject, orderPaidEmailBody, orderShippedEmailSubject, orderShippedEmailBody, orderCancelledEmailSubject, orderCancelledEmailBody, orderCancelledUnpaid, orderCancelledRefund, orderCancelledRefundRest, orderCancelledRefundedAlready, orderEmailLinkAccount, orderEmailLinkGuest
    case adminTitle, adminSignInTitle, adminSignInIntro, adminSignedOut, adminSignOut, adminSignedInAs, adminNavLabel
    case adminNavHome, adminNavOrders, adminNavStaff, adminNavStorefront, adminHomeTitle, adminHomeByStatus, adminHomeOrderCount, adminOrdersTitle
    case adminFilterStatus, adminFilterAnyStatus, adminFilterFrom, adminFilterTo, adminFilterCustomer, adminFilterNumber, adminFilterApply, adminFilterClear
    case adminFilterBadDate, adminOrdersEmpty, adminOrdersRange, adminPagePrevious, adminPageNext, adminColumnNumber, adminColumnPlaced, adminColumnCustomer
    case adminColumnTotal, adminColumnStatus, adminColumnWhen, adminColumnWho, adminColumnStep, adminColumnEmail, adminColumnName, adminColumnRole
    case adminOrderTitle, adminOrderCustomer, adminOrderGuest, adminOrderAccount, adminOrderShopperPage, adminOrderHistory, adminOrderNoHistory, adminOrderNextSteps
    case adminOrderNoSteps, adminItemsReturned, adminRefundOwed, adminActionMarkPaid, adminActionFulfil, adminActionMarkDelivered, adminActionCancel
    case adminActionRefund, adminActionCancelHint, adminFieldCarrier, adminFieldTracking, adminFulfilmentInvalid, adminActionDone, adminActionNotAllowed, adminStatusChanged
    case adminStaffTitle, adminStaffHint, adminRoleOwner, adminRoleManager, adminRoleSupport, adminForbiddenTitle, adminForbiddenText, adminPermissionViewOrders
    case adminPermissionManageOrders, adminPermissionCancelUnpaidOrders, adminPermissionViewCustomers, adminPermissionManageCatalog, adminPermissionManageCampaigns, adminPermissionManageStaff, adminNotFoundTitle, adminNotFoundText
    case adminErrorTitle, adminErrorText, adminExpiredTitle, adminExpiredText
    // The JSON API's own messages (issue #10).
    case apiNoRoute, apiMethodNotAllowed, apiUnsupportedMediaType, apiMalformedBody, apiBodyNotObject, apiMissingField, apiMissingEither, apiFieldsDisagree, apiEitherNotBoth, apiBodyHoldsNUL, apiRepeatedKey
    case apiWrongType, apiMalformedID, apiMalformedDate, apiUnauthorized, apiTokenRequired, apiForbidden, apiInternal, apiBusy
    case apiSignInWrong, apiNoProduct, apiNoCategory, apiNoUser, apiNoSuchCart, apiNoSuchProduct, apiNoSuchUser, apiNoOrder, apiNoSavedAddress, apiNoOrders
    case apiNoAPICarts, apiOrderListNeedsAccount, apiAccountRequired, apiIdempotencyKeyMissing, apiIdempotencyKeyInvalid
    case apiCheckoutNeedsEmail, apiCheckoutNeedsAddress, apiCheckoutNeedsShipping, apiInvalidSort, apiInvalidLimit
    case apiInvalidCursor, apiInvalidEverywhere, apiLastOperator
    case apiNoTokens, apiNoCampaign, apiNoAddressBook, apiEmailVerifiedAlready, apiResetRequested, apiLinkNotValid, apiRefreshTokenNotValid, apiRefreshTokenReused
    // Appearance and layout (issue #11, points 3 and 7).
    case themeLabel, themeSystem, themeLight, themeDark, verifyBannerDismiss, cartShippingNote
    case checkoutTotalSoFar, checkoutShippingNextStep, galleryImage, cartTotalSaved, productImages
    // Onboarding, loading and offline (issue #11, points 4 and 5).
    case welcomeStep, welcomeBrowseTitle, welcomeBrowseText, welcomeFavoritesTitle, welcomeFavoritesText
    case welcomeCampaignsTitle, welcomeCampaignsText, welcomeSkip, welcomeNext, welcomeDone
    case offlineBanner, offlineActionReason, offlineTitle, offlineText, offlineRetry, backOnline
}

/// Looks up shopper-facing text and formats numbers, money and dates for one locale.
public struct Localizer: Sendable, Hashable {
    /// The language of the text.
    public let language: Language
    /// The locale used for numbers, money and dates.
    public let locale: Locale
    private let table: StringTable

    /// A localizer for `language` (its locale: en-US, tr-TR, es-ES).
    public init(language: Language = .english) {
        self.language = language
        self.locale = language.locale
        self.table = StringTable.bundled(language)
    }

    /// Localizers of one language are the same (their locale and table follow from it).
    public static func == (lhs: Localizer, rhs: Localizer) -> Bool { lhs.language == rhs.language }

    /// Hashes the language.
    public func hash(into hasher: inout Hasher) { hasher.combine(language) }

    /// The text for `key` in this language, with `{name}` placeholders replaced from `arguments`
    /// (a counted phrase gives its `other` form; count it with ``count(_:_:_:)``).
    public func callAsFunction(_ key: L10nKey, _ arguments: [String: String] = [:]) -> String {
        table.text(key.rawValue, arguments)
    }

    /// A counted phrase in the form the language's CLDR plural rule picks for `count`
    /// (`Language.pluralCategory(_:)`), with `{count}` written in the locale's digits.
    ///
    /// ```swift
    /// l10n.count(1, .categoryProductCount)            // "1 product"
    /// l10n.count(3, .searchResults, ["query": "mug"]) // "3 results for “mug”"
    /// ```
    public func count(_ count: Int, _ key: L10nKey, _ arguments: [String: String] = [:]) -> String {
        var arguments = arguments
        arguments["count"] = number(count)
        return StringTable.fill(table.template(key.rawValue, language.pluralCategory(count)), arguments)
    }

    /// `money` in the shop's currency, written the way this locale writes amounts
    /// (`MoneyFormatter`: Foundation's currency style from an exact `Decimal`, the currency's
    /// ISO 4217 minor-unit digits): `₺1.234,56` in tr-TR, `1234,56 €` in es-ES (U+00A0 before
    /// `€`), `$1,234.56` in en-US, `¥1,234`, `KWD 1,234.567`.
    public func money(_ money: Money) -> String { MoneyFormatter.shared.string(money, locale: locale) }

    /// A whole number with the locale's grouping (`Language.number(_:)`): "12,345" in en-US,
    /// "12.345" in tr-TR and es-ES.
    public func number(_ value: Int) -> String { language.number(value) }

    /// An average rating with one decimal in the locale's separator (`Rating.text(in:)`).
    public func rating(_ rating: Rating) -> String { rating.text(in: locale) }

    /// A date as the locale writes it, abbreviated, in the shop's time zone
    /// (`Language.date(_:timeZone:)`): "Jun 14, 2026" (en-US), "14 Haz 2026" (tr-TR),
    /// "14 jun 2026" (es-ES). Published dates, campaign windows, voucher dates and order dates
    /// all go through here.
    public func date(_ date: Date, timeZone: TimeZone) -> String { language.date(date, timeZone: timeZone) }

    /// A time of day as the locale writes it, in the shop's time zone (`Language.time`): "3:00 PM"
    /// (en-US, with U+202F NARROW NO-BREAK SPACE before "PM", as ICU writes it), "15:00" (tr-TR,
    /// es-ES). The checkout hold's end uses it inside a sentence ("…for 15 minutes, until 3:00
    /// PM."), next to a countdown that needs no clock.
    public func time(_ date: Date, timeZone: TimeZone) -> String { language.time(date, timeZone: timeZone) }

    /// The localized message for an account form problem: ShopCore's
    /// (`AccountFieldError.message(in:)`, its own string tables), so a native app shows the same.
    public func message(for error: AccountFieldError) -> String { error.message(in: language) }

    /// The localized message for an address field problem (`AddressProblem.message(in:)`).
    public func message(for problem: AddressProblem) -> String { problem.message(in: language) }

    /// The localized message for a cart error.
    public func message(for error: CartError) -> String {
        switch error {
        case .quantityNegative: self(.cartErrorQuantityNegative)
        case .quantityNotWhole: self(.cartErrorQuantityNotWhole)
        case .quantityNotANumber: self(.cartErrorQuantityNotANumber)
        case .quantityNotPositive: self(.cartErrorQuantityNotPositive)
        case .soldOut: self(.cartErrorSoldOut)
        case let .quantityExceedsStock(available, inCart) where inCart > 0:
            count(available, .cartErrorQuantityExceedsStockInCart, ["available": number(available), "inCart": number(inCart)])
        case let .quantityExceedsStock(available, _):
            count(available, .cartErrorQuantityExceedsStock, ["available": number(available)])
        case let .quantityExceedsMaximum(maximum): self(.cartErrorQuantityExceedsMaximum, ["maximum": number(maximum)])
        case .lineNotFound: self(.cartErrorLineNotFound)
        case .variantNotFound: self(.cartErrorVariantNotFound)
        case .variantNotChosen: self(.cartErrorChooseVariant)
        case let .valueNotChosen(option): self(.cartErrorChooseValue, ["option": option])
        case let .valueNotAllowed(option, value): self(.cartErrorValueNotAllowed, ["option": option, "value": value])
        }
    }
}
