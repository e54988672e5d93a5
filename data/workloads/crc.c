/*
 * crc.c — CRC-32 (IEEE 802.3, reflected) table-driven and bit by bit.
 *
 * The table-driven loop is one load from a 64 KB buffer, one from the 1 KB
 * table, and a few shifts and xors per byte, all on a serial dependence
 * through the CRC; the bitwise CRC-32C loop is eight branch-free shift/mask
 * steps per byte. Both must agree with known check values ("123456789").
 *
 * Personality: long chains of dependent single-cycle ALU operations and L1
 * hits; IPC limited by dependences, not by misses or branches.
 *
 * Scale s: s passes of the table CRC over 64 KB plus 4 KB bitwise. Default 48.
 */
#include "rt.h"

#define DEFAULT_SCALE 48
#define TEST_SCALE 1
#define BUF_SIZE 65536
#define BITWISE_SIZE 4096

static uint32_t crc_table[256];

static void crc32_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
		crc_table[i] = c;
	}
}

static uint32_t crc32_table(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	while (n--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* CRC-32C (Castagnoli), one bit at a time, without branches. */
static uint32_t crc32c_bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1)));
	}
	return ~crc;
}

int main(int argc, char **argv)
{
	unsigned long passes = rt_arg_scale(argc, argv, DEFAULT_SCALE);
	uint8_t *buf = malloc(BUF_SIZE);
	struct rt_rng rng;
	uint64_t h = RT_CHECKSUM_INIT;
	static const char check[] = "123456789";

	rt_check(buf, "out of memory");
	crc32_init();
	rt_check(crc32_table(0, (const uint8_t *)check, 9) == 0xcbf43926u, "CRC-32 check value");
	rt_check(crc32c_bitwise(0, (const uint8_t *)check, 9) == 0xe3069283u, "CRC-32C check value");

	rt_rng_seed(&rng, 9);
	for (size_t i = 0; i < BUF_SIZE; i += 8) {
		uint64_t v = rt_rng_next(&rng);
		memcpy(buf + i, &v, 8);
	}
	uint32_t crc = 0, crcc = 0;
	for (unsigned long p = 0; p < passes; p++) {
		buf[p % BUF_SIZE] ^= (uint8_t)p;  /* every pass sees new data */
		crc = crc32_table(crc, buf, BUF_SIZE);
		crcc = crc32c_bitwise(crcc, buf + (p * 64) % (BUF_SIZE - BITWISE_SIZE), BITWISE_SIZE);
		h = rt_mix(h, ((uint64_t)crc << 32) | crcc);
	}
	printf("crc passes=%lu crc32=%08x crc32c=%08x checksum=%016lx\n", passes, crc, crcc, h);
	return 0;
}
