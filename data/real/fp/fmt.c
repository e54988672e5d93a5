/* fmt.c: glibc snprintf of doubles, strtod, memcpy, strstr and strlen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    char buf[128], *big = malloc(1 << 16);
    double acc = 0;
    size_t len = 0;
    big[0] = 0;
    for (int i = 0; i < n; i++) {
        int k = snprintf(buf, sizeof buf, "%.*g|%e|%08x;", 3 + i % 12, i * 1.000123 / 7.0, i * 3.5e-3, i * 2654435761u);
        acc += strtod(buf, NULL);
        if (len + k + 1 > (1 << 16)) len = 0;
        memcpy(big + len, buf, k + 1);
        len += k;
        if (strstr(buf, "e+0")) acc += strlen(big) % 7;
    }
    printf("%.6f %zu\n", acc, len);
    return 0;
}
