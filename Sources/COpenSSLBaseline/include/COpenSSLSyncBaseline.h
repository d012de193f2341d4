// The sync benchmark's floor: the same rows our push writes (circle id, item id, version, seq, tombstone, blob),
// written by one C libpq client with COPY in one transaction. The connection string crosses into C as a string.
#ifndef OPENSEC_COPENSSL_SYNC_BASELINE_H
#define OPENSEC_COPENSSL_SYNC_BASELINE_H

/// Creates (once) the table `osec_floor_items`, shaped and indexed like `osec_items`, empties it, then writes
/// `count` rows with random 16-byte ids and `blob_length`-byte random blobs with `COPY … FROM STDIN` inside one
/// transaction. Only the COPY and its commit are timed. Returns rows per second, or < 0 on failure.
double osec_baseline_pg_copy(const char *conninfo, int count, int blob_length);

#endif
