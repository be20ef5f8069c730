// SPDX-License-Identifier: BSD-3-Clause
/*
 * node-name-map: every rule of rdma-core's util/node_name_map.c reader (what it accepts and
 * what it rejects, the fgets() pieces, strtoull() base 0, strtok() names, first name kept),
 * remap_node_name()/clean_nodedesc() for unmapped nodes, the warnings, files that are not
 * maps, and random maps against nodemap-oracle.h (the same loop on the C library).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check-ibtopo.h"
#include "ibtopo-private.h"
#include "nodemap-oracle.h"

struct warnings {
	unsigned n;
	unsigned line[256];
	char what[256][256];
};

static void collect(void *user, unsigned line, const char *what)
{
	struct warnings *w = user;

	ck_assert_ptr_nonnull(what);
	ck_assert_uint_gt(strlen(what), 0);
	if (w->n < 256) {
		w->line[w->n] = line;
		snprintf(w->what[w->n], sizeof(w->what[0]), "%s", what);
	}
	w->n++;
}

static struct ibtopo_nodemap *parse(const char *text, struct warnings *w)
{
	struct ibtopo_nodemap *m = NULL;

	if (w)
		memset(w, 0, sizeof(*w));
	ck_assert_int_eq(ibtopo_nodemap_parse(&m, text, strlen(text), w ? collect : NULL, w), 0);
	ck_assert_ptr_nonnull(m);
	return m;
}

static void ck_name(const struct ibtopo_nodemap *m, uint64_t guid, const char *want)
{
	const char *got = ibtopo_nodemap_lookup(m, guid);

	if (!want) {
		ck_assert_msg(!got, "0x%016" PRIx64 " mapped to \"%s\"", guid, got ? got : "");
		return;
	}
	ck_assert_msg(got && !strcmp(got, want), "0x%016" PRIx64 ": \"%s\", not \"%s\"", guid,
		      got ? got : "(none)", want);
}

START_TEST(test_basic_forms)
{
	struct warnings w;
	struct ibtopo_nodemap *m = parse(
		"# ib-node-name-map\n"
		"\n"
		"   \t\n"
		"  # an indented comment\n"
		"0x0002c90300001492 \"switch-a\"\n"
		"\t 0x0002c90300001493\t\"leading white space\"\n"
		"0X0002C903000014AB \"upper case\"\n"
		"1234 \"decimal\"\n"
		"0755 \"octal\"\n"
		"0 \"zero\"\n"
		"0x10 plain name  \n"
		"0x11 \"quoted\" trailing text\n"
		"0x12 \"a#b\"\n"
		"0x13#name-after-hash\n"
		"0x14 # a comment becomes the name\n"
		"0x16 \"\" \"x\"\n"
		"0x17 \"crlf\"\r\n"
		"0x18 bare-crlf\r\n"
		"0x19abc \"hex digits run on\"\n"
		"0x1a\v\"vertical tab\"\f\n"
		"0x1b \"no newline at the end\"",
		&w);

	ck_name(m, 0x0002c90300001492ULL, "switch-a");
	ck_name(m, 0x0002c90300001493ULL, "leading white space");
	ck_name(m, 0x0002c903000014abULL, "upper case");
	ck_name(m, 1234, "decimal");
	ck_name(m, 0755, "octal");
	ck_name(m, 0, "zero");
	ck_name(m, 0x10, "plain name  ");
	ck_name(m, 0x11, "quoted");
	ck_name(m, 0x12, "a");
	ck_name(m, 0x13, "name-after-hash");
	ck_name(m, 0x14, " a comment becomes the name");
	ck_name(m, 0x16, " ");
	ck_name(m, 0x17, "crlf");
	ck_name(m, 0x18, "bare-crlf\r");
	ck_name(m, 0x19abc, "hex digits run on");
	ck_name(m, 0x19, NULL);
	ck_name(m, 0x1a, "vertical tab");
	ck_name(m, 0x1b, "no newline at the end");
	ck_assert_uint_eq(ibtopo_nodemap_count(m), 17);
	ck_assert_uint_eq(w.n, 0);
	ibtopo_nodemap_free(m);
}
END_TEST

START_TEST(test_signs_and_overflow)
{
	struct ibtopo_nodemap *m = parse("-1 \"minus one\"\n"
					 "+5 \"plus five\"\n"
					 "-0x2 \"minus two\"\n"
					 "0x1ffffffffffffffff \"overflow\"\n"
					 "-99999999999999999999999 \"negative overflow\"\n"
					 "0xffffffffffffffff \"all ones again\"\n"
					 "18446744073709551615 \"max decimal\"\n"
					 "01777777777777777777777 \"max octal\"\n",
					 NULL);

	ck_name(m, UINT64_MAX, "minus one"); /* the rest are the same GUID: first name kept */
	ck_name(m, 5, "plus five");
	ck_name(m, UINT64_MAX - 1, "minus two");
	ck_assert_uint_eq(ibtopo_nodemap_count(m), 3);
	ibtopo_nodemap_free(m);
}
END_TEST

START_TEST(test_rejected_lines)
{
	struct warnings w;
	struct ibtopo_nodemap *m = parse("name-without-guid\n"   /* 1 */
					 "0x \"no hex digit\"\n"  /* 2 */
					 "0xg1 \"bad hex\"\n"     /* 3 */
					 "08 \"not octal\"\n"     /* 4 */
					 "12ab \"decimal then letters\"\n" /* 5 */
					 "0b101 \"no binary prefix\"\n"    /* 6 */
					 "+ \"sign only\"\n"      /* 7 */
					 "\"0x20\" \"quoted GUID\"\n" /* 8 */
					 "0x21,\"comma\"\n"       /* 9 */
					 "\xc2\xa0" "0x22 \"non-breaking space\"\n" /* 10 */
					 "0x23 \"good\"\n"        /* 11 */
					 "0x24\n"                 /* 12: no name */
					 "0x25 \"\"\n"            /* 13: empty name */
					 "0x26    \n"             /* 14 */
					 "0x23 \"again\"\n"       /* 15: duplicate */
					 "0x15\"no space\"\n",   /* 16: a quote right after the GUID */
					 &w);

	ck_assert_uint_eq(ibtopo_nodemap_count(m), 1);
	ck_name(m, 0x23, "good");
	ck_name(m, 0x15, NULL);
	for (uint64_t g = 0x20; g <= 0x26; g++)
		if (g != 0x23)
			ck_name(m, g, NULL);
	ck_name(m, 0, NULL);
	ck_name(m, 8, NULL);
	ck_name(m, 12, NULL);
	/* every problem line reported with its number; the map loads without them */
	ck_assert_uint_eq(w.n, 15);
	for (unsigned i = 0; i < 10; i++) {
		ck_assert_uint_eq(w.line[i], i + 1);
		ck_assert_ptr_nonnull(strstr(w.what[i], "not a GUID"));
	}
	ck_assert_ptr_nonnull(strstr(w.what[0], "name-without-guid"));
	/* the unprintable bytes of a line are shown as '?' */
	ck_assert_ptr_nonnull(strstr(w.what[9], "??0x22"));
	ck_assert_uint_eq(w.line[10], 12);
	ck_assert_ptr_nonnull(strstr(w.what[10], "no name"));
	ck_assert_uint_eq(w.line[11], 13);
	ck_assert_uint_eq(w.line[12], 14);
	ck_assert_uint_eq(w.line[13], 15);
	ck_assert_ptr_nonnull(strstr(w.what[13], "first name kept"));
	ck_assert_uint_eq(w.line[14], 16);
	ck_assert_ptr_nonnull(strstr(w.what[14], "not a GUID"));
	ibtopo_nodemap_free(m);
}
END_TEST

/* fgets() with a 256-byte buffer: 255 characters a piece */
START_TEST(test_long_lines)
{
	struct warnings w;
	struct ibtopo_nodemap *m;
	char text[2048], name[300];
	size_t n = 0;

	memset(name, 'a', 300);
	/* a name running past the piece: cut at character 255 of the line; the rest of the
	 * line is a piece of its own that is no GUID */
	n += (size_t)sprintf(text + n, "0x31 \"%.300s\"\n", name);
	/* a long comment whose second piece reads as an entry, as it does in rdma-core */
	n += (size_t)sprintf(text + n, "# %.253s0x32 \"sneaky\"\n", name);
	/* exactly 255 characters and the newline: the second piece is the newline alone */
	n += (size_t)sprintf(text + n, "0x33 \"%.248s\"\n", name);
	n += (size_t)sprintf(text + n, "0x34 \"after\"\n");
	ck_assert_uint_lt(n, sizeof(text));
	m = parse(text, &w);
	ck_assert_uint_eq(ibtopo_nodemap_count(m), 4);
	ck_assert_uint_eq(strlen(ibtopo_nodemap_lookup(m, 0x31)), 255 - 6);
	ck_name(m, 0x32, "sneaky");
	ck_assert_uint_eq(strlen(ibtopo_nodemap_lookup(m, 0x33)), 248);
	ck_name(m, 0x34, "after");
	/* line 1: long + its second piece rejected; line 2: long */
	ck_assert_uint_eq(w.n, 3);
	ck_assert_uint_eq(w.line[0], 1);
	ck_assert_ptr_nonnull(strstr(w.what[0], "longer than 255"));
	ck_assert_uint_eq(w.line[1], 1);
	ck_assert_ptr_nonnull(strstr(w.what[1], "not a GUID"));
	ck_assert_uint_eq(w.line[2], 2);
	ibtopo_nodemap_free(m);
}
END_TEST

START_TEST(test_binary_and_limits)
{
	static const char bin[] = "0x1 \"a\"\n0x2 \"b\0c\"\n";
	struct ibtopo_nodemap *m = (void *)1;
	struct warnings w;
	char *big;

	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(ibtopo_nodemap_parse(&m, bin, sizeof(bin) - 1, collect, &w), -EILSEQ);
	ck_assert_ptr_null(m);
	ck_assert_uint_eq(w.n, 1);
	ck_assert_uint_eq(w.line[0], 2);
	ck_assert_int_eq(ibtopo_nodemap_parse(NULL, "", 0, NULL, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_nodemap_parse(&m, NULL, 1, NULL, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_nodemap_parse(&m, NULL, 0, NULL, NULL), 0);
	ck_assert_uint_eq(ibtopo_nodemap_count(m), 0);
	ck_assert_ptr_null(ibtopo_nodemap_lookup(m, 0));
	ibtopo_nodemap_free(m);
	/* over 64 MiB */
	big = malloc((64u << 20) + 1);
	ck_assert_ptr_nonnull(big);
	memset(big, '\n', (64u << 20) + 1);
	ck_assert_int_eq(ibtopo_nodemap_parse(&m, big, (64u << 20) + 1, NULL, NULL), -EFBIG);
	ck_assert_int_eq(ibtopo_nodemap_parse(&m, big, 64u << 20, NULL, NULL), 0);
	ibtopo_nodemap_free(m);
	free(big);
}
END_TEST

/* After 100 warnings, one saying how many more there were */
START_TEST(test_warning_cap)
{
	struct warnings w;
	struct ibtopo_nodemap *m;
	char *text = malloc(150 * 8 + 32);
	size_t n = 0;

	ck_assert_ptr_nonnull(text);
	for (unsigned i = 0; i < 150; i++)
		n += (size_t)sprintf(text + n, "bad %03u\n", i);
	sprintf(text + n, "0x1 \"ok\"\n");
	m = parse(text, &w);
	ck_assert_uint_eq(ibtopo_nodemap_count(m), 1);
	ck_assert_uint_eq(w.n, 101);
	ck_assert_uint_eq(w.line[99], 100);
	ck_assert_uint_eq(w.line[100], 150);
	ck_assert_ptr_nonnull(strstr(w.what[100], "50 more"));
	ibtopo_nodemap_free(m);
	free(text);
}
END_TEST

static char tmpdir[64];

static void tmp_setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ibtopo-nodemap-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void tmp_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_files)
{
	struct ibtopo_nodemap *m;
	char path[128];
	int fd, pfd[2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/map", tmpdir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("0x1 \"one\"\n0x2 two\n", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(ibtopo_nodemap_open(&m, path, NULL, NULL), 0);
	ck_assert_uint_eq(ibtopo_nodemap_count(m), 2);
	ck_name(m, 2, "two");
	ibtopo_nodemap_free(m);

	/* a named file must exist; a directory or an over-large file is refused clearly */
	m = (void *)1;
	snprintf(path, sizeof(path), "%s/missing", tmpdir);
	ck_assert_int_eq(ibtopo_nodemap_open(&m, path, NULL, NULL), -ENOENT);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(ibtopo_nodemap_open(&m, tmpdir, NULL, NULL), -EISDIR);
	snprintf(path, sizeof(path), "%s/huge", tmpdir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)1 << 32), 0); /* sparse: no disk used */
	close(fd);
	ck_assert_int_eq(ibtopo_nodemap_open(&m, path, NULL, NULL), -EFBIG);
	/* binary */
	snprintf(path, sizeof(path), "%s/bin", tmpdir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fwrite("\x7f" "ELF\x02\x01\x01\0\0\0", 1, 10, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(ibtopo_nodemap_open(&m, path, NULL, NULL), -EILSEQ);
	ck_assert_int_eq(ibtopo_nodemap_open(NULL, path, NULL, NULL), -EINVAL);

	/* a pipe is read to its end */
	ck_assert_int_eq(pipe(pfd), 0);
	ck_assert_int_eq(write(pfd[1], "0x9 \"piped\"\n", 12), 12);
	close(pfd[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", pfd[0]);
	ck_assert_int_eq(ibtopo_nodemap_open(&m, path, NULL, NULL), 0);
	close(pfd[0]);
	ck_name(m, 9, "piped");
	ibtopo_nodemap_free(m);

	/* no path: the default, an empty map when it is missing */
	if (access(IBTOPO_NODEMAP_DEFAULT, F_OK) != 0) {
		ck_assert_int_eq(ibtopo_nodemap_open(&m, NULL, NULL, NULL), 0);
		ck_assert_uint_eq(ibtopo_nodemap_count(m), 0);
		ibtopo_nodemap_free(m);
	}
}
END_TEST

static void ck_remap(const struct ibtopo_nodemap *m, uint64_t guid, const char *desc, const char *want)
{
	char buf[128];
	int n = ibtopo_nodemap_name(m, guid, desc, buf, sizeof(buf));

	ck_assert_int_eq(n, (int)strlen(want));
	ck_assert_str_eq(buf, want);
}

/* remap_node_name(): the mapped name as it is, else clean_nodedesc() of 64 characters */
START_TEST(test_remap)
{
	struct ibtopo_nodemap *m = parse("0x1 \"mapped\"\n0x2 tab\there\r\n", NULL);
	char desc[100], want[65], small[5];

	ck_remap(m, 1, "desc", "mapped");
	ck_remap(m, 2, "desc", "tab\there\r");
	ck_remap(m, 3, "host-3 HCA-1", "host-3 HCA-1");
	ck_remap(m, 3, "a\tb\nc\x7f" "d\x80\xff~ ", "a b c d  ~ ");
	ck_remap(NULL, 1, "no map", "no map");
	ck_remap(m, 3, NULL, "");
	ck_remap(m, 3, "", "");
	/* 64 characters at most */
	memset(desc, 'x', sizeof(desc) - 1);
	desc[sizeof(desc) - 1] = '\0';
	memset(want, 'x', 64);
	want[64] = '\0';
	ck_remap(m, 3, desc, want);
	/* the buffer as snprintf: the full length returned */
	ck_assert_int_eq(ibtopo_nodemap_name(m, 1, "d", small, sizeof(small)), 6);
	ck_assert_str_eq(small, "mapp");
	ck_assert_int_eq(ibtopo_nodemap_name(m, 3, "a\tbcdef", small, sizeof(small)), 7);
	ck_assert_str_eq(small, "a bc");
	ck_assert_int_eq(ibtopo_nodemap_name(m, 1, "d", NULL, 0), 6);
	ibtopo_nodemap_free(m);
	ibtopo_nodemap_free(NULL);
	ck_assert_uint_eq(ibtopo_nodemap_count(NULL), 0);
	ck_assert_ptr_null(ibtopo_nodemap_lookup(NULL, 1));
}
END_TEST

/* 20000 entries: every one found, absent ones not */
START_TEST(test_large)
{
	size_t cap = 20000 * 40, n = 0;
	char *text = malloc(cap);
	struct ibtopo_nodemap *m;
	char want[32];

	ck_assert_ptr_nonnull(text);
	for (unsigned i = 0; i < 20000; i++)
		n += (size_t)snprintf(text + n, cap - n, "0x%016" PRIx64 " \"node-%u\"\n",
				      (uint64_t)(0x0002c90300000000ULL + (uint64_t)i * 0x10001), i);
	m = parse(text, NULL);
	ck_assert_uint_eq(ibtopo_nodemap_count(m), 20000);
	for (unsigned i = 0; i < 20000; i++) {
		snprintf(want, sizeof(want), "node-%u", i);
		ck_name(m, 0x0002c90300000000ULL + (uint64_t)i * 0x10001, want);
		ck_name(m, 0x0002c90300000000ULL + (uint64_t)i * 0x10001 + 1, NULL);
	}
	ibtopo_nodemap_free(m);
	free(text);
}
END_TEST

/* Random maps from pieces of every rule above, against the oracle */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static const char *pick(const char *const *v, size_t n)
{
	return v[rnd() % n];
}

START_TEST(test_random_against_oracle)
{
	static const char *const lead[] = { "", "", "", " ", "\t", "  \v", "\f" };
	static const char *const guid[] = { "0x", "0X", "", "0", "-", "+", "-0x", "0x0", "00", "9",
					    "#", "\"", "x", "0b" };
	static const char *const digits = "0123456789abcdefABCDEFgxz";
	static const char *const sep[] = { " ", "\t", "", "#", "\"", "  ", ",", "\r" };
	static const char *const name[] = { "\"name\"", "name", "\"a#b\"", "\"\"", "", "#c", "\" \"",
					     "\"x\" y", "n\r", "\"unterminated", "\xe2\x82\xac" };
	static const char *const end[] = { "\n", "\n", "\r\n", "", " \n" };

	rng_state = 0x1234 + (uint64_t)_i;
	for (unsigned round = 0; round < 200; round++) {
		size_t cap = 64 * 1024, n = 0;
		char *text = malloc(cap);
		struct ibtopo_nodemap *m;
		struct oracle o;
		unsigned lines = 1 + (unsigned)(rnd() % 120);

		ck_assert_ptr_nonnull(text);
		for (unsigned l = 0; l < lines && n + 600 < cap; l++) {
			unsigned nd = (unsigned)(rnd() % 20);

			n += (size_t)sprintf(text + n, "%s%s", pick(lead, 7), pick(guid, 14));
			for (unsigned d = 0; d < nd; d++)
				text[n++] = digits[rnd() % (rnd() % 4 ? 10 : strlen(digits))];
			n += (size_t)sprintf(text + n, "%s%s", pick(sep, 8), pick(name, 11));
			/* now and then a line longer than a piece */
			if (rnd() % 16 == 0) {
				unsigned k = 200 + (unsigned)(rnd() % 300);

				memset(text + n, rnd() % 2 ? 'q' : '1', k);
				n += k;
			}
			n += (size_t)sprintf(text + n, "%s", pick(end, 5));
		}
		ck_assert_int_eq(ibtopo_nodemap_parse(&m, text, n, NULL, NULL), 0);
		ck_assert_int_eq(oracle_parse(&o, text, n), 0);
		ck_assert_uint_eq(ibtopo_nodemap_count(m), o.n);
		for (unsigned i = 0; i < o.n; i++)
			ck_name(m, o.e[i].guid, o.e[i].name);
		oracle_free(&o);
		ibtopo_nodemap_free(m);
		free(text);
	}
}
END_TEST

Suite *make_nodemap_suite(void)
{
	Suite *s = suite_create("nodemap");
	TCase *tc = tcase_create("parse");
	TCase *tf = tcase_create("files");

	tcase_add_test(tc, test_basic_forms);
	tcase_add_test(tc, test_signs_and_overflow);
	tcase_add_test(tc, test_rejected_lines);
	tcase_add_test(tc, test_long_lines);
	tcase_add_test(tc, test_binary_and_limits);
	tcase_add_test(tc, test_warning_cap);
	tcase_add_test(tc, test_remap);
	tcase_add_test(tc, test_large);
	tcase_add_loop_test(tc, test_random_against_oracle, 0, 10);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tf, tmp_setup, tmp_teardown);
	tcase_add_test(tf, test_files);
	suite_add_tcase(s, tf);
	return s;
}
