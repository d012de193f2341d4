// Helpers shared by the baseline measurements (not part of the module's Swift interface).
#ifndef OPENSEC_BASELINE_SUPPORT_H
#define OPENSEC_BASELINE_SUPPORT_H

/// Monotonic time in seconds.
double osec_bench_now(void);
/// Reads a whole file; returns NULL on failure, else a malloc'd buffer the caller frees, with its length.
unsigned char *osec_bench_read_file(const char *path, long *length);

/// Evaluates `body` (true on success) in batches of 8 until `seconds` have passed, like the Swift side's
/// `measure`, and stores operations per second in `result` (-1 when `body` failed).
#define OSEC_BENCH_MEASURE(seconds, body, result)                          \
    do {                                                                   \
        long _ops = 0;                                                     \
        int _failed = 0;                                                   \
        double _start = osec_bench_now(), _elapsed = 0;                    \
        while (!_failed && _elapsed < (seconds)) {                         \
            for (int _i = 0; _i < 8; _i++) {                               \
                if (!(body)) {                                             \
                    _failed = 1;                                           \
                    break;                                                 \
                }                                                          \
                _ops++;                                                    \
            }                                                              \
            _elapsed = osec_bench_now() - _start;                          \
        }                                                                  \
        (result) = _failed ? -1 : (double)_ops / _elapsed;                 \
    } while (0)

#endif
