#ifndef SHOPPABLE_CSQLITE_SHIM_H
#define SHOPPABLE_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import.
static inline int shoppable_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index,
                                                        const char *text, int byteCount) {
    return sqlite3_bind_text(statement, index, text, byteCount, SQLITE_TRANSIENT);
}

static inline int shoppable_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index,
                                                        const void *bytes, int byteCount) {
    return sqlite3_bind_blob(statement, index, bytes, byteCount, SQLITE_TRANSIENT);
}
#endif
