// libpq, PostgreSQL's C client library, loaded on first use (dlopen of libpq.so.5) instead of at start-up.
//
// Why this target exists: libpq and what it loads itself (Kerberos, LDAP, GnuTLS, p11-kit, …) cost a process
// more than everything else the `security` tool does at start-up (about 25 ms on the build machine), yet only the
// keychain sync uses it. OSecPostgres calls these `osec_PQ…` functions, which forward to libpq's; the types and
// constants are libpq's own (its header). `osec_pq_load` must succeed before any other function is called (every
// other function takes or makes a connection, which only exists after it).
#ifndef OPENSEC_LIBPQ_LOADER_H
#define OPENSEC_LIBPQ_LOADER_H

#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#elif __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#error "libpq-fe.h not found (apt-get install libpq-dev)"
#endif

/// Loads libpq once (thread-safe). 0 when it is loaded with every function below; otherwise -1, with `*error`
/// (when not NULL) pointing to a static message naming the library and the reason.
int osec_pq_load(const char **error);

PGconn *osec_PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname);
ConnStatusType osec_PQstatus(const PGconn *conn);
void osec_PQfinish(PGconn *conn);
PQnoticeProcessor osec_PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg);
int osec_PQserverVersion(const PGconn *conn);
PGresult *osec_PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                            const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                            int resultFormat);
int osec_PQsocket(const PGconn *conn);
int osec_PQconsumeInput(PGconn *conn);
PGnotify *osec_PQnotifies(PGconn *conn);
void osec_PQfreemem(void *ptr);
void osec_PQclear(PGresult *res);
ExecStatusType osec_PQresultStatus(const PGresult *res);
char *osec_PQresultErrorField(const PGresult *res, int fieldcode);
char *osec_PQresultErrorMessage(const PGresult *res);
int osec_PQnfields(const PGresult *res);
int osec_PQntuples(const PGresult *res);
char *osec_PQfname(const PGresult *res, int field_num);
Oid osec_PQftype(const PGresult *res, int field_num);
int osec_PQgetisnull(const PGresult *res, int tup_num, int field_num);
int osec_PQgetlength(const PGresult *res, int tup_num, int field_num);
char *osec_PQgetvalue(const PGresult *res, int tup_num, int field_num);
char *osec_PQcmdTuples(PGresult *res);
char *osec_PQerrorMessage(const PGconn *conn);

#endif
