// Examples/Sources/CSQLite/shim.h - The system SQLite library (Debian/Ubuntu: libsqlite3-dev), for
// the messages-bodies example, which builds a database shaped like Messages' chat.db.
#include <sqlite3.h>
