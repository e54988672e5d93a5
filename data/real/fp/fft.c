/* fft.c: radix-2 complex FFTs of sampled sines (libm sin, cos, cabs) */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
static void fft(double complex *a, int n) {
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) { double complex t = a[i]; a[i] = a[j]; a[j] = t; }
    }
    for (int len = 2; len <= n; len <<= 1) {
        double ang = -2 * M_PI / len;
        double complex wl = cos(ang) + sin(ang) * I;
        for (int i = 0; i < n; i += len) {
            double complex w = 1;
            for (int j = 0; j < len / 2; j++) {
                double complex u = a[i + j], v = a[i + j + len / 2] * w;
                a[i + j] = u + v; a[i + j + len / 2] = u - v; w *= wl;
            }
        }
    }
}
int main(int argc, char **argv) {
    int n = 1 << (argc > 1 ? atoi(argv[1]) : 14), rounds = 6;
    double complex *a = malloc(n * sizeof *a);
    double acc = 0;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++) a[i] = sin(i * 0.01 * (r + 1)) + cos(i * 0.003) * I;
        fft(a, n);
        acc += cabs(a[r + 1]);
    }
    printf("%.6f\n", acc);
    return 0;
}
