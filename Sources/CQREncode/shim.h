#ifndef SHOPPABLE_CQRENCODE_SHIM_H
#define SHOPPABLE_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
