/* tilediff number formats: <tilediff/numfmt.h>, installed with tilediff.
 *
 * The formats a kernel reads and writes (binary32, binary16, bfloat16, fp8 e4m3fn,
 * fp8 e5m2, int8, uint8, int32), the cast profiles that say how a value is rounded
 * into one (rounding x overflow policy x flush-to-zero), and the exact bit-level
 * conversions between them.  These are the very functions tilediff's oracle rounds
 * with (its own MPFR reference agrees with them bit for bit over every binary32 and a
 * sweep of binary64 values, tests/rounding/), so a kernel library that encodes and
 * decodes through them gets what the contract's cast slots mean, with no encoder of
 * its own to get wrong.  docs/kernel-abi.md shows how to build against them.
 *
 * Link with -ltilediff_numfmt (`pkg-config --libs tilediff` gives the flags); no MPFR
 * headers are needed.
 *
 * Example: store a binary32 result into an fp16 output under the round-to-nearest,
 * IEEE-overflow profile, and read an e5m2 input:
 *
 *     td_profile p;
 *     td_profile_parse("fp16:rne:inf", &p);         (or td_profile_default(TD_F16))
 *     out[i] = (uint16_t)td_encode_f32(p, acc);
 *     double x = td_decode(TD_E5M2, in[i]);          (exact; every format fits binary64)
 *
 * Conventions
 *  - A value of a format is carried as its raw bits in the low bits of a uint64_t
 *    (two's complement for the integer formats).
 *  - Every format's values are exactly representable in binary64, except int64 beyond
 *    2^53 (td_decode rounds those; use td_decode_i64).
 *  - NaN results are the format's canonical quiet NaN with the sign of the source NaN
 *    (or of the overflowing value under TD_OVF_NAN): fp32 0x7fc00000, fp16 0x7e00,
 *    bf16 0x7fc0, e5m2 0x7e, e4m3fn 0x7f (the only NaN), sign in the top bit.
 *  - The functions expect the default floating-point environment of the host (round
 *    to nearest, no flush-to-zero / denormals-are-zero in MXCSR).
 *  - Thread-safe: no state. */
#ifndef TD_NUMFMT_H
#define TD_NUMFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum td_fmt {
    TD_F64 = 0, /* binary64: a source format, and the shadow's working format */
    TD_F32,     /* binary32 */
    TD_F16,     /* binary16 */
    TD_BF16,    /* bfloat16 */
    TD_E4M3FN,  /* OCP fp8 E4M3: bias 7, no inf, only S.1111.111 is NaN, max 448 */
    TD_E5M2,    /* OCP fp8 E5M2: IEEE-like, bias 15, inf and NaN, max 57344 */
    TD_I8,
    TD_U8,
    TD_I32,
    TD_I64,  /* storage only (metadata regions); not a cast target */
    TD_BOOL, /* storage only: one byte, 0 or 1 */
    TD_FMT_COUNT
} td_fmt;

typedef struct td_fmt_info {
    const char *name; /* "fp64","fp32","fp16","bf16","e4m3fn","e5m2","int8","uint8","int32","int64","bool" */
    unsigned bits;    /* storage width in bits */
    unsigned bytes;   /* storage width in bytes */
    bool is_float;
    bool is_signed;
    bool is_cast_target; /* accepted by profiles / `tilediff cast --to` */
    /* floating formats */
    int prec;          /* significand bits including the hidden bit: 53 24 11 8 4 3 */
    int emin;          /* exponent of the smallest normal: 2^emin */
    int emax;          /* exponent of the largest finite binade */
    int bias;
    bool has_inf;
    double max_finite; /* 448 for e4m3fn */
    double min_normal;
    double min_subnormal;
    /* integer formats */
    int64_t imin, imax;
} td_fmt_info;

const td_fmt_info *td_fmt_get(td_fmt f);
/* Parses a format name (also accepts "f32","f16","f64","fp8e4m3fn","e4m3","fp8e5m2","i8","u8","i32","i64").
 * Returns 0 on success, -1 if unknown. */
int td_fmt_parse(const char *s, td_fmt *out);

typedef enum td_rnd {
    TD_RNE = 0, /* round to nearest, ties to even */
    TD_RTZ      /* round toward zero (truncation; Triton's float->int .to()) */
} td_rnd;

typedef enum td_ovf {
    TD_OVF_INF = 0, /* IEEE: overflow gives +-inf under RNE, +-max finite under RTZ; inf stays inf */
    TD_OVF_SAT,     /* clamp to +-max finite, +-inf inputs included (CUDA __NV_SATFINITE, Triton) */
    TD_OVF_NAN,     /* every value not representable as a finite value becomes NaN (e4m3fn OCP default,
                       PyTorch eager); +-inf inputs become NaN too */
    TD_OVF_WRAP     /* integer targets only: the rounded integer reduced modulo 2^bits */
} td_ovf;

/* A cast profile: target format x rounding x overflow policy x FTZ.
 * FTZ flushes subnormal source values (binary32/binary64 sources) and subnormal
 * results to a zero of the same sign (PTX .ftz semantics).
 * Integer targets: NaN -> 0 under every policy; +-inf -> imin/imax under SAT,
 * 0 under WRAP; ftz is ignored. */
typedef struct td_profile {
    td_fmt fmt;
    td_rnd rnd;
    td_ovf ovf;
    bool ftz;
} td_profile;

/* The profile a format gets when nothing else is said: RNE with IEEE overflow for
 * the formats that have inf, RNE+NAN for e4m3fn (OCP), RTZ+SAT for the integers
 * (Triton/PTX cvt.rzi.sat). */
td_profile td_profile_default(td_fmt f);
/* 0 if the profile is meaningful; otherwise -1 and a message (e.g. "e4m3fn has no
 * infinity: use --overflow sat or nan", "wrap applies to integer targets only"). */
int td_profile_check(td_profile p, char *err, size_t errlen);
/* Text form "fmt:rnd:ovf[:ftz]", e.g. "e4m3fn:rne:sat", "fp16:rne:inf:ftz".
 * A bare "fmt" gives the default profile. Returns 0 or -1 (unknown/invalid). */
int td_profile_parse(const char *s, td_profile *out);
void td_profile_str(td_profile p, char *buf, size_t n);

/* ---- decoding and classification ---- */
double td_decode(td_fmt f, uint64_t bits); /* exact value (NaN/inf as binary64 NaN/inf) */
int64_t td_decode_i64(uint64_t bits);

typedef enum td_class { TD_CLS_ZERO, TD_CLS_SUBNORMAL, TD_CLS_NORMAL, TD_CLS_INF, TD_CLS_NAN } td_class;
td_class td_classify(td_fmt f, uint64_t bits);
bool td_is_nan(td_fmt f, uint64_t bits);
uint64_t td_nan_bits(td_fmt f, bool negative); /* canonical NaN; for formats without NaN returns 0 */
uint64_t td_bits_mask(td_fmt f);

/* ---- fast bit-level conversions ---- */
uint64_t td_encode_f32(td_profile p, float x);  /* binary32 source */
uint64_t td_encode_f64(td_profile p, double x); /* binary64 source */
/* The same conversions over arrays (out[i] = td_encode_f32(p, x[i])), with the profile
 * dispatched once per call rather than once per value. */
void td_encode_f32_array(td_profile p, const float *x, uint64_t *out, size_t n);
void td_encode_f64_array(td_profile p, const double *x, uint64_t *out, size_t n);
/* Notes on targets (both paths alike): fp64 is not a cast target for profiles, but the
 * encoders accept it (binary64 as the target: NaN canonicalisation, the inf policy and
 * FTZ act; td_format_value and the oracle use it).  int64 and bool are not targets:
 * the encoders return 0 for them.  An invalid profile (td_profile_check fails) is
 * treated as its nearest valid one: inf on e4m3fn as nan, wrap on a float as inf (nan
 * on e4m3fn), inf/nan on an integer as sat.
 * Overflow is decided on the value rounded with the target's precision and an
 * unbounded exponent: it overflows when that exceeds max finite in magnitude (so under
 * RTZ, fp16 65535 is 65504 and not an overflow; e4m3fn 470 is 448; e4m3fn 480 and
 * fp16 65536 overflow, which under the nan policy is NaN).
 * FTZ looks at the result after rounding: a value that rounds up to the smallest
 * normal is kept. */

/* ---- double rounding, named ----
 * A chain applies its profiles in order, each to the decoded result of the one
 * before: {fp32:rne, bf16:rne} from a binary64 source is binary64 -> binary32 ->
 * bfloat16, which differs from binary64 -> bfloat16 at ties.  A kernel that
 * stores through fp32 is modelled with such a chain. */
#define TD_CHAIN_MAX 4
typedef struct td_cast_chain {
    int n;
    td_profile step[TD_CHAIN_MAX];
} td_cast_chain;
uint64_t td_chain_f64(const td_cast_chain *c, double x);
/* From a binary32 source: the first step sees a binary32 (FTZ flushes binary32
 * subnormals there), the later steps the decoded result of the one before. */
uint64_t td_chain_f32(const td_cast_chain *c, float x);
/* "fp32:rne>bf16:rne" */
int td_chain_parse(const char *s, td_cast_chain *out);
void td_chain_str(const td_cast_chain *c, char *buf, size_t n);

/* ---- ulp, neighbours, distances (floating formats) ----
 * ulp(x): the spacing of the format's representable values in the binade of |x|,
 * i.e. 2^(max(floor(log2|x|), emin) - prec + 1); ulp(0) is the smallest subnormal.
 * For |x| beyond the largest finite binade, the ulp of that binade. */
double td_ulp(td_fmt f, double x);
/* td_ulp(TD_F32, x) of a finite x, inline: the oracle asks once per checked lane, and the
 * call was a tenth of an elementwise lane's verdict.  binary64's exponent field clamped
 * to binary32's [-126, 127] and scaled by 2^-23; a zero or subnormal binary64 (field 0)
 * clamps to -126 as its ilogb would: 2^-149, which td_ulp gives for 0. */
static inline double td_ulp_f32(double x) {
    union { double d; uint64_t u; } b = {x};
    int e = (int)(b.u >> 52 & 0x7ff) - 1023;
    e = e < -126 ? -126 : (e > 127 ? 127 : e);
    b.u = (uint64_t)(e - 23 + 1023) << 52; /* 2^(e - 23), normal for every such e */
    return b.d;
}
/* next representable value above / below x (x need not be representable); beyond
 * max finite: +inf (formats with inf) or NaN. */
double td_next_up(td_fmt f, double x);
double td_next_down(td_fmt f, double x);
/* Monotone ordinal of a finite value: ord(+0) = ord(-0) = 0, consecutive
 * representable values have consecutive ordinals, negative values negative. */
int64_t td_ordinal(td_fmt f, uint64_t bits);
/* Signed number of representable steps from a to b (ord(b) - ord(a)); both finite. */
int64_t td_ulp_distance(td_fmt f, uint64_t a, uint64_t b);

/* ---- text ----
 * The value as a decimal that parses (to MPFR, exactly) and rounds back (RNE) to the
 * same value of format f: the exact value when it has at most 17 significant digits
 * (448, 65504, 0.0999755859375), else the shortest decimal that rounds back (binary32
 * 0.1 reads "0.1"); "nan", "inf", "-inf" for those. */
void td_format_value(td_fmt f, uint64_t bits, char *buf, size_t n);


/* ---- quantization casts: binary32 -> int8 / uint8 / int4 / uint4 ----
 * What quantizing kernels store: the rounding is one of three (Triton's llrint and
 * CUDA's __float2int_rn are half-even; round()/`x + 0.5*sign(x)` then a truncating cast
 * are half-away; `.to(tl.int8)` alone truncates), then the integer is saturated to the
 * format's range or wrapped modulo 2^bits (an int64 stored into an int8 tensor).
 * NaN gives 0 under both policies; +-inf gives the bound under SAT and 0 under WRAP
 * (the rules of the int8/uint8 profiles above, which these agree with on RNE/RTZ).
 * A 4-bit value is carried in the low nibble of a byte; packing two per byte is
 * td_int4_pack / td_int4_unpack.  Bit-exact, checked over every binary32 against libm's
 * rintf/roundf/truncf (tests/rounding/test_sweep_int.c, label "sweep"). */
typedef enum td_qfmt { TD_Q_I8 = 0, TD_Q_U8, TD_Q_I4, TD_Q_U4, TD_QFMT_COUNT } td_qfmt;
typedef enum td_qrnd { TD_Q_HALF_EVEN = 0, TD_Q_HALF_AWAY, TD_Q_TRUNC, TD_QRND_COUNT } td_qrnd;
typedef enum td_qovf { TD_Q_SAT = 0, TD_Q_WRAP, TD_QOVF_COUNT } td_qovf;
/* the format's range: int8 [-128,127], uint8 [0,255], int4 [-8,7], uint4 [0,15] */
int td_q_min(td_qfmt f);
int td_q_max(td_qfmt f);
/* x cast to f: two's complement bits in the low 8 (4) bits of the result */
uint8_t td_q_encode_f32(float x, td_qfmt f, td_qrnd r, td_qovf o);
/* the value of those bits (sign-extended for the signed formats; upper bits ignored) */
int td_q_decode(td_qfmt f, uint8_t bits);
/* Two 4-bit elements per byte.  TD_NIB_LO_FIRST: element 0 in bits 0-3, element 1 in
 * bits 4-7 (the usual `(b >> (4*k)) & 0xF` order); TD_NIB_HI_FIRST: the reverse. */
typedef enum td_nib { TD_NIB_LO_FIRST = 0, TD_NIB_HI_FIRST } td_nib;
uint8_t td_int4_pack(uint8_t e0, uint8_t e1, td_nib order); /* low nibbles of e0, e1 */
/* element k (0 or 1) of a packed byte: the raw nibble, or its value (is_signed: the
 * nibble's bit 3 is the sign, extended; the high nibble of a signed byte included) */
uint8_t td_int4_nibble(uint8_t byte, int k, td_nib order);
int td_int4_unpack(uint8_t byte, int k, td_nib order, bool is_signed);

#ifdef __cplusplus
}
#endif
#endif
