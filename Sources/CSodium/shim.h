#ifndef SHOPPABLE_CSODIUM_SHIM_H
#define SHOPPABLE_CSODIUM_SHIM_H
#include <sodium.h>
#endif
