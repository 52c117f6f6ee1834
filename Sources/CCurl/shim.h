#ifndef SHOPPABLE_CCURL_SHIM_H
#define SHOPPABLE_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call. These typed
   wrappers pass exactly one argument of the type each option documents. */

static inline CURLcode shoppable_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode shoppable_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode shoppable_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode shoppable_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode shoppable_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode shoppable_curl_setopt_read_callback(CURL *handle, CURLoption option, curl_read_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode shoppable_curl_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode shoppable_curl_setopt_opensocket_callback(CURL *handle, CURLoption option, curl_opensocket_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode shoppable_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode shoppable_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/* CURL_GLOBAL_DEFAULT is a macro built from other macros; spelled once here. */
static inline CURLcode shoppable_curl_global_init_default(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

#endif
