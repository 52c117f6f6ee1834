#ifndef SHOPPABLE_CCURL_SHIM_H
#define SHOPPABLE_CCURL_SHIM_H
#include <curl/curl.h>
#endif
