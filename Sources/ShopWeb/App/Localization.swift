public import Foundation
public import ShopCore

/// Every string a shopper sees, by key. English is the source table (`english`); the Turkish
/// and Spanish tables (`turkish`, `spanish`, in their own files) fall back to English key by key.
/// Today they cover what the JSON API says (its errors, the cart's, the account forms'); the
/// storefront pages stay English until issue #11 completes the tables.
///
/// Placeholders are `{name}`, replaced by `Localizer.callAsFunction(_:_:)`.
public enum L10nKey: String, CaseIterable, Sendable {
    case shopName, skipToContent
    case tabHome, tabCategories, tabCart
    case homeTitle, homeHeroTitle, homeHeroText, homeCategoriesTitle, homeFeaturedTitle, seeAll
    case categoriesTitle, categoryProductCount, categoryProductCountOne, categoryEmpty
    case paginationPrevious, paginationNext, paginationStatus
    case ratingLabel, ratingCount, onSale, priceWas, priceNow, from
    case stockInStock, stockOnlyLeft, stockSoldOut, stockAvailable
    case productVendor, productPublished, productTags, productDescription, productOptions, productQuantity
    case addToCart, soldOutButton, addedToCart, viewCart
    case cartTitle, cartEmptyTitle, cartEmptyText, cartContinueShopping, cartItemCount, cartItemCountOne
    case cartQuantity, cartUpdate, cartRemove, cartSubtotal, cartLineTotal, cartUnitPrice
    case cartTaxesNote, cartRemoved, cartUpdated, cartBadgeLabel, cartBadgeLabelOne, decrease, increase
    case errorNotFoundTitle, errorNotFoundText, errorServerTitle, errorServerText, errorBackHome
    case errorBadRequestTitle, errorBadRequestText
    case cartErrorQuantityNegative, cartErrorQuantityNotWhole, cartErrorQuantityNotANumber
    case cartErrorQuantityNotPositive, cartErrorSoldOut, cartErrorQuantityExceedsStock
    case cartErrorQuantityExceedsStockInCart, cartErrorQuantityExceedsMaximum, cartErrorLineNotFound
    case cartErrorVariantNotFound, cartErrorChooseVariant
    case tabFavorites, accountLink, signInLink
    case favoritesTitle, favoritesEmptyTitle, favoritesEmptyText, favoriteAdd, favoriteRemove, favoriteAdded, favoriteRemoved
    case quickAdd, chooseOptions, favoritesBadgeLabel
    case categorySearchLabel, categorySearchPlaceholder, categorySearchEmpty, searchSubmit
    case layoutGrid, layoutList, relatedTitle
    case sortLabel, sortRelevance, sortFeatured, sortPriceAscending, sortPriceDescending, sortNewest, sortRating, sortName
    case filterTitle, filterMinPrice, filterMaxPrice, filterRating, filterAnyRating, filterRatingAtLeast, filterInStock
    case filterVendor, filterTag, filterAny, filterApply, filterClear
    case tabCampaigns, campaignsTitle, campaignsEmpty, campaignDates, campaignCode, campaignCopy, campaignCopied
    case campaignPricesWithCode, campaignAppliesToCart, campaignProducts, campaignMinimum, campaignShopNow, campaignPercentOff, campaignAmountOff
    case homeSeeRecommendations, homeSeeAll, homeRecommendationsTitle
    case cartVoucherLabel, cartVoucherApply, cartVoucherRemove, cartVoucherApplied, cartDiscount, cartTotal
    case cartSelect, cartSelectAll, cartSelectNone, cartNothingSelected
    case voucherSignIn, voucherUsedUp, voucherUnknown, voucherNotStarted, voucherExpired, voucherMinimumNotMet, voucherNotApplicable, voucherInvalidFormat
    case addressesTitle, addressesEmpty, addressAdd, addressEditTitle, addressNewTitle, addressSave, addressSaved, addressDeleted, addressDelete, addressDeleteTitle, addressDeleteConfirm, addressDeleteCancel, addressDefault, addressMakeDefault, addressEdit, fieldFirstName, fieldLastName, fieldPhone, fieldEmailOptional, fieldLine1, fieldLine2, fieldCity, fieldPostalCode, fieldRegion, fieldCountry, addressErrorMissing, addressErrorTooLong, addressErrorEmail, addressErrorPhone, addressErrorCountry, checkoutButton, checkoutTitle, checkoutStepAddress, checkoutStepShipping, checkoutStepReview, checkoutContinue, checkoutUseAddress, checkoutNewAddress, checkoutSaveAddress, checkoutGuestEmail, checkoutNoShipping, checkoutChooseShipping, checkoutFree, checkoutShippingLine, checkoutPlace, checkoutHeld, checkoutEdit, checkoutSoldOutTitle, checkoutSoldOutLine, checkoutSoldOutLineNone, checkoutHoldTrimmedTitle, checkoutHoldTrimmedLine, checkoutHoldTrimmedLineNone, checkoutBackToCart, checkoutChangedTitle, checkoutChangedText, checkoutNothingSelected, checkoutSessionEnded, checkoutAwaitingPayment, orderPlacedTitle, orderTitle, ordersTitle, ordersEmpty, orderPaymentTitle, orderStatusPaid, orderStatusShipped, orderStatusCancelled, orderShipTo, orderEmailSubject, orderEmailBody, orderLinkSaved
    case searchTitle, searchPlaceholder, searchResults, searchResultsOne, searchEmptyTitle, searchEmptyText, searchPrompt
    case registerTitle, registerIntro, registerSubmit, registerHaveAccount, registerDone
    case registerNoticeSubject, registerNoticeBody
    case fieldName, fieldEmail, fieldPassword, fieldPasswordConfirmation, fieldCurrentPassword, fieldNewPassword
    case fieldRemember, passwordHint
    case signInTitle, signInSubmit, signInNoAccount, signInForgot, signInWrong, throttled, throttledOneMinute, signInWelcome
    case signInCartCapped, signInRequired
    case signOutSubmit, signOutDone, signOutEverywhereSubmit, signOutEverywhereDone, signOutEverywhereHint
    case verifyBanner, verifyResend, verifyResent, verifyDoneTitle, verifyDoneText, verifyFailedTitle, verifyFailedText
    case verifyEmailSubject, verifyEmailBody
    case forgotTitle, forgotIntro, forgotSubmit, forgotSent
    case resetTitle, resetSubmit, resetDone, resetFailedTitle, resetFailedText, resetEmailSubject, resetEmailBody
    case accountTitle, accountVerified, accountUnverified, accountChangePassword, accountPasswordChanged
    case errorForbiddenTitle, errorForbiddenText, errorTooManyTitle, errorBusyTitle, errorBusyText, cartLineRemoved
    case errorNameMissing, errorNameTooLong, errorEmailInvalid, errorEmailTooLong, errorEmailTaken
    case errorPasswordTooShort, errorPasswordTooLong, errorPasswordNeedsLetterAndDigit, errorPasswordContainsName
    case errorPasswordHasSequentialDigits, errorPasswordsDoNotMatch, errorPasswordWrong
    // The JSON API's own messages (issue #10).
    case apiNoRoute, apiMethodNotAllowed, apiUnsupportedMediaType, apiMalformedBody, apiMissingField, apiMissingEither
    case apiWrongType, apiMalformedID, apiMalformedDate, apiUnauthorized, apiTokenRequired, apiForbidden, apiInternal, apiBusy
    case apiSignInWrong, apiNoProduct, apiNoCategory, apiNoUser, apiNoSuchCart, apiNoSuchProduct, apiNoSuchUser, apiNoOrder, apiNoSavedAddress, apiNoOrders
    case apiNoAPICarts, apiOrderListNeedsAccount, apiIdempotencyKeyMissing, apiIdempotencyKeyInvalid
    case apiCheckoutNeedsEmail, apiCheckoutNeedsAddress, apiCheckoutNeedsShipping, apiInvalidSort, apiInvalidLimit
    case apiInvalidCursor, apiLastOperator
    case apiNoTokens, apiNoCampaign, apiNoAddressBook, apiEmailVerifiedAlready, apiResetRequested, apiLinkNotValid, apiRefreshTokenNotValid, apiRefreshTokenReused
    // Onboarding, loading and offline (issue #11, points 4 and 5).
    case welcomeStep, welcomeBrowseTitle, welcomeBrowseText, welcomeFavoritesTitle, welcomeFavoritesText
    case welcomeCampaignsTitle, welcomeCampaignsText, welcomeSkip, welcomeNext, welcomeDone
    case offlineBanner, offlineActionReason, offlineTitle, offlineText, offlineRetry, backOnline

    /// The English text (the source table).
    var english: String {
        switch self {
        case .shopName: "Shoppable"
        case .skipToContent: "Skip to content"
        case .tabHome: "Home"
        case .tabCategories: "Categories"
        case .tabCart: "Cart"
        case .homeTitle: "Shoppable — things for a calm home"
        case .homeHeroTitle: "Things for a calm home"
        case .homeHeroText: "Chairs, lamps, textiles and kitchenware from small makers."
        case .homeCategoriesTitle: "Shop by category"
        case .homeFeaturedTitle: "Featured"
        case .seeAll: "See all"
        case .categoriesTitle: "Categories"
        case .categoryProductCount: "{count} products"
        case .categoryProductCountOne: "1 product"
        case .categoryEmpty: "No products here yet."
        case .paginationPrevious: "Previous"
        case .paginationNext: "Next"
        case .paginationStatus: "Page {page} of {pages}"
        case .ratingLabel: "Rated {rating} out of 5"
        case .ratingCount: "({count})"
        case .onSale: "Sale"
        case .priceWas: "Was {price}"
        case .priceNow: "Now {price}"
        case .from: "From {price}"
        case .stockInStock: "In stock"
        case .stockOnlyLeft: "Only {count} left"
        case .stockSoldOut: "Sold out"
        case .stockAvailable: "Available"
        case .productVendor: "By {vendor}"
        case .productPublished: "Added {date}"
        case .productTags: "Tags"
        case .productDescription: "Description"
        case .productOptions: "Options"
        case .productQuantity: "Quantity"
        case .addToCart: "Add to cart"
        case .soldOutButton: "Sold out"
        case .addedToCart: "Added {title} to your cart."
        case .viewCart: "View cart"
        case .cartTitle: "Your cart"
        case .cartEmptyTitle: "Your cart is empty"
        case .cartEmptyText: "Find something you like and it will wait for you here."
        case .cartContinueShopping: "Continue shopping"
        case .cartItemCount: "{count} items"
        case .cartItemCountOne: "1 item"
        case .cartQuantity: "Quantity"
        case .cartUpdate: "Update"
        case .cartRemove: "Remove"
        case .cartSubtotal: "Subtotal"
        case .cartLineTotal: "Line total"
        case .cartUnitPrice: "{price} each"
        case .cartTaxesNote: "Shipping and taxes are calculated at checkout."
        case .cartRemoved: "Removed {title} from your cart."
        case .cartUpdated: "Your cart was updated."
        case .cartBadgeLabel: "{count} items in cart"
        case .cartBadgeLabelOne: "1 item in cart"
        case .decrease: "Decrease quantity"
        case .increase: "Increase quantity"
        case .errorNotFoundTitle: "Page not found"
        case .errorNotFoundText: "We couldn't find that page. It may have moved, or the product is no longer sold."
        case .errorServerTitle: "Something went wrong"
        case .errorServerText: "Sorry — that didn't work on our side. Please try again in a moment."
        case .errorBackHome: "Back to the shop"
        case .errorBadRequestTitle: "That request didn't make sense"
        case .errorBadRequestText: "Please go back and try again."
        case .cartErrorQuantityNegative: "Quantity cannot be negative."
        case .cartErrorQuantityNotWhole: "Quantity must be a whole number."
        case .cartErrorQuantityNotANumber: "Please enter a quantity, like 1 or 2."
        case .cartErrorQuantityNotPositive: "Choose at least 1."
        case .cartErrorSoldOut: "Sorry, this is sold out."
        case .cartErrorQuantityExceedsStock: "Only {available} available."
        case .cartErrorQuantityExceedsStockInCart: "Only {available} available, and you already have {inCart} in your cart."
        case .cartErrorQuantityExceedsMaximum: "You can buy at most {maximum} of one item."
        case .cartErrorLineNotFound: "That item is no longer in your cart."
        case .cartErrorVariantNotFound: "That product is no longer available."
        case .cartErrorChooseVariant: "Please choose an option."
        case .tabFavorites: "Favorites"
        case .accountLink: "Your account"
        case .signInLink: "Sign in"
        case .favoritesTitle: "Favorites"
        case .favoritesEmptyTitle: "No favorites yet"
        case .favoritesEmptyText: "Tap the heart on anything you like and it will be saved here."
        case .favoriteAdd: "Save to favorites"
        case .favoriteRemove: "Remove from favorites"
        case .favoriteAdded: "Saved {title} to your favorites."
        case .favoriteRemoved: "Removed {title} from your favorites."
        case .quickAdd: "Add"
        case .categorySearchLabel: "Search categories"
        case .categorySearchPlaceholder: "Find a category"
        case .categorySearchEmpty: "No category matches “{query}”."
        case .searchSubmit: "Search"
        case .layoutGrid: "Grid"
        case .layoutList: "List"
        case .relatedTitle: "You may also like"
        case .sortLabel: "Sort by"
        case .sortRelevance: "Best match"
        case .sortFeatured: "Featured"
        case .sortPriceAscending: "Price: low to high"
        case .sortPriceDescending: "Price: high to low"
        case .sortNewest: "Newest"
        case .sortRating: "Best rated"
        case .sortName: "Name"
        case .filterTitle: "Sort & filter"
        case .filterMinPrice: "Min price"
        case .filterMaxPrice: "Max price"
        case .filterRating: "Rating"
        case .filterAnyRating: "Any rating"
        case .filterRatingAtLeast: "{stars}★ & up"
        case .filterInStock: "In stock only"
        case .filterVendor: "Brand"
        case .filterTag: "Tag"
        case .filterAny: "Any"
        case .filterApply: "Show results"
        case .filterClear: "Clear filters"
        case .tabCampaigns: "Campaigns"
        case .campaignsTitle: "Campaigns"
        case .campaignsEmpty: "No campaigns right now — come back soon."
        case .campaignDates: "{start} – {end}"
        case .campaignCode: "Code"
        case .campaignCopy: "Copy"
        case .campaignCopied: "Copied"
        case .campaignPricesWithCode: "Prices shown are with the code {code} in your cart."
        case .campaignAppliesToCart: "Applies to everything in your cart."
        case .campaignProducts: "In this campaign"
        case .campaignMinimum: "On orders of {amount} or more."
        case .campaignShopNow: "See the campaign"
        case .campaignPercentOff: "{percent}% off"
        case .campaignAmountOff: "{amount} off"
        case .homeSeeRecommendations: "See recommendations"
        case .homeSeeAll: "See all"
        case .homeRecommendationsTitle: "Recommended for you"
        case .cartVoucherLabel: "Voucher code"
        case .cartVoucherApply: "Apply"
        case .cartVoucherRemove: "Remove code"
        case .cartVoucherApplied: "Code {code} applied: {title}."
        case .cartDiscount: "Discount ({code})"
        case .cartTotal: "Total"
        case .cartSelect: "Buy this item"
        case .cartSelectAll: "Select all"
        case .cartSelectNone: "Select none"
        case .cartNothingSelected: "Tick the items you want to buy."
        case .voucherSignIn: "Sign in to use the code {code}: it can be used a limited number of times per account."
        case .voucherUsedUp: "You have already used the code {code} (it can be used {limit} time(s) per account)."
        case .voucherUnknown: "We don't know the code {code}. Check the spelling?"
        case .voucherNotStarted: "The code {code} can be used from {date}."
        case .voucherExpired: "The code {code} ended on {date}."
        case .voucherMinimumNotMet: "Add {missing} more to use {code} (minimum {minimum})."
        case .voucherNotApplicable: "The code {code} doesn't apply to the items you've selected."
        case .voucherInvalidFormat: "Voucher codes are letters and digits, like WELCOME10."
        case .addressesTitle: "Addresses"
        case .addressesEmpty: "No saved addresses yet."
        case .addressAdd: "Add an address"
        case .addressEditTitle: "Edit address"
        case .addressNewTitle: "New address"
        case .addressSave: "Save address"
        case .addressSaved: "Address saved."
        case .addressDeleted: "Address deleted."
        case .addressDelete: "Delete"
        case .addressDeleteTitle: "Delete this address?"
        case .addressDeleteConfirm: "Yes, delete it"
        case .addressDeleteCancel: "Keep it"
        case .addressDefault: "Default"
        case .addressMakeDefault: "Use as my default address"
        case .addressEdit: "Edit"
        case .fieldFirstName: "First name"
        case .fieldLastName: "Last name"
        case .fieldPhone: "Phone"
        case .fieldEmailOptional: "Email (optional)"
        case .fieldLine1: "Street and number"
        case .fieldLine2: "Apartment, floor (optional)"
        case .fieldCity: "City"
        case .fieldPostalCode: "Postal code"
        case .fieldRegion: "State or region (optional)"
        case .fieldCountry: "Country"
        case .addressErrorMissing: "Please fill this in."
        case .addressErrorTooLong: "Please use at most {maximum} characters."
        case .addressErrorEmail: "Please enter an email address like name@example.com."
        case .addressErrorPhone: "Please enter a phone number with 5 to 20 digits."
        case .addressErrorCountry: "Please choose a country from the list."
        case .checkoutButton: "Checkout"
        case .checkoutTitle: "Checkout"
        case .checkoutStepAddress: "Address"
        case .checkoutStepShipping: "Shipping"
        case .checkoutStepReview: "Review"
        case .checkoutContinue: "Continue"
        case .checkoutUseAddress: "Deliver to this address"
        case .checkoutNewAddress: "A new address"
        case .checkoutSaveAddress: "Save it to my address book"
        case .checkoutGuestEmail: "Email for your order confirmation"
        case .checkoutNoShipping: "We can't ship to that country yet. Please choose another address."
        case .checkoutChooseShipping: "Please choose how to ship."
        case .checkoutFree: "Free"
        case .checkoutShippingLine: "Shipping ({method})"
        case .checkoutPlace: "Place order"
        case .checkoutHeld: "We're holding these items for you until {time}."
        case .checkoutEdit: "Edit"
        case .checkoutSoldOutTitle: "Some items just sold out"
        case .checkoutSoldOutLine: "{title}: only {available} left (you asked for {quantity})."
        case .checkoutSoldOutLineNone: "{title}: sold out."
        case .checkoutHoldTrimmedTitle: "The stock changed while you were checking out"
        case .checkoutHoldTrimmedLine: "{title}: the shop lowered its stock, so we could keep only {kept} of the {held} we held for you."
        case .checkoutHoldTrimmedLineNone: "{title}: the shop lowered its stock, and what we held for you went to shoppers who reached checkout earlier."
        case .checkoutBackToCart: "Back to your cart"
        case .checkoutChangedTitle: "Your order changed"
        case .checkoutChangedText: "Your order changed since you reviewed it (items, prices or your voucher). Please check it and place the order again."
        case .checkoutNothingSelected: "Your cart has nothing selected to check out."
        case .checkoutSessionEnded: "You were signed out. Sign in to pick up your checkout where you left it."
        case .checkoutAwaitingPayment: "Awaiting payment"
        case .orderPlacedTitle: "Thank you! Your order {number} is placed."
        case .orderTitle: "Order {number}"
        case .ordersTitle: "Your orders"
        case .ordersEmpty: "No orders yet."
        case .orderPaymentTitle: "How to pay"
        case .orderStatusPaid: "Paid"
        case .orderStatusShipped: "Shipped"
        case .orderStatusCancelled: "Cancelled"
        case .orderShipTo: "Shipping to"
        case .orderEmailSubject: "Your {shop} order {number}"
        case .orderEmailBody: "Hi {name},\n\nThank you for your order {number} ({total}).\n\n{lines}\n\nShipping to:\n{address}\n\nHow to pay:\n{payment}\n\nYou can see your order here:\n{link}\n"
        case .orderLinkSaved: "Keep this page's address to see your order again."
        case .searchTitle: "Search"
        case .searchPlaceholder: "Search products"
        case .searchResults: "{count} results for “{query}”"
        case .searchResultsOne: "1 result for “{query}”"
        case .searchEmptyTitle: "No products match “{query}”"
        case .searchEmptyText: "Check the spelling, try fewer words, or browse a category:"
        case .searchPrompt: "What are you looking for?"
        case .chooseOptions: "Choose"
        case .favoritesBadgeLabel: "{count} favorites"
        case .registerTitle: "Create an account"
        case .registerIntro: "Save your favorites and find your cart on any device."
        case .registerSubmit: "Create account"
        case .registerHaveAccount: "Already have an account? Sign in"
        case .registerDone: "Welcome, {name}! We've sent a link to {email} to confirm your address."
        case .registerNoticeSubject: "Someone tried to create a {shop} account with your email"
        case .registerNoticeBody: "Hi {name},\n\nsomeone just tried to create a new {shop} account with this email address. You already have one, so nothing was created and your account is unchanged.\n\nIf it was you, sign in here:\n\n{signInLink}\n\nForgot your password? Choose a new one here:\n\n{resetLink}\n\nIf it wasn't you, you can ignore this email."
        case .fieldName: "Name"
        case .fieldEmail: "Email"
        case .fieldPassword: "Password"
        case .fieldPasswordConfirmation: "Repeat password"
        case .fieldCurrentPassword: "Current password"
        case .fieldNewPassword: "New password"
        case .fieldRemember: "Keep me signed in for 30 days"
        case .passwordHint: "At least 8 characters with a letter and a digit; not your name, and no runs like 123."
        case .signInTitle: "Sign in"
        case .signInSubmit: "Sign in"
        case .signInNoAccount: "New here? Create an account"
        case .signInForgot: "Forgot your password?"
        case .signInWrong: "Email or password is wrong."
        case .throttled: "Too many attempts. Please try again in {count} minutes."
        case .throttledOneMinute: "Too many attempts. Please try again in a minute."
        case .signInWelcome: "Welcome back, {name}."
        case .signInCartCapped: "We could only keep {kept} of {title} in your cart: that's all we have."
        case .signInRequired: "Please sign in to see that page."
        case .signOutSubmit: "Sign out"
        case .signOutDone: "You're signed out."
        case .signOutEverywhereSubmit: "Sign out everywhere"
        case .signOutEverywhereDone: "You're signed out on every device."
        case .signOutEverywhereHint: "Signs you out on every browser and device, including this one."
        case .verifyBanner: "Please confirm your email address: we sent a link to {email}."
        case .verifyResend: "Send it again"
        case .verifyResent: "We've sent a new link to {email}."
        case .verifyDoneTitle: "Email confirmed"
        case .verifyDoneText: "Thanks, {name} — your email address is confirmed."
        case .verifyFailedTitle: "This link doesn't work any more"
        case .verifyFailedText: "It may have expired or been used already. Sign in and ask for a new one."
        case .verifyEmailSubject: "Confirm your email for {shop}"
        case .verifyEmailBody: "Hi {name},\n\nplease confirm your email address for {shop} by opening this link within 24 hours:\n\n{link}\n\nIf you didn't create an account, you can ignore this email."
        case .forgotTitle: "Reset your password"
        case .forgotIntro: "Enter your email and we'll send you a link to choose a new password."
        case .forgotSubmit: "Send link"
        case .forgotSent: "If an account exists for {email}, we've sent it a link to reset the password. The link works for one hour."
        case .resetTitle: "Choose a new password"
        case .resetSubmit: "Save password"
        case .resetDone: "Your password is changed, and you're signed out on every other device."
        case .resetFailedTitle: "This link doesn't work any more"
        case .resetFailedText: "Reset links work once, for one hour. Ask for a new one."
        case .resetEmailSubject: "Reset your {shop} password"
        case .resetEmailBody: "Hi {name},\n\nsomeone (hopefully you) asked to reset your {shop} password. Choose a new one within an hour:\n\n{link}\n\nIf it wasn't you, ignore this email: your password stays as it is."
        case .accountTitle: "Your account"
        case .accountVerified: "Confirmed"
        case .accountUnverified: "Not confirmed yet"
        case .accountChangePassword: "Change password"
        case .accountPasswordChanged: "Your password is changed. Other devices are signed out."
        case .errorForbiddenTitle: "That form has expired"
        case .errorForbiddenText: "For your safety we couldn't accept it. Please go back, reload the page and try again."
        case .errorTooManyTitle: "Too many attempts"
        case .errorBusyTitle: "One moment, please"
        case .errorBusyText: "The shop is being updated right now. Please try again in a few seconds — nothing was changed."
        case .cartLineRemoved: "Some items are no longer sold and were removed from your cart."
        case .errorNameMissing: "Please enter your name."
        case .errorNameTooLong: "Please use at most {maximum} characters."
        case .errorEmailInvalid: "Please enter an email address like name@example.com."
        case .errorEmailTooLong: "That email address is too long."
        case .errorEmailTaken: "There is already an account with this email. Sign in instead?"
        case .errorPasswordTooShort: "Use at least {minimum} characters."
        case .errorPasswordTooLong: "Use at most {maximum} characters."
        case .errorPasswordNeedsLetterAndDigit: "Use at least one letter and one digit."
        case .errorPasswordContainsName: "Don't use your name in your password."
        case .errorPasswordHasSequentialDigits: "Avoid runs of digits like 123 or 987."
        case .errorPasswordsDoNotMatch: "The two passwords don't match."
        case .errorPasswordWrong: "That isn't your current password."
        case .apiNoRoute: "There is no API route {path}."
        case .apiMethodNotAllowed: "{path} answers {methods}."
        case .apiUnsupportedMediaType: "Send the body as JSON (Content-Type: application/json)."
        case .apiMalformedBody: "The body is not valid JSON."
        case .apiMissingField: "The body needs “{field}”."
        case .apiMissingEither: "The body needs “{first}” or “{second}”."
        case .apiWrongType: "“{field}” has the wrong type."
        case .apiMalformedID: "“{id}” is not a {what} id."
        case .apiMalformedDate: "“{text}” is not an ISO 8601 date (2020-03-02 or 2020-03-02T10:00:00Z)."
        case .apiUnauthorized: "Sign in (POST /api/v1/auth/tokens, or POST /api/auth/login) and send the token as “Authorization: Bearer <token>”."
        case .apiTokenRequired: "Send a token as “Authorization: Bearer <token>”: a guest token from POST /api/v1/sessions/guest, or an access token from POST /api/v1/auth/tokens (or POST /api/auth/login)."
        case .apiForbidden: "This needs an operator account."
        case .apiInternal: "Something went wrong on our side."
        case .apiBusy: "The shop is busy; try again in a few seconds."
        case .apiSignInWrong: "The username or password is wrong."
        case .apiNoProduct: "There is no product {product}."
        case .apiNoCategory: "There is no category “{category}”."
        case .apiNoUser: "There is no user {user}."
        case .apiNoSuchCart: "There is no such cart."
        case .apiNoSuchProduct: "There is no such product."
        case .apiNoSuchUser: "There is no such user."
        case .apiNoOrder: "There is no order {number} of yours."
        case .apiNoSavedAddress: "The account has no saved address with this id."
        case .apiNoOrders: "This shop takes no orders."
        case .apiNoAPICarts: "This shop keeps no API carts."
        case .apiOrderListNeedsAccount: "Only an account has an order list; a guest reads an order with its guest token."
        case .apiIdempotencyKeyMissing: "Send an “Idempotency-Key” header (a new random value for each order)."
        case .apiIdempotencyKeyInvalid: "An “Idempotency-Key” is 1–200 visible ASCII characters."
        case .apiCheckoutNeedsEmail: "Give the email for the order confirmation: PUT /api/v1/checkout/address."
        case .apiCheckoutNeedsAddress: "Choose the address first: PUT /api/v1/checkout/address."
        case .apiCheckoutNeedsShipping: "Choose a shipping method first: PUT /api/v1/checkout/shipping."
        case .apiInvalidSort: "“{sort}” is not a sort; use one of {sorts}."
        case .apiInvalidLimit: "“limit” is a whole number from 1 to {maximum}."
        case .apiInvalidCursor: "The cursor is not one this API gave; start again without it."
        case .apiLastOperator: "This is the shop's only operator account; make another operator before deleting it."
        case .apiNoTokens: "This shop issues no API tokens."
        case .apiNoCampaign: "No campaign “{campaign}” is running."
        case .apiNoAddressBook: "This shop keeps no address book."
        case .apiEmailVerifiedAlready: "The email is verified already."
        case .apiResetRequested: "If {email} has an account, a link to choose a new password is on its way."
        case .apiLinkNotValid: "This link is not valid any more (used, expired or mistyped). Ask for a new one."
        case .apiRefreshTokenNotValid: "This refresh token is not valid (unknown, or its session ended). Sign in again."
        case .apiRefreshTokenReused: "This refresh token was used before, so its session has been ended for safety. Sign in again."
        case .welcomeStep: "{step} of {count}"
        case .welcomeBrowseTitle: "Browse and search"
        case .welcomeBrowseText: "Look through the categories, or search by name, maker or tag. Sort and filter to narrow the list."
        case .welcomeFavoritesTitle: "Keep your favorites"
        case .welcomeFavoritesText: "Tap the heart on anything you like. Your favorites wait under Favorites, and come with you when you sign in."
        case .welcomeCampaignsTitle: "Campaigns and voucher codes"
        case .welcomeCampaignsText: "Campaigns shows what is on sale right now. Enter a voucher code in your cart to get its discount."
        case .welcomeSkip: "Skip"
        case .welcomeNext: "Next"
        case .welcomeDone: "Start shopping"
        case .offlineBanner: "You are offline. Pages you have visited still open; adding to the cart, favorites, voucher codes and checkout wait for the connection."
        case .offlineActionReason: "Needs a connection: you are offline"
        case .offlineTitle: "You are offline"
        case .offlineText: "This page is not saved on this device. Pages you have visited before still open; try again when you are back online."
        case .offlineRetry: "Try again"
        case .backOnline: "You are back online."
        }
    }
}

/// Looks up shopper-facing text and formats numbers, money and dates for one locale.
public struct Localizer: Sendable {
    /// The language of the text.
    public let language: Language
    /// The locale used for numbers, money and dates.
    public let locale: Locale
    private let templates: [L10nKey: [Segment]]

    /// A localizer for `language` (its locale: en-US, tr-TR, es-ES).
    public init(language: Language = .english) {
        self.language = language
        self.locale = Locale(identifier: language.localeIdentifier)
        self.templates = Localizer.tables[language] ?? Localizer.english
    }

    /// The text for `key` in this language, with `{name}` placeholders replaced from `arguments`.
    public func callAsFunction(_ key: L10nKey, _ arguments: [String: String] = [:]) -> String {
        let template = templates[key]!
        if template.count == 1, case let .literal(text) = template[0] { return text }
        var text = ""
        for segment in template {
            switch segment {
            case let .literal(literal): text += literal
            case let .placeholder(name): text += arguments[name] ?? "{\(name)}"
            }
        }
        return text
    }

    /// A piece of a parsed template: literal text or a `{name}` placeholder.
    enum Segment: Sendable { case literal(String), placeholder(String) }

    /// Every key's English text split into segments once, so a lookup never searches strings
    /// (profiling showed `replacingOccurrences` at 14 % of a category page).
    static let english: [L10nKey: [Segment]] = table { $0.english }

    /// Each language's templates, a missing translation filled from English.
    static let tables: [Language: [L10nKey: [Segment]]] = [
        .english: english,
        .turkish: table { $0.turkish ?? $0.english },
        .spanish: table { $0.spanish ?? $0.english },
    ]

    private static func table(_ text: (L10nKey) -> String) -> [L10nKey: [Segment]] {
        var table: [L10nKey: [Segment]] = [:]
        for key in L10nKey.allCases { table[key] = parse(text(key)) }
        return table
    }

    static func parse(_ text: String) -> [Segment] {
        var segments: [Segment] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { segments.append(.literal(String(rest[..<open]))) }
            segments.append(.placeholder(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty || segments.isEmpty { segments.append(.literal(String(rest))) }
        return segments
    }

    /// A counted phrase: `one` when `count` is 1, else `other` with `{count}` filled in
    /// (English plural rule; other languages bring their own rule with their tables).
    public func count(_ count: Int, one: L10nKey, other: L10nKey) -> String {
        count == 1 ? self(one) : self(other, ["count": number(count)])
    }

    /// `money` as a localized currency string.
    public func money(_ money: Money) -> String { MoneyFormatter.shared.string(money, locale: locale) }

    /// A whole number with the locale's grouping ("1,234" in en-US).
    public func number(_ value: Int) -> String {
        // Below 1,000 no grouping applies and en/tr/es write Western digits: skip the formatter.
        if (0..<1000).contains(value) { return String(value) }
        return value.formatted(.number.locale(locale))
    }

    /// A date as the locale writes it in medium style ("Mar 14, 2026").
    public func date(_ date: Date, timeZone: TimeZone) -> String {
        var style = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale)
        style.timeZone = timeZone
        return date.formatted(style)
    }

    /// The localized message for an account form problem.
    public func message(for error: AccountFieldError) -> String {
        switch error {
        case .nameMissing: self(.errorNameMissing)
        case let .nameTooLong(maximum): self(.errorNameTooLong, ["maximum": number(maximum)])
        case .emailInvalid: self(.errorEmailInvalid)
        case .emailTooLong: self(.errorEmailTooLong)
        case .emailTaken: self(.errorEmailTaken)
        case let .passwordTooShort(minimum): self(.errorPasswordTooShort, ["minimum": number(minimum)])
        case let .passwordTooLong(maximum): self(.errorPasswordTooLong, ["maximum": number(maximum)])
        case .passwordNeedsLetterAndDigit: self(.errorPasswordNeedsLetterAndDigit)
        case .passwordContainsName: self(.errorPasswordContainsName)
        case .passwordHasSequentialDigits: self(.errorPasswordHasSequentialDigits)
        case .passwordsDoNotMatch: self(.errorPasswordsDoNotMatch)
        case .passwordWrong: self(.errorPasswordWrong)
        }
    }

    /// The localized message for a cart error.
    public func message(for error: CartError) -> String {
        switch error {
        case .quantityNegative: self(.cartErrorQuantityNegative)
        case .quantityNotWhole: self(.cartErrorQuantityNotWhole)
        case .quantityNotANumber: self(.cartErrorQuantityNotANumber)
        case .quantityNotPositive: self(.cartErrorQuantityNotPositive)
        case .soldOut: self(.cartErrorSoldOut)
        case let .quantityExceedsStock(available, inCart) where inCart > 0:
            self(.cartErrorQuantityExceedsStockInCart, ["available": number(available), "inCart": number(inCart)])
        case let .quantityExceedsStock(available, _):
            self(.cartErrorQuantityExceedsStock, ["available": number(available)])
        case let .quantityExceedsMaximum(maximum): self(.cartErrorQuantityExceedsMaximum, ["maximum": number(maximum)])
        case .lineNotFound: self(.cartErrorLineNotFound)
        case .variantNotFound: self(.cartErrorVariantNotFound)
        case .variantNotChosen: self(.cartErrorChooseVariant)
        }
    }
}
