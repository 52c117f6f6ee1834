#ifndef SHOPPABLE_CLIBCRYPTO_SHIM_H
#define SHOPPABLE_CLIBCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
