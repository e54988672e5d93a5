/* lu.c: LU decomposition with partial pivoting, then a solve */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 160;
    double *a = malloc(sizeof(double) * n * n), *x = malloc(sizeof(double) * n);
    int *p = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i * n + j] = ((i * 31 + j * 17) % 101) / 10.0 + (i == j) * n;
    for (int i = 0; i < n; i++) p[i] = i;
    for (int k = 0; k < n; k++) {
        int m = k;
        for (int i = k + 1; i < n; i++) if (fabs(a[i * n + k]) > fabs(a[m * n + k])) m = i;
        if (m != k) { for (int j = 0; j < n; j++) { double t = a[k * n + j]; a[k * n + j] = a[m * n + j]; a[m * n + j] = t; } int t = p[k]; p[k] = p[m]; p[m] = t; }
        for (int i = k + 1; i < n; i++) {
            double f = a[i * n + k] /= a[k * n + k];
            for (int j = k + 1; j < n; j++) a[i * n + j] -= f * a[k * n + j];
        }
    }
    for (int i = 0; i < n; i++) { double s = p[i] + 1.0; for (int j = 0; j < i; j++) s -= a[i * n + j] * x[j]; x[i] = s; }
    for (int i = n - 1; i >= 0; i--) { double s = x[i]; for (int j = i + 1; j < n; j++) s -= a[i * n + j] * x[j]; x[i] = s / a[i * n + i]; }
    printf("%.9f %.9f\n", x[0], x[n - 1]);
    return 0;
}
