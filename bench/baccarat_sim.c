/* Plain C reference for bench/bench_baccarat_vs_c.py: the work of the numba kernel
 * (cardroom.analysis.baccarat_kernel.simulate) written directly in C.
 *
 * xoshiro256** Fisher-Yates (Lemire's multiply-and-reject on 32-bit halves) over the shoe,
 * burn, deal to the cut card and `after_cut` coups more, the tableau, and a tally of every
 * coup's class (winner, Player nine class, Banker nine class, Super-9 progressive award).
 *
 * Usage: baccarat_sim COUPS S0 S1 S2 S3 < tables
 * tables (whitespace-separated integers, written by the benchmark from the rules):
 *   size cut_index after_cut burn_first, the shoe's card codes (size),
 *   burn_after[52] value[52] natural[10] pdraw[10] bdraw[10][11]
 * Prints: coups, shoes, wall seconds, CPU seconds, then the 135 class counts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SHOE 1024
#define MAX_COUP_CARDS 6
#define N_AWARDS 5
#define N_CLASSES (3 * 3 * 3 * N_AWARDS)

static uint64_t s[4];

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next(void) {
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static void shuffle(int32_t *shoe, int size) {
    uint64_t spare = 0;
    int have_spare = 0;
    for (int i = size - 1; i > 0; i--) {
        uint64_t bound = (uint64_t)(i + 1), m;
        for (;;) {
            uint64_t r;
            if (have_spare) {
                r = spare;
                have_spare = 0;
            } else {
                uint64_t x = next();
                r = x >> 32;
                spare = x & 0xFFFFFFFFu;
                have_spare = 1;
            }
            m = r * bound;
            uint64_t low = m & 0xFFFFFFFFu;
            if (low >= bound || low >= ((1ULL << 32) - bound) % bound) break;
        }
        int j = (int)(m >> 32);
        int32_t tmp = shoe[i];
        shoe[i] = shoe[j];
        shoe[j] = tmp;
    }
}

static int size, cut_index, after_cut, burn_first;
static int32_t base[MAX_SHOE], burn_after[52], value[52], natural[10], pdraw[10], bdraw[10][11];

static inline int suited(int a, int b, int c) {
    if ((a & 3) != (b & 3)) return 0;
    return c < 0 || (c & 3) == (a & 3);
}

static inline int ace_eight(int a, int b, int c) {
    if (c >= 0 || (a & 3) != (b & 3)) return 0;
    int ra = a >> 2, rb = b >> 2;
    return (ra == 0 && rb == 7) || (ra == 7 && rb == 0);
}

static int64_t deal_shoe(const int32_t *shoe, int64_t max_coups, int64_t *counts) {
    int pos = burn_first ? 1 + burn_after[shoe[0]] : 0;
    int left_after_cut = pos >= cut_index ? after_cut : -1;
    int64_t n = 0;
    while (n < max_coups && left_after_cut != 0 && pos + MAX_COUP_CARDS <= size) {
        int p1 = shoe[pos], b1 = shoe[pos + 1], p2 = shoe[pos + 2], b2 = shoe[pos + 3];
        pos += 4;
        int pt = (value[p1] + value[p2]) % 10, bt = (value[b1] + value[b2]) % 10;
        int p3 = -1, b3 = -1;
        if (!(natural[pt] || natural[bt])) {
            int column = 10;
            if (pdraw[pt]) {
                p3 = shoe[pos++];
                column = value[p3];
                pt = (pt + column) % 10;
            }
            if (bdraw[bt][column]) {
                b3 = shoe[pos++];
                bt = (bt + value[b3]) % 10;
            }
        }
        int winner = pt == bt ? 2 : (pt > bt ? 0 : 1);
        int p_nine = pt != 9 ? 0 : (suited(p1, p2, p3) ? 2 : 1);
        int b_nine = bt != 9 ? 0 : (suited(b1, b2, b3) ? 2 : 1);
        int award = 0;
        if (ace_eight(p1, p2, p3) && ace_eight(b1, b2, b3))
            award = (p1 & 3) == (b1 & 3) ? 4 : 3;
        else if (p_nine == 2 && b_nine == 2)
            award = 2;
        else if (p_nine == 2 || b_nine == 2)
            award = 1;
        counts[((winner * 3 + p_nine) * 3 + b_nine) * N_AWARDS + award]++;
        n++;
        if (left_after_cut > 0)
            left_after_cut--;
        else if (pos >= cut_index)
            left_after_cut = after_cut;
    }
    return n;
}

static int read_ints(int32_t *out, int n) {
    for (int i = 0; i < n; i++)
        if (scanf("%d", &out[i]) != 1) return 0;
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s COUPS S0 S1 S2 S3 < tables\n", argv[0]);
        return 2;
    }
    int64_t coups = strtoll(argv[1], NULL, 10);
    for (int k = 0; k < 4; k++) s[k] = strtoull(argv[2 + k], NULL, 10);
    if (scanf("%d %d %d %d", &size, &cut_index, &after_cut, &burn_first) != 4 || size > MAX_SHOE
        || !read_ints(base, size) || !read_ints(burn_after, 52) || !read_ints(value, 52)
        || !read_ints(natural, 10) || !read_ints(pdraw, 10) || !read_ints(&bdraw[0][0], 110)) {
        fprintf(stderr, "error: bad tables on stdin\n");
        return 2;
    }
    int32_t shoe[MAX_SHOE];
    int64_t counts[N_CLASSES];
    memset(counts, 0, sizeof counts);
    memcpy(shoe, base, sizeof(int32_t) * size);
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    int64_t done = 0, shoes = 0;
    while (done < coups) {
        shuffle(shoe, size);
        shoes++;
        done += deal_shoe(shoe, coups - done, counts);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    double cpu = (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) * 1e-9;
    printf("%lld %lld %.6f %.6f\n", (long long)done, (long long)shoes, wall, cpu);
    for (int k = 0; k < N_CLASSES; k++)
        printf("%lld%c", (long long)counts[k], k + 1 < N_CLASSES ? ' ' : '\n');
    return 0;
}
