// SPDX-License-Identifier: BSD-3-Clause
/* Pack/unpack: round trips on random bytes for every structure, length and range checks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-ibstruct.h"

#define MAXWIRE 4096

/* Every bit of every structure belongs to a field, so unpack then pack must give back
 * exactly the bytes we started with. */
START_TEST(test_roundtrip_all)
{
	uint64_t seed = 0x1234567887654321ull;
	unsigned i, iter, n = ibstruct_desc_count();
	static uint8_t wire[MAXWIRE], back[MAXWIRE];

	ck_assert_uint_gt(n, 100);
	for (i = 0; i < n; i++) {
		const struct ibstruct_desc *d = ibstruct_desc_at(i);
		size_t sz = ibstruct_desc_size(d);
		void *host = malloc(ibstruct_desc_host_size(d));

		ck_assert_ptr_nonnull(host);
		ck_assert_uint_le(sz, MAXWIRE);
		for (iter = 0; iter < 50; iter++) {
			test_fill(&seed, wire, sz);
			memset(back, 0x5a, sz);
			ck_assert_int_eq(ibstruct_unpack(d, host, wire, sz), 0);
			ck_assert_msg(ibstruct_pack(d, host, back, sz) == 0, "pack %s", ibstruct_desc_name(d));
			ck_assert_msg(memcmp(wire, back, sz) == 0, "round trip of %s differs",
				      ibstruct_desc_name(d));
		}
		free(host);
	}
}
END_TEST

START_TEST(test_short_buffers)
{
	unsigned i, n = ibstruct_desc_count();
	static uint8_t wire[MAXWIRE];

	for (i = 0; i < n; i++) {
		const struct ibstruct_desc *d = ibstruct_desc_at(i);
		size_t sz = ibstruct_desc_size(d);
		void *host = calloc(1, ibstruct_desc_host_size(d));

		ck_assert_ptr_nonnull(host);
		if (sz) {
			ck_assert_int_eq(ibstruct_unpack(d, host, wire, sz - 1), -EMSGSIZE);
			ck_assert_int_eq(ibstruct_pack(d, host, wire, sz - 1), -EMSGSIZE);
		}
		ck_assert_int_eq(ibstruct_unpack(d, NULL, wire, sz), -EINVAL);
		ck_assert_int_eq(ibstruct_pack(d, NULL, wire, sz), -EINVAL);
		free(host);
	}
	ck_assert_int_eq(ibstruct_unpack(NULL, wire, wire, 10), -EINVAL);
}
END_TEST

/* A value wider than its wire field is refused, and the buffer is left untouched. */
START_TEST(test_pack_range)
{
	unsigned i, n = ibstruct_desc_count(), checked = 0;
	static uint8_t wire[MAXWIRE], before[MAXWIRE];

	for (i = 0; i < n; i++) {
		const struct ibstruct_desc *d = ibstruct_desc_at(i);
		size_t sz = ibstruct_desc_size(d);
		void *host = calloc(1, ibstruct_desc_host_size(d));
		struct ibstruct_field_ref ref;
		unsigned f;

		ck_assert_ptr_nonnull(host);
		/* find a top-level uint field whose width is not a C type width */
		for (f = 0; f < ibstruct_desc_field_count(d); f++) {
			char path[64];
			const char *name;
			unsigned bits;

			ck_assert_int_eq(ibstruct_field_at(d, f, &ref), 0);
			name = ibstruct_field_name(&ref);
			if (ibstruct_field_type(&ref) != IBSTRUCT_TYPE_UINT)
				continue;
			bits = ibstruct_field_bits(&ref);
			if (!bits || bits == 8 || bits == 16 || bits == 32 || bits == 64)
				continue;
			if (ibstruct_field_count(&ref) > 1)
				snprintf(path, sizeof(path), "%s[0]", name);
			else
				snprintf(path, sizeof(path), "%s", name);
			ck_assert_int_eq(ibstruct_set_uint(d, host, path, UINT64_C(1) << bits), -ERANGE);
			ck_assert_int_eq(ibstruct_set_uint(d, host, path, (UINT64_C(1) << bits) - 1), 0);
			ck_assert_int_eq(ibstruct_pack(d, host, wire, sz), 0);
			/* write the bad value behind the setter's back */
			{
				struct ibstruct_field_ref r2;
				uint8_t *hp;

				ck_assert_int_eq(ibstruct_field_lookup(d, path, &r2), 0);
				hp = (uint8_t *)host + r2.host_offset;
				if (bits < 8)
					*hp = (uint8_t)(1u << bits);
				else if (bits < 16) {
					uint16_t v = (uint16_t)(1u << bits);

					memcpy(hp, &v, 2);
				} else if (bits < 32) {
					uint32_t v = 1u << bits;

					memcpy(hp, &v, 4);
				} else {
					uint64_t v = UINT64_C(1) << bits;

					memcpy(hp, &v, 8);
				}
			}
			memset(wire, 0xa5, sz);
			memcpy(before, wire, sz);
			ck_assert_msg(ibstruct_pack(d, host, wire, sz) == -ERANGE, "%s.%s",
				      ibstruct_desc_name(d), path);
			ck_assert_msg(memcmp(before, wire, sz) == 0, "failed pack wrote into the buffer");
			checked++;
			break;
		}
		free(host);
	}
	ck_assert_uint_gt(checked, 50);
}
END_TEST

/* NodeInfo of a simulated HCA: typed access. */
static const uint8_t nodeinfo_hca1[40] = {
	0x01, 0x01, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x10, 0x00, 0x01, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa1,
	0x01, 0x00, 0x02, 0xc9,
};

START_TEST(test_nodeinfo_typed)
{
	struct ibstruct_smp_node_info ni;
	uint8_t back[40];

	ck_assert_int_eq(ibstruct_smp_node_info_unpack(&ni, nodeinfo_hca1, sizeof(nodeinfo_hca1)), 0);
	ck_assert_uint_eq(ni.baseVersion, 1);
	ck_assert_uint_eq(ni.nodeType, 1);
	ck_assert_uint_eq(ni.numPorts, 2);
	ck_assert_uint_eq(ni.systemImageGUID, 0x100000);
	ck_assert_uint_eq(ni.portGUID, 0x100001);
	ck_assert_uint_eq(ni.partitionCap, 64);
	ck_assert_uint_eq(ni.revision, 0xa1);
	ck_assert_uint_eq(ni.localPortNum, 1);
	ck_assert_uint_eq(ni.vendorID, 0x0002c9);
	ck_assert_int_eq(ibstruct_smp_node_info_pack(&ni, back, sizeof(back)), 0);
	ck_assert_mem_eq(back, nodeinfo_hca1, 40);
	ni.vendorID = 0x1000000;
	ck_assert_int_eq(ibstruct_smp_node_info_pack(&ni, back, sizeof(back)), -ERANGE);
	ck_assert_uint_eq(IBSTRUCT_SMP_NODE_INFO_SIZE, 40);
	ck_assert_uint_eq(IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0x11);
}
END_TEST

/* Bit fields that straddle bytes: PortInfo. */
START_TEST(test_portinfo_bits)
{
	struct ibstruct_smp_port_info pi;
	uint8_t wire[64] = { 0 };

	memset(&pi, 0, sizeof(pi));
	pi.LID = 0x1234;
	pi.portState = 4;
	pi.portPhysicalState = 5;
	pi.LMC = 7;
	pi.subnetTimeOut = 0x1f;
	pi.linkRoundTripLatency = 0xabcdef;
	ck_assert_int_eq(ibstruct_smp_port_info_pack(&pi, wire, sizeof(wire)), 0);
	ck_assert_uint_eq(wire[16], 0x12);
	ck_assert_uint_eq(wire[17], 0x34);
	ck_assert_uint_eq(wire[32] & 0x0f, 4);       /* PortState: byte 32 low nibble */
	ck_assert_uint_eq(wire[33] >> 4, 5);         /* PortPhysicalState: byte 33 high nibble */
	ck_assert_uint_eq(wire[34] & 0x07, 7);       /* LMC: byte 34 low 3 bits */
	ck_assert_uint_eq(wire[51] & 0x1f, 0x1f);    /* SubnetTimeOut: byte 51 low 5 bits */
	ck_assert_uint_eq(wire[57], 0xab);
	ck_assert_uint_eq(wire[59], 0xef);
}
END_TEST

Suite *make_codec_suite(void)
{
	Suite *s = suite_create("codec");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_roundtrip_all);
	tcase_add_test(tc, test_short_buffers);
	tcase_add_test(tc, test_pack_range);
	tcase_add_test(tc, test_nodeinfo_typed);
	tcase_add_test(tc, test_portinfo_bits);
	suite_add_tcase(s, tc);
	return s;
}
