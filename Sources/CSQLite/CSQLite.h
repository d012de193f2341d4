// System-library bridge to SQLite 3. No code lives here.
#ifndef OPENSEC_CSQLITE_H
#define OPENSEC_CSQLITE_H
#include <sqlite3.h>
#endif
