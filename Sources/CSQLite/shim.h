// SQLite from Debian's libsqlite3-dev, plus what Swift cannot import from its macros.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a function-pointer cast macro; this makes SQLite copy bound text/blobs.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
