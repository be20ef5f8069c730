// SPDX-License-Identifier: BSD-3-Clause
/* ibtopo_export_json(), ibtopo_import_json(), ibtopo_export_dot(): round trips, hostile
 * JSON, write errors, dot syntax (checked here: graphviz is not a dependency). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-ibtopo.h"
#include "topo-build.h"

static char *export_json(const struct ibtopo *t, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ibtopo_export_json(t, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

static char *export_dot(const struct ibtopo *t, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ibtopo_export_dot(t, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/* ---- Equality through the public API ----------------------------------------------------- */

static void assert_path_eq(const struct ibtopo_dr_path *a, const struct ibtopo_dr_path *b)
{
	ck_assert_uint_eq(a->lid, b->lid);
	ck_assert_uint_eq(a->drslid, b->drslid);
	ck_assert_uint_eq(a->drdlid, b->drdlid);
	ck_assert_uint_eq(a->hops, b->hops);
	ck_assert_mem_eq(a->port, b->port, (size_t)a->hops + 1);
}

static void assert_raw_eq(const uint8_t *a, const uint8_t *b)
{
	ck_assert((a == NULL) == (b == NULL));
	if (a)
		ck_assert_mem_eq(a, b, IBTOPO_SMP_DATA_SIZE);
}

/* index of a node in creation order, through the API (ibtopo_node_get() is newest first) */
static unsigned node_pos(const struct ibtopo *t, const struct ibtopo_node *n)
{
	unsigned count = ibtopo_node_count(t, IBTOPO_NODE_ANY);

	for (unsigned i = 0; i < count; i++)
		if (ibtopo_node_get(t, IBTOPO_NODE_ANY, i) == n)
			return i;
	ck_abort_msg("node not in its topology");
	return 0;
}

static void assert_port_eq(const struct ibtopo *ta, const struct ibtopo_port *a,
			   const struct ibtopo *tb, const struct ibtopo_port *b)
{
	ck_assert((a == NULL) == (b == NULL));
	if (!a)
		return;
	ck_assert_uint_eq(ibtopo_port_num(a), ibtopo_port_num(b));
	ck_assert_uint_eq(ibtopo_port_ext_num(a), ibtopo_port_ext_num(b));
	ck_assert_uint_eq(ibtopo_port_guid(a), ibtopo_port_guid(b));
	ck_assert_uint_eq(ibtopo_port_base_lid(a), ibtopo_port_base_lid(b));
	ck_assert_uint_eq(ibtopo_port_lmc(a), ibtopo_port_lmc(b));
	assert_raw_eq(ibtopo_port_info(a), ibtopo_port_info(b));
	assert_raw_eq(ibtopo_port_ext_info(a), ibtopo_port_ext_info(b));
	ck_assert((ibtopo_port_remote(a) == NULL) == (ibtopo_port_remote(b) == NULL));
	if (ibtopo_port_remote(a)) {
		ck_assert_uint_eq(node_pos(ta, ibtopo_port_node(ibtopo_port_remote(a))),
				  node_pos(tb, ibtopo_port_node(ibtopo_port_remote(b))));
		ck_assert_uint_eq(ibtopo_port_num(ibtopo_port_remote(a)),
				  ibtopo_port_num(ibtopo_port_remote(b)));
	}
	/* the GUID hash finds ports at the same places */
	{
		const struct ibtopo_port *fa = ibtopo_find_port_guid(ta, ibtopo_port_guid(a));
		const struct ibtopo_port *fb = ibtopo_find_port_guid(tb, ibtopo_port_guid(b));

		ck_assert((fa == NULL) == (fb == NULL));
		if (fa) {
			ck_assert_uint_eq(node_pos(ta, ibtopo_port_node(fa)), node_pos(tb, ibtopo_port_node(fb)));
			ck_assert_uint_eq(ibtopo_port_num(fa), ibtopo_port_num(fb));
		}
	}
}

static void assert_topo_eq(const struct ibtopo *a, const struct ibtopo *b)
{
	unsigned n = ibtopo_node_count(a, IBTOPO_NODE_ANY);

	for (int type = IBTOPO_NODE_ANY; type <= IBTOPO_NODE_ROUTER; type++) {
		ck_assert_uint_eq(ibtopo_node_count(a, type), ibtopo_node_count(b, type));
		for (unsigned i = 0; i < ibtopo_node_count(a, type); i++)
			ck_assert_uint_eq(node_pos(a, ibtopo_node_get(a, type, i)),
					  node_pos(b, ibtopo_node_get(b, type, i)));
	}
	for (unsigned i = 0; i < n; i++) {
		const struct ibtopo_node *na = ibtopo_node_get(a, IBTOPO_NODE_ANY, i);
		const struct ibtopo_node *nb = ibtopo_node_get(b, IBTOPO_NODE_ANY, i);
		const uint8_t *la, *lb;
		unsigned lena = 0, lenb = 0;

		ck_assert_uint_eq(ibtopo_node_type(na), ibtopo_node_type(nb));
		ck_assert_uint_eq(ibtopo_node_guid(na), ibtopo_node_guid(nb));
		ck_assert_uint_eq(ibtopo_node_num_ports(na), ibtopo_node_num_ports(nb));
		assert_raw_eq(ibtopo_node_info(na), ibtopo_node_info(nb));
		assert_raw_eq(ibtopo_node_desc_raw(na), ibtopo_node_desc_raw(nb));
		assert_raw_eq(ibtopo_node_switch_info(na), ibtopo_node_switch_info(nb));
		ck_assert_str_eq(ibtopo_node_desc(na), ibtopo_node_desc(nb));
		ck_assert_uint_eq(ibtopo_node_sma_lid(na), ibtopo_node_sma_lid(nb));
		ck_assert_uint_eq(ibtopo_node_sma_lmc(na), ibtopo_node_sma_lmc(nb));
		ck_assert(ibtopo_node_enhanced_port0(na) == ibtopo_node_enhanced_port0(nb));
		assert_path_eq(ibtopo_node_dr_path(na), ibtopo_node_dr_path(nb));
		ck_assert_uint_eq(node_pos(a, ibtopo_find_node_guid(a, ibtopo_node_guid(na))),
				  node_pos(b, ibtopo_find_node_guid(b, ibtopo_node_guid(nb))));
		ck_assert_uint_eq(ibtopo_node_chassis_type(na), ibtopo_node_chassis_type(nb));
		ck_assert_uint_eq(ibtopo_node_chassis_slot(na), ibtopo_node_chassis_slot(nb));
		ck_assert_uint_eq(ibtopo_node_chassis_slotnum(na), ibtopo_node_chassis_slotnum(nb));
		ck_assert_uint_eq(ibtopo_node_chassis_anafanum(na), ibtopo_node_chassis_anafanum(nb));
		ck_assert((ibtopo_node_chassis(na) == NULL) == (ibtopo_node_chassis(nb) == NULL));
		if (ibtopo_node_chassis(na))
			ck_assert_uint_eq(ibtopo_chassis_num(ibtopo_node_chassis(na)),
					  ibtopo_chassis_num(ibtopo_node_chassis(nb)));
		la = ibtopo_node_lft(na, &lena);
		lb = ibtopo_node_lft(nb, &lenb);
		ck_assert((la == NULL) == (lb == NULL));
		ck_assert_uint_eq(lena, lenb);
		if (la)
			ck_assert_mem_eq(la, lb, lena);
		for (unsigned m = 0; m < 4; m++) {
			unsigned ea = 0, eb = 0;
			const uint16_t *ma = ibtopo_node_mft(na, m, &ea), *mb = ibtopo_node_mft(nb, m, &eb);

			ck_assert((ma == NULL) == (mb == NULL));
			ck_assert_uint_eq(ea, eb);
			if (ma)
				ck_assert_mem_eq(ma, mb, 32);
		}
		for (unsigned p = 0; p <= ibtopo_node_num_ports(na); p++)
			assert_port_eq(a, ibtopo_node_port(na, p), b, ibtopo_node_port(nb, p));
	}
	for (unsigned lid = 0; lid < 0xc000 + 128; lid++) {
		const struct ibtopo_port *pa = ibtopo_find_port_lid(a, (uint16_t)lid);
		const struct ibtopo_port *pb = ibtopo_find_port_lid(b, (uint16_t)lid);

		ck_assert_msg((pa == NULL) == (pb == NULL), "LID %u", lid);
		if (pa) {
			ck_assert_uint_eq(node_pos(a, ibtopo_port_node(pa)), node_pos(b, ibtopo_port_node(pb)));
			ck_assert_uint_eq(ibtopo_port_num(pa), ibtopo_port_num(pb));
		}
	}
	ck_assert((ibtopo_from_node(a) == NULL) == (ibtopo_from_node(b) == NULL));
	if (ibtopo_from_node(a))
		ck_assert_uint_eq(node_pos(a, ibtopo_from_node(a)), node_pos(b, ibtopo_from_node(b)));
	ck_assert_uint_eq(ibtopo_from_port(a), ibtopo_from_port(b));
	ck_assert_uint_eq(ibtopo_max_hops_discovered(a), ibtopo_max_hops_discovered(b));
	ck_assert_uint_eq(ibtopo_mads_used(a), ibtopo_mads_used(b));
	ck_assert_uint_eq(ibtopo_error_count(a), ibtopo_error_count(b));
	for (unsigned i = 0; i < ibtopo_error_count(a); i++) {
		const struct ibtopo_error *ea = ibtopo_error_get(a, i), *eb = ibtopo_error_get(b, i);

		ck_assert_int_eq(ea->kind, eb->kind);
		ck_assert_int_eq(ea->errnum, eb->errnum);
		ck_assert_uint_eq(ea->attr_id, eb->attr_id);
		ck_assert_uint_eq(ea->attr_mod, eb->attr_mod);
		ck_assert_uint_eq(ea->status, eb->status);
		assert_path_eq(&ea->path, &eb->path);
		ck_assert_uint_eq(ea->guid, eb->guid);
		ck_assert_str_eq(ea->message, eb->message);
	}
	ck_assert_uint_eq(ibtopo_chassis_count(a), ibtopo_chassis_count(b));
	for (unsigned i = 0; i < ibtopo_chassis_count(a); i++) {
		ck_assert_uint_eq(ibtopo_chassis_num(ibtopo_chassis_get(a, i)),
				  ibtopo_chassis_num(ibtopo_chassis_get(b, i)));
		ck_assert_uint_eq(ibtopo_chassis_guid(ibtopo_chassis_get(a, i)),
				  ibtopo_chassis_guid(ibtopo_chassis_get(b, i)));
	}
}

/* ---- A topology with everything in it -------------------------------------------------------- */

/* hostile bytes in a description: quotes, backslashes, control characters, UTF-8 (valid
 * and not), JSON and dot punctuation */
static const uint8_t hostile_desc[IBTOPO_SMP_DATA_SIZE] =
	"q\"uote\\back\nnl\ttab\x01\x7f \xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xff\xc0\xaf"
	"}];{ x";

static struct ibtopo *rich_topology(void)
{
	struct tb_fabric f;
	struct ibtopo_dr_path path;
	struct ibtopo_node *n, *dup;
	struct ibtopo_port *p;
	uint8_t buf[IBTOPO_SMP_DATA_SIZE];

	ck_assert_int_eq(tb_2sw4hca(&f, false), 0);
	f.t->mads = 0x1234567890ULL;
	topo_node_set_desc(f.hca2, hostile_desc);
	/* a full 64-byte description */
	memset(buf, 'D', sizeof(buf));
	topo_node_set_desc(f.hca3, buf);
	/* SwitchInfo with enhanced port 0, Mellanox extended port info, an external number */
	memset(buf, 0, sizeof(buf));
	buf[16] = 1 << 3;
	buf[7] = 0x40;
	topo_node_set_switch_info(f.sw1, buf);
	ck_assert(ibtopo_node_enhanced_port0(f.sw1));
	p = ibtopo_node_port(f.sw2, 3);
	memset(buf, 0xa5, sizeof(buf));
	ck_assert_int_eq(topo_port_set_ext_info(p, buf), 0);
	p->ext_num = 17;
	/* a shell port (never answered) and an LMC range */
	ck_assert_ptr_nonnull(topo_port_get(f.hca1, 2));
	ck_assert_ptr_nonnull(tb_port(f.hca4, 2, 64, 2, TB_DOWN, TB_POLLING, TB_4X, TB_SDR));
	/* a router, a node of an unknown type, a second node with a GUID already seen */
	n = tb_node(f.t, IBTOPO_NODE_ROUTER, 1, 0x400000, 0x400001, "Router \"1\"");
	ck_assert_ptr_nonnull(tb_port(n, 1, 80, 0, TB_ACTIVE, TB_LINKUP, TB_4X, TB_SDR));
	tb_link(n, 1, f.hca1, 2);
	n = tb_node(f.t, 7, 2, 0x500000, 0x500001, NULL);
	ck_assert_ptr_nonnull(n);
	memcpy(buf, ibtopo_node_info(f.hca3), sizeof(buf));
	dup = topo_node_create(f.t, buf, NULL);
	ck_assert_ptr_nonnull(dup);
	ck_assert_ptr_eq(ibtopo_find_node_guid(f.t, 0x100006), f.hca3);
	/* a long DR path */
	memset(&path, 0, sizeof(path));
	path.lid = 5;
	path.drslid = 1;
	path.drdlid = 0xffff;
	path.hops = IBTOPO_MAX_HOPS;
	for (unsigned i = 1; i <= IBTOPO_MAX_HOPS; i++)
		path.port[i] = (uint8_t)(i * 4);
	f.hca4->path = path;
	/* forwarding tables */
	f.sw1->lft = malloc(128);
	ck_assert_ptr_nonnull(f.sw1->lft);
	for (unsigned i = 0; i < 128; i++)
		f.sw1->lft[i] = (uint8_t)(i < 7 ? i % 6 : 0xff);
	f.sw1->lft_len = 128;
	f.sw2->mft = calloc(2 * 16, sizeof(uint16_t));
	ck_assert_ptr_nonnull(f.sw2->mft);
	f.sw2->mft[0] = 0x0006;
	f.sw2->mft[16] = 0xffff;
	f.sw2->mft[31] = 0x8001;
	f.sw2->mft_entries = 2;
	/* errors met */
	ck_assert_int_eq(topo_add_error(f.t, IBTOPO_ERR_QUERY, -ETIMEDOUT, 0x11, 0, 0, &path,
					0x200001, "timeout on %s", "0,1,3"),
			 0);
	ck_assert_int_eq(topo_add_error(f.t, IBTOPO_ERR_DUPLICATE, -EEXIST, 0x15, 0x80000003, 0x1c,
					NULL, 0, "%s", (const char *)hostile_desc),
			 0);
	ck_assert_int_eq(topo_add_error(f.t, (enum ibtopo_error_kind)9, -EIO, 0, 0, 0, NULL, 1,
					"unknown kind"),
			 0);
	return f.t;
}

START_TEST(json_round_trip)
{
	struct ibtopo *t = rich_topology(), *u = NULL;
	char err[256] = "x";
	size_t len1, len2;
	char *j1, *j2;

	j1 = export_json(t, &len1);
	ck_assert_ptr_nonnull(strstr(j1, "\"schema_version\": 1,"));
	ck_assert_int_eq(ibtopo_import_json(j1, len1, &u, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "");
	assert_topo_eq(t, u);
	j2 = export_json(u, &len2);
	ck_assert_uint_eq(len1, len2);
	ck_assert_mem_eq(j1, j2, len1);
	/* the output is ASCII, every control character escaped */
	for (size_t i = 0; i < len1; i++)
		ck_assert_msg((j1[i] >= 0x20 && j1[i] < 0x7f) || j1[i] == '\n', "byte %zu", i);
	/* descriptions: valid UTF-8 as \u escapes, other bytes as Latin-1 characters */
	ck_assert_ptr_nonnull(strstr(j1, "\"desc\": \"q\\\"uote\\\\back\\nnl\\ttab\\u0001\\u007f "
					 "\\u00e9t\\u00e9 \\u20ac \\ud83d\\ude00 \\udcff\\udcc0\\udcaf}];{ x\""));
	/* bytes that are not UTF-8 come back as they were */
	ck_assert_str_eq(ibtopo_error_get(u, 0)->message, "timeout on 0,1,3");
	ck_assert_str_eq(ibtopo_error_get(u, 1)->message, (const char *)hostile_desc);
	free(j1);
	free(j2);
	ibtopo_unref(u);
	ibtopo_unref(t);
}
END_TEST

START_TEST(json_round_trip_discovered_shapes)
{
	struct tb_fabric f;
	struct ibtopo *e, *u = NULL;
	size_t len;
	char *j;
	char err[128];

	/* an empty topology */
	ck_assert_int_eq(ibtopo_new(&e), 0);
	j = export_json(e, &len);
	ck_assert_str_eq(j, "{\n  \"format\": \"ibtopo\",\n  \"schema_version\": 1,\n"
			    "  \"from\": {\"node\": null, \"port\": 0},\n  \"max_hops\": 0,\n"
			    "  \"mads\": 0,\n  \"port_seq\": 0,\n  \"nodes\": [],\n  \"links\": [],\n"
			    "  \"lids\": [],\n  \"chassis\": [],\n  \"errors\": []\n}\n");
	ck_assert_int_eq(ibtopo_import_json(j, len, &u, err, sizeof(err)), 0);
	assert_topo_eq(e, u);
	ibtopo_unref(u);
	free(j);
	ibtopo_unref(e);
	/* a chassis: two switches of one system image GUID */
	ck_assert_int_eq(tb_2sw4hca(&f, false), 0);
	{
		uint8_t *ni = f.sw2->info;

		tb_be64(ni + 4, 0x200000);
	}
	ck_assert_int_eq(ibtopo_group_chassis(f.t), 0);
	ck_assert_uint_ge(ibtopo_chassis_count(f.t), 1);
	j = export_json(f.t, &len);
	ck_assert_ptr_nonnull(strstr(j, "\"chassis\": {\"num\": 1,"));
	ck_assert_int_eq(ibtopo_import_json(j, len, &u, err, sizeof(err)), 0);
	assert_topo_eq(f.t, u);
	{
		size_t len2;
		char *j2 = export_json(u, &len2);

		ck_assert_uint_eq(len, len2);
		ck_assert_mem_eq(j, j2, len);
		free(j2);
	}
	ibtopo_unref(u);
	free(j);
	ibtopo_unref(f.t);
}
END_TEST

/* ---- Hostile JSON ------------------------------------------------------------------------- */

static void expect_fail(const char *text, size_t len, int rc, const char *msg)
{
	struct ibtopo *u = (struct ibtopo *)&u;
	char err[256];

	err[0] = 'x';
	ck_assert_msg(ibtopo_import_json(text, len, &u, err, sizeof(err)) == rc,
		      "want %d for \"%s\": \"%s\"", rc, msg, err);
	ck_assert_ptr_null(u);
	ck_assert_msg(strstr(err, msg), "error \"%s\" lacks \"%s\" (text %.60s)", err, msg, text);
	ck_assert_msg(strstr(err, "offset "), "error \"%s\" has no offset", err);
	/* no error buffer, and a tiny one: same answer */
	ck_assert_int_eq(ibtopo_import_json(text, len, &u, NULL, 0), rc);
	ck_assert_int_eq(ibtopo_import_json(text, len, &u, err, 3), rc);
	ck_assert_uint_le(strlen(err), 2);
}

static void expect_fail_str(const char *text, int rc, const char *msg)
{
	expect_fail(text, strlen(text), rc, msg);
}

START_TEST(json_syntax_errors)
{
	char deep[200];

	expect_fail_str("", -EINVAL, "unexpected end");
	expect_fail_str("   ", -EINVAL, "unexpected end");
	expect_fail_str("{", -EINVAL, "expected a string key");
	expect_fail_str("{\"a\"", -EINVAL, "expected ':'");
	expect_fail_str("{\"a\":1", -EINVAL, "expected ',' or '}'");
	expect_fail_str("[1,", -EINVAL, "unexpected end");
	expect_fail_str("[1 2]", -EINVAL, "expected ',' or ']'");
	expect_fail_str("{} x", -EINVAL, "text after");
	expect_fail_str("nul", -EINVAL, "unexpected character 'n'");
	expect_fail_str("truex", -EINVAL, "text after");
	expect_fail_str("\xef\xbb\xbf{}", -EINVAL, "unexpected character '?'");
	expect_fail_str("[01]", -EINVAL, "expected ',' or ']'");
	expect_fail_str("[1.]", -EINVAL, "invalid number");
	expect_fail_str("[1e]", -EINVAL, "invalid number");
	expect_fail_str("[-]", -EINVAL, "invalid number");
	expect_fail_str("[18446744073709551616]", -ERANGE, "integer out of range");
	expect_fail_str("[-99999999999999999999999999]", -ERANGE, "integer out of range");
	expect_fail_str("\"abc", -EINVAL, "unterminated string");
	expect_fail_str("\"ab\\", -EINVAL, "unterminated string");
	expect_fail_str("\"a\x01\"", -EINVAL, "control character 0x01");
	expect_fail_str("\"\xff\"", -EINVAL, "invalid UTF-8");
	expect_fail_str("\"\xc0\xaf\"", -EINVAL, "invalid UTF-8");           /* overlong */
	expect_fail_str("\"\xed\xa0\x80\"", -EINVAL, "invalid UTF-8");       /* surrogate */
	expect_fail_str("\"\xf4\x90\x80\x80\"", -EINVAL, "invalid UTF-8");   /* > U+10FFFF */
	expect_fail_str("\"\xe2\x82\"", -EINVAL, "invalid UTF-8");           /* cut short */
	expect_fail_str("\"\\x\"", -EINVAL, "invalid escape");
	expect_fail_str("\"\\u12g4\"", -EINVAL, "invalid \\u escape");
	expect_fail_str("\"\\u12\"", -EINVAL, "invalid \\u escape");
	expect_fail_str("\"\\udc00\"", -EINVAL, "lone low surrogate");
	expect_fail_str("\"\\udc7f\"", -EINVAL, "lone low surrogate");
	expect_fail_str("\"\\ude00\"", -EINVAL, "lone low surrogate");
	expect_fail_str("\"\\ud800x\"", -EINVAL, "high surrogate without a low one");
	expect_fail_str("\"\\ud800\\u0041\"", -EINVAL, "high surrogate without a low one");
	expect_fail_str("\"\\u0000\"", -EINVAL, "NUL character");
	expect_fail_str("{\"a\":1,\"b\":2,\"a\":3}", -EINVAL, "duplicate key \"a\"");
	expect_fail_str("{\"\\u0061\":1,\"a\":2}", -EINVAL, "duplicate key \"a\"");
	/* a NUL byte in the text */
	expect_fail("[1]\0", 4, -EINVAL, "text after");
	expect_fail("\"a\0b\"", 5, -EINVAL, "control character 0x00");
	/* nesting: 16 levels parse (and then are not our schema), 17 do not */
	memset(deep, '[', 17);
	memset(deep + 17, ']', 17);
	deep[34] = '\0';
	expect_fail_str(deep, -EINVAL, "nested deeper than 16");
	memset(deep, '[', 100);
	deep[100] = '\0';
	expect_fail_str(deep, -EINVAL, "nested deeper than 16");
	memset(deep, '[', 16);
	memset(deep + 16, ']', 16);
	deep[32] = '\0';
	expect_fail_str(deep, -EINVAL, "topology: expected an object");
	/* arguments */
	{
		struct ibtopo *u;

		ck_assert_int_eq(ibtopo_import_json("{}", 2, NULL, NULL, 0), -EINVAL);
		ck_assert_int_eq(ibtopo_import_json(NULL, 2, &u, NULL, 0), -EINVAL);
		ck_assert_int_eq(ibtopo_import_json(NULL, 0, &u, NULL, 0), -EINVAL);
	}
}
END_TEST

/* the exported text with the first `from` replaced by `to` */
static char *mutate(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
	char *out = malloc(n);

	ck_assert_msg(at != NULL, "\"%s\" not in the export", from);
	memcpy(out, text, (size_t)(at - text));
	strcpy(out + (at - text), to);
	strcat(out, at + strlen(from));
	return out;
}

static void expect_mutation_fails(const char *text, const char *from, const char *to, int rc,
				  const char *msg)
{
	char *m = mutate(text, from, to);

	expect_fail_str(m, rc, msg);
	free(m);
}

START_TEST(json_schema_errors)
{
	struct ibtopo *t = rich_topology();
	size_t len;
	char *j = export_json(t, &len);

	expect_mutation_fails(j, "\"schema_version\": 1", "\"schema_version\": 2", -EPROTO,
			      "schema version 2");
	expect_mutation_fails(j, "\"schema_version\": 1", "\"schema_version\": \"1\"", -EINVAL,
			      "must be a non-negative integer");
	expect_mutation_fails(j, "\"schema_version\": 1,", "", -EINVAL,
			      "missing key \"schema_version\"");
	expect_mutation_fails(j, "\"format\": \"ibtopo\"", "\"format\": \"other\"", -EINVAL,
			      "\"format\" must be \"ibtopo\"");
	expect_mutation_fails(j, "\"max_hops\": 3,", "", -EINVAL, "missing key \"max_hops\"");
	expect_mutation_fails(j, "\"max_hops\": 3,", "\"max_hops\": 3, \"extra\": 1,", -EINVAL,
			      "unknown key \"extra\"");
	expect_mutation_fails(j, "\"max_hops\": 3,", "\"max_hops\": 1.5,", -EINVAL,
			      "must be a non-negative integer");
	expect_mutation_fails(j, "\"max_hops\": 3,", "\"max_hops\": -1,", -EINVAL,
			      "must be a non-negative integer");
	expect_mutation_fails(j, "\"max_hops\": 3,", "\"max_hops\": 1e2,", -EINVAL,
			      "must be a non-negative integer");
	expect_mutation_fails(j, "\"max_hops\": 3,", "\"max_hops\": 4294967296,", -ERANGE,
			      "out of range");
	expect_mutation_fails(j, "\"max_hops\": 3,", "\"max_hops\": 3, \"max_hops\": 3,", -EINVAL,
			      "duplicate key \"max_hops\"");
	expect_mutation_fails(j, "\"nodes\": [", "\"nodes\": {\"x\": [", -EINVAL,
			      "expected ',' or '}'");
	expect_mutation_fails(j, "\"index\": 1,", "\"index\": 2,", -EINVAL, "node 1: \"index\"");
	expect_mutation_fails(j, "\"type\": \"switch\"", "\"type\": \"ca\"", -EINVAL,
			      "\"type\" must be \"switch\"");
	expect_mutation_fails(j, "\"guid\": \"0x0000000000200000\"",
			      "\"guid\": \"0x00000000002000000\"", -EINVAL, "must be a GUID");
	expect_mutation_fails(j, "\"guid\": \"0x0000000000200000\"",
			      "\"guid\": \"0x000000000020000G\"", -EINVAL, "must be a GUID");
	expect_mutation_fails(j, "\"guid\": \"0x0000000000200000\"",
			      "\"guid\": \"0x0000000000200001\"", -EINVAL, "differs from node_info");
	expect_mutation_fails(j, "\"node_info\": \"0101", "\"node_info\": \"01", -EINVAL,
			      "must be 128 hex digits");
	expect_mutation_fails(j, "\"node_info\": \"0101", "\"node_info\": \"0A01", -EINVAL,
			      "not a lower-case hex digit");
	expect_mutation_fails(j, "\"desc\": \"Switch1\"", "\"desc\": \"Switch9\"", -EINVAL,
			      "\"desc\" must be the string of \"node_desc\"");
	expect_mutation_fails(j, "\"sma_lmc\": 0", "\"sma_lmc\": 8", -ERANGE, "out of range");
	expect_mutation_fails(j, "\"sma_enh_sp0\": false", "\"sma_enh_sp0\": 0", -EINVAL,
			      "must be true or false");
	expect_mutation_fails(j, "\"ports\": [0, 1]", "\"ports\": []", -EINVAL,
			      "a DR path has 1 to 64 ports");
	expect_mutation_fails(j, "\"ports\": [0, 1]", "\"ports\": [0, 256]", -ERANGE,
			      "out of range");
	expect_mutation_fails(j, "{\"num\": 1, \"guid\"", "{\"num\": 9, \"guid\"", -EINVAL,
			      "beyond num_ports");
	expect_mutation_fails(j, "\"remote\": {\"node\": 0, \"port\": 1}",
			      "\"remote\": {\"node\": 99, \"port\": 1}", -EINVAL,
			      "node 99 port 1 does not exist");
	expect_mutation_fails(j, "\"remote\": {\"node\": 0, \"port\": 1}",
			      "\"remote\": {\"node\": 0, \"port\": 2}", -EINVAL,
			      "node 1 port 1 is not linked back to node 0 port 1");
	expect_mutation_fails(j, "\"links\": [\n", "\"links\": [\n    [0, 0, 0, 0],\n", -EINVAL,
			      "differs from the ports' remotes");
	expect_mutation_fails(j, "\"links\": [\n    [0, 1, 1, 1],\n", "\"links\": [\n", -EINVAL,
			      "differs from the ports' remotes");
	expect_mutation_fails(j, "{\"lid\": 2, \"count\": 1,", "{\"lid\": 1, \"count\": 1,", -EINVAL,
			      "increasing and not overlap");
	expect_mutation_fails(j, "{\"lid\": 2, \"count\": 1,", "{\"lid\": 2, \"count\": 0,", -EINVAL,
			      "increasing and not overlap");
	expect_mutation_fails(j, "\"kind\": \"query\"", "\"kind\": \"other\"", -EINVAL,
			      "unknown error kind");
	expect_mutation_fails(j, "\"kind\": \"query\"", "\"kind\": 1", -EINVAL,
			      "written by name");
	expect_mutation_fails(j, "\"errnum\": -110", "\"errnum\": -2147483649", -ERANGE,
			      "out of range");
	expect_mutation_fails(j, "\"errnum\": -110", "\"errnum\": -9223372036854775809", -ERANGE,
			      "out of range");
	expect_mutation_fails(j, "\"message\": \"timeout", "\"message\": 1, \"x\": \"", -EINVAL,
			      "unknown key \"x\"");
	expect_mutation_fails(j, "\"from\": {\"node\": 0,", "\"from\": {\"node\": 50,", -EINVAL,
			      "node 50 does not exist");
	expect_mutation_fails(j, "\"port_seq\": ", "\"port_seq\": 1, \"port_seq2\": ", -EINVAL,
			      "unknown key \"port_seq2\"");
	expect_mutation_fails(j, "\"mft\": {\"entries\": 2,", "\"mft\": {\"entries\": 3,", -EINVAL,
			      "must be 192 hex digits");
	free(j);
	ibtopo_unref(t);
}
END_TEST

/* ---- Write errors ----------------------------------------------------------------------------- */

START_TEST(write_errors)
{
	struct ibtopo *t = rich_topology();
	FILE *f = fopen("/dev/full", "w");
	int rc;

	ck_assert_ptr_nonnull(f);
	rc = ibtopo_export_json(t, f);
	ck_assert_msg(rc == -ENOSPC || rc == -EIO, "json to /dev/full: %d", rc);
	fclose(f);
	f = fopen("/dev/full", "w");
	ck_assert_ptr_nonnull(f);
	rc = ibtopo_export_dot(t, f);
	ck_assert_msg(rc == -ENOSPC || rc == -EIO, "dot to /dev/full: %d", rc);
	fclose(f);
	/* unbuffered: the first write fails */
	f = fopen("/dev/full", "w");
	ck_assert_ptr_nonnull(f);
	setvbuf(f, NULL, _IONBF, 0);
	rc = ibtopo_export_json(t, f);
	ck_assert_msg(rc == -ENOSPC || rc == -EIO, "unbuffered json: %d", rc);
	/* a stream already in error */
	rc = ibtopo_export_dot(t, f);
	ck_assert_int_eq(rc, -EIO);
	fclose(f);
	/* a stream open for reading only */
	f = fopen("/dev/null", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_lt(ibtopo_export_json(t, f), 0);
	fclose(f);
	ck_assert_int_eq(ibtopo_export_json(NULL, stdout), -EINVAL);
	ck_assert_int_eq(ibtopo_export_dot(t, NULL), -EINVAL);
	ibtopo_unref(t);
}
END_TEST

/* ---- Dot ------------------------------------------------------------------------------------- */

/* A checker for the subset of the dot language the export uses:
 *   graph ID { stmt* }   stmt: ID attrs ';' | ID -- ID attrs ';'
 *   attrs: '[' ID '=' (ID | "string") (',' ID '=' ...)* ']'
 * Strings: no raw newline, '"' only escaped, a backslash only before '"', '\\' or 'n'.
 * Counts the nodes and edges and keeps the labels (unescaped, \n as a newline). */
struct dot_check {
	const char *s;
	unsigned nodes, edges;
	char labels[16][160];
};

static void dot_ws(struct dot_check *d)
{
	while (*d->s == ' ' || *d->s == '\t' || *d->s == '\n')
		d->s++;
}

static void dot_id(struct dot_check *d, char *out, size_t len)
{
	size_t n = 0;

	dot_ws(d);
	ck_assert_msg((*d->s >= 'a' && *d->s <= 'z') || (*d->s >= 'A' && *d->s <= 'Z') || *d->s == '_',
		      "ID expected at \"%.20s\"", d->s);
	while ((*d->s >= 'a' && *d->s <= 'z') || (*d->s >= 'A' && *d->s <= 'Z') || *d->s == '_' ||
	       (*d->s >= '0' && *d->s <= '9')) {
		ck_assert_uint_lt(n + 1, len);
		out[n++] = *d->s++;
	}
	out[n] = '\0';
}

static void dot_string(struct dot_check *d, char *out, size_t len)
{
	size_t n = 0;

	dot_ws(d);
	ck_assert_int_eq(*d->s, '"');
	d->s++;
	while (*d->s != '"') {
		char c = *d->s++;

		ck_assert_msg(c != '\0' && c != '\n', "unterminated string");
		if (c == '\\') {
			c = *d->s++;
			ck_assert_msg(c == '"' || c == '\\' || c == 'n', "escape \\%c", c);
			if (c == 'n')
				c = '\n';
		}
		ck_assert_uint_lt(n + 1, len);
		out[n++] = c;
	}
	d->s++;
	out[n] = '\0';
}

static void dot_attrs(struct dot_check *d, char *label, size_t len)
{
	char key[32], val[160];

	dot_ws(d);
	ck_assert_int_eq(*d->s, '[');
	d->s++;
	for (;;) {
		dot_id(d, key, sizeof(key));
		dot_ws(d);
		ck_assert_int_eq(*d->s, '=');
		d->s++;
		dot_ws(d);
		if (*d->s == '"')
			dot_string(d, val, sizeof(val));
		else
			dot_id(d, val, sizeof(val));
		if (label && !strcmp(key, "label"))
			snprintf(label, len, "%s", val);
		dot_ws(d);
		if (*d->s == ',') {
			d->s++;
			continue;
		}
		ck_assert_int_eq(*d->s, ']');
		d->s++;
		return;
	}
}

static void dot_parse(struct dot_check *d, const char *text)
{
	char id[32], id2[32];

	memset(d, 0, sizeof(*d));
	d->s = text;
	dot_id(d, id, sizeof(id));
	ck_assert_str_eq(id, "graph");
	dot_id(d, id, sizeof(id));
	dot_ws(d);
	ck_assert_int_eq(*d->s++, '{');
	for (;;) {
		dot_ws(d);
		if (*d->s == '}')
			break;
		dot_id(d, id, sizeof(id));
		dot_ws(d);
		if (d->s[0] == '-' && d->s[1] == '-') {
			d->s += 2;
			dot_id(d, id2, sizeof(id2));
			dot_attrs(d, NULL, 0);
			d->edges++;
		} else {
			ck_assert_uint_lt(d->nodes, 16);
			dot_attrs(d, d->labels[d->nodes], sizeof(d->labels[0]));
			d->nodes++;
		}
		dot_ws(d);
		ck_assert_int_eq(*d->s++, ';');
	}
	ck_assert_str_eq(d->s, "}\n");
}

START_TEST(dot_export)
{
	struct ibtopo *t = rich_topology();
	struct dot_check d;
	size_t len;
	char *dot = export_dot(t, &len);

	ck_assert_uint_eq(strlen(dot), len);
	dot_parse(&d, dot);
	ck_assert_uint_eq(d.nodes, ibtopo_node_count(t, IBTOPO_NODE_ANY));
	ck_assert_uint_eq(d.edges, 7); /* 6 of the fabric + the router's */
	ck_assert_str_eq(d.labels[0], "Hca1\n0x0000000000100000");
	/* Hca2 (node 4): escapes kept, control characters as spaces, bad UTF-8 as '?' */
	ck_assert_str_eq(d.labels[4], "q\"uote\\back nl tab   \xc3\xa9t\xc3\xa9 \xe2\x82\xac "
				      "\xf0\x9f\x98\x80 ???}];{ x\n0x0000000000100003");
	ck_assert_str_eq(d.labels[6], "Router \"1\"\n0x0000000000400000");
	ck_assert_ptr_nonnull(strstr(dot, "\tn0 -- n1 [taillabel=\"1\", headlabel=\"1\"];\n"));
	ck_assert_ptr_nonnull(strstr(dot, "\tn1 -- n3 [taillabel=\"3\", headlabel=\"3\"];\n"));
	ck_assert_ptr_nonnull(strstr(dot, "\tn1 [shape=box, "));
	ck_assert_ptr_nonnull(strstr(dot, "\tn0 [shape=ellipse, "));
	ck_assert_ptr_nonnull(strstr(dot, "\tn6 [shape=diamond, "));
	ck_assert_ptr_nonnull(strstr(dot, "\tn7 [shape=octagon, "));
	free(dot);
	ibtopo_unref(t);
}
END_TEST

/* ---- The seed corpus of the fuzz target ------------------------------------------------------ */

static char *corpus_path(const char *name)
{
	const char *top = getenv("top_srcdir");
	char *p;

	ck_assert_int_ge(asprintf(&p, "%s/tests/data/topo/json-corpus/%s", top ? top : ".", name), 0);
	return p;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s (is top_srcdir set?)", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The seeds made by the exporter are golden files: the layout of schema version 1.  A change
 * here is a change of the schema (doc/libibtopo-json.md: bump IBTOPO_JSON_SCHEMA_VERSION). */
static void assert_golden(const struct ibtopo *t, const char *name)
{
	char *path = corpus_path(name);
	size_t len, glen;
	char *ours = export_json(t, &len), *golden = read_file(path, &glen);

	ck_assert_msg(len == glen && !memcmp(ours, golden, len), "%s: the export differs", name);
	free(ours);
	free(golden);
	free(path);
}

START_TEST(golden_seeds)
{
	struct tb_fabric f;
	struct ibtopo *t;

	ck_assert_int_eq(ibtopo_new(&t), 0);
	assert_golden(t, "empty.json");
	ibtopo_unref(t);
	t = rich_topology();
	assert_golden(t, "rich.json");
	ibtopo_unref(t);
	ck_assert_int_eq(tb_2sw4hca(&f, false), 0);
	assert_golden(f.t, "2sw4hca.json");
	tb_be64(f.sw2->info + 4, 0x200000);
	ck_assert_int_eq(ibtopo_group_chassis(f.t), 0);
	assert_golden(f.t, "chassis.json");
	ibtopo_unref(f.t);
	ck_assert_int_eq(tb_2sw4hca(&f, true), 0);
	assert_golden(f.t, "2sw4hca-unlinked.json");
	ibtopo_unref(f.t);
}
END_TEST

/* Every seed (and every input the fuzzer once found a fault with) is read as the fuzz
 * target reads it: accepted and exported the same way twice, or refused with a reason. */
START_TEST(corpus_files)
{
	char *dirpath = corpus_path("");
	DIR *d = opendir(dirpath);
	struct dirent *e;
	unsigned files = 0, accepted = 0;

	ck_assert_msg(d != NULL, "cannot open %s", dirpath);
	while ((e = readdir(d))) {
		struct ibtopo *t = NULL, *u = NULL;
		char err[256] = "";
		char *path, *text, *j1, *j2;
		size_t len, l1, l2;
		int rc;

		if (e->d_name[0] == '.')
			continue;
		path = corpus_path(e->d_name);
		text = read_file(path, &len);
		rc = ibtopo_import_json(text, len, &t, err, sizeof(err));
		files++;
		if (rc) {
			ck_assert_msg(rc == -EINVAL || rc == -ERANGE || rc == -EPROTO, "%s: %d", e->d_name, rc);
			ck_assert_msg(!strncmp(err, "offset ", 7), "%s: \"%s\"", e->d_name, err);
			ck_assert_ptr_null(t);
		} else {
			accepted++;
			j1 = export_json(t, &l1);
			ck_assert_msg(ibtopo_import_json(j1, l1, &u, err, sizeof(err)) == 0, "%s: %s",
				      e->d_name, err);
			j2 = export_json(u, &l2);
			ck_assert_msg(l1 == l2 && !memcmp(j1, j2, l1), "%s: exports differ", e->d_name);
			free(j1);
			free(j2);
			ibtopo_unref(u);
			ibtopo_unref(t);
		}
		free(text);
		free(path);
	}
	closedir(d);
	free(dirpath);
	ck_assert_uint_ge(files, 6);
	ck_assert_uint_ge(accepted, 5);
}
END_TEST

Suite *make_export_suite(void)
{
	Suite *s = suite_create("export");
	TCase *tc = tcase_create("export");

	tcase_add_test(tc, json_round_trip);
	tcase_add_test(tc, json_round_trip_discovered_shapes);
	tcase_add_test(tc, json_syntax_errors);
	tcase_add_test(tc, json_schema_errors);
	tcase_add_test(tc, write_errors);
	tcase_add_test(tc, dot_export);
	tcase_add_test(tc, golden_seeds);
	tcase_add_test(tc, corpus_files);
	suite_add_tcase(s, tc);
	return s;
}
