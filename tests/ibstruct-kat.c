// SPDX-License-Identifier: BSD-3-Clause
/*
 * Known-answer vectors captured on the simulated fabric (tests/data/kat): the raw bytes
 * of an attribute and the text the reference infiniband-diags tool printed for it.  Our
 * unpack + printer must print the same lines (the tool's own "#" header lines aside).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-ibstruct.h"

#ifndef KAT_DIR
#define KAT_DIR "tests/data/kat"
#endif

struct kat {
	char name[64];
	char comment[512];
	uint8_t bytes[1024];
	size_t nbytes;
	char *text;
	size_t textlen, textcap;
	unsigned line;
};

static void text_add(struct kat *k, const char *line)
{
	size_t l = strlen(line);

	if (k->textlen + l + 1 > k->textcap) {
		k->textcap = (k->textlen + l + 1) * 2;
		k->text = realloc(k->text, k->textcap);
		ck_assert_ptr_nonnull(k->text);
	}
	memcpy(k->text + k->textlen, line, l + 1);
	k->textlen += l;
}

static int hexnib(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* smpquery portinfo: PortInfo fields up to RoundTrip, then CapabilityMask2 to
 * LinkSpeedExtEnabled; the M_Key shows only with -K. */
static void print_portinfo(char *out, size_t len, const struct ibstruct_desc *d, const void *host,
			   const char *expect)
{
	int n;

	n = ibstruct_snprint_diags_range(out, len, d, host, "Mkey", "RoundTrip");
	ck_assert_int_gt(n, 0);
	if (strstr(expect, "Mkey:............................<not displayed>")) {
		char *nl = strchr(out, '\n');
		char rest[8192];

		snprintf(rest, sizeof(rest), "%s", nl);
		snprintf(out, len, "Mkey:............................<not displayed>%s", rest);
		n = (int)strlen(out);
	}
	ibstruct_snprint_diags_range(out + n, len - (size_t)n, d, host, "CapabilityMask2",
				     "LinkSpeedExtEnabled");
}

/* perfquery -x: libibmad's PortCountersExt range (without CounterSelect2, which it numbers
 * after the counters), then the error counters when the PMA's CapMask2 announces them. */
static void print_counters_ext(char *out, size_t len, const struct ibstruct_desc *d, const void *host,
			       const char *expect)
{
	char tmp[16384], *cs2, *nl;
	int n;

	n = ibstruct_snprint_diags_range(tmp, sizeof(tmp), d, host, "PortSelect", "PortMulticastRcvPkts");
	ck_assert_int_gt(n, 0);
	cs2 = strstr(tmp, "CounterSelect2:");
	ck_assert_ptr_nonnull(cs2);
	nl = strchr(cs2, '\n');
	memmove(cs2, nl + 1, strlen(nl + 1) + 1);
	snprintf(out, len, "%s", tmp);
	if (strstr(expect, "CounterSelect2:")) {
		n = (int)strlen(out);
		ibstruct_snprint_diags_range(out + n, len - (size_t)n, d, host, "CounterSelect2",
					     "CounterSelect2");
		n = (int)strlen(out);
		ibstruct_snprint_diags_range(out + n, len - (size_t)n, d, host, "SymbolErrorCounter",
					     NULL);
	}
}

/* Returns 1 if compared, 0 if this struct's tool format is not a libibmad field dump. */
static int check_one(const struct kat *k)
{
	const struct ibstruct_desc *d = ibstruct_desc_by_name(k->name);
	char expect[16384], out[16384];
	const char *p;
	size_t el = 0;
	void *host;

	ck_assert_msg(d != NULL, "line %u: unknown struct %s", k->line, k->name);
	/* the tool's text without its own header lines */
	for (p = k->text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p + 1) : strlen(p);

		if (*p != '#') {
			ck_assert_uint_lt(el + l, sizeof(expect));
			memcpy(expect + el, p, l);
			el += l;
		}
		p += l;
	}
	expect[el] = 0;
	host = calloc(1, ibstruct_desc_host_size(d));
	ck_assert_ptr_nonnull(host);
	ck_assert_msg(ibstruct_unpack(d, host, k->bytes, k->nbytes) == 0, "line %u: %zu bytes for %s",
		      k->line, k->nbytes, k->name);
	if (!strcmp(k->name, "SMPPortInfo"))
		print_portinfo(out, sizeof(out), d, host, expect);
	else if (!strcmp(k->name, "PMPortCountersExt"))
		print_counters_ext(out, sizeof(out), d, host, expect);
	else if (!strncmp(k->name, "SA", 2) && strcmp(k->name, "SAHeader")) {
		unsigned flags = strstr(k->comment, " -K") ? IBSTRUCT_SAQ_SHOW_KEYS : 0;

		/* saquery prints the MulticastFDBTop line when its SA says it supports it */
		if (strstr(expect, "MulticastFDBTop"))
			flags |= IBSTRUCT_SAQ_MCAST_TOP;
		ck_assert_int_ge(ibstruct_snprint_saquery(out, sizeof(out), d, k->bytes, k->nbytes, NULL,
							  flags), 0);
	} else if (!strcmp(k->name, "SMPNodeInfo") || !strcmp(k->name, "SMPSwitchInfo") ||
		 !strncmp(k->name, "PM", 2))
		ibstruct_snprint_diags(out, sizeof(out), d, host);
	else {
		free(host);
		return 0;
	}
	free(host);
	if (strcmp(out, expect)) {
		fprintf(stderr, "KAT MISMATCH line %u (%s): %s--- expected:\n%s--- got:\n%s", k->line,
			k->name, k->comment, expect, out);
		return -1;
	}
	return 1;
}

static unsigned run_file(const char *file, unsigned *blocks, unsigned *bad)
{
	char path[4096], line[8192];
	struct kat k;
	FILE *f;
	int state = 0; /* 0 outside, 1 header, 2 text */
	unsigned compared = 0, no = 0;

	snprintf(path, sizeof(path), "%s/%s", KAT_DIR, file);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	memset(&k, 0, sizeof(k));
	while (fgets(line, sizeof(line), f)) {
		no++;
		if (state == 2) {
			if (!strcmp(line, "end\n")) {
				int r = check_one(&k);

				if (r < 0)
					(*bad)++;
				else
					compared += (unsigned)r;
				(*blocks)++;
				free(k.text);
				memset(&k, 0, sizeof(k));
				state = 0;
			} else {
				text_add(&k, line);
			}
			continue;
		}
		if (line[0] == '#') {
			/* the first comment line of a block names the command */
			if (!k.comment[0])
				snprintf(k.comment, sizeof(k.comment), "%.500s", line);
			continue;
		}
		if (!strncmp(line, "struct ", 7)) {
			sscanf(line + 7, "%63s", k.name);
			k.line = no;
			k.nbytes = 0;
			state = 1;
		} else if (!strncmp(line, "hex ", 4) && state == 1) {
			const char *s = line + 4;

			while (*s && *s != '\n') {
				int hi, lo;

				if (*s == ' ') {
					s++;
					continue;
				}
				hi = hexnib(s[0]);
				lo = hexnib(s[1]);
				ck_assert_msg(hi >= 0 && lo >= 0, "%s:%u: bad hex", file, no);
				ck_assert_uint_lt(k.nbytes, sizeof(k.bytes));
				k.bytes[k.nbytes++] = (uint8_t)(hi << 4 | lo);
				s += 2;
			}
		} else if (!strcmp(line, "text\n") && state == 1) {
			state = 2;
			text_add(&k, "");
		}
	}
	fclose(f);
	ck_assert_msg(state == 0, "%s: unterminated block", file);
	return compared;
}

/* Every block of a file prints as the reference tool printed it; at least `min` compared. */
static void check_file(const char *file, unsigned min)
{
	unsigned blocks = 0, bad = 0, n = run_file(file, &blocks, &bad);

	fprintf(stderr, "%s: %u of %u blocks compared equal, %u differ\n", file, n, blocks, bad);
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_ge(n, min);
}

START_TEST(test_kat_smp)
{
	check_file("smp.kat", 10);
}
END_TEST

START_TEST(test_kat_perf)
{
	check_file("perf.kat", 10);
}
END_TEST

START_TEST(test_kat_sa)
{
	check_file("sa.kat", 10);
}
END_TEST

Suite *make_kat_suite(void)
{
	Suite *s = suite_create("kat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_kat_smp);
	tcase_add_test(tc, test_kat_perf);
	tcase_add_test(tc, test_kat_sa);
	suite_add_tcase(s, tc);
	return s;
}
