#include "COpenSSLKeychainBaseline.h"
#include "baseline_support.h"
#include <openssl/evp.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
static const unsigned char kc_key[32] = {42};

static int kc_seal(const unsigned char *in, int len, const unsigned char nonce[12], unsigned char *out, unsigned char tag[16]) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int outl = 0, ok = ctx && EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, kc_key, nonce) == 1 &&
                       EVP_EncryptUpdate(ctx, out, &outl, in, len) == 1 && EVP_EncryptFinal_ex(ctx, out + outl, &outl) == 1 &&
                       EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

static int kc_open(const unsigned char *blob, int len, unsigned char *out) {
    // blob = nonce(12) ‖ ciphertext ‖ tag(16)
    if (len < 28) return 0;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int outl = 0, n = len - 28;
    int ok = ctx && EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, kc_key, blob) == 1 &&
             EVP_DecryptUpdate(ctx, out, &outl, blob + 12, n) == 1 &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, (void *)(blob + 12 + n)) == 1 &&
             EVP_DecryptFinal_ex(ctx, out + outl, &outl) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

static sqlite3 *kc_open_db(const char *path) {
    sqlite3 *db = NULL;
    if (sqlite3_open(path, &db) != SQLITE_OK) { sqlite3_close(db); return NULL; }
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", NULL, NULL, NULL);
    return db;
}

/// Runs the bound `stmt` in a transaction of its own, as the keychain commits each item. 1 on success.
static int kc_commit_one(sqlite3 *db, sqlite3_stmt *stmt) {
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return 0;
    int done = sqlite3_step(stmt) == SQLITE_DONE;
    sqlite3_reset(stmt);
    return sqlite3_exec(db, done ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK && done;
}

double osec_baseline_keychain_insert(const char *path, int count) {
    sqlite3 *db = kc_open_db(path);
    sqlite3_stmt *ins = NULL;
    double result = -1;
    if (!db) return -1;
    if (sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS genp (id INTEGER PRIMARY KEY, svce BLOB, acct BLOB, data BLOB, UNIQUE(svce, acct))",
                     NULL, NULL, NULL) != SQLITE_OK) goto done;
    if (sqlite3_prepare_v2(db, "INSERT INTO genp (svce, acct, data) VALUES (?, ?, ?)", -1, &ins, NULL) != SQLITE_OK) goto done;
    unsigned char secret[64], blob[12 + 64 + 16];
    memset(secret, 'S', sizeof secret);
    double start = osec_bench_now();
    for (int i = 0; i < count; i++) {
        char acct[32];
        int alen = snprintf(acct, sizeof acct, "account-%d", i);
        memset(blob, 0, 12);
        memcpy(blob, &i, sizeof i);
        if (!kc_seal(secret, 64, blob, blob + 12, blob + 12 + 64)) goto done;
        sqlite3_bind_blob(ins, 1, "service", 7, SQLITE_STATIC);
        sqlite3_bind_blob(ins, 2, acct, alen, SQLITE_TRANSIENT);
        sqlite3_bind_blob(ins, 3, blob, sizeof blob, SQLITE_TRANSIENT);
        if (!kc_commit_one(db, ins)) goto done;
    }
    result = count / (osec_bench_now() - start);
done:
    sqlite3_finalize(ins);
    sqlite3_close(db);
    return result;
}

double osec_baseline_keychain_find(const char *path, int count, double seconds) {
    sqlite3 *db = kc_open_db(path);
    sqlite3_stmt *sel = NULL;
    double result = -1;
    if (!db || count <= 0) goto done;
    if (sqlite3_prepare_v2(db, "SELECT data FROM genp WHERE svce = ? AND acct = ?", -1, &sel, NULL) != SQLITE_OK) goto done;
    unsigned char out[256];
    long ops = 0;
    unsigned int seed = 12345;
    double start = osec_bench_now(), elapsed = 0;
    while (elapsed < seconds) {
        for (int k = 0; k < 64; k++) {
            char acct[32];
            seed = seed * 1103515245u + 12345u;
            int alen = snprintf(acct, sizeof acct, "account-%d", (int)(seed % (unsigned)count));
            sqlite3_bind_blob(sel, 1, "service", 7, SQLITE_STATIC);
            sqlite3_bind_blob(sel, 2, acct, alen, SQLITE_TRANSIENT);
            if (sqlite3_step(sel) != SQLITE_ROW) goto done;
            const unsigned char *blob = sqlite3_column_blob(sel, 0);
            int len = sqlite3_column_bytes(sel, 0);
            if (len > (int)sizeof out + 28 || !kc_open(blob, len, out)) goto done;
            sqlite3_reset(sel);
            ops++;
        }
        elapsed = osec_bench_now() - start;
    }
    result = ops / elapsed;
done:
    sqlite3_finalize(sel);
    sqlite3_close(db);
    return result;
}

double osec_baseline_keychain_delete(const char *path, int count) {
    sqlite3 *db = kc_open_db(path);
    sqlite3_stmt *del = NULL;
    double result = -1;
    if (!db) return -1;
    if (sqlite3_prepare_v2(db, "DELETE FROM genp WHERE svce = ? AND acct = ?", -1, &del, NULL) != SQLITE_OK) goto done;
    double start = osec_bench_now();
    for (int i = 0; i < count; i++) {
        char acct[32];
        int alen = snprintf(acct, sizeof acct, "account-%d", i);
        sqlite3_bind_blob(del, 1, "service", 7, SQLITE_STATIC);
        sqlite3_bind_blob(del, 2, acct, alen, SQLITE_TRANSIENT);
        if (!kc_commit_one(db, del) || sqlite3_changes(db) != 1) goto done;
    }
    result = count / (osec_bench_now() - start);
done:
    sqlite3_finalize(del);
    sqlite3_close(db);
    return result;
}
