// SPDX-License-Identifier: BSD-3-Clause
/* ibpath_parse(): every address form, the error cases and their messages. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-ibpath.h"

#define LINK_LOCAL 0xfe80000000000000ull

static struct ibpath_path *const sentinel = (struct ibpath_path *)&sentinel;

static struct ibpath_path *parse_ok(const char *text, unsigned flags)
{
	struct ibpath_path *p = sentinel;
	char err[256] = "junk";
	int rc = ibpath_parse(text, flags, &p, err, sizeof(err));

	ck_assert_msg(rc == 0, "parse \"%s\" (flags 0x%x): %d (%s)", text, flags, rc, err);
	ck_assert_msg(p && p != sentinel, "parse \"%s\": no path", text);
	ck_assert_msg(err[0] == 0, "parse \"%s\" left a message: %s", text, err);
	return p;
}

/* -EINVAL, *out untouched, and a message that names `needle` (the bad part). */
static void parse_fails(const char *text, unsigned flags, const char *needle)
{
	struct ibpath_path *p = sentinel;
	char err[512] = "";
	int rc = ibpath_parse(text, flags, &p, err, sizeof(err));

	ck_assert_msg(rc == -EINVAL, "parse \"%s\" (flags 0x%x): %d, expected -EINVAL", text, flags, rc);
	ck_assert_msg(p == sentinel, "parse \"%s\" wrote *out on failure", text);
	ck_assert_msg(strstr(err, needle) != NULL, "parse \"%s\": message \"%s\" lacks \"%s\"", text, err,
		      needle);
	/* the same without an error buffer */
	ck_assert_int_eq(ibpath_parse(text, flags, &p, NULL, 0), -EINVAL);
	ck_assert_ptr_eq(p, sentinel);
}

/* Every attribute except `skip` (may be IBPATH_ATTR_COUNT_) still has its default. */
static void assert_defaults_except(const struct ibpath_path *p, enum ibpath_attr skip)
{
	struct ibpath_path *fresh;
	unsigned i;

	ck_assert_int_eq(ibpath_path_new(&fresh, ibpath_path_kind(p)), 0);
	for (i = 0; i < IBPATH_ATTR_COUNT_; i++)
		if (i != (unsigned)skip && i != IBPATH_HOP_LIMIT)
			ck_assert_msg(ibpath_path_get(p, i) == ibpath_path_get(fresh, i), "attribute %u", i);
	ibpath_path_unref(fresh);
}

static void check_lid(const char *text, unsigned flags, uint16_t lid)
{
	struct ibpath_path *p = parse_ok(text, flags);

	ck_assert_int_eq(ibpath_path_kind(p), IBPATH_KIND_IB);
	ck_assert_msg(ibpath_path_get(p, IBPATH_DLID) == lid, "\"%s\": DLID %llu, expected %u", text,
		      (unsigned long long)ibpath_path_get(p, IBPATH_DLID), lid);
	ck_assert(!ibpath_path_has_grh(p));
	ck_assert(!ibpath_path_needs_resolution(p));
	ck_assert_ptr_null(ibpath_path_end_port(p));
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_HOP_LIMIT), 0);
	assert_defaults_except(p, IBPATH_DLID);
	ibpath_path_unref(p);
}

/* A GID/GUID target: DGID set, GRH with hop limit 255, DLID left to the SA. */
static void check_gid(const char *text, unsigned flags, const char *gid, const char *end_port)
{
	struct ibpath_path *p = parse_ok(text, flags);
	ibstruct_gid_t want = gid_from_text(gid), got, zero = { { 0 } };

	ck_assert_int_eq(ibpath_path_kind(p), IBPATH_KIND_IB);
	ck_assert(ibpath_path_has_grh(p));
	ibpath_path_dgid(p, &got);
	ck_assert_msg(!memcmp(got.raw, want.raw, 16), "\"%s\": wrong DGID", text);
	ibpath_path_sgid(p, &got);
	ck_assert(!memcmp(got.raw, zero.raw, 16));
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_HOP_LIMIT), 255);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DLID), 0);
	ck_assert(ibpath_path_needs_resolution(p));
	if (end_port)
		ck_assert_str_eq(ibpath_path_end_port(p), end_port);
	else
		ck_assert_ptr_null(ibpath_path_end_port(p));
	assert_defaults_except(p, IBPATH_ATTR_COUNT_);
	ibpath_path_unref(p);
}

static void check_guid(const char *text, unsigned flags, uint64_t guid)
{
	ibstruct_gid_t g;
	char gid[64];

	ibstruct_gid_make(&g, LINK_LOCAL, guid);
	ibstruct_gid_format(gid, sizeof(gid), &g);
	check_gid(text, flags, gid, NULL);
}

/* A DR path with hop list `ports` (count elements). */
static void check_dr(const char *text, unsigned flags, const uint8_t *ports, unsigned count)
{
	struct ibpath_path *p = parse_ok(text, flags);
	const uint8_t *got = NULL;

	ck_assert_int_eq(ibpath_path_kind(p), IBPATH_KIND_DR);
	ck_assert_uint_eq(ibpath_path_dr_ports(p, &got), count);
	ck_assert_msg(!memcmp(got, ports, count), "\"%s\": wrong hops", text);
	ck_assert_uint_eq(ibpath_path_dr_return_ports(p, NULL), 0);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DR_SLID), 0xffff);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DR_DLID), 0xffff);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DLID), 0);
	ck_assert(!ibpath_path_has_grh(p));
	ck_assert(!ibpath_path_needs_resolution(p));
	assert_defaults_except(p, IBPATH_ATTR_COUNT_);
	ibpath_path_unref(p);
}

#define DR(text, flags, ...)                                                                   \
	do {                                                                                   \
		static const uint8_t hops_[] = { __VA_ARGS__ };                                \
		check_dr(text, flags, hops_, sizeof(hops_));                                   \
	} while (0)

/* "0" then `hops` times ",<port>" */
static char *dr_text(unsigned hops, const char *port, char sep)
{
	char *s = malloc(2 + hops * (strlen(port) + 1));
	size_t n = 1;
	unsigned i;

	ck_assert_ptr_nonnull(s);
	s[0] = '0';
	for (i = 0; i < hops; i++) {
		s[n++] = sep;
		memcpy(s + n, port, strlen(port));
		n += strlen(port);
	}
	s[n] = 0;
	return s;
}

START_TEST(test_lid)
{
	check_lid("2", 0, 2);
	check_lid("1", 0, 1);
	check_lid("0x2", 0, 2);
	check_lid("0X1a", 0, 0x1a);
	check_lid("0x0010", 0, 16);
	check_lid("010", 0, 8); /* octal, as strtol base 0 */
	check_lid("49151", 0, 0xbfff);
	check_lid("0xbfff", 0, 0xbfff);
	check_lid("0xBFFF", 0, 0xbfff);
	check_lid("12", IBPATH_PARSE_LID, 12);
	check_lid("0xc", IBPATH_PARSE_LID, 12);
	check_lid("014", IBPATH_PARSE_LID, 12);
	check_lid("0x000c", IBPATH_PARSE_LID, 12);
	/* multicast LIDs only with the flag */
	check_lid("0xc000", IBPATH_PARSE_MCAST, 0xc000);
	check_lid("49152", IBPATH_PARSE_MCAST, 0xc000);
	check_lid("0xfffe", IBPATH_PARSE_MCAST, 0xfffe);
	check_lid("0xc001", IBPATH_PARSE_LID | IBPATH_PARSE_MCAST, 0xc001);
	check_lid("2", IBPATH_PARSE_MCAST, 2);
}
END_TEST

START_TEST(test_lid_errors)
{
	/* reserved, multicast, permissive, out of range */
	parse_fails("0", 0, "LID 0 ");
	parse_fails("0", IBPATH_PARSE_LID, "LID 0 ");
	parse_fails("0x0", IBPATH_PARSE_LID, "0x0");
	parse_fails("000", IBPATH_PARSE_LID, "000");
	parse_fails("0x0000", 0, "0x0000");
	parse_fails("0xc000", 0, "0xc000");
	parse_fails("0xc000", IBPATH_PARSE_LID, "0xc000");
	parse_fails("49152", 0, "49152");
	parse_fails("0xfffe", 0, "0xfffe");
	parse_fails("0xffff", 0, "0xffff");
	parse_fails("0xffff", IBPATH_PARSE_MCAST, "0xffff");
	parse_fails("65535", IBPATH_PARSE_MCAST, "65535");
	parse_fails("65536", 0, "65536");
	parse_fails("65536", IBPATH_PARSE_MCAST, "65536");
	parse_fails("0x10000", IBPATH_PARSE_LID, "0x10000");
	parse_fails("99999999999999999999999", 0, "99999999999999999999999");
	parse_fails("99999999999999999999999", IBPATH_PARSE_LID, "99999999999999999999999");
	/* not numbers */
	parse_fails("12abc", 0, "\"12abc\"");
	parse_fails("08", 0, "\"08\"");
	parse_fails("0x", 0, "\"0x\"");
	parse_fails("0x12g", 0, "\"0x12g\"");
	parse_fails("abc", IBPATH_PARSE_LID, "\"abc\"");
	parse_fails("-1", IBPATH_PARSE_LID, "\"-1\"");
	parse_fails("+1", IBPATH_PARSE_LID, "\"+1\"");
	parse_fails(" 1", IBPATH_PARSE_LID, "\" 1\"");
	parse_fails("1 ", IBPATH_PARSE_LID, "\"1 \"");
	parse_fails("0,1", IBPATH_PARSE_LID, "\"0,1\"");
	parse_fails("fe80::1", IBPATH_PARSE_LID, "\"fe80::1\"");
	parse_fails("mlx5_0", 0, "\"mlx5_0\"");
	parse_fails(" 1", 0, "\" 1\"");
}
END_TEST

START_TEST(test_guid)
{
	static const unsigned flags[] = { 0, IBPATH_PARSE_GUID };
	unsigned i;

	for (i = 0; i < 2; i++) {
		check_guid("0x0002c90300001492", flags[i], 0x0002c90300001492ull);
		check_guid("0X0002C90300001492", flags[i], 0x0002c90300001492ull);
		check_guid("0002c90300001492", flags[i], 0x0002c90300001492ull);
		check_guid("0002:c903:0000:1492", flags[i], 0x0002c90300001492ull);
		check_guid("2:c903:0:1492", flags[i], 0x0002c90300001492ull);
		check_guid("0x2c90300001492", flags[i], 0x0002c90300001492ull);
		check_guid("0x12345", flags[i], 0x12345);
		check_guid("0xffffffffffffffff", flags[i], ~0ull);
	}
	/* up to 4 hex digits are a LID unless -G says otherwise */
	check_guid("0x1", IBPATH_PARSE_GUID, 1);
	check_guid("0x1234", IBPATH_PARSE_GUID, 0x1234);
	check_lid("0x1234", 0, 0x1234);
	/* 16 decimal digits are still a bare hex GUID */
	check_guid("1234567890123456", 0, 0x1234567890123456ull);
	check_guid("1234567890abcdef", IBPATH_PARSE_GUID, 0x1234567890abcdefull);
}
END_TEST

START_TEST(test_guid_errors)
{
	parse_fails("1234", IBPATH_PARSE_GUID, "\"1234\"");
	parse_fails("0x", IBPATH_PARSE_GUID, "\"0x\"");
	parse_fails("0xg", IBPATH_PARSE_GUID, "\"0xg\"");
	parse_fails("0x00000000000000001", IBPATH_PARSE_GUID, "0x00000000000000001");
	parse_fails("0x00000000000000001", 0, "0x00000000000000001");
	parse_fails("0x0002c90300001492z", 0, "0x0002c90300001492z");
	parse_fails("0002c9030000149", IBPATH_PARSE_GUID, "0002c9030000149");
	parse_fails("0002c903000014922", IBPATH_PARSE_GUID, "0002c903000014922");
	parse_fails("0002:c903:0000", 0, "0002:c903:0000");
	parse_fails("0002:c903:00000:1492", 0, "0002:c903:00000:1492");
	parse_fails("0002:c903:0000:1492:", IBPATH_PARSE_GUID, "0002:c903:0000:1492:");
	parse_fails("fe80::1", IBPATH_PARSE_GUID, "\"fe80::1\"");
	/* GUID 0 names no port */
	parse_fails("0x0", IBPATH_PARSE_GUID, "0x0");
	parse_fails("0x00000", 0, "0x00000");
	parse_fails("0000000000000000", 0, "0000000000000000");
	parse_fails("0000:0000:0000:0000", 0, "0000:0000:0000:0000");
	parse_fails("0:0:0:0", IBPATH_PARSE_GUID, "0:0:0:0");
}
END_TEST

START_TEST(test_gid)
{
	check_gid("fe80::2:c903:0:1492", 0, "fe80::2:c903:0:1492", NULL);
	check_gid("fe80:0000:0000:0000:0002:c903:0000:1492", 0, "fe80::2:c903:0:1492", NULL);
	check_gid("2001:db8::1", 0, "2001:db8::1", NULL);
	check_gid("::ffff:192.168.1.2", 0, "::ffff:c0a8:102", NULL);
	check_gid("fe80::1", IBPATH_PARSE_GID, "fe80::1", NULL);
	/* a GID with 4 groups is still a GID when the caller says so */
	check_gid("1:2::3:4", IBPATH_PARSE_GID, "1:2::3:4", NULL);
	/* scoped: the local end port after '%' */
	check_gid("fe80::1%mlx5_0/1", 0, "fe80::1", "mlx5_0/1");
	check_gid("fe80::1%mlx5_0", IBPATH_PARSE_GID, "fe80::1", "mlx5_0");
	check_gid("fec0::2:c903:ef:101%0x0002c90300ef0101", 0, "fec0::2:c903:ef:101",
		  "0x0002c90300ef0101");
}
END_TEST

START_TEST(test_gid_errors)
{
	char text[256];

	parse_fails("fe80::1::2", 0, "\"fe80::1::2\"");
	parse_fails("fe80::zz", 0, "\"fe80::zz\"");
	parse_fails("fe80::zz", IBPATH_PARSE_GID, "\"fe80::zz\"");
	parse_fails("1234", IBPATH_PARSE_GID, "\"1234\"");
	parse_fails("0002:c903:0000:1492", IBPATH_PARSE_GID, "0002:c903:0000:1492");
	parse_fails("fe80::zz%mlx5_0/1", 0, "\"fe80::zz\"");
	parse_fails("%mlx5_0/1", 0, "\"\"");
	parse_fails("fe80::1%", 0, "fe80::1%");
	parse_fails("fe80::1%a b", 0, "\"a b\"");
	parse_fails("fe80::1%a=b", IBPATH_PARSE_GID, "\"a=b\"");
	parse_fails("fe80::1%a(b", IBPATH_PARSE_GID, "\"a(b\"");
	parse_fails("fe80::1%a'b", IBPATH_PARSE_GID, "\"a'b\"");
	parse_fails("fe80::1%a\tb", 0, "a\tb");
	parse_fails("fe80::1%a\r", 0, "a\r");
	parse_fails("fe80::1%a\v", 0, "a\v");
	parse_fails("fe80::1%\x01", 0, "\x01");
	/* an end port name of 95 characters fits, 96 do not */
	snprintf(text, sizeof(text), "fe80::1%%%095d", 0);
	check_gid(text, 0, "fe80::1", text + 8);
	snprintf(text, sizeof(text), "fe80::1%%%096d", 0);
	parse_fails(text, 0, text + 8);
	/* an address part too long for any GID */
	snprintf(text, sizeof(text), "fe80:%070d%%x", 0);
	parse_fails(text, 0, "fe80:0000000000");
}
END_TEST

START_TEST(test_dr)
{
	char *s;

	DR("0", IBPATH_PARSE_DR, 0);
	DR("0,1,4", 0, 0, 1, 4);
	DR("0,1,4", IBPATH_PARSE_DR, 0, 1, 4);
	DR("0,1,4,", 0, 0, 1, 4);
	DR("0,1,4,", IBPATH_PARSE_DR, 0, 1, 4);
	DR("0,", IBPATH_PARSE_DR, 0);
	DR("0,255,0,36", 0, 0, 255, 0, 36);
	DR("0,001,010", 0, 0, 1, 10);
	/* 64 hops fit */
	s = dr_text(64, "255", ',');
	{
		uint8_t hops[65];

		memset(hops, 255, sizeof(hops));
		hops[0] = 0;
		check_dr(s, 0, hops, 65);
		check_dr(s, IBPATH_PARSE_DR, hops, 65);
	}
	free(s);
}
END_TEST

START_TEST(test_dr_errors)
{
	char *s;

	s = dr_text(65, "1", ',');
	parse_fails(s, 0, "more than 64 hops");
	parse_fails(s, IBPATH_PARSE_DR, "more than 64 hops");
	free(s);
	parse_fails("0,a,4", 0, "element 1 is not a port number");
	parse_fails("0,a,4", 0, "\"0,a,4\"");
	parse_fails("0,,1", 0, "element 1");
	parse_fails("0, 1", 0, "element 1");
	parse_fails("0,-1", IBPATH_PARSE_DR, "element 1");
	parse_fails("0,+1", IBPATH_PARSE_DR, "element 1");
	parse_fails("0,1x", 0, "'x' after element 1");
	parse_fails("0,1,4 ", 0, "' ' after element 2");
	parse_fails(",1", 0, "element 0");
	parse_fails(",", 0, "element 0");
	parse_fails("0,256", 0, "port 256");
	parse_fails("0,1000", 0, "port 1000");
	parse_fails("0,99999999999999999999999", 0, "port 99999999999999999999999");
	parse_fails("0,0256", 0, "0256");
	/* the first element is the local port: always 0 */
	parse_fails("1,2", 0, "must start with 0");
	parse_fails("1", IBPATH_PARSE_DR, "must start with 0");
	parse_fails("4,0", IBPATH_PARSE_DR, "\"4,0\"");
	/* one trailing comma is accepted, not two */
	parse_fails("0,1,4,,", 0, "0,1,4,");
	parse_fails("0,,", IBPATH_PARSE_DR, "0,");
	parse_fails("x", IBPATH_PARSE_DR, "\"x\"");
	parse_fails("", IBPATH_PARSE_DR, "empty");
}
END_TEST

/* IBPATH_PARSE_DR_ATOI: infiniband-diags' str2drpath(): atoi() of every comma-separated
 * element, element 0 kept as given (libibmad sends and prints it), one trailing comma ends
 * the list. */
START_TEST(test_dr_atoi)
{
	const unsigned f = IBPATH_PARSE_DR | IBPATH_PARSE_DR_ATOI;
	char *s;

	DR("1", f, 1);
	DR("0", f, 0);
	DR("0,x,3", f, 0, 0, 3);
	DR("0,1,4", f, 0, 1, 4);
	DR("0,1,4,", f, 0, 1, 4);
	DR("0,,3", f, 0, 0, 3);
	DR(",1", f, 0, 1);
	DR("7,2", f, 7, 2);
	{
		/* and its spec reads back as the same path (fuzz-ibpath found "3" failing) */
		struct ibpath_path *p = parse_ok("3", f), *q;
		char spec[128];

		ck_assert_int_gt(ibpath_path_format_spec(p, spec, sizeof(spec)), 0);
		q = parse_ok(spec, 0);
		ck_assert_msg(ibpath_path_equal(p, q), "\"%s\" reads back otherwise", spec);
		ibpath_path_unref(q);
		ibpath_path_unref(p);
	}
	DR(" 0, 1,2x", f, 0, 1, 2);
	DR("0,300,-1,256", f, 0, 44, 255, 0);
	DR("abc", f, 0);
	/* also when the form is found by syntax */
	DR("0,x,3", IBPATH_PARSE_DR_ATOI, 0, 0, 3);
	s = dr_text(64, "7", ',');
	{
		uint8_t hops[65];

		memset(hops, 7, sizeof(hops));
		hops[0] = 0;
		check_dr(s, f, hops, 65);
	}
	free(s);
	s = dr_text(65, "7", ',');
	parse_fails(s, f, "more than 64 hops");
	free(s);
	parse_fails("", f, "empty");
}
END_TEST

START_TEST(test_spec)
{
	struct ibpath_path *p, *fresh;
	const uint8_t *hops;
	ibstruct_gid_t g;

	p = parse_ok("IBPath(DLID=2,SL=2)", 0);
	ck_assert_int_eq(ibpath_path_kind(p), IBPATH_KIND_IB);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DLID), 2);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_SL), 2);
	ck_assert(!ibpath_path_has_grh(p));
	ibpath_path_unref(p);

	p = parse_ok("IBDRPath(drPath=0:1:4)", 0);
	ck_assert_int_eq(ibpath_path_kind(p), IBPATH_KIND_DR);
	ck_assert_uint_eq(ibpath_path_dr_ports(p, &hops), 3);
	ck_assert(!memcmp(hops, "\0\1\4", 3));
	ibpath_path_unref(p);

	/* python-rdma's trailing separator */
	p = parse_ok("IBDRPath(drPath=0:1:4:)", 0);
	ck_assert_uint_eq(ibpath_path_dr_ports(p, &hops), 3);
	ibpath_path_unref(p);

	/* empty specs are the defaults */
	p = parse_ok("IBPath()", 0);
	ck_assert_int_eq(ibpath_path_new(&fresh, IBPATH_KIND_IB), 0);
	ck_assert(ibpath_path_equal(p, fresh));
	ibpath_path_unref(p);
	ibpath_path_unref(fresh);
	p = parse_ok("IBDRPath()", 0);
	ck_assert_int_eq(ibpath_path_new(&fresh, IBPATH_KIND_DR), 0);
	ck_assert(ibpath_path_equal(p, fresh));
	ibpath_path_unref(p);
	ibpath_path_unref(fresh);

	/* blanks, empty items, number bases */
	p = parse_ok("  IBPath( DLID = 0x10 ,, SL=010 , ) ", 0);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DLID), 16);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_SL), 8);
	ibpath_path_unref(p);

	/* GID values: bare, quoted, GID('...') */
	p = parse_ok("IBPath(DGID=GID('fe80::1'),SGID=\"fe80::2\")", 0);
	ibpath_path_dgid(p, &g);
	ck_assert_uint_eq(ibstruct_gid_guid(&g), 1);
	ibpath_path_sgid(p, &g);
	ck_assert_uint_eq(ibstruct_gid_guid(&g), 2);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_HOP_LIMIT), 255);
	ibpath_path_unref(p);
	p = parse_ok("IBPath(DGID='fe80::3',end_port=None)", 0);
	ibpath_path_dgid(p, &g);
	ck_assert_uint_eq(ibstruct_gid_guid(&g), 3);
	ck_assert_ptr_null(ibpath_path_end_port(p));
	ck_assert(ibpath_path_needs_resolution(p));
	ibpath_path_unref(p);
	p = parse_ok("IBPath(DGID=GID(\"fe80::4\"),end_port='mlx5_0/1')", 0);
	ibpath_path_dgid(p, &g);
	ck_assert_uint_eq(ibstruct_gid_guid(&g), 4);
	ck_assert_str_eq(ibpath_path_end_port(p), "mlx5_0/1");
	ibpath_path_unref(p);
	/* a quoted 'None' is a name */
	p = parse_ok("IBPath(end_port='None')", 0);
	ck_assert_str_eq(ibpath_path_end_port(p), "None");
	ibpath_path_unref(p);

	/* hop_limit alone adds a GRH; 0 does not */
	p = parse_ok("IBPath(hop_limit=3)", 0);
	ck_assert(ibpath_path_has_grh(p));
	ibpath_path_unref(p);
	p = parse_ok("IBPath(hop_limit=0)", 0);
	ck_assert(!ibpath_path_has_grh(p));
	ibpath_path_unref(p);
	/* the last of a repeated attribute wins */
	p = parse_ok("IBPath(SL=1,SL=5)", 0);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_SL), 5);
	ibpath_path_unref(p);
}
END_TEST

/* Every attribute at once, in both kinds. */
START_TEST(test_spec_all_attributes)
{
	struct ibpath_path *p;
	const uint8_t *hops;
	ibstruct_gid_t g;

	p = parse_ok("IBPath(SLID=1,DLID=2,SL=3,traffic_class=4,flow_label=0x5,hop_limit=6,"
		     "pkey=0x7fff,pkey_index=8,qkey=0x80010000,sqpn=9,dqpn=10,mtu=4,rate=7,"
		     "packet_life_time=11,resp_time=12,retries=13,drSLID=14,drDLID=15,timeout_ms=16,"
		     "DGID=fe80::1,SGID=fe80::2,end_port=mlx5_0/1)",
		     0);
	ck_assert_int_eq(ibpath_path_kind(p), IBPATH_KIND_IB);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_SLID), 1);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DLID), 2);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_SL), 3);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_TRAFFIC_CLASS), 4);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_FLOW_LABEL), 5);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_HOP_LIMIT), 6);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_PKEY), 0x7fff);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_PKEY_INDEX), 8);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_QKEY), 0x80010000);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_SQPN), 9);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DQPN), 10);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_MTU), 4);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_RATE), 7);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_PACKET_LIFE_TIME), 11);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_RESP_TIME), 12);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_RETRIES), 13);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DR_SLID), 14);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DR_DLID), 15);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_TIMEOUT_MS), 16);
	ck_assert(ibpath_path_has_grh(p));
	ibpath_path_dgid(p, &g);
	ck_assert_uint_eq(ibstruct_gid_guid(&g), 1);
	ibpath_path_sgid(p, &g);
	ck_assert_uint_eq(ibstruct_gid_guid(&g), 2);
	ck_assert_str_eq(ibpath_path_end_port(p), "mlx5_0/1");
	ck_assert(!ibpath_path_needs_resolution(p));
	ibpath_path_unref(p);

	p = parse_ok("IBDRPath(DLID=5,SLID=6,drSLID=6,drDLID=0xffff,drPath=0:1:4,"
		     "drReturnPath=0:2:3,end_port=\"mlx5_0/2\",retries=2,timeout_ms=100)",
		     0);
	ck_assert_int_eq(ibpath_path_kind(p), IBPATH_KIND_DR);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DLID), 5);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_SLID), 6);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DR_SLID), 6);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DR_DLID), 0xffff);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_RETRIES), 2);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_TIMEOUT_MS), 100);
	ck_assert_uint_eq(ibpath_path_dr_ports(p, &hops), 3);
	ck_assert(!memcmp(hops, "\0\1\4", 3));
	ck_assert_uint_eq(ibpath_path_dr_return_ports(p, &hops), 3);
	ck_assert(!memcmp(hops, "\0\2\3", 3));
	ck_assert_str_eq(ibpath_path_end_port(p), "mlx5_0/2");
	ibpath_path_unref(p);
}
END_TEST

/* Each attribute's largest value parses, one more is out of range. */
START_TEST(test_spec_ranges)
{
	static const struct {
		const char *name;
		uint64_t max;
		enum ibpath_attr attr;
	} a[] = {
		{ "SLID", 0xffff, IBPATH_SLID },
		{ "DLID", 0xffff, IBPATH_DLID },
		{ "SL", 15, IBPATH_SL },
		{ "traffic_class", 0xff, IBPATH_TRAFFIC_CLASS },
		{ "flow_label", 0xfffff, IBPATH_FLOW_LABEL },
		{ "hop_limit", 0xff, IBPATH_HOP_LIMIT },
		{ "pkey", 0xffff, IBPATH_PKEY },
		{ "pkey_index", 0xffff, IBPATH_PKEY_INDEX },
		{ "qkey", 0xffffffff, IBPATH_QKEY },
		{ "sqpn", 0xffffff, IBPATH_SQPN },
		{ "dqpn", 0xffffff, IBPATH_DQPN },
		{ "mtu", 63, IBPATH_MTU },
		{ "rate", 63, IBPATH_RATE },
		{ "packet_life_time", 31, IBPATH_PACKET_LIFE_TIME },
		{ "resp_time", 31, IBPATH_RESP_TIME },
		{ "retries", 255, IBPATH_RETRIES },
		{ "drSLID", 0xffff, IBPATH_DR_SLID },
		{ "drDLID", 0xffff, IBPATH_DR_DLID },
		{ "timeout_ms", 0x7fffffff, IBPATH_TIMEOUT_MS },
	};
	char text[128], bad[64];
	unsigned i;

	ck_assert_uint_eq(sizeof(a) / sizeof(a[0]), IBPATH_ATTR_COUNT_);
	for (i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		struct ibpath_path *p;

		snprintf(text, sizeof(text), "IBPath(%s=%llu)", a[i].name, (unsigned long long)a[i].max);
		p = parse_ok(text, 0);
		ck_assert_uint_eq(ibpath_path_get(p, a[i].attr), a[i].max);
		ibpath_path_unref(p);
		snprintf(text, sizeof(text), "IBDRPath(%s=0x%llx)", a[i].name, (unsigned long long)a[i].max);
		p = parse_ok(text, 0);
		ck_assert_uint_eq(ibpath_path_get(p, a[i].attr), a[i].max);
		ibpath_path_unref(p);
		snprintf(bad, sizeof(bad), "%s=%llu", a[i].name, (unsigned long long)a[i].max + 1);
		snprintf(text, sizeof(text), "IBPath(%s)", bad);
		parse_fails(text, 0, bad);
		parse_fails(text, 0, "out of range");
		snprintf(bad, sizeof(bad), "%s=18446744073709551615", a[i].name);
		snprintf(text, sizeof(text), "IBDRPath(%s)", bad);
		parse_fails(text, 0, bad);
		snprintf(bad, sizeof(bad), "%s=18446744073709551616", a[i].name);
		snprintf(text, sizeof(text), "IBPath(%s)", bad);
		parse_fails(text, 0, bad);
	}
}
END_TEST

START_TEST(test_spec_errors)
{
	char *s, *text;

	parse_fails("IBPath(foo=1)", 0, "unknown path attribute \"foo\"");
	parse_fails("IBPath(dlid=1)", 0, "unknown path attribute \"dlid\"");
	parse_fails("IBPath(=5)", 0, "unknown path attribute \"\"");
	parse_fails("IBPath(drPath=0:1)", 0, "unknown path attribute \"drPath\"");
	parse_fails("IBPath(drReturnPath=0:1)", 0, "\"drReturnPath\"");
	parse_fails("IBPath(DLID)", 0, "\"DLID\" is not name=value");
	parse_fails("IBPath(DLID=2,SL)", 0, "\"SL\" is not name=value");
	parse_fails("IBPath(DLID=x)", 0, "DLID=x is not a number");
	parse_fails("IBPath(DLID=)", 0, "DLID= is not a number");
	parse_fails("IBPath(DLID=0x)", 0, "DLID=0x");
	parse_fails("IBPath(DLID=-1)", 0, "DLID=-1");
	parse_fails("IBPath(DLID=+1)", 0, "DLID=+1");
	parse_fails("IBPath(DLID=2 3)", 0, "DLID=2 3");
	parse_fails("IBPath(SL=08)", 0, "SL=08");
	parse_fails("IBPath(DLID='2')", 0, "DLID='2'");
	parse_fails("IBPath(DLID=2))", 0, "DLID=2)");
	parse_fails("IBPath(DGID=zz)", 0, "DGID=zz is not a GID");
	parse_fails("IBPath(SGID=GID('fe80::x'))", 0, "SGID=GID('fe80::x') is not a GID");
	parse_fails("IBPath(DGID='fe80::1)", 0, "DGID='fe80::1");
	parse_fails("IBPath(DGID=GID()", 0, "DGID=GID(");
	parse_fails("IBPath(end_port=a b)", 0, "\"a b\"");
	parse_fails("IBPath(end_port='a'b')", 0, "a'b");
	/* a spec carries any element 0: the path may hold what IBPATH_PARSE_DR_ATOI kept */
	DR("IBDRPath(drPath=1:2)", 0, 1, 2);
	parse_fails("IBDRPath(drPath=0:x)", 0, "element 1");
	parse_fails("IBDRPath(drPath=0:256)", 0, "256");
	parse_fails("IBDRPath(drPath=)", 0, "empty drPath");
	parse_fails("IBDRPath(drPath=:)", 0, "empty drPath");
	parse_fails("IBDRPath(drPath=0:1::)", 0, "0:1:");
	parse_fails("IBDRPath(drReturnPath=0;1)", 0, "';' after element 0");
	parse_fails("IBDRPath(drPath=0,1)", 0, "\"1\" is not name=value"); /* ',' separates items */
	parse_fails("IBPath(DLID=2", 0, "does not end with ')'");
	parse_fails("IBPath(DLID=2)x", 0, "\"IBPath(DLID=2)x\"");
	parse_fails("IBPath(", 0, "does not end with ')'");
	parse_fails("Path(DLID=2)", 0, "\"Path(DLID=2)\"");
	parse_fails("ibpath(DLID=2)", 0, "starts with IBPath( or IBDRPath(");
	parse_fails("IBDRPATH(DLID=2)", 0, "\"IBDRPATH(DLID=2)\"");
	parse_fails("(DLID=2)", 0, "\"(DLID=2)\"");
	/* 65 hops in a spec */
	s = dr_text(65, "1", ':');
	text = malloc(strlen(s) + 32);
	ck_assert_ptr_nonnull(text);
	sprintf(text, "IBDRPath(drPath=%s)", s);
	parse_fails(text, 0, "more than 64 hops");
	free(text);
	free(s);
}
END_TEST

START_TEST(test_arguments)
{
	struct ibpath_path *p = sentinel;
	char err[16], *big;

	parse_fails("2", IBPATH_PARSE_LID | IBPATH_PARSE_GUID, "more than one address type");
	parse_fails("0,1", IBPATH_PARSE_DR | IBPATH_PARSE_GID, "more than one address type");
	parse_fails("", 0, "empty address");
	parse_fails("", IBPATH_PARSE_LID, "empty address");
	ck_assert_int_eq(ibpath_parse(NULL, 0, &p, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "no address give");
	ck_assert_int_eq(ibpath_parse("2", 0, NULL, NULL, 0), -EINVAL);
	ck_assert_ptr_eq(p, sentinel);
	/* a short error buffer gets a truncated message */
	ck_assert_int_eq(ibpath_parse("0xc000", 0, &p, err, sizeof(err)), -EINVAL);
	ck_assert_uint_eq(strlen(err), sizeof(err) - 1);
	ck_assert_ptr_eq(p, sentinel);
	/* 1024 characters at most */
	big = malloc(1100);
	ck_assert_ptr_nonnull(big);
	memset(big, '1', 1025);
	big[1025] = 0;
	parse_fails(big, 0, "too long (1025 characters)");
	big[1024] = 0;
	parse_fails(big, 0, "LID 1111");
	free(big);
	/* flag bits that are no address type change nothing */
	check_lid("2", 1u << 30, 2);
	check_lid("2", IBPATH_PARSE_DR_ATOI, 2);
}
END_TEST

/* Without a type flag: spec, DR path, scoped GID, GID, GUID, then LID. */
START_TEST(test_auto_detection)
{
	struct ibpath_path *p;

	p = parse_ok("IBPath(DLID=0x2,SL=1)", 0);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_SL), 1);
	ibpath_path_unref(p);
	DR("0,2", 0, 0, 2);
	check_gid("fe80::2%mlx4_0/1", 0, "fe80::2", "mlx4_0/1");
	check_gid("fe80::2", 0, "fe80::2", NULL);
	check_guid("0:0:0:2", 0, 2);
	check_lid("0x0002", 0, 2);
	check_guid("0x00002", 0, 2);
	check_guid("0000000000000002", 0, 2);
	check_lid("000000000000002", 0, 2);
	check_lid("2", 0, 2);
}
END_TEST

Suite *make_parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_lid);
	tcase_add_test(tc, test_lid_errors);
	tcase_add_test(tc, test_guid);
	tcase_add_test(tc, test_guid_errors);
	tcase_add_test(tc, test_gid);
	tcase_add_test(tc, test_gid_errors);
	tcase_add_test(tc, test_dr);
	tcase_add_test(tc, test_dr_errors);
	tcase_add_test(tc, test_dr_atoi);
	tcase_add_test(tc, test_spec);
	tcase_add_test(tc, test_spec_all_attributes);
	tcase_add_test(tc, test_spec_ranges);
	tcase_add_test(tc, test_spec_errors);
	tcase_add_test(tc, test_arguments);
	tcase_add_test(tc, test_auto_detection);
	suite_add_tcase(s, tc);
	return s;
}
