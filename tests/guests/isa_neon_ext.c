/*
 * isa_neon_ext.c — the Advanced SIMD forms beyond gcc's auto-vectorised
 * code, through arm_neon.h intrinsics: saturating doubling multiplies and
 * RDM, saturating rounding shifts, the reciprocal (square root) estimates
 * and Newton-Raphson steps, FMULX, AES, SHA-256, SHA-512, SHA-3, the dot
 * product, 64-bit PMULL and FRINT32Z. tests/realprog-isa.sh builds it with
 * -march=armv8.5-a+crypto+sha3+dotprod+rdma and compares ivx's output with
 * qemu-aarch64's.
 */
#include <arm_neon.h>
#include <stdio.h>
#include <stdint.h>
#include <math.h>
int main(void)
{
	int16_t a16[8], b16[8]; int32_t a32[4]; float f[4]; uint8_t k[16], st[16]; uint32_t h[4], w[4];
	uint32_t acc = 1;
	for (int i = 0; i < 8; i++) { a16[i] = (int16_t)(i * 9000 - 32768); b16[i] = (int16_t)(32767 - i * 7000); }
	for (int i = 0; i < 4; i++) { a32[i] = i * 1000003 - 7; f[i] = 0.37f + i * 13.1f; h[i] = 0x6a09e667u * (i + 1); w[i] = 0x61626380u + i; }
	for (int i = 0; i < 16; i++) { k[i] = (uint8_t)(i * 17); st[i] = (uint8_t)(i * 31 + 5); }
	int16x8_t va = vld1q_s16(a16), vb = vld1q_s16(b16);
	int32x4_t vi = vld1q_s32(a32);
	float32x4_t vf = vld1q_f32(f);
	uint8x16_t vk = vld1q_u8(k), vs = vld1q_u8(st);
	uint32x4_t vh = vld1q_u32(h), vw = vld1q_u32(w);
	for (int it = 0; it < 2000; it++) {
		va = vqdmulhq_s16(va, vb);
		va = vqrdmlahq_s16(va, vb, va);
		vi = vqrshlq_s32(vi, vdupq_n_s32((it % 9) - 4));
		vi = vqshlq_n_s32(vaddq_s32(vi, vdupq_n_s32(it)), 3);
		float32x4_t r = vrecpeq_f32(vf);
		r = vmulq_f32(r, vrecpsq_f32(vf, r));
		float32x4_t s = vrsqrteq_f32(vf);
		s = vmulq_f32(s, vrsqrtsq_f32(vmulq_f32(vf, s), s));
		vf = vaddq_f32(vmulxq_f32(r, s), vdupq_n_f32(1.0f + it * 0.001f));
		vs = vaesmcq_u8(vaeseq_u8(vs, vk));
		vh = vsha256hq_u32(vh, vw, vaddq_u32(vw, vh));
		vw = vsha256su0q_u32(vw, vh);
		uint32x4_t d = vdotq_u32(vdupq_n_u32(acc), vs, vk);
		acc += vgetq_lane_u32(d, 1) + vgetq_lane_u32(d, 3);
		poly64_t p = (poly64_t)vgetq_lane_u64(vreinterpretq_u64_u8(vs), 0);
		poly128_t pm = vmull_p64(p, (poly64_t)0x87);
		acc ^= (uint32_t)(pm >> 64) ^ (uint32_t)pm;
		uint64x2_t w64 = vreinterpretq_u64_u32(vw), h64 = vreinterpretq_u64_u32(vh);
		h64 = vsha512hq_u64(h64, vsha512h2q_u64(h64, w64, h64), w64);
		w64 = vsha512su1q_u64(vsha512su0q_u64(w64, h64), h64, w64);
		w64 = vxarq_u64(vrax1q_u64(w64, h64), h64, 13);
		vs = veor3q_u8(vs, vbcaxq_u8(vs, vk, vreinterpretq_u8_u64(w64)), vreinterpretq_u8_u64(h64));
		acc += (uint32_t)vgetq_lane_u64(h64, 1);
	}
	int16_t o16[8]; int32_t o32[4]; float of[4]; uint8_t os[16]; uint32_t oh[4];
	vst1q_s16(o16, va); vst1q_s32(o32, vi); vst1q_f32(of, vf); vst1q_u8(os, vs); vst1q_u32(oh, vh);
	for (int i = 0; i < 8; i++) printf("%d ", o16[i]);
	printf("\n");
	for (int i = 0; i < 4; i++) printf("%d %a %08x ", o32[i], of[i], oh[i]);
	printf("\n");
	for (int i = 0; i < 16; i++) printf("%02x", os[i]);
	printf("\nacc %08x frint %f\n", acc, (double)vrnd32zq_f32(vdupq_n_f32(3e9f))[0]);
	return 0;
}
