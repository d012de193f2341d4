// The floor of the sync push: COPY of the rows our push sends, in one transaction (see COpenSSLSyncBaseline.h).
#include "COpenSSLSyncBaseline.h"

#include <libpq-fe.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_support.h"

static int run(PGconn *conn, const char *sql) {
    PGresult *result = PQexec(conn, sql);
    ExecStatusType status = PQresultStatus(result);
    PQclear(result);
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK ? 0 : -1;
}

/// Appends `\\x` and the hex digits of `bytes` (COPY text format for bytea).
static char *append_bytea(char *out, const unsigned char *bytes, int length) {
    static const char digits[] = "0123456789abcdef";
    *out++ = '\\';
    *out++ = '\\';
    *out++ = 'x';
    for (int i = 0; i < length; i++) {
        *out++ = digits[bytes[i] >> 4];
        *out++ = digits[bytes[i] & 15];
    }
    return out;
}

double osec_baseline_pg_copy(const char *conninfo, int count, int blob_length) {
    if (count <= 0 || blob_length <= 0) return -1;
    PGconn *conn = PQconnectdb(conninfo);
    double rate = -1;
    unsigned char *random_bytes = NULL;
    char *line = NULL;
    if (PQstatus(conn) != CONNECTION_OK) goto done;
    if (run(conn,
            "CREATE TABLE IF NOT EXISTS osec_floor_items (circle_id bytea NOT NULL, item_id bytea NOT NULL, "
            "version bigint NOT NULL, seq bigint NOT NULL, tombstone boolean NOT NULL, blob bytea NOT NULL, "
            "PRIMARY KEY (circle_id, item_id))") != 0
        || run(conn, "CREATE INDEX IF NOT EXISTS osec_floor_items_seq ON osec_floor_items (circle_id, seq)") != 0
        || run(conn, "TRUNCATE osec_floor_items") != 0)
        goto done;
    size_t per_row = 16 + (size_t)blob_length;
    random_bytes = malloc(16 + per_row * (size_t)count);
    line = malloc(64 + 2 * (16 + 16 + (size_t)blob_length) + 64);
    if (random_bytes == NULL || line == NULL) goto done;
    if (RAND_bytes(random_bytes, (int)(16 + per_row * (size_t)count)) != 1) goto done;

    double start = osec_bench_now();
    if (run(conn, "BEGIN") != 0) goto done;
    PGresult *result = PQexec(conn, "COPY osec_floor_items (circle_id, item_id, version, seq, tombstone, blob) "
                                    "FROM STDIN");
    int copying = PQresultStatus(result) == PGRES_COPY_IN;
    PQclear(result);
    if (!copying) goto done;
    for (int i = 0; i < count; i++) {
        const unsigned char *row = random_bytes + 16 + per_row * (size_t)i;
        char *out = append_bytea(line, random_bytes, 16);
        *out++ = '\t';
        out = append_bytea(out, row, 16);
        out += sprintf(out, "\t1\t%d\tf\t", i + 1);
        out = append_bytea(out, row + 16, blob_length);
        *out++ = '\n';
        if (PQputCopyData(conn, line, (int)(out - line)) != 1) goto done;
    }
    if (PQputCopyEnd(conn, NULL) != 1) goto done;
    int ok = 1;
    while ((result = PQgetResult(conn)) != NULL) {
        if (PQresultStatus(result) != PGRES_COMMAND_OK) ok = 0;
        PQclear(result);
    }
    if (!ok || run(conn, "COMMIT") != 0) goto done;
    double elapsed = osec_bench_now() - start;
    rate = elapsed > 0 ? count / elapsed : -1;
done:
    free(random_bytes);
    free(line);
    PQfinish(conn);
    return rate;
}
