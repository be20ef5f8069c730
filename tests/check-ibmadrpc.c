// SPDX-License-Identifier: BSD-3-Clause
/*
 * libibmadrpc unit tests without a fabric: a test port whose sends go to a hook, replies
 * fed by hand.  Request layouts, reply matching, strays, status errors, BUSY, timeouts and
 * retries, the send window, cancel, and golden texts of the error levels and the trace.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ibmadrpc-private.h"

static uint8_t sent[64][IBMADRPC_MAD_SIZE];
static unsigned nsent;
static char trace_text[65536];

static int hook(struct ibmadrpc_port *port, const uint8_t *umad, size_t len)
{
	(void)port;
	if (nsent < 64 && len >= UMAD_HDR)
		memcpy(sent[nsent], umad + UMAD_HDR, len - UMAD_HDR);
	nsent++;
	return 0;
}

static void trace(void *user, const char *text)
{
	(void)user;
	strncat(trace_text, text, sizeof(trace_text) - strlen(trace_text) - 1);
}

struct result {
	int calls;
	int failed;
	uint16_t status;
	char err[8192];
	uint8_t data[256];
	size_t len;
};

static void done(struct ibmadrpc_port *port, struct ibmadrpc_call *call, const struct ibmadrpc_reply *reply,
		 const struct ibmadrpc_error *err, void *user)
{
	struct result *r = user;

	(void)port;
	(void)call;
	r->calls++;
	if (err) {
		r->failed++;
		ibmadrpc_error_format(err, 1, r->err, sizeof(r->err));
	} else {
		r->status = reply->status;
		r->len = reply->len;
		memcpy(r->data, reply->mad + reply->data_offset, 64);
	}
}

static struct ibmadrpc_port *setup(void)
{
	nsent = 0;
	trace_text[0] = 0;
	return ibmadrpc_test_port_new(hook);
}

static struct ibpath_path *lid_path(uint16_t lid, unsigned timeout_ms, unsigned retries)
{
	struct ibpath_path *p;

	ck_assert_int_eq(ibpath_path_new(&p, IBPATH_KIND_IB), 0);
	ibpath_path_set(p, IBPATH_DLID, lid);
	if (timeout_ms)
		ibpath_path_set(p, IBPATH_TIMEOUT_MS, timeout_ms);
	ibpath_path_set(p, IBPATH_RETRIES, retries);
	return p;
}

/* A reply to sent MAD i: response method, same TID/class/attribute, status, data. */
static void reply_to(struct ibmadrpc_port *port, unsigned i, uint16_t status, uint8_t fill)
{
	uint8_t mad[IBMADRPC_MAD_SIZE];

	memcpy(mad, sent[i], sizeof(mad));
	mad[3] = (uint8_t)(mad[3] == 0x02 ? 0x81 : mad[3] | 0x80);
	mad[4] = (uint8_t)(status >> 8);
	mad[5] = (uint8_t)status;
	memset(mad + ibmadrpc_data_offset(mad[1]), fill, 64);
	ibmadrpc_test_feed(port, mad, sizeof(mad), 1);
}

START_TEST(test_request_layouts)
{
	struct ibmadrpc_port *port = setup();
	struct ibpath_path *p = lid_path(5, 0, 0), *dr;
	struct ibmadrpc_request req;
	struct result r = { 0 };
	static const uint8_t ports[3] = { 0, 1, 4 };
	uint8_t payload[4] = { 1, 2, 3, 4 };

	memset(&req, 0, sizeof(req));
	req.path = p;
	req.mgmt_class = 0x01;
	req.method = 0x02;
	req.attr_id = 0x15;
	req.attr_mod = 7;
	req.key = 0x1122334455667788ull;
	req.data = payload;
	req.data_len = sizeof(payload);
	ck_assert_int_eq(ibmadrpc_submit(port, &req, done, &r, NULL), 0);
	ck_assert_uint_eq(nsent, 1);
	ck_assert_uint_eq(sent[0][0], 1);
	ck_assert_uint_eq(sent[0][1], 0x01);
	ck_assert_uint_eq(sent[0][2], 1);
	ck_assert_uint_eq(sent[0][3], 0x02);
	ck_assert_uint_eq(sent[0][17], 0x15);
	ck_assert_uint_eq(sent[0][23], 7);
	ck_assert_uint_eq(sent[0][24], 0x11); /* M_Key */
	ck_assert_mem_eq(sent[0] + 64, payload, 4);

	/* SA: class version 2, SM_Key at 36, component mask at 48, data at 56 */
	req.mgmt_class = 0x03;
	req.method = 0x12;
	req.attr_id = 0x11;
	req.comp_mask = 0x81;
	req.key = 1;
	ck_assert_int_eq(ibmadrpc_submit(port, &req, done, &r, NULL), 0);
	ck_assert_uint_eq(sent[1][2], 2);
	ck_assert_uint_eq(sent[1][24], 1); /* RMPPVersion */
	ck_assert_uint_eq(sent[1][43], 1);
	ck_assert_uint_eq(sent[1][55], 0x81);
	ck_assert_mem_eq(sent[1] + 56, payload, 4);

	/* DR: class 0x81, hop count, DrSLID/DrDLID, the initial path at 128 */
	ck_assert_int_eq(ibpath_path_new(&dr, IBPATH_KIND_DR), 0);
	ck_assert_int_eq(ibpath_path_set_dr_ports(dr, ports, 3), 0);
	req.path = dr;
	req.mgmt_class = 0x01;
	req.method = 0x01;
	req.data = NULL;
	req.data_len = 0;
	ck_assert_int_eq(ibmadrpc_submit(port, &req, done, &r, NULL), 0);
	ck_assert_uint_eq(sent[2][1], 0x81);
	ck_assert_uint_eq(sent[2][7], 2);
	ck_assert_uint_eq(sent[2][32], 0xff);
	ck_assert_uint_eq(sent[2][35], 0xff);
	ck_assert_mem_eq(sent[2] + 128, ports, 3);

	/* only SMPs travel a directed route; a GMP needs a DLID */
	req.mgmt_class = 0x04;
	ck_assert_int_eq(ibmadrpc_submit(port, &req, done, &r, NULL), -EINVAL);
	ibpath_path_set(p, IBPATH_DLID, 0);
	req.path = p;
	ck_assert_int_eq(ibmadrpc_submit(port, &req, done, &r, NULL), -EDESTADDRREQ);
	ck_assert_uint_eq(ibmadrpc_pending(port), 3);
	ibmadrpc_port_close(port);
	ibpath_path_unref(p);
	ibpath_path_unref(dr);
}
END_TEST

START_TEST(test_matching_and_strays)
{
	struct ibmadrpc_port *port = setup();
	struct ibpath_path *p = lid_path(5, 0, 0);
	struct ibmadrpc_request req;
	struct result r = { 0 };
	struct ibmadrpc_stats st;
	uint8_t mad[IBMADRPC_MAD_SIZE];

	memset(&req, 0, sizeof(req));
	req.path = p;
	req.mgmt_class = 0x01;
	req.method = 0x01;
	req.attr_id = 0x11;
	ck_assert_int_eq(ibmadrpc_submit(port, &req, done, &r, NULL), 0);
	/* wrong TID, wrong attribute, a request, garbage: dropped and counted */
	memcpy(mad, sent[0], sizeof(mad));
	mad[3] = 0x81;
	mad[15] ^= 1;
	ibmadrpc_test_feed(port, mad, sizeof(mad), 1);
	mad[15] ^= 1;
	mad[17] = 0x12;
	ibmadrpc_test_feed(port, mad, sizeof(mad), 1);
	ibmadrpc_test_feed(port, sent[0], sizeof(mad), 1);
	ibmadrpc_test_feed(port, mad, 10, 1);
	ck_assert_int_eq(r.calls, 0);
	ibmadrpc_port_stats(port, &st);
	ck_assert_uint_eq(st.stray, 3);
	ck_assert_uint_eq(st.malformed, 1);
	/* the high 32 TID bits are not compared (the simulator rewrites them) */
	memcpy(mad, sent[0], sizeof(mad));
	mad[3] = 0x81;
	mad[8] = 0xab;
	memset(mad + 64, 0x5a, 64);
	ibmadrpc_test_feed(port, mad, sizeof(mad), 1);
	ck_assert_int_eq(r.calls, 1);
	ck_assert_int_eq(r.failed, 0);
	ck_assert_uint_eq(r.data[0], 0x5a);
	/* a duplicate reply after completion is a stray */
	ibmadrpc_test_feed(port, mad, sizeof(mad), 1);
	ck_assert_int_eq(r.calls, 1);
	ck_assert_uint_eq(ibmadrpc_pending(port), 0);
	ibmadrpc_port_close(port);
	ibpath_path_unref(p);
}
END_TEST

START_TEST(test_status_busy_and_golden_errors)
{
	struct ibmadrpc_port *port = setup();
	struct ibpath_path *p = lid_path(5, 0, 0);
	struct ibmadrpc_request req;
	struct result r = { 0 };

	memset(&req, 0, sizeof(req));
	req.path = p;
	req.mgmt_class = 0x03;
	req.method = 0x01;
	req.attr_id = 0x35;
	ibmadrpc_port_set_trace(port, 1, trace, NULL);
	ck_assert_int_eq(ibmadrpc_submit(port, &req, done, &r, NULL), 0);
	/* BUSY: not an error, retried later */
	reply_to(port, 0, 0x0001, 0);
	ck_assert_int_eq(r.calls, 0);
	/* class specific error 3 (SA: no records) */
	reply_to(port, 0, 0x0300, 0);
	ck_assert_int_eq(r.failed, 1);
	ck_assert_str_eq(r.err,
		"E: RPC MAD_METHOD_GET(1) SAFormat(3.2) SAPathRecord(53) got class specific error 3\n");
	ck_assert_str_eq(trace_text,
		"RPC MAD_METHOD_GET(1) SAFormat(3.2) SAPathRecord(53) to 'Path 0 -> 5 SL=0 PKey=0xffff "
		"DQPN=1' failed: got class specific error 3\n");
	ibmadrpc_port_close(port);
	ibpath_path_unref(p);
}
END_TEST

START_TEST(test_error_levels)
{
	struct ibmadrpc_error *e = ibmadrpc_error_new(ETIMEDOUT, "RPC MAD_METHOD_GET(1) SMPFormat(1.1) "
						     "SMPNodeInfo(17) timed out to 'Path 0 -> 4'");
	uint8_t req[IBMADRPC_MAD_SIZE] = { 1, 1, 1, 1 };
	char buf[16384];

	ibmadrpc_error_push(e, "Failed getting the node info of LID %d", 4);
	ck_assert_uint_eq(ibmadrpc_error_count(e), 2);
	ck_assert_str_eq(ibmadrpc_error_message(e, 0), "Failed getting the node info of LID 4");
	ibmadrpc_error_format(e, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "E: Failed getting the node info of LID 4\n");
	ibmadrpc_error_format(e, 1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "E: Failed getting the node info of LID 4\n"
			      "E: +RPC MAD_METHOD_GET(1) SMPFormat(1.1) SMPNodeInfo(17) timed out to 'Path 0 -> 4'\n");
	req[17] = 0x11;
	ibmadrpc_error_set_packets(e, req, NULL, 0);
	ibmadrpc_error_format(e, 2, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "E: +RPC MAD_METHOD_GET(1)"));
	ck_assert_ptr_nonnull(strstr(buf, "Request packet:\n    SMPFormat (256 bytes)\n"
					  "       0: 01010101  baseVersion=1 mgmtClass=0x1 (SubnMgmt) classVersion=1"));
	ck_assert_ptr_nonnull(strstr(buf, "    SMPNodeInfo (40 bytes)\n"));
	ck_assert_ptr_null(strstr(buf, "Reply packet:"));
	/* a copy keeps everything and is independent of the original */
	{
		struct ibmadrpc_error *d = ibmadrpc_error_dup(e);
		char b2[16384];

		ck_assert_ptr_nonnull(d);
		ibmadrpc_error_push(d, "one more");
		ck_assert_uint_eq(ibmadrpc_error_count(d), 3);
		ck_assert_uint_eq(ibmadrpc_error_count(e), 2);
		ibmadrpc_error_format(d, 2, b2, sizeof(b2));
		ck_assert_str_eq(b2 + strlen("E: one more\nE: +"), buf + strlen("E: "));
		ck_assert_int_eq(ibmadrpc_error_errno(d), ETIMEDOUT);
		ibmadrpc_error_free(d);
		ck_assert_ptr_null(ibmadrpc_error_dup(NULL));
	}
	/* snprintf semantics */
	ck_assert_int_eq(ibmadrpc_error_format(e, 1, buf, 5), (int)strlen("E: Failed getting the node info of LID 4\n"
									  "E: +RPC MAD_METHOD_GET(1) SMPFormat(1.1) SMPNodeInfo(17) timed out to 'Path 0 -> 4'\n"));
	ck_assert_str_eq(buf, "E: F");
	ibmadrpc_error_free(e);
}
END_TEST

/* The whole text against a file in tests/data/golden; IBMGMT_GOLDEN_UPDATE=1 rewrites the
 * file instead (review the diff before committing). */
static void golden(const char *name, const char *text)
{
	char path[4096], *want;
	FILE *f;
	long len;

	snprintf(path, sizeof(path), "%s/%s", GOLDEN_DIR, name);
	if (getenv("IBMGMT_GOLDEN_UPDATE")) {
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fputs(text, f);
		fclose(f);
		return;
	}
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot read %s", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	want = calloc(1, (size_t)len + 1);
	ck_assert_ptr_nonnull(want);
	ck_assert_int_eq(fread(want, 1, (size_t)len, f), len);
	fclose(f);
	if (strcmp(text, want) != 0) {
		/* the texts are too long for Check's message: leave ours next to the build */
		f = fopen(name, "w");
		if (f) {
			fputs(text, f);
			fclose(f);
		}
		free(want);
		ck_abort_msg("%s differs from the golden file (ours written to ./%s)", name, name);
	}
	free(want);
}

/* Byte-exact texts: the -dd trace of a NodeInfo Get and its reply, and the level 0/1/2
 * error texts of a failed SA PathRecord Get with both packets (the test port's TIDs are
 * fixed, so the packets are too). */
START_TEST(test_golden_trace_and_error_dump)
{
	struct ibmadrpc_port *port = setup();
	struct ibpath_path *p = lid_path(4, 0, 0);
	struct ibmadrpc_request req;
	struct result r = { 0 };
	struct ibmadrpc_call *call;
	char buf[65536];
	uint8_t mad[IBMADRPC_MAD_SIZE];
	struct ibmadrpc_error *e;

	memset(&req, 0, sizeof(req));
	req.path = p;
	req.mgmt_class = 0x01;
	req.method = 0x01;
	req.attr_id = 0x11;
	ibmadrpc_port_set_trace(port, 2, trace, NULL);
	ck_assert_int_eq(ibmadrpc_submit(port, &req, done, &r, &call), 0);
	/* a switch's NodeInfo */
	memcpy(mad, sent[0], sizeof(mad));
	mad[3] = 0x81;
	memset(mad + 64, 0, 64);
	mad[64] = 1; mad[65] = 1; mad[66] = 2; mad[67] = 12;
	mad[68 + 5] = 0x20; mad[76 + 5] = 0x20; mad[84 + 5] = 0x20;
	mad[92] = 0; mad[93] = 8;
	mad[94] = 0; mad[95] = 0;
	mad[96 + 3] = 0xa1;
	mad[100] = 0; mad[101] = 0; mad[102] = 0x02; mad[103] = 0xc9;
	ibmadrpc_test_feed(port, mad, sizeof(mad), 4);
	ck_assert_int_eq(r.calls, 1);
	ck_assert_int_eq(r.failed, 0);
	golden("madrpc-trace-dd.txt", trace_text);

	/* an SA PathRecord Get that fails with "no records" */
	trace_text[0] = 0;
	memset(&r, 0, sizeof(r));
	req.mgmt_class = 0x03;
	req.attr_id = 0x35;
	req.comp_mask = 0x0c;
	ck_assert_int_eq(ibmadrpc_submit(port, &req, done, &r, &call), 0);
	memcpy(mad, sent[1], sizeof(mad));
	mad[3] = 0x81;
	mad[4] = 0x03;
	mad[5] = 0x00;
	ibmadrpc_test_feed(port, mad, sizeof(mad), 4);
	ck_assert_int_eq(r.failed, 1);
	golden("madrpc-trace-error.txt", trace_text);
	e = ibmadrpc_error_new(EPROTO, "RPC MAD_METHOD_GET(1) SAFormat(3.2) SAPathRecord(53) got class specific error 3");
	ibmadrpc_error_set_packets(e, sent[1], mad, sizeof(mad));
	ibmadrpc_error_push(e, "Failed getting MAD path record for end port GID(fe80::2)");
	ibmadrpc_error_format(e, 0, buf, sizeof(buf));
	golden("madrpc-error-level0.txt", buf);
	ibmadrpc_error_format(e, 1, buf, sizeof(buf));
	golden("madrpc-error-level1.txt", buf);
	ibmadrpc_error_format(e, 2, buf, sizeof(buf));
	golden("madrpc-error-level2.txt", buf);
	ibmadrpc_error_free(e);
	ibmadrpc_port_close(port);
	ibpath_path_unref(p);
}
END_TEST

/* Kernel RMPP: the client agent asks the kernel for RMPP, and a reply the kernel hands over
 * reassembled (longer than a MAD, RMPP flags set) is taken whole, not reassembled again. */
START_TEST(test_kernel_rmpp)
{
	struct ibmadrpc_port *port = setup();
	struct ibpath_path *p = lid_path(1, 0, 0);
	struct ibmadrpc_request req;
	struct ibmadrpc_call *call;
	struct result r = { 0 };
	size_t len = 56 + 20 * 112, i;
	uint8_t *mad = calloc(1, len);

	ck_assert_ptr_nonnull(mad);
	ck_assert_int_eq(ibmadrpc_port_set_kernel_rmpp(port, true), 0);
	memset(&req, 0, sizeof(req));
	req.path = p;
	req.mgmt_class = 0x03;
	req.method = IBSTRUCT_METHOD_GET_TABLE;
	req.attr_id = 0x11;
	req.flags = IBMADRPC_F_RMPP;
	ck_assert_int_eq(ibmadrpc_submit(port, &req, done, &r, &call), 0);
	/* too late to change once an SA client agent exists */
	ck_assert_int_eq(ibmadrpc_port_set_kernel_rmpp(port, false), -EBUSY);
	memcpy(mad, sent[0], 56);
	mad[3] = 0x92;
	mad[24] = 1;    /* RMPPVersion */
	mad[25] = 1;    /* DATA */
	mad[26] = 0x07; /* active, first, last */
	mad[45] = 14;   /* AttributeOffset: 112 bytes */
	for (i = 56; i < len; i++)
		mad[i] = (uint8_t)i;
	ibmadrpc_test_feed(port, mad, len, 1);
	ck_assert_int_eq(r.calls, 1);
	ck_assert_int_eq(r.failed, 0);
	ck_assert_int_eq(r.data[0], 56);
	ck_assert_uint_eq(r.len, len); /* the whole transfer, 20 records */
	ck_assert_uint_eq(nsent, 1); /* no ACK from us: the kernel does that */
	free(mad);
	ibmadrpc_port_close(port);
	ibpath_path_unref(p);
}
END_TEST

START_TEST(test_timeout_retries_window_cancel)
{
	struct ibmadrpc_port *port = setup();
	struct ibpath_path *p = lid_path(9, 20, 2);
	struct ibmadrpc_request req;
	struct ibmadrpc_call *calls[5];
	struct result r = { 0 };
	struct ibmadrpc_stats st;
	unsigned i;

	memset(&req, 0, sizeof(req));
	req.path = p;
	req.mgmt_class = 0x01;
	req.method = 0x01;
	req.attr_id = 0x11;
	ibmadrpc_port_set_window(port, 2);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(ibmadrpc_submit(port, &req, done, &r, &calls[i]), 0);
	ck_assert_uint_eq(nsent, 2); /* the window */
	ck_assert_int_eq(ibmadrpc_cancel(port, calls[4]), 0);
	ck_assert_uint_eq(ibmadrpc_pending(port), 4);
	/* 20 ms x 3 attempts each, two at a time: all four time out, nothing hangs */
	while (ibmadrpc_pending(port)) {
		usleep(5000);
		ibmadrpc_test_feed(port, (const uint8_t *)"", 0, 0);
	}
	ck_assert_int_eq(r.calls, 4);
	ck_assert_int_eq(r.failed, 4);
	ck_assert_ptr_nonnull(strstr(r.err, "timed out to 'Path 0 -> 9 SL=0 PKey=0xffff DQPN=0'"));
	ibmadrpc_port_stats(port, &st);
	ck_assert_uint_eq(st.timeouts, 4);
	ck_assert_uint_eq(st.retries, 8);
	ck_assert_uint_eq(nsent, 12);
	ibmadrpc_port_close(port);
	ibpath_path_unref(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ibmadrpc");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_request_layouts);
	tcase_add_test(tc, test_matching_and_strays);
	tcase_add_test(tc, test_status_busy_and_golden_errors);
	tcase_add_test(tc, test_error_levels);
	tcase_add_test(tc, test_golden_trace_and_error_dump);
	tcase_add_test(tc, test_kernel_rmpp);
	tcase_add_test(tc, test_timeout_retries_window_cancel);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
