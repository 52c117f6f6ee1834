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

/// Turns off SQLite's memory statistics, process-wide (`SQLITE_CONFIG_MEMSTATUS`, on by default in
/// Debian's build): with them on, every allocation and free inside SQLite takes one global mutex,
/// which the connections of concurrent requests then queue on. Must run before SQLite initializes
/// (the first `sqlite3_open_v2` does); afterwards it returns `SQLITE_MISUSE` and changes nothing.
/// `sqlite3_config` is variadic, which Swift cannot call.
static inline int shoppable_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
