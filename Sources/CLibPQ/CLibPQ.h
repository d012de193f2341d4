// System-library bridge to libpq, PostgreSQL's C client library (Debian: libpq-dev). No code lives here;
// OSecPostgres is the only Swift code that calls it.
#ifndef OPENSEC_CLIBPQ_H
#define OPENSEC_CLIBPQ_H
#include <libpq-fe.h>
#endif
