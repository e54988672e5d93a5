/* spectral.c: the spectral norm of an infinite matrix (a divide an element) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
static double A(int i, int j) { return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1); }
static void mul_Av(int n, const double *v, double *out) {
    for (int i = 0; i < n; i++) { double s = 0; for (int j = 0; j < n; j++) s += A(i, j) * v[j]; out[i] = s; }
}
static void mul_Atv(int n, const double *v, double *out) {
    for (int i = 0; i < n; i++) { double s = 0; for (int j = 0; j < n; j++) s += A(j, i) * v[j]; out[i] = s; }
}
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 300;
    double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v), *t = malloc(n * sizeof *t);
    for (int i = 0; i < n; i++) u[i] = 1;
    for (int k = 0; k < 6; k++) { mul_Av(n, u, t); mul_Atv(n, t, v); mul_Av(n, v, t); mul_Atv(n, t, u); }
    double vBv = 0, vv = 0;
    for (int i = 0; i < n; i++) { vBv += u[i] * v[i]; vv += v[i] * v[i]; }
    printf("%.9f\n", sqrt(vBv / vv));
    return 0;
}
