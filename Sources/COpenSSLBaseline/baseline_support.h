// Helpers shared by the baseline measurements (not part of the module's Swift interface).
#ifndef OPENSEC_BASELINE_SUPPORT_H
#define OPENSEC_BASELINE_SUPPORT_H

/// Monotonic time in seconds.
double osec_bench_now(void);
/// Reads a whole file; returns NULL on failure, else a malloc'd buffer the caller frees, with its length.
unsigned char *osec_bench_read_file(const char *path, long *length);

#endif
