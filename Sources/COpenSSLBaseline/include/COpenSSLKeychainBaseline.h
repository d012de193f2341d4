// The keychain benchmark's floor: what raw SQLite plus AES-256-GCM costs in C, with the same durability as our
// keychain (WAL, synchronous=FULL, one transaction per add). Paths cross into C as strings; nothing else does.
#ifndef OPENSEC_COPENSSL_KEYCHAIN_BASELINE_H
#define OPENSEC_COPENSSL_KEYCHAIN_BASELINE_H

/// Creates a database at `path` and inserts `count` rows (service, account, AES-256-GCM-sealed 64-byte secret),
/// one transaction each. Returns inserts per second, or < 0 on failure.
double osec_baseline_keychain_insert(const char *path, int count);
/// Looks rows of that database up by service + account (prepared statement, indexed) and opens the sealed
/// secret, for about `seconds`. Returns lookups per second, or < 0 on failure.
double osec_baseline_keychain_find(const char *path, int count, double seconds);
/// Deletes the rows `account-0` … `account-<count-1>` of that database by service + account, one transaction
/// each. Returns deletes per second, or < 0 on failure.
double osec_baseline_keychain_delete(const char *path, int count);

#endif
