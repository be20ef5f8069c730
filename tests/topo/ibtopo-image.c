// SPDX-License-Identifier: BSD-3-Clause
/*
 * The SA and LID discovery modes where they fail before the SA answers anything (the fake
 * fabric has no SA; tests/fabric/topo-discovery-sa.sh checks what they build against
 * libibnetdisc on the simulator with OpenSM's SA): a port without a LID, queries that cannot
 * be sent, the mode settings.
 */
#include <errno.h>
#include <string.h>

#include "check-ibtopo.h"
#include "fakefab.h"
#include "ibtopo-private.h"

static void small_fabric(void)
{
	int h0, sw, h1;

	ff_reset();
	h0 = ff_add(1, 1, "h0");
	sw = ff_add(2, 4, "sw");
	h1 = ff_add(1, 1, "h1");
	ff_link(h0, 1, sw, 1);
	ff_link(h1, 1, sw, 2);
}

struct result {
	int rc, done_status, done_calls;
	struct ibtopo *topo;
};

static void on_done(struct ibtopo_discovery *d, int status, void *user)
{
	struct result *r = user;

	(void)d;
	r->done_status = status;
	r->done_calls++;
}

/* one discovery in `mode` on the fake fabric; lid: the local port's LID */
static struct result run(enum ibtopo_discovery_mode mode, uint16_t lid, int send_error)
{
	struct ibmadrpc_port *port = ff_open();
	struct ibsched *sched;
	struct ibtopo_discovery *d;
	struct result r = { 0 };

	port->lid = lid;
	ck_assert_int_eq(ibsched_new(&sched, port), 0);
	ck_assert_int_eq(ibtopo_discovery_new(&d, sched), 0);
	ck_assert_int_eq(ibtopo_discovery_set_mode(d, mode), 0);
	ff.send_error = send_error;
	r.rc = ibtopo_discovery_start(d, on_done, &r);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_int_eq(ibtopo_discovery_start(d, on_done, &r), -EBUSY);
	for (int i = 0; i < 100 && !r.done_calls; i++)
		ck_assert_int_ge(ibsched_dispatch(sched, 10), 0);
	ck_assert_int_eq(r.done_calls, 1);
	r.topo = ibtopo_discovery_topology(d);
	ck_assert(ibsched_idle(sched));
	ibtopo_discovery_free(d);
	ibsched_free(sched);
	ff.send_error = 0;
	ff_close(port);
	return r;
}

static bool has_error(const struct ibtopo *t, const char *text)
{
	for (unsigned i = 0; i < ibtopo_error_count(t); i++)
		if (strstr(ibtopo_error_get(t, i)->message, text))
			return true;
	return false;
}

/* Without a LID there is no SA to ask: the discovery ends at once, the error says why. */
START_TEST(test_no_lid)
{
	struct result r;

	small_fabric();
	for (int mode = IBTOPO_DISCOVER_LID; mode <= IBTOPO_DISCOVER_SA; mode++) {
		unsigned before = ff.smps;

		r = run((enum ibtopo_discovery_mode)mode, 0, 0);
		ck_assert_int_eq(r.done_status, -ENETDOWN);
		ck_assert_uint_eq(ibtopo_node_count(r.topo, IBTOPO_NODE_ANY), 0);
		ck_assert_uint_eq(ibtopo_error_count(r.topo), 1);
		ck_assert_int_eq(ibtopo_error_get(r.topo, 0)->errnum, -ENETDOWN);
		ck_assert(has_error(r.topo, mode == IBTOPO_DISCOVER_SA ? "SA discovery needs a subnet manager"
								       : "LID discovery needs a subnet manager"));
		ck_assert_uint_eq(ff.smps, before);
		ibtopo_unref(r.topo);
	}
}
END_TEST

/* The SA queries cannot be sent: the discovery ends with that error. */
START_TEST(test_send_fails)
{
	struct result r;

	small_fabric();
	r = run(IBTOPO_DISCOVER_SA, 1, -EIO);
	ck_assert_int_lt(r.done_status, 0);
	ck_assert_uint_eq(ibtopo_node_count(r.topo, IBTOPO_NODE_ANY), 0);
	ck_assert(has_error(r.topo, "cannot send SA queries"));
	ibtopo_unref(r.topo);
}
END_TEST

START_TEST(test_settings)
{
	struct ibmadrpc_port *port;
	struct ibsched *sched;
	struct ibtopo_discovery *d;
	struct ibtopo *t = NULL;

	small_fabric();
	port = ff_open();
	ck_assert_int_eq(ibsched_new(&sched, port), 0);
	ck_assert_int_eq(ibtopo_discovery_new(&d, sched), 0);
	ck_assert_int_eq(ibtopo_discovery_set_mode(d, (enum ibtopo_discovery_mode)3), -EINVAL);
	ck_assert_int_eq(ibtopo_discovery_set_mode(NULL, IBTOPO_DISCOVER_SA), -EINVAL);
	ck_assert_int_eq(ibtopo_discovery_set_sa(d, NULL), 0);
	ck_assert_int_eq(ibtopo_discovery_set_mode(d, IBTOPO_DISCOVER_SA), 0);
	ck_assert_int_eq(ibtopo_discovery_set_mode(d, IBTOPO_DISCOVER_DR), 0);
	/* DR mode after all: the walk on the fake fabric */
	ck_assert_int_eq(ibtopo_discover(d, &t), 0);
	ck_assert_uint_eq(ibtopo_node_count(t, IBTOPO_NODE_ANY), 3);
	ck_assert_int_eq(ibtopo_discovery_set_mode(d, IBTOPO_DISCOVER_SA), -EINVAL); /* started */
	ibtopo_unref(t);
	ibtopo_discovery_free(d);
	ibsched_free(sched);
	ff_close(port);
}
END_TEST

Suite *make_image_suite(void)
{
	Suite *s = suite_create("image");
	TCase *tc = tcase_create("failures");

	tcase_add_test(tc, test_no_lid);
	tcase_add_test(tc, test_send_fails);
	tcase_add_test(tc, test_settings);
	suite_add_tcase(s, tc);
	return s;
}
