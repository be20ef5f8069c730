// SPDX-License-Identifier: BSD-3-Clause
/*
 * Differential test against libibmad (test-only dependency): for every field in
 * libibmad's field table, on many random buffers, mad_decode_field() and our unpack agree
 * on the value, and mad_dump_field() and our infiniband-diags printer agree on the text.
 * Also: every named libibmad field is mapped by some field of our spec.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mad.h>
#include <ibmgmt/ibstruct.h>

struct map_row {
	int field;
	const char *field_name;
	const struct ibstruct_desc *(*desc)(void);
	const char *path;
	int bias;
};

#define X(f, fname, descfn, path, bias) { (f), fname, descfn, path, bias },
static const struct map_row rows[] = {
#include "ibstruct-libib-map.h"
};
#undef X

#define NROWS (sizeof(rows) / sizeof(rows[0]))
#define BUFSZ 4096
#define ITER 64

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

/* Every libibmad field that has a name is covered by the spec. */
START_TEST(test_coverage)
{
	static unsigned char seen[IB_FIELD_LAST_];
	unsigned i, missing = 0, named = 0;

	for (i = 0; i < NROWS; i++)
		if (rows[i].field > 0 && rows[i].field < IB_FIELD_LAST_)
			seen[rows[i].field] = 1;
	for (i = 1; i < IB_FIELD_LAST_; i++) {
		if (!mad_field_name(i) || !*mad_field_name(i))
			continue;
		named++;
		if (!seen[i]) {
			fprintf(stderr, "libibmad field %u (%s) is not mapped by the spec\n", i,
				mad_field_name(i));
			missing++;
		}
	}
	fprintf(stderr, "libibmad: %u named fields, %zu mappings, %u unmapped\n", named, NROWS,
		missing);
	ck_assert_uint_eq(missing, 0);
}
END_TEST

static void be_bytes(uint64_t v, unsigned n, uint8_t *out)
{
	unsigned i;

	for (i = 0; i < n; i++)
		out[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* Value and text of one mapping on one random buffer; returns 0 when both agree. */
static int check_row(const struct map_row *r, uint8_t *buf, void *host, char *why, size_t whylen)
{
	const struct ibstruct_desc *d = r->desc();
	struct ibstruct_field_ref ref;
	uint8_t val[1024], ours[1024];
	char lib_text[2048], our_text[2048];
	const char *name = mad_field_name(r->field);
	unsigned bits;
	int rc;

	if (ibstruct_unpack(d, host, buf + r->bias, ibstruct_desc_size(d))) {
		snprintf(why, whylen, "unpack failed");
		return -1;
	}
	rc = ibstruct_field_lookup(d, r->path, &ref);
	if (rc) {
		snprintf(why, whylen, "lookup of %s failed: %d", r->path, rc);
		return -1;
	}
	bits = ibstruct_field_bits(&ref);
	memset(val, 0, sizeof(val));
	mad_decode_field(buf, r->field, val);
	memset(ours, 0, sizeof(ours));
	switch (ibstruct_field_type(&ref)) {
	case IBSTRUCT_TYPE_UINT:
	case IBSTRUCT_TYPE_GUID: {
		uint64_t v;

		ibstruct_get_uint(d, host, r->path, &v);
		if (bits <= 32) {
			uint32_t lv;

			memcpy(&lv, val, 4);
			if (lv != v) {
				snprintf(why, whylen, "value %" PRIu64 ", libibmad %u", v, lv);
				return -1;
			}
		} else if (bits == 64) {
			uint64_t lv;

			memcpy(&lv, val, 8);
			if (lv != v) {
				snprintf(why, whylen, "value 0x%" PRIx64 ", libibmad 0x%" PRIx64, v, lv);
				return -1;
			}
		} else {
			be_bytes(v, bits / 8, ours);
			if (memcmp(ours, val, bits / 8)) {
				snprintf(why, whylen, "bytes differ");
				return -1;
			}
		}
		break;
	}
	default:
		/* gid, bytes, str: the raw bytes in the host struct */
		memcpy(ours, (uint8_t *)host + ref.host_offset, bits / 8);
		if (memcmp(ours, val, bits / 8)) {
			snprintf(why, whylen, "bytes differ");
			return -1;
		}
		break;
	}
	/* Text: libibmad's formatter output (its names of 32+ characters print uninitialised
	 * dots, and its integer formatters cannot print fields wider than 64 bits). */
	if (!name || strlen(name) >= 32)
		return 0;
	if (bits > 64 && (ibstruct_field_type(&ref) == IBSTRUCT_TYPE_UINT))
		return 0;
	if (!mad_dump_field(r->field, lib_text, sizeof(lib_text), val))
		return 0;
	/* the field's own value in its libibmad format (not a diagsval= alias) */
	{
		char value[2048];
		uint64_t v = 0;
		enum ibstruct_type t = ibstruct_field_type(&ref);

		if (t == IBSTRUCT_TYPE_UINT || t == IBSTRUCT_TYPE_GUID)
			ibstruct_get_uint(d, host, r->path, &v);
		ibstruct_snprint_diags_value(value, sizeof(value),
					     (enum ibstruct_diags_fmt)ibstruct_field_diags_fmt(&ref), bits, v,
					     (const uint8_t *)host + ref.host_offset);
		ibstruct_snprint_diags_line(our_text, sizeof(our_text), name, value);
	}
	if (strcmp(lib_text, our_text)) {
		snprintf(why, whylen, "text \"%s\", libibmad \"%s\"", our_text, lib_text);
		return -1;
	}
	return 0;
}

START_TEST(test_values_and_text)
{
	static uint8_t buf[BUFSZ];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned i, it, failures = 0;
	void *host = malloc(1 << 16);
	char why[4500];

	ck_assert_ptr_nonnull(host);
	for (i = 0; i < NROWS; i++) {
		const struct map_row *r = &rows[i];

		ck_assert_uint_le(ibstruct_desc_size(r->desc()) + (size_t)r->bias, BUFSZ);
		ck_assert_uint_le(ibstruct_desc_host_size(r->desc()), 1 << 16);
		for (it = 0; it < ITER; it++) {
			unsigned k;

			/* mix dense random data with sparse patterns so small values show up too */
			for (k = 0; k < BUFSZ; k += 8) {
				uint64_t v = rnd(&seed);

				if (it % 4 == 1)
					v &= rnd(&seed) & rnd(&seed);
				else if (it % 4 == 2)
					v = 0;
				memcpy(buf + k, &v, 8);
			}
			if (check_row(r, buf, host, why, sizeof(why))) {
				fprintf(stderr, "%s (%s) %s.%s: %s\n", r->field_name,
					mad_field_name(r->field), ibstruct_desc_name(r->desc()), r->path, why);
				failures++;
				break;
			}
		}
	}
	free(host);
	ck_assert_uint_eq(failures, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("libibmad");
	TCase *tc = tcase_create("differential");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_coverage);
	tcase_add_test(tc, test_values_and_text);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
