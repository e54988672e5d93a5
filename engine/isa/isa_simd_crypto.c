/*
 * isa_simd_crypto.c — the cryptographic extension's AES, SHA-1 and
 * SHA-256 instructions (AESE AESD AESMC AESIMC; SHA1C SHA1P SHA1M SHA1H
 * SHA1SU0 SHA1SU1; SHA256H SHA256H2 SHA256SU0 SHA256SU1) and the dot
 * product (SDOT UDOT, vector and by element). PMULL is in isa_simd_sat.c.
 *
 * The AES S-box is computed, not tabulated: the multiplicative inverse in
 * GF(2^8) (as x^254) followed by the affine map, and its inverse for
 * AESD. These instructions are rare enough in a trace that the few
 * hundred operations per byte do not matter, and there is no table to
 * get wrong.
 *
 * Field use: f1 = op; rd, rn, rm index cpu.v[]; imm = element index.
 */
#include "isa_simd.h"

enum { C_AESE, C_AESD, C_AESMC, C_AESIMC, C_SHA1C, C_SHA1P, C_SHA1M, C_SHA1SU0, C_SHA256H, C_SHA256H2,
       C_SHA256SU1, C_SHA1H, C_SHA1SU1, C_SHA256SU0 };

/* ---- AES ---- */

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t r = 0;
	while (b) {
		if (b & 1)
			r ^= a;
		a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
		b >>= 1;
	}
	return r;
}

static uint8_t gf_inv(uint8_t a)
{
	uint8_t r = 1, p = a;                   /* a^254 = a^(2+4+...+128) */
	for (int i = 1; i < 8; i++) {
		p = gf_mul(p, p);
		r = gf_mul(r, p);
	}
	return a ? r : 0;
}

static uint8_t rol8(uint8_t x, int n) { return (uint8_t)((x << n) | (x >> (8 - n))); }

static uint8_t sbox(uint8_t x)
{
	uint8_t b = gf_inv(x);
	return (uint8_t)(b ^ rol8(b, 1) ^ rol8(b, 2) ^ rol8(b, 3) ^ rol8(b, 4) ^ 0x63);
}

static uint8_t inv_sbox(uint8_t x)
{
	return gf_inv((uint8_t)(rol8(x, 1) ^ rol8(x, 3) ^ rol8(x, 6) ^ 0x05));
}

/* The state is column-major: byte 4 * column + row. */
static void aes_round(vreg *s, int inverse)
{
	vreg t = *s;
	for (int c = 0; c < 4; c++)
		for (int r = 0; r < 4; r++) {
			int from = inverse ? (c - r + 4) % 4 : (c + r) % 4;
			uint8_t x = t.b[4 * from + r];
			s->b[4 * c + r] = inverse ? inv_sbox(x) : sbox(x);
		}
}

static void aes_mix(vreg *s, int inverse)
{
	static const uint8_t fwd[4] = { 2, 3, 1, 1 }, inv[4] = { 14, 11, 13, 9 };
	const uint8_t *k = inverse ? inv : fwd;
	vreg t = *s;
	for (int c = 0; c < 4; c++)
		for (int r = 0; r < 4; r++) {
			uint8_t x = 0;
			for (int j = 0; j < 4; j++)
				x ^= gf_mul(t.b[4 * c + j], k[(j - r + 4) % 4]);
			s->b[4 * c + r] = x;
		}
}

/* ---- SHA ---- */

static uint32_t rol32(uint32_t x, int n) { return (x << n) | (x >> ((32 - n) & 31)); }
static uint32_t ror32(uint32_t x, int n) { return (x >> n) | (x << ((32 - n) & 31)); }

static void sha1_hash(vreg *x, uint32_t y, const vreg *w, int op)
{
	for (int e = 0; e < 4; e++) {
		uint32_t b = x->s[1], c = x->s[2], d = x->s[3], t;
		if (op == C_SHA1C)
			t = ((c ^ d) & b) ^ d;
		else if (op == C_SHA1P)
			t = b ^ c ^ d;
		else
			t = (b & c) | ((b | c) & d);
		y = y + rol32(x->s[0], 5) + t + w->s[e];
		x->s[1] = rol32(x->s[1], 30);
		uint32_t top = x->s[3];         /* <Y, X> = ROL(Y:X, 32) */
		x->s[3] = x->s[2];
		x->s[2] = x->s[1];
		x->s[1] = x->s[0];
		x->s[0] = y;
		y = top;
	}
}

static vreg sha256_hash(vreg x, vreg y, const vreg *w, int part1)
{
	for (int e = 0; e < 4; e++) {
		uint32_t chs = (y.s[0] & y.s[1]) ^ (~y.s[0] & y.s[2]);
		uint32_t maj = (x.s[0] & x.s[1]) | ((x.s[0] | x.s[1]) & x.s[2]);
		uint32_t s1 = ror32(y.s[0], 6) ^ ror32(y.s[0], 11) ^ ror32(y.s[0], 25);
		uint32_t s0 = ror32(x.s[0], 2) ^ ror32(x.s[0], 13) ^ ror32(x.s[0], 22);
		uint32_t t = y.s[3] + s1 + chs + w->s[e];
		x.s[3] = t + x.s[3];
		y.s[3] = t + s0 + maj;
		uint32_t xt = x.s[3], yt = y.s[3];     /* <Y, X> = ROL(Y:X, 32) */
		for (int i = 3; i > 0; i--) {
			x.s[i] = x.s[i - 1];
			y.s[i] = y.s[i - 1];
		}
		x.s[0] = yt;
		y.s[0] = xt;
	}
	return part1 ? x : y;
}

static int h_crypto(struct cpu *c, const struct uop *u)
{
	vreg d = c->v[u->rd], n = c->v[u->rn], m = c->v[u->rm], r;
	switch (u->f1) {
	case C_AESE: case C_AESD:
		r.d[0] = d.d[0] ^ n.d[0];
		r.d[1] = d.d[1] ^ n.d[1];
		aes_round(&r, u->f1 == C_AESD);
		break;
	case C_AESMC: case C_AESIMC:
		r = n;
		aes_mix(&r, u->f1 == C_AESIMC);
		break;
	case C_SHA1C: case C_SHA1P: case C_SHA1M:
		r = d;
		sha1_hash(&r, n.s[0], &m, u->f1);
		break;
	case C_SHA1SU0:
		r.d[0] = d.d[1] ^ d.d[0] ^ m.d[0];
		r.d[1] = n.d[0] ^ d.d[1] ^ m.d[1];
		break;
	case C_SHA256H: r = sha256_hash(d, n, &m, 1); break;
	case C_SHA256H2: r = sha256_hash(n, d, &m, 0); break;
	case C_SHA256SU1: {
		uint32_t t0[4] = { n.s[1], n.s[2], n.s[3], m.s[0] };
		for (int e = 0; e < 4; e++) {
			uint32_t x = e < 2 ? m.s[2 + e] : r.s[e - 2];
			x = ror32(x, 17) ^ ror32(x, 19) ^ (x >> 10);
			r.s[e] = x + d.s[e] + t0[e];
		}
		break;
	}
	case C_SHA1H:
		memset(&r, 0, sizeof r);
		r.s[0] = rol32(n.s[0], 30);
		break;
	case C_SHA1SU1: {
		uint32_t t[4];
		for (int e = 0; e < 4; e++)
			t[e] = d.s[e] ^ (e < 3 ? n.s[e + 1] : 0);
		for (int e = 0; e < 4; e++)
			r.s[e] = rol32(t[e], 1);
		r.s[3] ^= rol32(t[0], 2);
		break;
	}
	default: {                              /* SHA256SU0 */
		uint32_t t[4] = { d.s[1], d.s[2], d.s[3], n.s[0] };
		for (int e = 0; e < 4; e++)
			r.s[e] = (ror32(t[e], 7) ^ ror32(t[e], 18) ^ (t[e] >> 3)) + d.s[e];
		break;
	}
	}
	c->v[u->rd] = r;
	return ISA_NEXT;
}

/* SDOT/UDOT: each 32-bit lane of Vd gains the four byte products of its
 * lane in Vn and Vm (or Vm's lane imm); f3 = unsigned, f2 = bytes. */
static int h_dot(struct cpu *c, const struct uop *u)
{
	const vreg n = c->v[u->rn], m = c->v[u->rm];
	vreg r = c->v[u->rd];
	for (unsigned i = 0; i < u->f2 / 4u; i++) {
		unsigned j = (u->f1 & 1) ? (unsigned)u->imm : i;
		uint32_t acc = r.s[i];
		for (unsigned k = 0; k < 4; k++)
			acc += u->f3 ? (uint32_t)n.b[4 * i + k] * m.b[4 * j + k]
				     : (uint32_t)((int32_t)n.sb[4 * i + k] * m.sb[4 * j + k]);
		r.s[i] = acc;
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

static void set_crypto(struct uop *u, uint32_t w, int op, int has_m, int reads_d)
{
	set_simd(u, w, h_crypto, UOP_SIMD, has_m, reads_d);
	u->f1 = (uint8_t)op;
}

void isa_dec_simd_crypto(uint32_t w, struct uop *u)
{
	if ((w & 0xff3e0c00u) == 0x4e280800u) {         /* AES: size 00, opcode 001xx */
		unsigned opc = isa_bits(w, 16, 12);
		if (isa_bits(w, 23, 22) != 0 || opc < 4 || opc > 7)
			return;
		set_crypto(u, w, C_AESE + (int)(opc - 4), 0, opc < 6);
		return;
	}
	if ((w & 0xff208c00u) == 0x5e000000u) {         /* SHA three register */
		unsigned opc = isa_bits(w, 14, 12);
		if (isa_bits(w, 23, 22) != 0 || opc == 7)
			return;
		set_crypto(u, w, C_SHA1C + (int)opc, 1, 1);
		return;
	}
	if ((w & 0xff3e0c00u) == 0x5e280800u) {         /* SHA two register */
		unsigned opc = isa_bits(w, 16, 12);
		if (isa_bits(w, 23, 22) != 0 || opc > 2)
			return;
		set_crypto(u, w, C_SHA1H + (int)opc, 0, opc != 0);
		return;
	}
	unsigned q = (w >> 30) & 1;
	if ((w & 0x9fe0fc00u) == 0x0e809400u) {         /* SDOT/UDOT (vector), size 10 */
		set_simd(u, w, h_dot, UOP_SIMD, 1, 1);
		u->f2 = (uint8_t)(q ? 16 : 8);
		u->f3 = (uint8_t)((w >> 29) & 1);
		return;
	}
	if ((w & 0x9fc0f400u) == 0x0f80e000u) {         /* SDOT/UDOT (by element) */
		set_simd(u, w, h_dot, UOP_SIMD, 1, 1);
		u->f1 = 1;
		u->f2 = (uint8_t)(q ? 16 : 8);
		u->f3 = (uint8_t)((w >> 29) & 1);
		u->imm = (isa_bits(w, 11, 11) << 1) | isa_bits(w, 21, 21);
	}
}
