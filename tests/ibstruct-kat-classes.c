// SPDX-License-Identifier: BSD-3-Clause
/*
 * Known answers for the classes the simulator cannot capture: transport headers, the MAD,
 * directed-route and RMPP headers, ClassPortInfo, Notice (traps 128 and 144), InformInfo,
 * DevMgt, CM, SNMP, Congestion Control and the vendor classes.
 *
 * The wire bytes below are assembled by hand from layouts that do not come from our spec:
 * the IBA tables as the Linux kernel spells them (include/rdma/ibta_vol1_c12.h for CM,
 * drivers/infiniband/core/ud_header.c for LRH/GRH/BTH/DETH, drivers/infiniband/sw/rxe/
 * rxe_hdr.h for the other transport headers, include/rdma/ib_mad.h for MAD/RMPP/vendor/
 * ClassPortInfo/Notice), opensm's include/iba/ib_types.h (InformInfo, trap details, DevMgt,
 * CC), Intel's IbAccess iba/ib_mad.h, ib_generalServices.h and ib_dm.h (ClassPortInfo,
 * Notice, InformInfo, RMPP flags, SNMP header, IOUnitInfo bits) and Mellanox's adb packet
 * layouts (CC attributes, GeneralInfo hw/fw/sw blocks).  Every field carries a distinct
 * value so that a swapped, shifted or resized field shows.
 *
 * For each vector: unpack gives the listed values member by member, the listed values pack
 * to exactly the wire bytes (so reserved bits stay zero and nothing overlaps), unpack+pack
 * gives the wire back, and a few dotted-name accesses and text assignments land on the
 * bytes the layout says.  One packet dump per class is compared with a golden text.
 *
 * Where our spec disagrees with the independent layouts, the vector keeps the independent
 * answer and the field is listed as a known disagreement (kat_disputed), which reports it
 * and fails once the spec agrees, so that the list is kept honest.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-ibstruct.h"

/* ---- helpers ----------------------------------------------------------------------- */

/* sixteen consecutive byte values: a GID (or any 16-byte run) that shows any shift */
#define SEQ16(x)                                                                           \
	(x) + 0x0, (x) + 0x1, (x) + 0x2, (x) + 0x3, (x) + 0x4, (x) + 0x5, (x) + 0x6, (x) + 0x7, \
		(x) + 0x8, (x) + 0x9, (x) + 0xa, (x) + 0xb, (x) + 0xc, (x) + 0xd, (x) + 0xe,    \
		(x) + 0xf

static void kat_mem_eq(const char *name, const char *what, const void *got, const void *want,
		       size_t n)
{
	const uint8_t *g = got, *w = want;
	size_t i, first = n;

	for (i = 0; i < n; i++) {
		if (g[i] != w[i]) {
			if (first == n)
				first = i;
			fprintf(stderr, "%s %s: byte %zu is %02x, known answer %02x\n", name, what, i,
				g[i], w[i]);
		}
	}
	ck_assert_msg(first == n, "%s: %s differs from the known answer from byte %zu", name, what,
		      first);
}

static void kat_uint_eq(const char *name, const char *field, uint64_t got, uint64_t want)
{
	ck_assert_msg(got == want, "%s.%s = 0x%" PRIx64 ", known answer 0x%" PRIx64, name, field,
		      got, want);
}

/* A field where our spec and the independent layouts disagree (see the file comment). */
static void kat_disputed(const char *field, uint64_t got, uint64_t want, const char *source)
{
	ck_assert_msg(got != want,
		      "%s: the spec now decodes 0x%" PRIx64 " as %s does; the known disagreement "
		      "is resolved, move the field to the checked ones",
		      field, got, source);
	fprintf(stderr,
		"KNOWN SPEC DISAGREEMENT %s: our spec decodes 0x%" PRIx64 ", %s gives 0x%" PRIx64
		"\n",
		field, got, source, want);
}

/* Field lists: LIST(U, A, S) with U(member, value) for integers, A(member, bytes...) for
 * byte arrays and GIDs (the rest of the array is zero) and S(member, "text") for strings. */
#define U_INIT(f, v) .f = (v),
#define A_INIT(f, ...) .f = { __VA_ARGS__ },
#define S_INIT(f, s) .f = s,
#define U_CHECK(f, v) kat_uint_eq(kat_name_, #f, (uint64_t)kat_p_->f, (uint64_t)(v));
#define A_CHECK(f, ...)                                                                       \
	{                                                                                     \
		static const uint8_t kat_w_[sizeof(kat_p_->f)] = { __VA_ARGS__ };             \
		kat_mem_eq(kat_name_, #f, kat_p_->f, kat_w_, sizeof(kat_w_));                 \
	}
#define S_CHECK(f, s)                                                                         \
	{                                                                                     \
		static const char kat_s_[sizeof(kat_p_->f)] = s;                              \
		kat_mem_eq(kat_name_, #f, kat_p_->f, kat_s_, sizeof(kat_s_));                 \
	}

/*
 * One vector: `wire` (an array of exactly the struct's size) unpacks into `var` with the
 * values of LIST, the values of LIST pack to `wire`, and `var` packs back to `wire`.
 */
#define KAT_CHECK(cname, LIST, var, wire)                                                     \
	do {                                                                                  \
		static const struct ibstruct_##cname kat_want_ = { LIST(U_INIT, A_INIT, S_INIT) }; \
		struct ibstruct_##cname *const kat_p_ = &(var);                               \
		const char *const kat_name_ = #cname;                                         \
		uint8_t kat_out_[sizeof(wire)];                                               \
                                                                                              \
		ck_assert_uint_eq(sizeof(wire), ibstruct_desc_size(ibstruct_##cname##_desc())); \
		memset(kat_p_, 0x5a, sizeof(*kat_p_));                                         \
		ck_assert_int_eq(ibstruct_##cname##_unpack(kat_p_, wire, sizeof(wire)), 0);     \
		LIST(U_CHECK, A_CHECK, S_CHECK)                                               \
		memset(kat_out_, 0xa5, sizeof(kat_out_));                                     \
		ck_assert_int_eq(ibstruct_##cname##_pack(&kat_want_, kat_out_, sizeof(kat_out_)), 0); \
		kat_mem_eq(kat_name_, "pack(known values)", kat_out_, wire, sizeof(wire));     \
		memset(kat_out_, 0xa5, sizeof(kat_out_));                                     \
		ck_assert_int_eq(ibstruct_##cname##_pack(kat_p_, kat_out_, sizeof(kat_out_)), 0); \
		kat_mem_eq(kat_name_, "pack(unpack(wire))", kat_out_, wire, sizeof(wire));     \
		kat_vectors++;                                                                \
	} while (0)

/* ibstruct_get_uint by dotted name */
static void kat_get(const struct ibstruct_desc *d, const void *host, const char *path,
		    uint64_t want)
{
	uint64_t v = 0;
	int rc = ibstruct_get_uint(d, host, path, &v);

	ck_assert_msg(rc == 0, "%s: get_uint(%s) = %d", ibstruct_desc_name(d), path, rc);
	kat_uint_eq(ibstruct_desc_name(d), path, v, want);
}

/*
 * ibstruct_set_text on a copy of `host` (which packs to `wire`), then pack: the bytes
 * [off, off + n) must now be `bytes` and every other byte must be unchanged.
 */
static void kat_set(const struct ibstruct_desc *d, const void *host, const uint8_t *wire,
		    size_t len, const char *path, const char *text, size_t off, const uint8_t *bytes,
		    size_t n)
{
	size_t hs = ibstruct_desc_host_size(d);
	void *h = malloc(hs);
	uint8_t *out = malloc(len), *want = malloc(len);
	char what[256];
	int rc;

	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(want);
	ck_assert_uint_le(off + n, len);
	memcpy(h, host, hs);
	rc = ibstruct_set_text(d, h, path, text);
	ck_assert_msg(rc == 0, "%s: set_text(%s, \"%s\") = %d", ibstruct_desc_name(d), path, text,
		      rc);
	ck_assert_int_eq(ibstruct_pack(d, h, out, len), 0);
	memcpy(want, wire, len);
	memcpy(want + off, bytes, n);
	snprintf(what, sizeof(what), "after %s=\"%s\"", path, text);
	kat_mem_eq(ibstruct_desc_name(d), what, out, want, len);
	free(want);
	free(out);
	free(h);
}

#define KAT_SET(cname, var, wire, path, text, off, ...)                                        \
	kat_set(ibstruct_##cname##_desc(), &(var), wire, sizeof(wire), path, text, off,          \
		(const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))
/* the same with an explicit byte count (for long zero-filled runs) */
#define KAT_SETN(cname, var, wire, path, text, off, n, ...)                                    \
	kat_set(ibstruct_##cname##_desc(), &(var), wire, sizeof(wire), path, text, off,          \
		(const uint8_t[n]){ __VA_ARGS__ }, (n))

/* The packet dump of `wire` must be exactly `want`. */
static void kat_dump(const struct ibstruct_desc *d, const uint8_t *wire, size_t len,
		     const char *want)
{
	static char buf[16384];
	int n = ibstruct_snprint_dump(buf, sizeof(buf), d, wire, len, 0);

	if (strcmp(buf, want)) {
		const char *g = buf, *w = want;

		/* show the first line that differs */
		while (*g && *g == *w) {
			const char *gn = strchr(g, '\n'), *wn = strchr(w, '\n');

			if (!gn || !wn || gn - g != wn - w || strncmp(g, w, (size_t)(gn - g)))
				break;
			g = gn + 1;
			w = wn + 1;
		}
		fprintf(stderr, "%s dump differs:\n  got:  %.*s\n  want: %.*s\n", ibstruct_desc_name(d),
			(int)strcspn(g, "\n"), g, (int)strcspn(w, "\n"), w);
	}
	/* (ck_assert_str_eq would overflow Check's message buffer on texts this long) */
	ck_assert_msg(strcmp(buf, want) == 0,
		      "%s: the packet dump differs from the golden text (first differing line on "
		      "stderr)",
		      ibstruct_desc_name(d));
	ck_assert_int_eq(n, (int)strlen(want));
}

/* ---- transport headers (IBA chapters 7-9) -------------------------------------------- */

/* LRH (IBA 7.7): VL 9, LVer 3, SL 10, LNH 2 (IBA local), DLID 0x1234, PktLen 0x5b6,
 * SLID 0x789a. */
static const uint8_t lrh_wire[8] = {
	0x93, 0xa2, 0x12, 0x34, /* VL:4 LVer:4 | SL:4 rsvd:2 LNH:2 | DLID */
	0x05, 0xb6, 0x78, 0x9a, /* rsvd:5 PktLen:11 | SLID */
};
#define LRH_KAT(U, A, S)                                                                      \
	U(VL, 0x9) U(LVer, 0x3) U(SL, 0xa) U(LNH, 2) U(DLID, 0x1234) U(pktLen, 0x5b6)           \
	U(SLID, 0x789a)

/* GRH (IBA 8.3): IPVer 6, TClass 0xab, FlowLabel 0xcdef1, PayLen 0x1234, NxtHdr 0x1b,
 * HopLmt 0x3f, SGID 10..1f, DGID 20..2f. */
static const uint8_t grh_wire[40] = {
	0x6a, 0xbc, 0xde, 0xf1, /* IPVer:4 TClass:8 FlowLabel:20 */
	0x12, 0x34, 0x1b, 0x3f, /* PayLen | NxtHdr | HopLmt */
	SEQ16(0x10),            /* SGID */
	SEQ16(0x20),            /* DGID */
};
#define GRH_KAT(U, A, S)                                                                      \
	U(IPVer, 6) U(TClass, 0xab) U(flowLabel, 0xcdef1) U(payLen, 0x1234) U(nxtHdr, 0x1b)     \
	U(hopLmt, 0x3f) A(SGID.raw, SEQ16(0x10)) A(DGID.raw, SEQ16(0x20))

/* BTH (IBA 9.2): OpCode 0x64 = UD (011) SEND Only (00100), SE 1, M 0, PadCnt 3, TVer 9,
 * P_Key 0xc1c2, DestQP 0x123456, A 1, PSN 0xabcdef. */
static const uint8_t bth_wire[12] = {
	0x64, 0xb9, 0xc1, 0xc2, /* OpCode | SE M PadCnt:2 TVer:4 | P_Key */
	0x00, 0x12, 0x34, 0x56, /* rsvd | DestQP */
	0x80, 0xab, 0xcd, 0xef, /* A rsvd:7 | PSN */
};
#define BTH_KAT(U, A, S)                                                                      \
	U(service, 3) U(function, 4) U(SE, 1) U(migReq, 0) U(padCnt, 3) U(TVer, 9)              \
	U(PKey, 0xc1c2) U(destQP, 0x123456) U(ackReq, 1) U(PSN, 0xabcdef)

/* RDETH (IBA 9.3.1): rsvd 8, EE-Context 0x0a0b0c */
static const uint8_t rdeth_wire[4] = { 0x00, 0x0a, 0x0b, 0x0c };
#define RDETH_KAT(U, A, S) U(EEC, 0x0a0b0c)

/* DETH (IBA 9.3.2): Q_Key 0x11223344, rsvd 8, SrcQP 0x556677 */
static const uint8_t deth_wire[8] = { 0x11, 0x22, 0x33, 0x44, 0x00, 0x55, 0x66, 0x77 };
#define DETH_KAT(U, A, S) U(QKey, 0x11223344) U(srcQP, 0x556677)

/* RETH (IBA 9.3.3): VA, R_Key, DMA Length */
static const uint8_t reth_wire[16] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, /* VA */
	0x09, 0x0a, 0x0b, 0x0c,                         /* R_Key */
	0x0d, 0x0e, 0x0f, 0x10,                         /* DMA Length */
};
#define RETH_KAT(U, A, S) U(VA, 0x0102030405060708) U(RKey, 0x090a0b0c) U(DMALen, 0x0d0e0f10)

/* AtomicETH (IBA 9.3.4): VA, R_Key, Swap (Add) Data, Compare Data */
static const uint8_t atomiceth_wire[28] = {
	0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, /* VA */
	0x19, 0x1a, 0x1b, 0x1c,                         /* R_Key */
	0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, /* Swap/Add Data */
	0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, /* Compare Data */
};
#define ATOMICETH_KAT(U, A, S)                                                                \
	U(VA, 0x1112131415161718) U(RKey, 0x191a1b1c) U(swapData, 0x2122232425262728)           \
	U(cmpData, 0x3132333435363738)

/* AETH (IBA 9.3.5): Syndrome 0x61 (NAK, invalid request), MSN 0xabcdef */
static const uint8_t aeth_wire[4] = { 0x61, 0xab, 0xcd, 0xef };
#define AETH_KAT(U, A, S) U(syndrome, 0x61) U(MSN, 0xabcdef)

/* AtomicAckETH (IBA 9.5.3): OrigRemDt */
static const uint8_t atomicacketh_wire[8] = { 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 };
#define ATOMICACKETH_KAT(U, A, S) U(origRData, 0xfedcba9876543210)

/* ImmDt (IBA 9.3.6) and IETH (IBA 9.3.7) */
static const uint8_t immdt_wire[4] = { 0xde, 0xad, 0xbe, 0xef };
#define IMMDT_KAT(U, A, S) U(immediateData, 0xdeadbeef)
static const uint8_t ieth_wire[4] = { 0x0b, 0xad, 0xca, 0xfe };
#define IETH_KAT(U, A, S) U(RKey, 0x0badcafe)

START_TEST(test_kat_transport)
{
	unsigned kat_vectors = 0;
	struct ibstruct_hdr_lrh lrh;
	struct ibstruct_hdr_grh grh;
	struct ibstruct_hdr_bth bth;
	struct ibstruct_hdr_rdeth rdeth;
	struct ibstruct_hdr_deth deth;
	struct ibstruct_hdr_reth reth;
	struct ibstruct_hdr_atomic_eth aeth_atomic;
	struct ibstruct_hdr_aeth aeth;
	struct ibstruct_hdr_atomic_ack_eth atomic_ack;
	struct ibstruct_hdr_imm_dt immdt;
	struct ibstruct_hdr_ieth ieth;

	KAT_CHECK(hdr_lrh, LRH_KAT, lrh, lrh_wire);
	KAT_CHECK(hdr_grh, GRH_KAT, grh, grh_wire);
	KAT_CHECK(hdr_bth, BTH_KAT, bth, bth_wire);
	KAT_CHECK(hdr_rdeth, RDETH_KAT, rdeth, rdeth_wire);
	KAT_CHECK(hdr_deth, DETH_KAT, deth, deth_wire);
	KAT_CHECK(hdr_reth, RETH_KAT, reth, reth_wire);
	KAT_CHECK(hdr_atomic_eth, ATOMICETH_KAT, aeth_atomic, atomiceth_wire);
	KAT_CHECK(hdr_aeth, AETH_KAT, aeth, aeth_wire);
	KAT_CHECK(hdr_atomic_ack_eth, ATOMICACKETH_KAT, atomic_ack, atomicacketh_wire);
	KAT_CHECK(hdr_imm_dt, IMMDT_KAT, immdt, immdt_wire);
	KAT_CHECK(hdr_ieth, IETH_KAT, ieth, ieth_wire);

	/* dotted names and text values */
	kat_get(ibstruct_hdr_bth_desc(), &bth, "destQP", 0x123456);
	kat_get(ibstruct_hdr_lrh_desc(), &lrh, "pktLen", 0x5b6);
	kat_get(ibstruct_hdr_deth_desc(), &deth, "srcQP", 0x556677);
	kat_get(ibstruct_hdr_reth_desc(), &reth, "VA", 0x0102030405060708);
	KAT_SET(hdr_bth, bth, bth_wire, "service", "RC", 0, 0x04);
	KAT_SET(hdr_bth, bth, bth_wire, "function", "10", 0, 0x6a);
	KAT_SET(hdr_bth, bth, bth_wire, "migReq", "1", 1, 0xf9);
	KAT_SET(hdr_lrh, lrh, lrh_wire, "LNH", "IBA global", 1, 0xa3);
	KAT_SET(hdr_grh, grh, grh_wire, "DGID", "fe80::2:c903:0:1492", 24, 0xfe, 0x80, 0, 0, 0, 0,
		0, 0, 0x00, 0x02, 0xc9, 0x03, 0x00, 0x00, 0x14, 0x92);
	KAT_SET(hdr_grh, grh, grh_wire, "flowLabel", "0x1", 0, 0x6a, 0xb0, 0x00, 0x01);
	KAT_SET(hdr_aeth, aeth, aeth_wire, "syndrome", "0x1f", 0, 0x1f);

	kat_dump(ibstruct_hdr_lrh_desc(), lrh_wire, sizeof(lrh_wire),
		 "HdrLRH (8 bytes)\n"
		 "   0: 93a21234  VL=9 LVer=3 SL=10 LNH=2 (IBA local) DLID=4660\n"
		 "   4: 05b6789a  pktLen=1462 SLID=30874\n");
	kat_dump(ibstruct_hdr_bth_desc(), bth_wire, sizeof(bth_wire),
		 "HdrBTH (12 bytes)\n"
		 "   0: 64b9c1c2  service=3 (UD) function=4 SE=1 migReq=0 padCnt=3 TVer=9 PKey=0xc1c2\n"
		 "   4: 00123456  destQP=0x123456\n"
		 "   8: 80abcdef  ackReq=1 PSN=11259375\n");
	fprintf(stderr, "kat-classes transport headers: %u vectors\n", kat_vectors);
}
END_TEST

/* ---- MAD base header and directed route header (IBA 13.4.3, 14.2.1.2) ---------------- */

/* CM Send: status 0x8a1c, class specific 0x3344, TID, AttributeID 0x10, modifier. */
static const uint8_t mad_wire[24] = {
	0x01, 0x07, 0x02, 0x03,                         /* BaseVer | Class | ClassVer | R+Method */
	0x8a, 0x1c, 0x33, 0x44,                         /* Status | ClassSpecific */
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, /* TransactionID */
	0x00, 0x10, 0x00, 0x00,                         /* AttributeID | rsvd */
	0xa1, 0xb2, 0xc3, 0xd4,                         /* AttributeModifier */
};
#define MAD_KAT(U, A, S)                                                                      \
	U(baseVersion, 1) U(mgmtClass, 0x07) U(classVersion, 2) U(method, 0x03)                 \
	U(status, 0x8a1c) U(classSpecific, 0x3344) U(transactionID, 0x0123456789abcdef)         \
	U(attributeID, 0x0010) U(attributeModifier, 0xa1b2c3d4)

/* SA GetTableResp (R = 1, Method 0x12) seen with the R bit apart. */
static const uint8_t madsplit_wire[24] = {
	0x01, 0x03, 0x02, 0x92, 0x00, 0x0c, 0x00, 0x00, 0x11, 0x22, 0x33, 0x44,
	0x55, 0x66, 0x77, 0x88, 0x00, 0x35, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,
};
#define MADSPLIT_KAT(U, A, S)                                                                 \
	U(baseVersion, 1) U(mgmtClass, 0x03) U(classVersion, 2) U(R, 1) U(method, 0x12)         \
	U(status, 0x000c) U(classSpecific, 0) U(transactionID, 0x1122334455667788)              \
	U(attributeID, 0x0035) U(attributeModifier, 5)

/* Directed route SMP GetResp: D 1, Status 0x1c (15 bits), HopPointer 2, HopCount 5. */
static const uint8_t maddr_wire[24] = {
	0x01, 0x81, 0x01, 0x81,                         /* BaseVer | 0x81 | ClassVer | GetResp */
	0x80, 0x1c, 0x02, 0x05,                         /* D:1 Status:15 | HopPtr | HopCnt */
	0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10, /* TransactionID */
	0x00, 0x11, 0x00, 0x00,                         /* AttributeID | rsvd */
	0x00, 0x00, 0x01, 0x07,                         /* AttributeModifier */
};
#define MADDR_KAT(U, A, S)                                                                    \
	U(baseVersion, 1) U(mgmtClass, 0x81) U(classVersion, 1) U(method, 0x81) U(D, 1)         \
	U(status, 0x001c) U(hopPointer, 2) U(hopCount, 5) U(transactionID, 0xfedcba9876543210)  \
	U(attributeID, 0x0011) U(attributeModifier, 0x107)

START_TEST(test_kat_mad_header)
{
	unsigned kat_vectors = 0;
	struct ibstruct_mad_header mad;
	struct ibstruct_mad_header_split split;
	struct ibstruct_mad_header_directed dr;

	KAT_CHECK(mad_header, MAD_KAT, mad, mad_wire);
	KAT_CHECK(mad_header_split, MADSPLIT_KAT, split, madsplit_wire);
	KAT_CHECK(mad_header_directed, MADDR_KAT, dr, maddr_wire);

	kat_get(ibstruct_mad_header_desc(), &mad, "transactionID", 0x0123456789abcdef);
	kat_get(ibstruct_mad_header_directed_desc(), &dr, "hopPointer", 2);
	kat_get(ibstruct_mad_header_split_desc(), &split, "method", 0x12);
	KAT_SET(mad_header, mad, mad_wire, "method", "GetTableResp", 3, 0x92);
	KAT_SET(mad_header, mad, mad_wire, "mgmtClass", "SubnAdm", 1, 0x03);
	KAT_SET(mad_header_directed, dr, maddr_wire, "D", "0", 4, 0x00);
	KAT_SET(mad_header_directed, dr, maddr_wire, "hopCount", "63", 7, 0x3f);
	KAT_SET(mad_header_split, split, madsplit_wire, "R", "0", 3, 0x12);

	kat_dump(ibstruct_mad_header_directed_desc(), maddr_wire, sizeof(maddr_wire),
		 "MADHeaderDirected (24 bytes)\n"
		 "   0: 01810181  baseVersion=1 mgmtClass=0x81 (SubnMgmtDirected) classVersion=1 "
		 "method=0x81 (GetResp)\n"
		 "   4: 801c0205  D=1 status=0x1c hopPointer=2 hopCount=5\n"
		 "   8: fedcba98  transactionID=0xfedcba9876543210\n"
		 "  12: 76543210\n"
		 "  16: 00110000  attributeID=0x11\n"
		 "  20: 00000107  attributeModifier=0x107\n");
	fprintf(stderr, "kat-classes MAD headers: %u vectors\n", kat_vectors);
}
END_TEST

/* ---- RMPP (IBA 13.6.2) ---------------------------------------------------------------- */

/* RMPP header of an SA GetTableResp: version 1, type DATA, RRespTime 0x12 and flags
 * Active|Last (0x12 << 3 | 5 = 0x95), status 0x0d, Data1/Data2. */
static const uint8_t rmpp_wire[36] = {
	0x01, 0x03, 0x02, 0x92, 0x00, 0x00, 0x00, 0x00, /* MAD header */
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x00, 0x11, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x01, 0x01, 0x95, 0x0d, /* RMPPVersion | RMPPType | RRespTime:5 RMPPFlags:3 | RMPPStatus */
	0x01, 0x02, 0x03, 0x04, /* Data1 */
	0x05, 0x06, 0x07, 0x08, /* Data2 */
};
#define RMPP_KAT(U, A, S)                                                                     \
	U(MADHeader.baseVersion, 1) U(MADHeader.mgmtClass, 0x03) U(MADHeader.classVersion, 2)   \
	U(MADHeader.method, 0x92) U(MADHeader.transactionID, 0x1122334455667788)                \
	U(MADHeader.attributeID, 0x0011) U(RMPPVersion, 1) U(RMPPType, 1) U(RRespTime, 0x12)   \
	U(RMPPFlags, 5) U(RMPPStatus, 0x0d) U(data1, 0x01020304) U(data2, 0x05060708)

/* DATA, first segment: RRespTime 0x1f (none), flags Active|First, SegmentNumber 1,
 * PayloadLength 1000, data d0 d1 d2 ... df at the last byte. */
static const uint8_t rmppdata_wire[256] = {
	[0] = 0x01, 0x03, 0x02, 0x92,
	[8] = 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
	[16] = 0x00, 0x11,
	[24] = 0x01, 0x01, 0xfb, 0x00,
	[28] = 0x00, 0x00, 0x00, 0x01, /* SegmentNumber */
	[32] = 0x00, 0x00, 0x03, 0xe8, /* PayloadLength */
	[36] = 0xd0, 0xd1, 0xd2,
	[255] = 0xdf,
};
#define RMPPDATA_KAT(U, A, S)                                                                 \
	U(RMPPHeader.MADHeader.baseVersion, 1) U(RMPPHeader.MADHeader.mgmtClass, 0x03)          \
	U(RMPPHeader.MADHeader.classVersion, 2) U(RMPPHeader.MADHeader.method, 0x92)            \
	U(RMPPHeader.MADHeader.transactionID, 0xa1a2a3a4a5a6a7a8)                               \
	U(RMPPHeader.MADHeader.attributeID, 0x0011) U(RMPPHeader.RMPPVersion, 1)                \
	U(RMPPHeader.RMPPType, 1) U(RMPPHeader.RRespTime, 0x1f) U(RMPPHeader.RMPPFlags, 3)      \
	U(RMPPHeader.RMPPStatus, 0) U(segmentNumber, 1) U(payLoadLength, 1000)                  \
	A(data, 0xd0, 0xd1, 0xd2, [219] = 0xdf)

/* ACK: RRespTime 8, flags Active (0x41), SegmentNumber 5, NewWindowLast 9. */
static const uint8_t rmppack_wire[256] = {
	[0] = 0x01, 0x03, 0x02, 0x12,
	[8] = 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8,
	[16] = 0x00, 0x11,
	[24] = 0x01, 0x02, 0x41, 0x00,
	[28] = 0x00, 0x00, 0x00, 0x05,
	[32] = 0x00, 0x00, 0x00, 0x09,
};
#define RMPPACK_KAT(U, A, S)                                                                  \
	U(RMPPHeader.MADHeader.mgmtClass, 0x03) U(RMPPHeader.MADHeader.method, 0x12)            \
	U(RMPPHeader.MADHeader.transactionID, 0xb1b2b3b4b5b6b7b8) U(RMPPHeader.RMPPVersion, 1)  \
	U(RMPPHeader.RMPPType, 2) U(RMPPHeader.RRespTime, 8) U(RMPPHeader.RMPPFlags, 1)         \
	U(segmentNumber, 5) U(newWindowLast, 9) U(RMPPHeader.MADHeader.baseVersion, 1)          \
	U(RMPPHeader.MADHeader.classVersion, 2) U(RMPPHeader.MADHeader.attributeID, 0x0011)

/* ABORT: status 119 (inconsistent PayloadLength), error data "bad". */
static const uint8_t rmppabort_wire[256] = {
	[0] = 0x01, 0x03, 0x02, 0x92,
	[8] = 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8,
	[24] = 0x01, 0x04, 0x01, 0x77,
	[36] = 0x62, 0x61, 0x64,
};
#define RMPPABORT_KAT(U, A, S)                                                                \
	U(RMPPHeader.MADHeader.baseVersion, 1) U(RMPPHeader.MADHeader.mgmtClass, 0x03)          \
	U(RMPPHeader.MADHeader.classVersion, 2) U(RMPPHeader.MADHeader.method, 0x92)            \
	U(RMPPHeader.MADHeader.transactionID, 0xc1c2c3c4c5c6c7c8) U(RMPPHeader.RMPPVersion, 1)  \
	U(RMPPHeader.RMPPType, 4) U(RMPPHeader.RRespTime, 0) U(RMPPHeader.RMPPFlags, 1)         \
	U(RMPPHeader.RMPPStatus, 119) A(errorData, 0x62, 0x61, 0x64)

/* STOP: status 1 (resources exhausted), error data e0 ... ef. */
static const uint8_t rmppstop_wire[256] = {
	[0] = 0x01, 0x03, 0x02, 0x12,
	[8] = 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8,
	[24] = 0x01, 0x03, 0x01, 0x01,
	[36] = 0xe0,
	[255] = 0xef,
};
#define RMPPSTOP_KAT(U, A, S)                                                                 \
	U(RMPPHeader.MADHeader.baseVersion, 1) U(RMPPHeader.MADHeader.mgmtClass, 0x03)          \
	U(RMPPHeader.MADHeader.classVersion, 2) U(RMPPHeader.MADHeader.method, 0x12)            \
	U(RMPPHeader.MADHeader.transactionID, 0xd1d2d3d4d5d6d7d8) U(RMPPHeader.RMPPVersion, 1)  \
	U(RMPPHeader.RMPPType, 3) U(RMPPHeader.RMPPFlags, 1) U(RMPPHeader.RMPPStatus, 1)        \
	A(errorData, 0xe0, [219] = 0xef)

START_TEST(test_kat_rmpp)
{
	unsigned kat_vectors = 0;
	struct ibstruct_rmpp_header hdr;
	struct ibstruct_rmpp_data data;
	struct ibstruct_rmpp_ack ack;
	struct ibstruct_rmpp_abort abrt;
	struct ibstruct_rmpp_stop stop;

	KAT_CHECK(rmpp_header, RMPP_KAT, hdr, rmpp_wire);
	KAT_CHECK(rmpp_data, RMPPDATA_KAT, data, rmppdata_wire);
	KAT_CHECK(rmpp_ack, RMPPACK_KAT, ack, rmppack_wire);
	KAT_CHECK(rmpp_abort, RMPPABORT_KAT, abrt, rmppabort_wire);
	KAT_CHECK(rmpp_stop, RMPPSTOP_KAT, stop, rmppstop_wire);

	kat_get(ibstruct_rmpp_data_desc(), &data, "RMPPHeader.MADHeader.transactionID",
		0xa1a2a3a4a5a6a7a8);
	kat_get(ibstruct_rmpp_data_desc(), &data, "payLoadLength", 1000);
	kat_get(ibstruct_rmpp_header_desc(), &hdr, "RRespTime", 0x12);
	KAT_SET(rmpp_data, data, rmppdata_wire, "RMPPHeader.RMPPType", "ACK", 25, 0x02);
	KAT_SET(rmpp_data, data, rmppdata_wire, "RMPPHeader.RRespTime", "0", 26, 0x03);
	KAT_SET(rmpp_data, data, rmppdata_wire, "RMPPHeader.RMPPFlags", "7", 26, 0xff);
	KAT_SET(rmpp_ack, ack, rmppack_wire, "newWindowLast", "0x20", 32, 0x00, 0x00, 0x00, 0x20);
	KAT_SET(rmpp_header, hdr, rmpp_wire, "MADHeader.attributeID", "0x38", 16, 0x00, 0x38);

	kat_dump(ibstruct_rmpp_header_desc(), rmpp_wire, sizeof(rmpp_wire),
		 "RMPPHeader (36 bytes)\n"
		 "   0: 01030292  MADHeader.baseVersion=1 MADHeader.mgmtClass=0x3 (SubnAdm) "
		 "MADHeader.classVersion=2 MADHeader.method=0x92 (GetTableResp)\n"
		 "   4: 00000000  MADHeader.status=0x0 MADHeader.classSpecific=0x0\n"
		 "   8: 11223344  MADHeader.transactionID=0x1122334455667788\n"
		 "  12: 55667788\n"
		 "  16: 00110000  MADHeader.attributeID=0x11\n"
		 "  20: 00000000  MADHeader.attributeModifier=0x0\n"
		 "  24: 0101950d  RMPPVersion=1 RMPPType=1 (DATA) RRespTime=18 RMPPFlags=0x5 "
		 "RMPPStatus=0xd\n"
		 "  28: 01020304  data1=0x1020304\n"
		 "  32: 05060708  data2=0x5060708\n");
	fprintf(stderr, "kat-classes RMPP: %u vectors\n", kat_vectors);
}
END_TEST

/* ---- ClassPortInfo (IBA 13.4.8.1) ------------------------------------------------------ */

/* CapabilityMask2 0x2345678 (27 bits) and RespTimeValue 0x13 share a word:
 * 0x2345678 << 5 | 0x13 = 0x468acf13. */
static const uint8_t cpi_wire[72] = {
	0x01, 0x02, 0xa5, 0xc3, /* BaseVersion | ClassVersion | CapabilityMask */
	0x46, 0x8a, 0xcf, 0x13, /* CapabilityMask2:27 RespTimeValue:5 */
	SEQ16(0x30),            /* RedirectGID */
	0xb1, 0xcd, 0x2e, 0x3f, /* RedirectTC:8 RedirectSL:4 RedirectFL:20 */
	0x41, 0x42, 0x7f, 0x01, /* RedirectLID | RedirectP_Key */
	0x00, 0x51, 0x52, 0x53, /* rsvd | RedirectQP */
	0x61, 0x62, 0x63, 0x64, /* RedirectQ_Key */
	SEQ16(0x40),            /* TrapGID */
	0x71, 0x89, 0xab, 0xcd, /* TrapTC:8 TrapSL:4 TrapFL:20 */
	0xa1, 0xa2, 0xb1, 0xb2, /* TrapLID | TrapP_Key */
	0xc1, 0xd1, 0xd2, 0xd3, /* TrapHL | TrapQP */
	0xe1, 0xe2, 0xe3, 0xe4, /* TrapQ_Key */
};
#define CPI_KAT(U, A, S)                                                                      \
	U(baseVersion, 1) U(classVersion, 2) U(capabilityMask, 0xa5c3)                          \
	U(capabilityMask2, 0x2345678) U(respTimeValue, 0x13) A(redirectGID.raw, SEQ16(0x30))    \
	U(redirectTC, 0xb1) U(redirectSL, 0xc) U(redirectFL, 0xd2e3f) U(redirectLID, 0x4142)     \
	U(redirectPKey, 0x7f01) U(redirectQP, 0x515253) U(redirectQKey, 0x61626364)              \
	A(trapGID.raw, SEQ16(0x40)) U(trapTC, 0x71) U(trapSL, 0x8) U(trapFL, 0x9abcd)            \
	U(trapLID, 0xa1a2) U(trapPKey, 0xb1b2) U(trapHL, 0xc1) U(trapQP, 0xd1d2d3)               \
	U(trapQKey, 0xe1e2e3e4)

START_TEST(test_kat_class_port_info)
{
	unsigned kat_vectors = 0;
	struct ibstruct_mad_class_port_info cpi;

	KAT_CHECK(mad_class_port_info, CPI_KAT, cpi, cpi_wire);

	kat_get(ibstruct_mad_class_port_info_desc(), &cpi, "trapQP", 0xd1d2d3);
	kat_get(ibstruct_mad_class_port_info_desc(), &cpi, "respTimeValue", 0x13);
	kat_get(ibstruct_mad_class_port_info_desc(), &cpi, "redirectFL", 0xd2e3f);
	KAT_SET(mad_class_port_info, cpi, cpi_wire, "trapSL", "3", 57, 0x39);
	KAT_SET(mad_class_port_info, cpi, cpi_wire, "capabilityMask2", "0x1", 4, 0x00, 0x00, 0x00,
		0x33);
	KAT_SET(mad_class_port_info, cpi, cpi_wire, "redirectGID", "fe80::1", 8, 0xfe, 0x80, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01);
	KAT_SET(mad_class_port_info, cpi, cpi_wire, "redirectQP", "0xffffff", 33, 0xff, 0xff, 0xff);
	ck_assert_int_eq(ibstruct_set_text(ibstruct_mad_class_port_info_desc(), &cpi, "trapSL", "16"),
			 -ERANGE);

	kat_dump(ibstruct_mad_class_port_info_desc(), cpi_wire, sizeof(cpi_wire),
		 "MADClassPortInfo (72 bytes)\n"
		 "   0: 0102a5c3  baseVersion=1 classVersion=2 capabilityMask=0xa5c3\n"
		 "   4: 468acf13  capabilityMask2=0x2345678 respTimeValue=19\n"
		 "   8: 30313233  redirectGID=3031:3233:3435:3637:3839:3a3b:3c3d:3e3f\n"
		 "  12: 34353637\n"
		 "  16: 38393a3b\n"
		 "  20: 3c3d3e3f\n"
		 "  24: b1cd2e3f  redirectTC=0xb1 redirectSL=12 redirectFL=0xd2e3f\n"
		 "  28: 41427f01  redirectLID=16706 redirectPKey=0x7f01\n"
		 "  32: 00515253  redirectQP=0x515253\n"
		 "  36: 61626364  redirectQKey=0x61626364\n"
		 "  40: 40414243  trapGID=4041:4243:4445:4647:4849:4a4b:4c4d:4e4f\n"
		 "  44: 44454647\n"
		 "  48: 48494a4b\n"
		 "  52: 4c4d4e4f\n"
		 "  56: 7189abcd  trapTC=0x71 trapSL=8 trapFL=0x9abcd\n"
		 "  60: a1a2b1b2  trapLID=41378 trapPKey=0xb1b2\n"
		 "  64: c1d1d2d3  trapHL=193 trapQP=0xd1d2d3\n"
		 "  68: e1e2e3e4  trapQKey=0xe1e2e3e4\n");
	fprintf(stderr, "kat-classes ClassPortInfo: %u vectors\n", kat_vectors);
}
END_TEST

/* ---- Notice (IBA 13.4.8.2) and trap details (IBA 14.2.5.1) ----------------------------- */

/* Trap 128 (link state change) from switch LID 0x0c0d: generic, type 4, producer 2
 * (switch), Toggle 1, Count 0x1234, DataDetails LIDADDR 0x5a5b, IssuerGID 50..5f. */
static const uint8_t notice128_wire[80] = {
	[0] = 0x84, 0x00, 0x00, 0x02, /* IsGeneric:1 Type:7 | ProducerType:24 */
	[4] = 0x00, 0x80, 0x0c, 0x0d, /* TrapNumber | IssuerLID */
	[8] = 0x92, 0x34,             /* Toggle:1 Count:15 */
	[10] = 0x5a, 0x5b,            /* DataDetails: LIDADDR */
	[64] = SEQ16(0x50),           /* IssuerGID */
};
#define NOTICE128_KAT(U, A, S)                                                                \
	U(isGeneric, 1) U(noticeType, 4) U(nodeType, 2) U(trapNumber, 128) U(issuerLID, 0x0c0d)  \
	U(noticeToggle, 1) U(noticeCount, 0x1234) A(dataDetails, 0x5a, 0x5b)                    \
	A(issuerGID.raw, SEQ16(0x50))
#define TRAP128_KAT(U, A, S) U(lidAddr, 0x5a5b)

/* Trap 144 (local changes) from a CA: LIDADDR 0x0e0f, OtherLocalChanges 1, CapabilityMask
 * 0x7654321a, change flags CapabilityMask2Change, SMPriorityChange and
 * LinkWidthEnabledChange (0x002a), CapabilityMask2 0x5a01; Toggle 0, Count 5. */
static const uint8_t notice144_wire[80] = {
	[0] = 0x84, 0x00, 0x00, 0x01,
	[4] = 0x00, 0x90, 0x1a, 0x2b,
	[8] = 0x00, 0x05,
	[10] = 0x00, 0x00, 0x0e, 0x0f, /* rsvd | LIDADDR */
	[14] = 0x00, 0x01,             /* rsvd | rsvd:7 OtherLocalChanges:1 */
	[16] = 0x76, 0x54, 0x32, 0x1a, /* CapabilityMask */
	[20] = 0x00, 0x2a,             /* rsvd:10 CM2 HI SMP LSE LWE ND */
	[22] = 0x5a, 0x01,             /* CapabilityMask2 */
	[64] = 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	[72] = 0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,
};
#define NOTICE144_KAT(U, A, S)                                                                \
	U(isGeneric, 1) U(noticeType, 4) U(nodeType, 1) U(trapNumber, 144) U(issuerLID, 0x1a2b)  \
	U(noticeToggle, 0) U(noticeCount, 5)                                                    \
	A(dataDetails, 0x00, 0x00, 0x0e, 0x0f, 0x00, 0x01, 0x76, 0x54, 0x32, 0x1a, 0x00, 0x2a,   \
	  0x5a, 0x01)                                                                           \
	A(issuerGID.raw, 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, \
	  0xc3)
#define SMPNOTICE144_KAT(U, A, S)                                                             \
	U(isGeneric, 1) U(noticeType, 4) U(nodeType, 1) U(trapNumber, 144) U(issuerLID, 0x1a2b)  \
	U(noticeToggle, 0) U(noticeCount, 5)                                                    \
	A(dataDetails, 0x00, 0x00, 0x0e, 0x0f, 0x00, 0x01, 0x76, 0x54, 0x32, 0x1a, 0x00, 0x2a,   \
	  0x5a, 0x01)
#define TRAP144_KAT(U, A, S)                                                                  \
	U(lidAddr, 0x0e0f) U(otherLocalChanges, 1) U(capabilityMask, 0x7654321a)                \
	U(capabilityMask2Change, 1) U(hierarchyInfoChange, 0) U(SMPriorityChange, 1)            \
	U(linkSpeedEnabledChange, 0) U(linkWidthEnabledChange, 1) U(nodeDescriptionChange, 0)   \
	U(capabilityMask2, 0x5a01)

START_TEST(test_kat_notice)
{
	unsigned kat_vectors = 0;
	struct ibstruct_mad_notice n128, n144;
	struct ibstruct_smp_notice smp;
	struct ibstruct_smp_notice_trap128_data_details t128;
	struct ibstruct_smp_notice_trap144_data_details t144;
	uint8_t d128[54], d144[54], smp144[64];

	KAT_CHECK(mad_notice, NOTICE128_KAT, n128, notice128_wire);
	memcpy(d128, notice128_wire + 10, sizeof(d128));
	KAT_CHECK(smp_notice_trap128_data_details, TRAP128_KAT, t128, d128);
	KAT_CHECK(mad_notice, NOTICE144_KAT, n144, notice144_wire);
	/* the SMP form of the same notice: the first 64 bytes, no IssuerGID */
	memcpy(smp144, notice144_wire, sizeof(smp144));
	KAT_CHECK(smp_notice, SMPNOTICE144_KAT, smp, smp144);
	memcpy(d144, notice144_wire + 10, sizeof(d144));
	KAT_CHECK(smp_notice_trap144_data_details, TRAP144_KAT, t144, d144);
	/* the details unpack the same from the typed Notice's DataDetails member */
	ck_assert_int_eq(ibstruct_smp_notice_trap144_data_details_unpack(&t144, n144.dataDetails,
									 sizeof(n144.dataDetails)),
			 0);
	ck_assert_uint_eq(t144.capabilityMask, 0x7654321a);

	kat_get(ibstruct_mad_notice_desc(), &n128, "trapNumber", 128);
	kat_get(ibstruct_mad_notice_desc(), &n128, "noticeCount", 0x1234);
	kat_get(ibstruct_smp_notice_trap144_data_details_desc(), &t144, "capabilityMask2", 0x5a01);
	kat_get(ibstruct_smp_notice_trap128_data_details_desc(), &t128, "lidAddr", 0x5a5b);
	KAT_SET(mad_notice, n128, notice128_wire, "issuerLID", "0x1234", 6, 0x12, 0x34);
	KAT_SET(mad_notice, n128, notice128_wire, "noticeType", "2", 0, 0x82);
	KAT_SET(mad_notice, n128, notice128_wire, "noticeToggle", "0", 8, 0x12);
	KAT_SET(smp_notice_trap144_data_details, t144, d144, "nodeDescriptionChange", "1", 11, 0x2b);
	KAT_SET(smp_notice_trap144_data_details, t144, d144, "otherLocalChanges", "0", 5, 0x00);
	KAT_SET(smp_notice_trap128_data_details, t128, d128, "lidAddr", "7", 0, 0x00, 0x07);

	kat_dump(ibstruct_mad_notice_desc(), notice128_wire, sizeof(notice128_wire),
		 "MADNotice (80 bytes)\n"
		 "   0: 84000002  isGeneric=1 noticeType=4 nodeType=2\n"
		 "   4: 00800c0d  trapNumber=128 issuerLID=3085\n"
		 "   8: 92345a5b  noticeToggle=1 noticeCount=4660 dataDetails=0x5a5b (+52 zero bytes)\n"
		 "  12: 00000000  (zero up to byte 63)\n"
		 "  64: 50515253  issuerGID=5051:5253:5455:5657:5859:5a5b:5c5d:5e5f\n"
		 "  68: 54555657\n"
		 "  72: 58595a5b\n"
		 "  76: 5c5d5e5f\n");
	fprintf(stderr, "kat-classes Notice: %u vectors\n", kat_vectors);
}
END_TEST

/* ---- InformInfo (IBA 13.4.8.3) --------------------------------------------------------- */

static const uint8_t inform_wire[36] = {
	SEQ16(0x60),            /* GID */
	0x13, 0x57, 0x24, 0x68, /* LIDRangeBegin | LIDRangeEnd */
	0x00, 0x00, 0x01, 0x00, /* rsvd | IsGeneric | Subscribe */
	0x00, 0x03, 0x00, 0x90, /* Type | TrapNumber (144) */
	0xa1, 0xb2, 0xc3, 0x11, /* QPN:24 rsvd:3 RespTimeValue:5 */
	0x00, 0x0c, 0x0d, 0x0e, /* rsvd | ProducerType (VendorID) */
};
#define INFORM_KAT(U, A, S)                                                                   \
	A(GID.raw, SEQ16(0x60)) U(LIDRangeBegin, 0x1357) U(LIDRangeEnd, 0x2468) U(isGeneric, 1)  \
	U(subscribe, 0) U(type, 3) U(trapNumber, 144) U(QPN, 0xa1b2c3) U(respTimeValue, 0x11)    \
	U(producerType, 0x0c0d0e)

START_TEST(test_kat_inform_info)
{
	unsigned kat_vectors = 0;
	struct ibstruct_mad_inform_info ii;

	KAT_CHECK(mad_inform_info, INFORM_KAT, ii, inform_wire);

	kat_get(ibstruct_mad_inform_info_desc(), &ii, "QPN", 0xa1b2c3);
	kat_get(ibstruct_mad_inform_info_desc(), &ii, "producerType", 0x0c0d0e);
	KAT_SET(mad_inform_info, ii, inform_wire, "subscribe", "1", 23, 0x01);
	KAT_SET(mad_inform_info, ii, inform_wire, "trapNumber", "0x100", 26, 0x01, 0x00);
	KAT_SET(mad_inform_info, ii, inform_wire, "respTimeValue", "31", 31, 0x1f);
	KAT_SET(mad_inform_info, ii, inform_wire, "GID", "::", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0);

	kat_dump(ibstruct_mad_inform_info_desc(), inform_wire, sizeof(inform_wire),
		 "MADInformInfo (36 bytes)\n"
		 "   0: 60616263  GID=6061:6263:6465:6667:6869:6a6b:6c6d:6e6f\n"
		 "   4: 64656667\n"
		 "   8: 68696a6b\n"
		 "  12: 6c6d6e6f\n"
		 "  16: 13572468  LIDRangeBegin=4951 LIDRangeEnd=9320\n"
		 "  20: 00000100  isGeneric=1 subscribe=0\n"
		 "  24: 00030090  type=3 trapNumber=144\n"
		 "  28: a1b2c311  QPN=0xa1b2c3 respTimeValue=17\n"
		 "  32: 000c0d0e  producerType=789774\n");
	fprintf(stderr, "kat-classes InformInfo: %u vectors\n", kat_vectors);
}
END_TEST

/* ---- Device Management (IBA 16.3.3) ----------------------------------------------------- */

/* IOUnitInfo: ChangeID 0x1a2b, MaxControllers 0x3c, byte 3 = rsvd:6 DiagDeviceID:1
 * OptionROM:1 with only DiagDeviceID set (0x02), slots 1/2/3/4/5/6: 1 f 0 1 1 0, slot 255
 * nibble f (high nibble of the last byte). */
static const uint8_t iou_wire[132] = {
	[0] = 0x1a, 0x2b, 0x3c, 0x02,
	[4] = 0x1f, 0x01, 0x10,
	[131] = 0xf0,
};
#define IOU_KAT(U, A, S)                                                                      \
	U(changeID, 0x1a2b) U(maxControllers, 0x3c) U(diagDeviceID, 1) U(optionROM, 0)          \
	A(controllerList, 0x1f, 0x01, 0x10, [127] = 0xf0)
/* the other bit alone: OptionROM present */
static const uint8_t iou2_wire[132] = { [0] = 0x00, 0x07, 0x01, 0x01, [4] = 0x10 };
#define IOU2_KAT(U, A, S)                                                                     \
	U(changeID, 7) U(maxControllers, 1) U(diagDeviceID, 0) U(optionROM, 1)                  \
	A(controllerList, 0x10)

/* IOControllerProfile of an SRP target (IOClass 0x100, subclass 0x609e, protocol 0x108). */
static const uint8_t ioc_wire[128] = {
	[0] = 0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3, /* GUID */
	[8] = 0x12, 0x34, 0x56, 0x00,                         /* VendorID:24 rsvd */
	[12] = 0x78, 0x9a, 0xbc, 0xde,                        /* DeviceID */
	[16] = 0xa0, 0xa1, 0x00, 0x00,                        /* DeviceVersion | rsvd */
	[20] = 0x5a, 0x5b, 0x5c, 0x00,                        /* SubsystemVendorID:24 rsvd */
	[24] = 0x6a, 0x6b, 0x6c, 0x6d,                        /* SubsystemID */
	[28] = 0x01, 0x00, 0x60, 0x9e,                        /* IOClass | IOSubclass */
	[32] = 0x01, 0x08, 0x00, 0x02,                        /* Protocol | ProtocolVersion */
	[40] = 0x01, 0x23, 0x00, 0x45,                        /* SendMsgDepth | rsvd | RDMAReadDepth */
	[44] = 0x00, 0x01, 0x12, 0x34,                        /* SendMessageSize */
	[48] = 0x00, 0xfe, 0xdc, 0xba,                        /* RDMATransferSize */
	[52] = 0xa5, 0x00, 0x03, 0x00,                        /* OpsMask | rsvd | ServiceEntries */
	/* IDString "SRP Target IOC" */
	[64] = 0x53, 0x52, 0x50, 0x20, 0x54, 0x61, 0x72, 0x67, 0x65, 0x74, 0x20, 0x49, 0x4f, 0x43,
};
#define IOC_KAT(U, A, S)                                                                      \
	U(GUID, 0x0002c90300a1b2c3) U(vendorID, 0x123456) U(deviceID, 0x789abcde)               \
	U(deviceVersion, 0xa0a1) U(subsystemVendorID, 0x5a5b5c) U(subsystemID, 0x6a6b6c6d)      \
	U(IOClass, 0x0100) U(IOSubclass, 0x609e) U(protocol, 0x0108) U(protocolVersion, 2)      \
	U(sendMessageDepth, 0x0123) U(RDMAReadDepth, 0x45) U(sendMessageSize, 0x00011234)       \
	U(RDMATransferSize, 0x00fedcba) U(controllerOperationsMask, 0xa5) U(serviceEntries, 3)  \
	S(IDString, "SRP Target IOC")

/* ServiceEntries: four 48-byte entries (40-byte name, 64-bit ID); the last name fills all
 * 40 bytes without a terminator. The names are copied in by the test. */
#define SE_NAME0 "SRP.T10:0002C90300A1B2C3"
#define SE_NAME1 "svc-one"
#define SE_NAME3 "0123456789abcdefghijklmnopqrstuvwxyzABCD"
#define SE_KAT(U, A, S)                                                                       \
	S(serviceEntry[0].serviceName, SE_NAME0) U(serviceEntry[0].serviceID, 0x0002c90300a1b2c3) \
	S(serviceEntry[1].serviceName, SE_NAME1) U(serviceEntry[1].serviceID, 0x1112131415161718) \
	U(serviceEntry[2].serviceID, 0x2122232425262728)                                        \
	A(serviceEntry[3].serviceName, '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', \
	  'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', \
	  'u', 'v', 'w', 'x', 'y', 'z', 'A', 'B', 'C', 'D')                                     \
	U(serviceEntry[3].serviceID, 0x3132333435363738)

START_TEST(test_kat_devmgt)
{
	unsigned kat_vectors = 0;
	struct ibstruct_dm_io_unit_info iou, iou2;
	struct ibstruct_dm_io_controller_profile ioc;
	struct ibstruct_dm_service_entries se;
	uint8_t se_wire[192] = {
		[40] = 0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,  /* entry 0 ServiceID */
		[88] = 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,  /* entry 1 ServiceID */
		[136] = 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, /* entry 2 ServiceID */
		[184] = 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, /* entry 3 ServiceID */
	};

	memcpy(se_wire + 0, SE_NAME0, strlen(SE_NAME0));
	memcpy(se_wire + 48, SE_NAME1, strlen(SE_NAME1));
	memcpy(se_wire + 144, SE_NAME3, 40);

	KAT_CHECK(dm_io_unit_info, IOU_KAT, iou, iou_wire);
	KAT_CHECK(dm_io_unit_info, IOU2_KAT, iou2, iou2_wire);
	KAT_CHECK(dm_io_controller_profile, IOC_KAT, ioc, ioc_wire);
	KAT_CHECK(dm_service_entries, SE_KAT, se, se_wire);

	kat_get(ibstruct_dm_service_entries_desc(), &se, "serviceEntry[3].serviceID",
		0x3132333435363738);
	kat_get(ibstruct_dm_io_controller_profile_desc(), &ioc, "RDMATransferSize", 0xfedcba);
	kat_get(ibstruct_dm_io_controller_profile_desc(), &ioc, "GUID", 0x0002c90300a1b2c3);
	KAT_SET(dm_io_unit_info, iou, iou_wire, "optionROM", "1", 3, 0x03);
	KAT_SET(dm_io_unit_info, iou, iou_wire, "diagDeviceID", "0", 3, 0x00);
	KAT_SET(dm_io_controller_profile, ioc, ioc_wire, "GUID", "0002:c903:0000:1492", 0, 0x00,
		0x02, 0xc9, 0x03, 0x00, 0x00, 0x14, 0x92);
	KAT_SET(dm_io_controller_profile, ioc, ioc_wire, "IDString", "new", 64, 'n', 'e', 'w', 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0);
	KAT_SET(dm_io_controller_profile, ioc, ioc_wire, "vendorID", "0x0002c9", 8, 0x00, 0x02,
		0xc9, 0x00);
	KAT_SET(dm_service_entries, se, se_wire, "serviceEntry[2].serviceName", "x", 96, 'x');

	kat_dump(ibstruct_dm_io_controller_profile_desc(), ioc_wire, sizeof(ioc_wire),
		 "DMIOControllerProfile (128 bytes)\n"
		 "   0: 0002c903  GUID=0002:c903:00a1:b2c3\n"
		 "   4: 00a1b2c3\n"
		 "   8: 12345600  vendorID=0x123456\n"
		 "  12: 789abcde  deviceID=0x789abcde\n"
		 "  16: a0a10000  deviceVersion=41121\n"
		 "  20: 5a5b5c00  subsystemVendorID=0x5a5b5c\n"
		 "  24: 6a6b6c6d  subsystemID=0x6a6b6c6d\n"
		 "  28: 0100609e  IOClass=0x100 IOSubclass=0x609e\n"
		 "  32: 01080002  protocol=0x108 protocolVersion=2\n"
		 "  36: 00000000\n"
		 "  40: 01230045  sendMessageDepth=291 RDMAReadDepth=69\n"
		 "  44: 00011234  sendMessageSize=70196\n"
		 "  48: 00fedcba  RDMATransferSize=16702650\n"
		 "  52: a5000300  controllerOperationsMask=0xa5 serviceEntries=3\n"
		 "  56: 00000000  (zero up to byte 63)\n"
		 "  64: 53525020  IDString=\"SRP Target IOC\"\n"
		 "  68: 54617267\n"
		 "  72: 65742049\n"
		 "  76: 4f430000\n"
		 "  80: 00000000  (zero up to byte 127)\n");
	fprintf(stderr, "kat-classes DevMgt: %u vectors\n", kat_vectors);
}
END_TEST

/* ---- Communication Management (IBA chapter 12; kernel ibta_vol1_c12.h) ------------------ */

/* REQ: byte 43 = RemoteCMResponseTimeout 0x13 | TransportServiceType 1 (UC) | EndToEndFlow 1
 * (0x9b); byte 47 = LocalCMResponseTimeout 0x0e | RetryCount 5 (0x75); byte 50 = MTU 4
 * (2048) | RDCExists 1 | RNRRetryCount 6 (0x4e); byte 51 = MaxCMRetries 0xb | SRQ 1 |
 * ExtendedTransportType 2 (0xba).  Path: flow label 20 | rsvd 6 | packet rate 6. */
static const uint8_t req_wire[232] = {
	[0] = 0x01, 0x02, 0x03, 0x04,                          /* Local Communication ID */
	[4] = 0x00, 0x0a, 0x0b, 0x0c,                          /* rsvd | VendorID */
	[8] = 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,  /* ServiceID */
	[16] = 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, /* Local CA GUID */
	[24] = 0x41, 0x42, 0x43, 0x44,                         /* Local CM Q_Key */
	[28] = 0x51, 0x52, 0x53, 0x54,                         /* Local Q_Key */
	[32] = 0x61, 0x62, 0x63, 0x64,                         /* Local QPN | ResponderResources */
	[36] = 0x71, 0x72, 0x73, 0x74,                         /* Local EECN | InitiatorDepth */
	[40] = 0x81, 0x82, 0x83, 0x9b,                         /* Remote EECN | ... */
	[44] = 0x91, 0x92, 0x93, 0x75,                         /* Starting PSN | ... */
	[48] = 0xa1, 0xa2, 0x4e, 0xba,                         /* P_Key | ... */
	/* primary path */
	[52] = 0xc1, 0xc2, 0xc3, 0xc4, /* Local Port LID | Remote Port LID */
	[56] = SEQ16(0x20),            /* Local Port GID */
	[72] = SEQ16(0x30),            /* Remote Port GID */
	[88] = 0xab, 0xcd, 0xe0, 0x2a, /* Flow Label 0xabcde | Packet Rate 0x2a */
	[92] = 0xd5, 0xd6, 0x98, 0xa8, /* TClass | HopLimit | SL 9, SubnetLocal | ACK timeout 0x15 */
	/* alternate path */
	[96] = 0xe1, 0xe2, 0xe3, 0xe4,
	[100] = SEQ16(0x40),
	[116] = SEQ16(0x50),
	[132] = 0x12, 0x34, 0x50, 0x15, /* Flow Label 0x12345 | Packet Rate 0x15 */
	[136] = 0xe5, 0xe6, 0x30, 0x50, /* TClass | HopLimit | SL 3 | ACK timeout 0x0a */
	[140] = 0xf0, 0xf1, 0xf2, 0xf3, /* PrivateData */
};
#define REQ_KAT(U, A, S)                                                                      \
	U(LCID, 0x01020304) U(vendorID, 0x0a0b0c) U(serviceID, 0x1122334455667788)              \
	U(LGUID, 0x2122232425262728) U(localCMQKey, 0x41424344) U(localQKey, 0x51525354)        \
	U(localQPN, 0x616263) U(responderResources, 0x64) U(localEECN, 0x717273)                \
	U(initiatorDepth, 0x74) U(remoteEECN, 0x818283) U(remoteResponseTimeout, 0x13)          \
	U(transportService, 1) U(flowControl, 1) U(startingPSN, 0x919293)                       \
	U(localResponseTimeout, 0x0e) U(retryCount, 5) U(PKey, 0xa1a2) U(pathPacketMTU, 4)      \
	U(RDCExists, 1) U(RNRRetryCount, 6) U(maxCMRetries, 0xb) U(SRQ, 1)                      \
	U(extendedTransportType, 2) U(primaryPath.SLID, 0xc1c2) U(primaryPath.DLID, 0xc3c4)     \
	A(primaryPath.SGID.raw, SEQ16(0x20)) A(primaryPath.DGID.raw, SEQ16(0x30))               \
	U(primaryPath.flowLabel, 0xabcde) U(primaryPath.PD, 0x2a) U(primaryPath.TClass, 0xd5)    \
	U(primaryPath.hopLimit, 0xd6) U(primaryPath.SL, 9) U(primaryPath.subnetLocal, 1)         \
	U(primaryPath.localACKTimeout, 0x15) U(alternatePath.SLID, 0xe1e2)                      \
	U(alternatePath.DLID, 0xe3e4) A(alternatePath.SGID.raw, SEQ16(0x40))                    \
	A(alternatePath.DGID.raw, SEQ16(0x50)) U(alternatePath.flowLabel, 0x12345)              \
	U(alternatePath.PD, 0x15) U(alternatePath.TClass, 0xe5) U(alternatePath.hopLimit, 0xe6)  \
	U(alternatePath.SL, 3) U(alternatePath.subnetLocal, 0)                                  \
	U(alternatePath.localACKTimeout, 0x0a) A(privateData, 0xf0, 0xf1, 0xf2, 0xf3)

/* REP: byte 26 = TargetACKDelay 0x1b | FailoverAccepted 2 | EndToEndFlow 1 (0xdd);
 * byte 27 = RNRRetryCount 5 | SRQ 1 (0xb0); VendorID split over bytes 15, 19 and 23. */
static const uint8_t rep_wire[232] = {
	[0] = 0x01, 0x02, 0x03, 0x04,  /* Local Communication ID */
	[4] = 0x05, 0x06, 0x07, 0x08,  /* Remote Communication ID */
	[8] = 0x09, 0x0a, 0x0b, 0x0c,  /* Local Q_Key */
	[12] = 0x0d, 0x0e, 0x0f, 0x10, /* Local QPN | VendorID[23:16] */
	[16] = 0x11, 0x12, 0x13, 0x14, /* Local EE Context | VendorID[15:8] */
	[20] = 0x15, 0x16, 0x17, 0x18, /* Starting PSN | VendorID[7:0] */
	[24] = 0x19, 0x1a, 0xdd, 0xb0, /* ResponderResources | InitiatorDepth | ... */
	[28] = 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23, /* Local CA GUID */
	[36] = 0xc0,                                           /* PrivateData */
	[231] = 0xcf,
};
#define REP_KAT(U, A, S)                                                                      \
	U(LCID, 0x01020304) U(RCID, 0x05060708) U(localQKey, 0x090a0b0c) U(localQPN, 0x0d0e0f)   \
	U(vendorIDH, 0x10) U(localEEContext, 0x111213) U(vendorIDM, 0x14)                       \
	U(startingPSN, 0x151617) U(vendorIDL, 0x18) U(responderResources, 0x19)                 \
	U(initiatorDepth, 0x1a) U(targetACKDelay, 0x1b) U(failoverAccepted, 2) U(flowControl, 1) \
	U(RNRRetryCount, 5) U(SRQ, 1) U(LGUID, 0x1c1d1e1f20212223)                              \
	A(privateData, 0xc0, [195] = 0xcf)

/* REJ: MessageRejected 2 (LAP) in the top 2 bits of byte 8, RejectedInfoLength 0x25 in the
 * top 7 bits of byte 9, Reason 28 (consumer reject), ARI 72 bytes, PrivateData 148 bytes. */
static const uint8_t rej_wire[232] = {
	[0] = 0x0a, 0x0b, 0x0c, 0x0d,
	[4] = 0x1a, 0x1b, 0x1c, 0x1d,
	[8] = 0x80, 0x4a, 0x00, 0x1c,
	[12] = 0xa0, 0xa1,
	[83] = 0xaf,
	[84] = 0xb0,
	[231] = 0xbf,
};
#define REJ_KAT(U, A, S)                                                                      \
	U(LCID, 0x0a0b0c0d) U(RCID, 0x1a1b1c1d) U(messageRejected, 2) U(rejectInfoLength, 0x25)   \
	U(reason, 28) A(ARI, 0xa0, 0xa1, [71] = 0xaf) A(privateData, 0xb0, [147] = 0xbf)

/* DREQ: Remote QPN/EECN 0x0a0b0c, PrivateData 220 bytes from byte 12. */
static const uint8_t dreq_wire[232] = {
	[0] = 0x2a, 0x2b, 0x2c, 0x2d,
	[4] = 0x3a, 0x3b, 0x3c, 0x3d,
	[8] = 0x0a, 0x0b, 0x0c, 0x00,
	[12] = 0x90,
	[231] = 0x9f,
};
#define DREQ_KAT(U, A, S)                                                                     \
	U(LCID, 0x2a2b2c2d) U(RCID, 0x3a3b3c3d) U(remoteQPN, 0x0a0b0c)                          \
	A(privateData, 0x90, [219] = 0x9f)

/* SIDR_REQ: RequestID, P_Key 0x8123, ServiceID, PrivateData 216 bytes from byte 16. */
static const uint8_t sidrreq_wire[232] = {
	[0] = 0x11, 0x22, 0x33, 0x44,
	[4] = 0x81, 0x23, 0x00, 0x00,
	[8] = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	[16] = 0x5a,
	[231] = 0xa5,
};
#define SIDRREQ_KAT(U, A, S)                                                                  \
	U(requestID, 0x11223344) U(PKey, 0x8123) U(serviceID, 0x0102030405060708)               \
	A(privateData, 0x5a, [215] = 0xa5)

/* SIDR_REP: Status 4 (redirect), AdditionalInformationLength 72, QPN 0x313233 at byte 8,
 * ServiceID at 12, Q_Key at 20, the redirect ClassPortInfo at 24 (RedirectLID at CPI+28,
 * RedirectP_Key at CPI+30, RedirectQP at CPI+33, RedirectQ_Key at CPI+36), PrivateData at
 * 96.  Bytes 6, 7 and 11 are VendorID in our spec. */
static const uint8_t sidrrep_wire[232] = {
	[0] = 0x55, 0x66, 0x77, 0x88,
	[4] = 0x04, 0x48, 0x0a, 0x0b,
	[8] = 0x31, 0x32, 0x33, 0x34,
	[12] = 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
	[20] = 0x51, 0x52, 0x53, 0x54,
	[24] = 0x01, 0x02,             /* CPI BaseVersion | ClassVersion */
	[52] = 0x61, 0x62, 0xff, 0xff, /* CPI RedirectLID | RedirectP_Key */
	[56] = 0x00, 0x01, 0x02, 0x03, /* CPI rsvd | RedirectQP */
	[60] = 0x80, 0x01, 0x00, 0x00, /* CPI RedirectQ_Key */
	[96] = 0x77,
	[231] = 0x78,
};
#define SIDRREP_KAT(U, A, S)                                                                  \
	U(requestID, 0x55667788) U(status, 4) U(additionalInfoLength, 72) U(vendorIDH, 0x0a0b)   \
	U(QPN, 0x313233) U(vendorIDL, 0x34) U(serviceID, 0x4142434445464748)                    \
	U(QKey, 0x51525354) U(classPortinfo.baseVersion, 1) U(classPortinfo.classVersion, 2)     \
	U(classPortinfo.redirectLID, 0x6162) U(classPortinfo.redirectPKey, 0xffff)              \
	U(classPortinfo.redirectQP, 0x010203) U(classPortinfo.redirectQKey, 0x80010000)         \
	A(privateData, 0x77, [135] = 0x78)

/* LAP: Remote QPN/EECN 0x212223 | RemoteCMResponseTimeout 0x17 (byte 15 = 0xb8),
 * alternate path at 20: flow label 0x54321 | rsvd 4 | TClass 0x9a, HopLimit 0x3b,
 * rsvd 2 | packet rate 0x2c, SL 0xd | SubnetLocal 1 (0xd8), ACK timeout 0x11 (0x88). */
static const uint8_t lap_wire[232] = {
	[0] = 0xc1, 0xc2, 0xc3, 0xc4,
	[4] = 0xd1, 0xd2, 0xd3, 0xd4,
	[8] = 0x11, 0x12, 0x13, 0x14,
	[12] = 0x21, 0x22, 0x23, 0xb8,
	[20] = 0x31, 0x32, 0x33, 0x34,
	[24] = SEQ16(0x60),
	[40] = SEQ16(0x70),
	[56] = 0x54, 0x32, 0x10, 0x9a,
	[60] = 0x3b, 0x2c, 0xd8, 0x88,
	[64] = 0xe7,
	[231] = 0xe8,
};
#define LAP_KAT(U, A, S)                                                                      \
	U(LCID, 0xc1c2c3c4) U(RCID, 0xd1d2d3d4) U(QKey, 0x11121314) U(RQPN, 0x212223)            \
	U(RCMTimeout, 0x17) U(altSLID, 0x3132) U(altDLID, 0x3334) A(altSGID.raw, SEQ16(0x60))    \
	A(altDGID.raw, SEQ16(0x70)) U(altFlowLabel, 0x54321) U(altTClass, 0x9a)                  \
	U(altHopLimit, 0x3b) U(altIPD, 0x2c) U(altSL, 0xd) U(altSubnetLocal, 1)                  \
	U(altLocalACKTimeout, 0x11) A(privateData, 0xe7, [167] = 0xe8)

START_TEST(test_kat_cm)
{
	unsigned kat_vectors = 0;
	struct ibstruct_cm_req req;
	struct ibstruct_cm_rep rep;
	struct ibstruct_cm_rej rej;
	struct ibstruct_cm_dreq dreq;
	struct ibstruct_cm_sidr_req sreq;
	struct ibstruct_cm_sidr_rep srep;
	struct ibstruct_cm_lap lap;

	KAT_CHECK(cm_req, REQ_KAT, req, req_wire);
	KAT_CHECK(cm_rep, REP_KAT, rep, rep_wire);
	KAT_CHECK(cm_rej, REJ_KAT, rej, rej_wire);
	KAT_CHECK(cm_dreq, DREQ_KAT, dreq, dreq_wire);
	KAT_CHECK(cm_sidr_req, SIDRREQ_KAT, sreq, sidrreq_wire);
	KAT_CHECK(cm_sidr_rep, SIDRREP_KAT, srep, sidrrep_wire);
	KAT_CHECK(cm_lap, LAP_KAT, lap, lap_wire);

	kat_get(ibstruct_cm_req_desc(), &req, "primaryPath.SLID", 0xc1c2);
	kat_get(ibstruct_cm_req_desc(), &req, "alternatePath.flowLabel", 0x12345);
	kat_get(ibstruct_cm_req_desc(), &req, "LGUID", 0x2122232425262728);
	kat_get(ibstruct_cm_sidr_rep_desc(), &srep, "classPortinfo.redirectQKey", 0x80010000);
	kat_get(ibstruct_cm_lap_desc(), &lap, "altIPD", 0x2c);
	KAT_SET(cm_req, req, req_wire, "transportService", "RD", 43, 0x9d);
	KAT_SET(cm_req, req, req_wire, "alternatePath.SL", "15", 138, 0xf0);
	KAT_SET(cm_req, req, req_wire, "primaryPath.PD", "0", 91, 0x00);
	KAT_SET(cm_req, req, req_wire, "retryCount", "0", 47, 0x70);
	KAT_SET(cm_rej, rej, rej_wire, "reason", "Timeout", 10, 0x00, 0x04);
	KAT_SET(cm_rep, rep, rep_wire, "failoverAccepted", "1", 26, 0xdb);
	KAT_SET(cm_sidr_req, sreq, sidrreq_wire, "serviceID", "0x10", 8, 0, 0, 0, 0, 0, 0, 0,
		0x10);
	KAT_SETN(cm_dreq, dreq, dreq_wire, "privateData", "0xdeadbeef", 12, 220, 0xde, 0xad, 0xbe,
		 0xef);
	KAT_SET(cm_lap, lap, lap_wire, "altTClass", "0x01", 59, 0x01);

	kat_dump(ibstruct_cm_req_desc(), req_wire, sizeof(req_wire),
		 "CMREQ (232 bytes)\n"
		 "   0: 01020304  LCID=0x1020304\n"
		 "   4: 000a0b0c  vendorID=0xa0b0c\n"
		 "   8: 11223344  serviceID=0x1122334455667788\n"
		 "  12: 55667788\n"
		 "  16: 21222324  LGUID=2122:2324:2526:2728\n"
		 "  20: 25262728\n"
		 "  24: 41424344  localCMQKey=0x41424344\n"
		 "  28: 51525354  localQKey=0x51525354\n"
		 "  32: 61626364  localQPN=0x616263 responderResources=100\n"
		 "  36: 71727374  localEECN=0x717273 initiatorDepth=116\n"
		 "  40: 8182839b  remoteEECN=0x818283 remoteResponseTimeout=19 transportService=1 (UC) "
		 "flowControl=1\n"
		 "  44: 91929375  startingPSN=0x919293 localResponseTimeout=14 retryCount=5\n"
		 "  48: a1a24eba  PKey=0xa1a2 pathPacketMTU=4 (2048) RDCExists=1 RNRRetryCount=6 "
		 "maxCMRetries=11 SRQ=1 extendedTransportType=2\n"
		 "  52: c1c2c3c4  primaryPath.SLID=49602 primaryPath.DLID=50116\n"
		 "  56: 20212223  primaryPath.SGID=2021:2223:2425:2627:2829:2a2b:2c2d:2e2f\n"
		 "  60: 24252627\n"
		 "  64: 28292a2b\n"
		 "  68: 2c2d2e2f\n"
		 "  72: 30313233  primaryPath.DGID=3031:3233:3435:3637:3839:3a3b:3c3d:3e3f\n"
		 "  76: 34353637\n"
		 "  80: 38393a3b\n"
		 "  84: 3c3d3e3f\n"
		 "  88: abcde02a  primaryPath.flowLabel=0xabcde primaryPath.PD=42\n"
		 "  92: d5d698a8  primaryPath.TClass=0xd5 primaryPath.hopLimit=214 primaryPath.SL=9 "
		 "primaryPath.subnetLocal=1 primaryPath.localACKTimeout=21\n"
		 "  96: e1e2e3e4  alternatePath.SLID=57826 alternatePath.DLID=58340\n"
		 " 100: 40414243  alternatePath.SGID=4041:4243:4445:4647:4849:4a4b:4c4d:4e4f\n"
		 " 104: 44454647\n"
		 " 108: 48494a4b\n"
		 " 112: 4c4d4e4f\n"
		 " 116: 50515253  alternatePath.DGID=5051:5253:5455:5657:5859:5a5b:5c5d:5e5f\n"
		 " 120: 54555657\n"
		 " 124: 58595a5b\n"
		 " 128: 5c5d5e5f\n"
		 " 132: 12345015  alternatePath.flowLabel=0x12345 alternatePath.PD=21\n"
		 " 136: e5e63050  alternatePath.TClass=0xe5 alternatePath.hopLimit=230 "
		 "alternatePath.SL=3 alternatePath.subnetLocal=0 alternatePath.localACKTimeout=10\n"
		 " 140: f0f1f2f3  privateData=0xf0f1f2f3 (+88 zero bytes)\n"
		 " 144: 00000000  (zero up to byte 231)\n");
	fprintf(stderr, "kat-classes CM: %u vectors\n", kat_vectors);
}
END_TEST

/* ---- SNMP tunneling (IBA 16.4) ----------------------------------------------------------- */

#define COMMUNITY "public-ib-community"
#define COMMUNITY_KAT(U, A, S) S(communityName, COMMUNITY)

/* SNMP MAD: class 8 Send, RAddress at 56, PayloadLength 192 at 60, SegmentNumber 2 at 61,
 * SourceLID 42 at 62, data from 64. */
static const uint8_t snmp_wire[256] = {
	[0] = 0x01, 0x08, 0x01, 0x03,
	[8] = 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
	[16] = 0x00, 0x11,
	[56] = 0x1a, 0x2b, 0x3c, 0x4d, /* RAddress */
	[60] = 0xc0, 0x02, 0x00, 0x2a, /* PayloadLength | SegmentNumber | SourceLID */
	[64] = 0x30, 0x81,
	[255] = 0x99,
};
#define SNMP_KAT(U, A, S)                                                                     \
	U(MADHeader.baseVersion, 1) U(MADHeader.mgmtClass, 0x08) U(MADHeader.classVersion, 1)   \
	U(MADHeader.method, 0x03) U(MADHeader.transactionID, 0xb0b1b2b3b4b5b6b7)                \
	U(MADHeader.attributeID, 0x0011) U(RAddress, 0x1a2b3c4d) U(payloadLength, 192)          \
	U(segmentNumber, 2) U(sourceLID, 42) A(data, 0x30, 0x81, [191] = 0x99)

START_TEST(test_kat_snmp)
{
	unsigned kat_vectors = 0;
	struct ibstruct_snmp_community_info ci;
	struct ibstruct_snmp_format snmp;
	uint8_t ci_wire[64] = { 0 };

	memcpy(ci_wire, COMMUNITY, strlen(COMMUNITY));
	KAT_CHECK(snmp_community_info, COMMUNITY_KAT, ci, ci_wire);
	KAT_CHECK(snmp_format, SNMP_KAT, snmp, snmp_wire);

	kat_get(ibstruct_snmp_format_desc(), &snmp, "RAddress", 0x1a2b3c4d);
	kat_get(ibstruct_snmp_format_desc(), &snmp, "sourceLID", 42);
	kat_get(ibstruct_snmp_format_desc(), &snmp, "MADHeader.mgmtClass", 0x08);
	KAT_SET(snmp_community_info, ci, ci_wire, "communityName", "secret", 0, 's', 'e', 'c', 'r',
		'e', 't', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	KAT_SET(snmp_format, snmp, snmp_wire, "segmentNumber", "0x7f", 61, 0x7f);
	ck_assert_int_eq(ibstruct_set_text(ibstruct_snmp_community_info_desc(), &ci, "communityName",
					   "0123456789012345678901234567890123456789"
					   "012345678901234567890123"),
			 0);
	ck_assert_int_eq(ibstruct_set_text(ibstruct_snmp_community_info_desc(), &ci, "communityName",
					   "0123456789012345678901234567890123456789"
					   "0123456789012345678901234"),
			 -ERANGE);

	kat_dump(ibstruct_snmp_community_info_desc(), ci_wire, sizeof(ci_wire),
		 "SNMPCommunityInfo (64 bytes)\n"
		 "   0: 7075626c  communityName=\"public-ib-community\"\n"
		 "   4: 69632d69\n"
		 "   8: 622d636f\n"
		 "  12: 6d6d756e\n"
		 "  16: 69747900\n"
		 "  20: 00000000  (zero up to byte 63)\n");
	fprintf(stderr, "kat-classes SNMP: %u vectors\n", kat_vectors);
}
END_TEST

/* ---- Congestion Control (IBA annex A10; opensm ib_types.h, Mellanox adb layouts) -------- */

/* CongestionInfo: CongestionInfo 0xc001, ControlTableCap 0x20, rsvd. */
static const uint8_t ccinfo_wire[4] = { 0xc0, 0x01, 0x20, 0x00 };
#define CCINFO_KAT(U, A, S) U(congestionInfo, 0xc001) U(controlTableCap, 0x20)

/* SwitchCongestionSetting: Control_Map, Victim_Mask and Credit_Mask (256 bits each), byte 68
 * = Threshold:4 rsvd:4, Packet_Size at 69, byte 70 = CS_Threshold:4 rsvd:12, CS_ReturnDelay
 * (shift 2 | multiplier 0x0abc) at 72, Marking_Rate at 74. */
static const uint8_t ccsw_wire[76] = {
	[0] = 0x1a, 0x2b, 0x3c, 0x4d,
	[4] = 0x80, [19] = 0x5a, [35] = 0x01,  /* Victim_Mask bytes 0, 15, 31 */
	[36] = 0x40, [67] = 0x02,              /* Credit_Mask bytes 0, 31 */
	[68] = 0xb0, 0x2c, 0x70, 0x00,
	[72] = 0x8a, 0xbc, 0x12, 0x34,
};
#define CCSW_KAT(U, A, S)                                                                     \
	U(controlMap, 0x1a2b3c4d) A(victimMask, 0x80, [15] = 0x5a, [31] = 0x01)                 \
	A(creditMask, 0x40, [31] = 0x02) U(threshold, 0xb) U(packetSize, 0x2c)                  \
	U(CSThreshold, 0x7) U(CSReturnDelay, 0x8abc) U(markingRate, 0x1234)

/* CACongestionSetting: Port_Control, Control_Map, 16 entries of 8 bytes (CCTI_Timer 16,
 * CCTI_Increase 8, Trigger_Threshold 8, CCTI_Min 8, rsvd 24); entries 0, 1 and 15 set. */
static const uint8_t ccca_wire[132] = {
	[0] = 0x00, 0x01, 0xa5, 0x5a,
	[4] = 0x0a, 0x00, 0x10, 0x20, 0x30,
	[12] = 0x0a, 0x01, 0x11, 0x21, 0x31,
	[124] = 0x0a, 0x0f, 0x1f, 0x2f, 0x3f,
};
#define CCCA_KAT(U, A, S)                                                                     \
	U(portControl, 0x0001) U(controlMap, 0xa55a) U(CACongestionEntryList[0].CCTITimer, 0x0a00) \
	U(CACongestionEntryList[0].CCTIIncrease, 0x10)                                          \
	U(CACongestionEntryList[0].triggerThreshold, 0x20)                                      \
	U(CACongestionEntryList[0].CCTIMin, 0x30) U(CACongestionEntryList[1].CCTITimer, 0x0a01)  \
	U(CACongestionEntryList[1].CCTIIncrease, 0x11)                                          \
	U(CACongestionEntryList[1].triggerThreshold, 0x21)                                      \
	U(CACongestionEntryList[1].CCTIMin, 0x31) U(CACongestionEntryList[15].CCTITimer, 0x0a0f) \
	U(CACongestionEntryList[15].CCTIIncrease, 0x1f)                                         \
	U(CACongestionEntryList[15].triggerThreshold, 0x2f)                                     \
	U(CACongestionEntryList[15].CCTIMin, 0x3f)

/* CongestionControlTable: CCTI_Limit, rsvd, 64 entries of CCT_Shift:2 CCT_Multiplier:14. */
static const uint8_t cct_wire[132] = {
	[0] = 0x01, 0x23, 0x00, 0x00,
	[4] = 0x40, 0x01,   /* entry 0: shift 1, multiplier 1 */
	[6] = 0x92, 0x34,   /* entry 1: shift 2, multiplier 0x1234 */
	[128] = 0x2a, 0xaa, /* entry 62: shift 0, multiplier 0x2aaa */
	[130] = 0xff, 0xff, /* entry 63: shift 3, multiplier 0x3fff */
};
#define CCT_KAT(U, A, S)                                                                      \
	U(CCTILimit, 0x0123) U(CCTIEntryList[0].CCTShift, 1) U(CCTIEntryList[0].CCTMultiplier, 1) \
	U(CCTIEntryList[1].CCTShift, 2) U(CCTIEntryList[1].CCTMultiplier, 0x1234)               \
	U(CCTIEntryList[62].CCTShift, 0) U(CCTIEntryList[62].CCTMultiplier, 0x2aaa)             \
	U(CCTIEntryList[63].CCTShift, 3) U(CCTIEntryList[63].CCTMultiplier, 0x3fff)

/* CongestionLog, switch: LogType 1, CongestionFlags, LogEventsCounter, CurrentTimeStamp,
 * PortMap (256 bits), 15 events of 12 bytes (SLID, DLID, SL:4 rsvd:28, Timestamp). */
static const uint8_t cclogsw_wire[224] = {
	[0] = 0x01, 0x01, 0x02, 0x03,
	[4] = 0x04, 0x05, 0x06, 0x07,
	[8] = 0x02, [39] = 0x80,                         /* PortMap bytes 0 and 31 */
	[40] = 0x10, 0x11, 0x12, 0x13, 0x40, 0, 0, 0,    /* event 0 */
	[48] = 0x14, 0x15, 0x16, 0x17,
	[208] = 0xe0, 0xe1, 0xe2, 0xe3, 0xf0, 0, 0, 0,   /* event 14 */
	[216] = 0xe4, 0xe5, 0xe6, 0xe7,
};
#define CCLOGSW_KAT(U, A, S)                                                                  \
	U(logType, 1) U(congestionFlags, 1) U(logEventsCounter, 0x0203)                         \
	U(currentTimeStamp, 0x04050607) A(portMap, 0x02, [31] = 0x80)                           \
	U(congestionEntryList[0].SLID, 0x1011) U(congestionEntryList[0].DLID, 0x1213)           \
	U(congestionEntryList[0].SL, 4) U(congestionEntryList[0].timestamp, 0x14151617)          \
	U(congestionEntryList[14].SLID, 0xe0e1) U(congestionEntryList[14].DLID, 0xe2e3)         \
	U(congestionEntryList[14].SL, 0xf) U(congestionEntryList[14].timestamp, 0xe4e5e6e7)

/*
 * CongestionLog, CA: LogType 2, CongestionFlags, ThresholdEventCounter, ThresholdCongestion-
 * EventMap, rsvd, CurrentTimeStamp at 8, 13 events of 16 bytes from 12.  The event layout of
 * opensm (ib_cong_log_event_ca_t) and of Mellanox's adb (CongestionLogEventListCAElement)
 * agree: Local QP:24 rsvd:8 | Remote QP:24 SL:4 ServiceType:4 | Remote LID:16 rsvd:16 |
 * Timestamp.  Event 0: local QP 0x212223, remote QP 0x242526, SL 9, UC, remote LID 0x2728;
 * event 12: 0x313233, 0x343536, SL 4, RD, remote LID 0x3738.
 */
static const uint8_t cclogca_wire[224] = {
	[0] = 0x02, 0x01, 0x0a, 0x0b,
	[4] = 0x0c, 0x0d, 0x00, 0x00,
	[8] = 0x10, 0x11, 0x12, 0x13,
	[12] = 0x21, 0x22, 0x23, 0x00, 0x24, 0x25, 0x26, 0x91, /* event 0 */
	[20] = 0x27, 0x28, 0x00, 0x00, 0x29, 0x2a, 0x2b, 0x2c,
	[204] = 0x31, 0x32, 0x33, 0x00, 0x34, 0x35, 0x36, 0x42, /* event 12 */
	[212] = 0x37, 0x38, 0x00, 0x00, 0x39, 0x3a, 0x3b, 0x3c,
};

#define CA_EVENT_SOURCE "opensm ib_cong_log_event_ca_t and Mellanox adb CongestionLogEventListCAElement"

START_TEST(test_kat_cc)
{
	unsigned kat_vectors = 0, i;
	struct ibstruct_cc_congestion_info info;
	struct ibstruct_cc_switch_congestion_setting sw;
	struct ibstruct_cc_ca_congestion_setting ca;
	struct ibstruct_cc_congestion_control_table cct;
	struct ibstruct_cc_congestion_log_switch logsw;
	struct ibstruct_cc_congestion_log_ca logca;
	uint8_t out[224];

	KAT_CHECK(cc_congestion_info, CCINFO_KAT, info, ccinfo_wire);
	KAT_CHECK(cc_switch_congestion_setting, CCSW_KAT, sw, ccsw_wire);
	KAT_CHECK(cc_ca_congestion_setting, CCCA_KAT, ca, ccca_wire);
	KAT_CHECK(cc_congestion_control_table, CCT_KAT, cct, cct_wire);
	KAT_CHECK(cc_congestion_log_switch, CCLOGSW_KAT, logsw, cclogsw_wire);

	/* CongestionLog (CA): the header and the agreed event fields are checked, the event
	 * fields where our spec follows libibmad instead are reported as disagreements. */
	ck_assert_int_eq(ibstruct_cc_congestion_log_ca_unpack(&logca, cclogca_wire,
							     sizeof(cclogca_wire)),
			 0);
	kat_uint_eq("CCCongestionLogCA", "logType", logca.logType, 2);
	kat_uint_eq("CCCongestionLogCA", "congestionFlags", logca.congestionFlags, 1);
	kat_uint_eq("CCCongestionLogCA", "thresholdEventCounter", logca.thresholdEventCounter,
		    0x0a0b);
	kat_uint_eq("CCCongestionLogCA", "thresholdCongestionEventMap",
		    logca.thresholdCongestionEventMap, 0x0c0d);
	kat_uint_eq("CCCongestionLogCA", "currentTimeStamp", logca.currentTimeStamp, 0x10111213);
	kat_uint_eq("CCCongestionLogCA", "congestionEntryList[0].localQPCNEntry",
		    logca.congestionEntryList[0].localQPCNEntry, 0x212223);
	kat_uint_eq("CCCongestionLogCA", "congestionEntryList[0].remoteQPNumberCNEntry",
		    logca.congestionEntryList[0].remoteQPNumberCNEntry, 0x242526);
	kat_uint_eq("CCCongestionLogCA", "congestionEntryList[0].timestampCNEntry",
		    logca.congestionEntryList[0].timestampCNEntry, 0x292a2b2c);
	kat_uint_eq("CCCongestionLogCA", "congestionEntryList[12].localQPCNEntry",
		    logca.congestionEntryList[12].localQPCNEntry, 0x313233);
	kat_uint_eq("CCCongestionLogCA", "congestionEntryList[12].remoteQPNumberCNEntry",
		    logca.congestionEntryList[12].remoteQPNumberCNEntry, 0x343536);
	kat_uint_eq("CCCongestionLogCA", "congestionEntryList[12].timestampCNEntry",
		    logca.congestionEntryList[12].timestampCNEntry, 0x393a3b3c);
	for (i = 1; i < 12; i++)
		kat_uint_eq("CCCongestionLogCA", "congestionEntryList[1..11].timestampCNEntry",
			    logca.congestionEntryList[i].timestampCNEntry, 0);
	kat_disputed("CCCongestionLogEntryCA.SLCNEntry (event 0)",
		     logca.congestionEntryList[0].SLCNEntry, 9, CA_EVENT_SOURCE);
	kat_disputed("CCCongestionLogEntryCA.serviceTypeCNEntry (event 0)",
		     logca.congestionEntryList[0].serviceTypeCNEntry, 1, CA_EVENT_SOURCE);
	kat_disputed("CCCongestionLogEntryCA.remoteLIDCNEntry (event 0)",
		     logca.congestionEntryList[0].remoteLIDCNEntry, 0x2728, CA_EVENT_SOURCE);
	kat_disputed("CCCongestionLogEntryCA.SLCNEntry (event 12)",
		     logca.congestionEntryList[12].SLCNEntry, 4, CA_EVENT_SOURCE);
	kat_disputed("CCCongestionLogEntryCA.serviceTypeCNEntry (event 12)",
		     logca.congestionEntryList[12].serviceTypeCNEntry, 2, CA_EVENT_SOURCE);
	kat_disputed("CCCongestionLogEntryCA.remoteLIDCNEntry (event 12)",
		     logca.congestionEntryList[12].remoteLIDCNEntry, 0x3738, CA_EVENT_SOURCE);
	/* whatever the names, the bits survive a round trip */
	memset(out, 0xa5, sizeof(out));
	ck_assert_int_eq(ibstruct_cc_congestion_log_ca_pack(&logca, out, sizeof(out)), 0);
	kat_mem_eq("CCCongestionLogCA", "pack(unpack(wire))", out, cclogca_wire, sizeof(out));
	kat_vectors++;

	kat_get(ibstruct_cc_congestion_control_table_desc(), &cct, "CCTIEntryList[1].CCTMultiplier",
		0x1234);
	kat_get(ibstruct_cc_congestion_log_switch_desc(), &logsw, "congestionEntryList[14].timestamp",
		0xe4e5e6e7);
	kat_get(ibstruct_cc_ca_congestion_setting_desc(), &ca, "CACongestionEntryList[15].CCTIMin",
		0x3f);
	kat_get(ibstruct_cc_congestion_log_ca_desc(), &logca, "currentTimeStamp", 0x10111213);
	KAT_SET(cc_ca_congestion_setting, ca, ccca_wire, "CACongestionEntryList[2].CCTIMin", "0x33",
		24, 0x33);
	KAT_SET(cc_congestion_control_table, cct, cct_wire, "CCTIEntryList[0].CCTShift", "3", 4,
		0xc0);
	KAT_SET(cc_congestion_control_table, cct, cct_wire, "CCTIEntryList[63].CCTMultiplier", "0",
		130, 0xc0, 0x00);
	KAT_SET(cc_switch_congestion_setting, sw, ccsw_wire, "threshold", "0xf", 68, 0xf0);
	KAT_SET(cc_switch_congestion_setting, sw, ccsw_wire, "CSThreshold", "1", 70, 0x10);
	KAT_SET(cc_congestion_log_switch, logsw, cclogsw_wire, "congestionEntryList[1].SL", "2",
		56, 0x20);

	kat_dump(ibstruct_cc_switch_congestion_setting_desc(), ccsw_wire, sizeof(ccsw_wire),
		 "CCSwitchCongestionSetting (76 bytes)\n"
		 "   0: 1a2b3c4d  controlMap=0x1a2b3c4d\n"
		 "   4: 80000000  victimMask=0x80"
		 "0000000000000000000000000000" /* bytes 1-14 */
		 "5a"
		 "000000000000000000000000000000" /* bytes 16-30 */
		 "01\n"
		 "   8: 00000000  (zero up to byte 15)\n"
		 "  16: 0000005a\n"
		 "  20: 00000000  (zero up to byte 31)\n"
		 "  32: 00000001\n"
		 "  36: 40000000  creditMask=0x40"
		 "000000000000000000000000000000000000000000000000000000000000" /* bytes 1-30 */
		 "02\n"
		 "  40: 00000000  (zero up to byte 63)\n"
		 "  64: 00000002\n"
		 "  68: b02c7000  threshold=0xb packetSize=44 CSThreshold=0x7\n"
		 "  72: 8abc1234  CSReturnDelay=0x8abc markingRate=4660\n");
	fprintf(stderr, "kat-classes CC: %u vectors\n", kat_vectors);
}
END_TEST

/* ---- vendor classes ------------------------------------------------------------------------ */

/* Mellanox GeneralInfo (IS4 and later): 8 reserved bytes, then hw info (HWRevision,
 * DeviceID, 24 rsvd, UpTime), fw info (rsvd, Major, Minor, SubMinor, BuildID, Month, Day,
 * Year, rsvd, Hour, PSID[16], INI file version, Extended Major/Minor/SubMinor, 16 rsvd) and
 * sw info (rsvd, Major, Minor, SubMinor, 28 rsvd). */
static const uint8_t mlxgi_wire[136] = {
	[8] = 0x00, 0xa1, 0xc7, 0x38,  /* HWRevision | DeviceID */
	[36] = 0x00, 0x01, 0xe2, 0x40, /* UpTime */
	[40] = 0x00, 0x09, 0x04, 0x1c, /* rsvd | Major | Minor | SubMinor */
	[44] = 0x00, 0x00, 0xab, 0xcd, /* BuildID */
	[48] = 0x12, 0x31, 0x20, 0x24, /* Month | Day | Year */
	[52] = 0x00, 0x00, 0x15, 0x30, /* rsvd | Hour */
	/* PSID "MT_1270110020" */
	[56] = 0x4d, 0x54, 0x5f, 0x31, 0x32, 0x37, 0x30, 0x31, 0x31, 0x30, 0x30, 0x32, 0x30,
	[72] = 0x00, 0x00, 0x01, 0x02,   /* INI file version */
	[76] = 0x00, 0x00, 0x00, 0x0b,   /* Extended Major */
	[80] = 0x00, 0x00, 0x00, 0x22,   /* Extended Minor */
	[84] = 0x00, 0x00, 0x0d, 0x4e,   /* Extended SubMinor */
	[104] = 0x00, 0x05, 0x06, 0x07,  /* sw: rsvd | Major | Minor | SubMinor */
};
#define MLXGI_KAT(U, A, S)                                                                    \
	U(hw_revision, 0x00a1) U(device_id, 0xc738) U(uptime, 0x0001e240) U(fw_major, 9)        \
	U(fw_minor, 4) U(fw_sub_minor, 0x1c) U(fw_build_id, 0xabcd) U(fw_month, 0x12)           \
	U(fw_day, 0x31) U(fw_year, 0x2024) U(fw_hour, 0x1530) S(fw_psid, "MT_1270110020")        \
	U(fw_init_file_version, 0x102) U(fw_ext_major, 11) U(fw_ext_minor, 0x22)                \
	U(fw_ext_sub_minor, 0xd4e) U(sw_major, 5) U(sw_minor, 6) U(sw_sub_minor, 7)

#define HOSTNAME "node01.cluster.example"
#define SYSSTAT_KAT(U, A, S) S(data_str, HOSTNAME)

/* Vendor MAD with OUI (range 2): MAD header, RMPP header (inactive), rsvd at 36, OUI
 * 0x001405 at 37, data from 40 (the ibsysstat host info reply). */
static const uint8_t vendoui_wire[256] = {
	[0] = 0x01, 0x33, 0x01, 0x81,
	[8] = 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	[16] = 0x00, 0x11,
	[36] = 0x00, 0x00, 0x14, 0x05,
	[40] = 0x6e, 0x6f, 0x64, 0x65,
	[255] = 0x21,
};
#define VENDOUI_KAT(U, A, S)                                                                  \
	U(RMPPHeader.MADHeader.baseVersion, 1) U(RMPPHeader.MADHeader.mgmtClass, 0x33)          \
	U(RMPPHeader.MADHeader.classVersion, 1) U(RMPPHeader.MADHeader.method, 0x81)            \
	U(RMPPHeader.MADHeader.transactionID, 0xa0a1a2a3a4a5a6a7)                               \
	U(RMPPHeader.MADHeader.attributeID, 0x0011) U(RMPPHeader.RMPPVersion, 0)                \
	U(OUI, 0x001405) A(data, 0x6e, 0x6f, 0x64, 0x65, [215] = 0x21)

START_TEST(test_kat_vendor)
{
	unsigned kat_vectors = 0;
	struct ibstruct_mlx_general_info gi;
	struct ibstruct_ofa_sys_stat_host_info hi;
	struct ibstruct_vend_oui_format vo;
	uint8_t hi_wire[216] = { 0 };

	memcpy(hi_wire, HOSTNAME, strlen(HOSTNAME));
	KAT_CHECK(mlx_general_info, MLXGI_KAT, gi, mlxgi_wire);
	KAT_CHECK(ofa_sys_stat_host_info, SYSSTAT_KAT, hi, hi_wire);
	KAT_CHECK(vend_oui_format, VENDOUI_KAT, vo, vendoui_wire);

	kat_get(ibstruct_mlx_general_info_desc(), &gi, "fw_build_id", 0xabcd);
	kat_get(ibstruct_mlx_general_info_desc(), &gi, "device_id", 0xc738);
	kat_get(ibstruct_vend_oui_format_desc(), &vo, "OUI", 0x001405);
	kat_get(ibstruct_vend_oui_format_desc(), &vo, "RMPPHeader.MADHeader.mgmtClass", 0x33);
	KAT_SET(mlx_general_info, gi, mlxgi_wire, "fw_psid", "MT_0000000001", 56, 'M', 'T', '_',
		'0', '0', '0', '0', '0', '0', '0', '0', '0', '1');
	KAT_SET(mlx_general_info, gi, mlxgi_wire, "sw_minor", "0x60", 106, 0x60);
	KAT_SET(vend_oui_format, vo, vendoui_wire, "OUI", "0x02c9", 37, 0x00, 0x02, 0xc9);
	KAT_SET(ofa_sys_stat_host_info, hi, hi_wire, "data_str", "host", 0, 'h', 'o', 's', 't', 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

	kat_dump(ibstruct_mlx_general_info_desc(), mlxgi_wire, sizeof(mlxgi_wire),
		 "MlxGeneralInfo (136 bytes)\n"
		 "   0: 00000000  (zero up to byte 7)\n"
		 "   8: 00a1c738  hw_revision=0xa1 device_id=0xc738\n"
		 "  12: 00000000  (zero up to byte 35)\n"
		 "  36: 0001e240  uptime=0x1e240\n"
		 "  40: 0009041c  fw_major=9 fw_minor=4 fw_sub_minor=28\n"
		 "  44: 0000abcd  fw_build_id=0xabcd\n"
		 "  48: 12312024  fw_month=0x12 fw_day=0x31 fw_year=0x2024\n"
		 "  52: 00001530  fw_hour=0x1530\n"
		 "  56: 4d545f31  fw_psid=\"MT_1270110020\"\n"
		 "  60: 32373031\n"
		 "  64: 31303032\n"
		 "  68: 30000000\n"
		 "  72: 00000102  fw_init_file_version=258\n"
		 "  76: 0000000b  fw_ext_major=11\n"
		 "  80: 00000022  fw_ext_minor=34\n"
		 "  84: 00000d4e  fw_ext_sub_minor=3406\n"
		 "  88: 00000000  (zero up to byte 103)\n"
		 " 104: 00050607  sw_major=5 sw_minor=6 sw_sub_minor=7\n"
		 " 108: 00000000  (zero up to byte 135)\n");
	fprintf(stderr, "kat-classes vendor: %u vectors\n", kat_vectors);
}
END_TEST

Suite *make_kat_classes_suite(void)
{
	Suite *s = suite_create("kat-classes");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_kat_transport);
	tcase_add_test(tc, test_kat_mad_header);
	tcase_add_test(tc, test_kat_rmpp);
	tcase_add_test(tc, test_kat_class_port_info);
	tcase_add_test(tc, test_kat_notice);
	tcase_add_test(tc, test_kat_inform_info);
	tcase_add_test(tc, test_kat_devmgt);
	tcase_add_test(tc, test_kat_cm);
	tcase_add_test(tc, test_kat_snmp);
	tcase_add_test(tc, test_kat_cc);
	tcase_add_test(tc, test_kat_vendor);
	suite_add_tcase(s, tc);
	return s;
}
