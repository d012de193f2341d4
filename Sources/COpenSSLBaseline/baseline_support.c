#include "baseline_support.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double osec_bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

unsigned char *osec_bench_read_file(const char *path, long *length) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    unsigned char *buffer = NULL;
    if (fseek(file, 0, SEEK_END) == 0) {
        long size = ftell(file);
        if (size > 0 && fseek(file, 0, SEEK_SET) == 0) {
            buffer = malloc((size_t)size);
            if (buffer != NULL && fread(buffer, 1, (size_t)size, file) != (size_t)size) {
                free(buffer);
                buffer = NULL;
            } else {
                *length = size;
            }
        }
    }
    fclose(file);
    return buffer;
}
