/*
 * isa_simd_sha3.c — the ARMv8.2 cryptographic extensions' SHA-3 (EOR3,
 * BCAX, RAX1, XAR) and SHA-512 (SHA512H, SHA512H2, SHA512SU0, SHA512SU1)
 * instructions: the 1100 1110 encoding space (crypto three-register
 * SHA512, two-register SHA512, four-register, XAR). SM3 and SM4 share the
 * space and decode as unsupported.
 *
 * Field use: rd, rn, rm, ra index cpu.v[]; f1 = op; imm = XAR's rotation.
 */
#include "isa_simd.h"

enum { S_EOR3, S_BCAX, S_RAX1, S_XAR, S_SHA512H, S_SHA512H2, S_SHA512SU0, S_SHA512SU1 };

static uint64_t ror64(uint64_t x, unsigned n) { return (x >> n) | (x << ((64 - n) & 63)); }

static int h_sha3(struct cpu *c, const struct uop *u)
{
	const vreg d = c->v[u->rd], n = c->v[u->rn], m = c->v[u->rm], a = c->v[u->ra];
	vreg r;
	switch (u->f1) {
	case S_EOR3:
		for (int i = 0; i < 2; i++)
			r.d[i] = n.d[i] ^ m.d[i] ^ a.d[i];
		break;
	case S_BCAX:
		for (int i = 0; i < 2; i++)
			r.d[i] = n.d[i] ^ (m.d[i] & ~a.d[i]);
		break;
	case S_RAX1:
		for (int i = 0; i < 2; i++)
			r.d[i] = n.d[i] ^ ror64(m.d[i], 63);
		break;
	case S_XAR:
		for (int i = 0; i < 2; i++)
			r.d[i] = ror64(n.d[i] ^ m.d[i], (unsigned)u->imm);
		break;
	case S_SHA512H: {                       /* X = Vn, Y = Vm, W = Vd */
		uint64_t s1 = ror64(m.d[1], 14) ^ ror64(m.d[1], 18) ^ ror64(m.d[1], 41);
		uint64_t hi = ((m.d[1] & n.d[0]) ^ (~m.d[1] & n.d[1])) + s1 + d.d[1];
		uint64_t t = hi + m.d[0];
		s1 = ror64(t, 14) ^ ror64(t, 18) ^ ror64(t, 41);
		r.d[0] = ((t & m.d[1]) ^ (~t & n.d[0])) + s1 + d.d[0];
		r.d[1] = hi;
		break;
	}
	case S_SHA512H2: {
		uint64_t s0 = ror64(m.d[0], 28) ^ ror64(m.d[0], 34) ^ ror64(m.d[0], 39);
		uint64_t hi = ((n.d[0] & m.d[1]) ^ (n.d[0] & m.d[0]) ^ (m.d[1] & m.d[0])) + s0 + d.d[1];
		s0 = ror64(hi, 28) ^ ror64(hi, 34) ^ ror64(hi, 39);
		r.d[0] = ((hi & m.d[0]) ^ (hi & m.d[1]) ^ (m.d[1] & m.d[0])) + s0 + d.d[0];
		r.d[1] = hi;
		break;
	}
	case S_SHA512SU0:
		r.d[0] = d.d[0] + (ror64(d.d[1], 1) ^ ror64(d.d[1], 8) ^ (d.d[1] >> 7));
		r.d[1] = d.d[1] + (ror64(n.d[0], 1) ^ ror64(n.d[0], 8) ^ (n.d[0] >> 7));
		break;
	default:                                /* SHA512SU1 */
		r.d[1] = d.d[1] + (ror64(n.d[1], 19) ^ ror64(n.d[1], 61) ^ (n.d[1] >> 6)) + m.d[1];
		r.d[0] = d.d[0] + (ror64(n.d[0], 19) ^ ror64(n.d[0], 61) ^ (n.d[0] >> 6)) + m.d[0];
		break;
	}
	c->v[u->rd] = r;
	return ISA_NEXT;
}

static void set_sha3(struct uop *u, uint32_t w, int op, int has_m, int reads_d)
{
	set_simd(u, w, h_sha3, UOP_SIMD, has_m, reads_d);
	u->f1 = (uint8_t)op;
}

void isa_dec_simd_sha3(uint32_t w, struct uop *u)
{
	if ((w & 0xffc08000u) == 0xce000000u) {         /* EOR3, BCAX (four register) */
		set_sha3(u, w, (w >> 21) & 1 ? S_BCAX : S_EOR3, 1, 0);
		u->ra = (uint8_t)isa_bits(w, 14, 10);
		isa_src_v(u, u->ra);
		return;
	}
	if ((w & 0xffe0f000u) == 0xce608000u) {         /* SHA512H H2 SU1, RAX1 */
		static const int ops[4] = { S_SHA512H, S_SHA512H2, S_SHA512SU1, S_RAX1 };
		int op = ops[isa_bits(w, 11, 10)];
		set_sha3(u, w, op, 1, op != S_RAX1);
		return;
	}
	if ((w & 0xfffffc00u) == 0xcec08000u) {         /* SHA512SU0 */
		set_sha3(u, w, S_SHA512SU0, 0, 1);
		return;
	}
	if ((w & 0xffe00000u) == 0xce800000u) {         /* XAR */
		set_sha3(u, w, S_XAR, 1, 0);
		u->imm = isa_bits(w, 15, 10);
	}
}
