#ifndef SHOPPABLE_CSTEMMER_SHIM_H
#define SHOPPABLE_CSTEMMER_SHIM_H
#include <libstemmer.h>
#endif
