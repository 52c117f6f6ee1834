#ifndef SHOPPABLE_CLIBPQ_SHIM_H
#define SHOPPABLE_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
