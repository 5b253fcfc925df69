/* Benchmarks/scale/libplist_decode.c - libplist's decode alone, for the scale curve.
 *
 *   libplist_decode FILE REPS
 *
 * The peers' libplist program times decode and then encode; its encoder takes tens of seconds on
 * 10 MB inputs and grows faster than linearly, so the scale curve measures libplist's decoder with
 * this driver. The file is read before timing; the fastest of REPS runs is printed; each repetition builds the whole plist_t tree with
 * plist_from_bin, and the tree is freed outside the timer. One JSON line in the peers' format. */
#include <plist/plist.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s FILE REPS\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (size <= 0 || size > UINT32_MAX) { fprintf(stderr, "libplist takes 1 byte to 4 GiB\n"); return 2; }
    char *input = malloc((size_t)size);
    if (!input || fread(input, 1, (size_t)size, f) != (size_t)size) { perror("read"); return 2; }
    fclose(f);
    int reps = atoi(argv[2]);
    if (reps < 1) reps = 1;
    double best = 0;
    for (int i = 0; i < reps; i++) {
        plist_t tree = NULL;
        uint64_t t0 = now_ns();
        plist_from_bin(input, (uint32_t)size, &tree);
        uint64_t t1 = now_ns();
        if (!tree) { fprintf(stderr, "plist_from_bin failed\n"); return 1; }
        plist_free(tree);
        double ms = (double)(t1 - t0) / 1e6;
        if (i == 0 || ms < best) best = ms;
    }
    printf("{\"peer\":\"c-libplist\",\"op\":\"decode\",\"min_ms\":%.3f,\"in_bytes\":%ld}\n", best, size);
    free(input);
    return 0;
}
