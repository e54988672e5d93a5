/* blur.c: a 5-tap float blur, both directions (auto-vectorized) */
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int w = 512, h = 384, rounds = argc > 1 ? atoi(argv[1]) : 12;
    float *a = malloc(sizeof(float) * w * h), *b = malloc(sizeof(float) * w * h);
    for (int i = 0; i < w * h; i++) a[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
    for (int r = 0; r < rounds; r++) {
        for (int y = 0; y < h; y++)
            for (int x = 2; x < w - 2; x++)
                b[y * w + x] = 0.1f * a[y * w + x - 2] + 0.2f * a[y * w + x - 1] + 0.4f * a[y * w + x] +
                               0.2f * a[y * w + x + 1] + 0.1f * a[y * w + x + 2];
        for (int y = 2; y < h - 2; y++)
            for (int x = 0; x < w; x++)
                a[y * w + x] = 0.1f * b[(y - 2) * w + x] + 0.2f * b[(y - 1) * w + x] + 0.4f * b[y * w + x] +
                               0.2f * b[(y + 1) * w + x] + 0.1f * b[(y + 2) * w + x];
    }
    double s = 0;
    for (int i = 0; i < w * h; i += 97) s += a[i];
    printf("%.6f\n", s);
    return 0;
}
