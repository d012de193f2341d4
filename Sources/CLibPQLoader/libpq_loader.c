#include "libpq_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// Every libpq function OSecPostgres uses.
#define OSEC_PQ_FUNCTIONS(X)                                                                                           \
    X(PQconnectdbParams)                                                                                               \
    X(PQstatus)                                                                                                        \
    X(PQfinish)                                                                                                        \
    X(PQsetNoticeProcessor)                                                                                            \
    X(PQserverVersion)                                                                                                 \
    X(PQexecParams)                                                                                                    \
    X(PQsocket)                                                                                                        \
    X(PQconsumeInput)                                                                                                  \
    X(PQnotifies)                                                                                                      \
    X(PQfreemem)                                                                                                       \
    X(PQclear)                                                                                                         \
    X(PQresultStatus)                                                                                                  \
    X(PQresultErrorField)                                                                                              \
    X(PQresultErrorMessage)                                                                                            \
    X(PQnfields)                                                                                                       \
    X(PQntuples)                                                                                                       \
    X(PQfname)                                                                                                         \
    X(PQftype)                                                                                                         \
    X(PQgetisnull)                                                                                                     \
    X(PQgetlength)                                                                                                     \
    X(PQgetvalue)                                                                                                      \
    X(PQcmdTuples)                                                                                                     \
    X(PQerrorMessage)

#define OSEC_PQ_FIELD(name) __typeof__(&name) name;
static struct {
    OSEC_PQ_FUNCTIONS(OSEC_PQ_FIELD)
} pq;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

// The sonames tried, newest ABI first (libpq's soname has been libpq.so.5 since PostgreSQL 8.2).
static const char *const library_names[] = {"libpq.so.5", "libpq.so"};

static void load(void) {
    void *handle = NULL;
    for (size_t i = 0; i < sizeof(library_names) / sizeof(library_names[0]) && handle == NULL; i++) {
        handle = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof(load_error), "cannot load libpq.so.5 (PostgreSQL's client library): %s",
                 reason ? reason : "not found");
        return;
    }
    const char *missing = NULL;
#define OSEC_PQ_RESOLVE(name)                                                                                          \
    pq.name = (__typeof__(&name))dlsym(handle, #name);                                                                 \
    if (pq.name == NULL && missing == NULL) {                                                                          \
        missing = #name;                                                                                               \
    }
    OSEC_PQ_FUNCTIONS(OSEC_PQ_RESOLVE)
#undef OSEC_PQ_RESOLVE
    if (missing != NULL) {
        snprintf(load_error, sizeof(load_error), "libpq.so.5 lacks %s (libpq too old)", missing);
        dlclose(handle);
        return;
    }
    loaded = 1;  // the handle stays open for the life of the process
}

int osec_pq_load(const char **error) {
    pthread_once(&load_once, load);
    if (!loaded) {
        if (error != NULL) {
            *error = load_error;
        }
        return -1;
    }
    return 0;
}

PGconn *osec_PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname) {
    return pq.PQconnectdbParams(keywords, values, expand_dbname);
}
ConnStatusType osec_PQstatus(const PGconn *conn) { return pq.PQstatus(conn); }
void osec_PQfinish(PGconn *conn) { pq.PQfinish(conn); }
PQnoticeProcessor osec_PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
    return pq.PQsetNoticeProcessor(conn, proc, arg);
}
int osec_PQserverVersion(const PGconn *conn) { return pq.PQserverVersion(conn); }
PGresult *osec_PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                            const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                            int resultFormat) {
    return pq.PQexecParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat);
}
int osec_PQsocket(const PGconn *conn) { return pq.PQsocket(conn); }
int osec_PQconsumeInput(PGconn *conn) { return pq.PQconsumeInput(conn); }
PGnotify *osec_PQnotifies(PGconn *conn) { return pq.PQnotifies(conn); }
void osec_PQfreemem(void *ptr) { pq.PQfreemem(ptr); }
void osec_PQclear(PGresult *res) { pq.PQclear(res); }
ExecStatusType osec_PQresultStatus(const PGresult *res) { return pq.PQresultStatus(res); }
char *osec_PQresultErrorField(const PGresult *res, int fieldcode) { return pq.PQresultErrorField(res, fieldcode); }
char *osec_PQresultErrorMessage(const PGresult *res) { return pq.PQresultErrorMessage(res); }
int osec_PQnfields(const PGresult *res) { return pq.PQnfields(res); }
int osec_PQntuples(const PGresult *res) { return pq.PQntuples(res); }
char *osec_PQfname(const PGresult *res, int field_num) { return pq.PQfname(res, field_num); }
Oid osec_PQftype(const PGresult *res, int field_num) { return pq.PQftype(res, field_num); }
int osec_PQgetisnull(const PGresult *res, int tup_num, int field_num) {
    return pq.PQgetisnull(res, tup_num, field_num);
}
int osec_PQgetlength(const PGresult *res, int tup_num, int field_num) {
    return pq.PQgetlength(res, tup_num, field_num);
}
char *osec_PQgetvalue(const PGresult *res, int tup_num, int field_num) {
    return pq.PQgetvalue(res, tup_num, field_num);
}
char *osec_PQcmdTuples(PGresult *res) { return pq.PQcmdTuples(res); }
char *osec_PQerrorMessage(const PGconn *conn) { return pq.PQerrorMessage(conn); }
