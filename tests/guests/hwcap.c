/* hwcap.c — what the auxiliary vector advertises, and one instruction of
 * each advertised feature executed to show that it really runs.
 *
 * Prints AT_HWCAP and AT_HWCAP2 as the program sees them (getauxval), then
 * one line per feature bit set: its name and the result of an instruction
 * that needs it. Were ivx to advertise a feature it cannot execute, the
 * run would stop with its "unsupported instruction" error; tests/realprog-isa.sh checks the
 * values and that every line is printed. Built with
 * -march=armv8.5-a+crypto+sha3+dotprod+rdma so the assembler accepts the
 * instructions; which ones run is decided at run time by the bits, as an
 * IFUNC would. */
#include <stdint.h>
#include <stdio.h>
#include <sys/auxv.h>

/* Linux arch/arm64/include/uapi/asm/hwcap.h */
#define CAP_FP       (1ul << 0)
#define CAP_ASIMD    (1ul << 1)
#define CAP_AES      (1ul << 3)
#define CAP_PMULL    (1ul << 4)
#define CAP_SHA1     (1ul << 5)
#define CAP_SHA2     (1ul << 6)
#define CAP_CRC32    (1ul << 7)
#define CAP_ATOMICS  (1ul << 8)
#define CAP_ASIMDRDM (1ul << 12)
#define CAP_JSCVT    (1ul << 13)
#define CAP_LRCPC    (1ul << 15)
#define CAP_SHA3     (1ul << 17)
#define CAP_ASIMDDP  (1ul << 20)
#define CAP_SHA512   (1ul << 21)
#define CAP2_FRINT   (1ul << 8)

typedef uint64_t (*feature_fn)(void);

static uint64_t run_fp(void)
{
	double r;
	__asm__ volatile("fmov d0, #1.5\n\tfadd %d0, d0, d0" : "=w"(r) : : "d0");
	return (uint64_t)r;
}

static uint64_t run_asimd(void)
{
	uint64_t r;
	__asm__ volatile("movi v0.16b, #3\n\taddv b0, v0.16b\n\tumov %w0, v0.b[0]" : "=r"(r) : : "v0");
	return r;
}

static uint64_t run_aes(void)
{
	uint64_t r;
	__asm__ volatile("movi v0.16b, #1\n\tmovi v1.16b, #2\n\taese v0.16b, v1.16b\n\tumov %0, v0.d[0]"
			 : "=r"(r) : : "v0", "v1");
	return r;
}

static uint64_t run_pmull(void)
{
	uint64_t r;
	__asm__ volatile("movi v0.2d, #0xff\n\tpmull v1.1q, v0.1d, v0.1d\n\tumov %0, v1.d[0]"
			 : "=r"(r) : : "v0", "v1");
	return r;
}

static uint64_t run_sha1(void)
{
	uint64_t r;
	__asm__ volatile("movi v0.4s, #7\n\tsha1h s1, s0\n\tfmov %w0, s1" : "=r"(r) : : "v0", "v1");
	return r;
}

static uint64_t run_sha2(void)
{
	uint64_t r;
	__asm__ volatile("movi v0.4s, #7\n\tmovi v1.4s, #9\n\tsha256su0 v0.4s, v1.4s\n\tumov %0, v0.d[0]"
			 : "=r"(r) : : "v0", "v1");
	return r;
}

static uint64_t run_crc32(void)
{
	uint32_t r = 0xffffffffu;
	__asm__ volatile("crc32b %w0, %w0, %w1" : "+r"(r) : "r"(0x61));
	return r;
}

static uint64_t run_atomics(void)
{
	static uint64_t word = 40;
	uint64_t old;
	__asm__ volatile("ldadd %1, %0, [%2]" : "=r"(old) : "r"(2ul), "r"(&word) : "memory");
	return old + word;
}

static uint64_t run_rdm(void)
{
	uint64_t r;
	__asm__ volatile("movi v0.8h, #64, lsl #8\n\tmovi v1.8h, #32, lsl #8\n\tmovi v2.8h, #1\n\t"
			 "sqrdmlah v2.8h, v0.8h, v1.8h\n\tumov %0, v2.d[0]" : "=r"(r) : : "v0", "v1", "v2");
	return r;
}

static uint64_t run_jscvt(void)
{
	uint32_t r;
	double d = -2.75;
	__asm__ volatile("fjcvtzs %w0, %d1" : "=r"(r) : "w"(d) : "cc");
	return r;
}

static uint64_t run_lrcpc(void)
{
	static uint64_t word = 0x1234;
	uint64_t r;
	__asm__ volatile("ldapr %0, [%1]" : "=r"(r) : "r"(&word) : "memory");
	return r;
}

static uint64_t run_sha3(void)
{
	uint64_t r;
	__asm__ volatile("movi v0.16b, #1\n\tmovi v1.16b, #2\n\tmovi v2.16b, #4\n\t"
			 "eor3 v3.16b, v0.16b, v1.16b, v2.16b\n\tumov %0, v3.d[0]" : "=r"(r) : : "v0", "v1", "v2", "v3");
	return r;
}

static uint64_t run_dotprod(void)
{
	uint64_t r;
	__asm__ volatile("movi v0.16b, #2\n\tmovi v1.16b, #3\n\tmovi v2.4s, #0\n\t"
			 "sdot v2.4s, v0.16b, v1.16b\n\tumov %0, v2.d[0]" : "=r"(r) : : "v0", "v1", "v2");
	return r;
}

static uint64_t run_sha512(void)
{
	uint64_t r;
	__asm__ volatile("movi v0.2d, #0xff\n\tmovi v1.2d, #0xff00\n\tsha512su0 v0.2d, v1.2d\n\tumov %0, v0.d[0]"
			 : "=r"(r) : : "v0", "v1");
	return r;
}

static uint64_t run_frint(void)
{
	double r;
	__asm__ volatile("fmov d0, #-3.75\n\tfrint32z %d0, d0" : "=w"(r) : : "d0");
	return (uint64_t)(int64_t)r;
}

static const struct {
	int hwcap2;
	unsigned long bit;
	const char *name;
	feature_fn run;
} features[] = {
	{ 0, CAP_FP, "fp", run_fp },
	{ 0, CAP_ASIMD, "asimd", run_asimd },
	{ 0, CAP_AES, "aes", run_aes },
	{ 0, CAP_PMULL, "pmull", run_pmull },
	{ 0, CAP_SHA1, "sha1", run_sha1 },
	{ 0, CAP_SHA2, "sha2", run_sha2 },
	{ 0, CAP_CRC32, "crc32", run_crc32 },
	{ 0, CAP_ATOMICS, "atomics", run_atomics },
	{ 0, CAP_ASIMDRDM, "asimdrdm", run_rdm },
	{ 0, CAP_JSCVT, "jscvt", run_jscvt },
	{ 0, CAP_LRCPC, "lrcpc", run_lrcpc },
	{ 0, CAP_SHA3, "sha3", run_sha3 },
	{ 0, CAP_ASIMDDP, "asimddp", run_dotprod },
	{ 0, CAP_SHA512, "sha512", run_sha512 },
	{ 1, CAP2_FRINT, "frint", run_frint },
};

int main(void)
{
	unsigned long hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
	printf("AT_HWCAP=%#lx AT_HWCAP2=%#lx\n", hwcap, hwcap2);
	for (size_t i = 0; i < sizeof features / sizeof features[0]; i++) {
		unsigned long caps = features[i].hwcap2 ? hwcap2 : hwcap;
		if (caps & features[i].bit)
			printf("%s %#llx\n", features[i].name, (unsigned long long)features[i].run());
	}
	return 0;
}
