// Helpers shared by the baseline measurements (not part of the module's Swift interface).
#ifndef OPENSEC_BASELINE_SUPPORT_H
#define OPENSEC_BASELINE_SUPPORT_H

/// Monotonic time in seconds.
double osec_bench_now(void);
/// Reads a whole file; returns NULL on failure, else a malloc'd buffer the caller frees, with its length.
unsigned char *osec_bench_read_file(const char *path, long *length);

/// Runs `body` in batches of 8 until `seconds` elapsed; sets `result` to calls per second, or -1 on failure
/// (jumping to the caller's `done` label).
#define OSEC_BENCH_MEASURE(seconds, body)                  \
    do {                                                   \
        long ops = 0;                                      \
        double start = osec_bench_now(), elapsed = 0;      \
        while (elapsed < (seconds)) {                      \
            for (int i = 0; i < 8; i++) {                  \
                if (!(body)) {                             \
                    result = -1;                           \
                    goto done;                             \
                }                                          \
                ops++;                                     \
            }                                              \
            elapsed = osec_bench_now() - start;            \
        }                                                  \
        result = (double)ops / elapsed;                    \
    } while (0)

#endif
