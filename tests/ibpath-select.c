// SPDX-License-Identifier: BSD-3-Clause
/* End port selection: selection strings and infiniband-diags' -C/-P rules. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check-ibpath.h"

static const struct ibpath_port *const sentinel = (const struct ibpath_port *)&sentinel;

static void assert_port(const struct ibpath_port *port, const char *want, const char *what)
{
	char name[128];

	ck_assert_msg(port && port != sentinel, "%s: no port", what);
	ibpath_port_format(port, name, sizeof(name));
	ck_assert_msg(!strcmp(name, want), "%s: selected %s, expected %s", what, name, want);
}

static void select_ok(const struct ibpath_devlist *list, const char *spec, const char *want)
{
	const struct ibpath_port *port = sentinel;
	char err[256] = "";
	int rc = ibpath_devlist_select(list, spec, &port, err, sizeof(err));

	ck_assert_msg(rc == 0, "select \"%s\": %d (%s)", spec ? spec : "(null)", rc, err);
	assert_port(port, want, spec ? spec : "(null)");
}

/* Fails with rc, leaves *out alone and explains itself naming `needle`. */
static void select_fails(const struct ibpath_devlist *list, const char *spec, int want_rc,
			 const char *needle)
{
	const struct ibpath_port *port = sentinel;
	char err[256] = "";
	int rc = ibpath_devlist_select(list, spec, &port, err, sizeof(err));

	ck_assert_msg(rc == want_rc, "select \"%s\": %d, expected %d", spec, rc, want_rc);
	ck_assert_msg(port == sentinel, "select \"%s\" wrote *out on failure", spec);
	ck_assert_msg(strstr(err, needle) != NULL, "select \"%s\": message \"%s\" lacks \"%s\"", spec,
		      err, needle);
}

static void ca_port_ok(const struct ibpath_devlist *list, const char *ca, unsigned num,
		       const char *want)
{
	const struct ibpath_port *port = sentinel;
	char err[256] = "", what[64];
	int rc = ibpath_devlist_select_ca_port(list, ca, num, &port, err, sizeof(err));

	snprintf(what, sizeof(what), "-C %s -P %u", ca ? ca : "(none)", num);
	ck_assert_msg(rc == 0, "%s: %d (%s)", what, rc, err);
	assert_port(port, want, what);
}

static void ca_port_fails(const struct ibpath_devlist *list, const char *ca, unsigned num,
			  const char *needle)
{
	const struct ibpath_port *port = sentinel;
	char err[256] = "";
	int rc = ibpath_devlist_select_ca_port(list, ca, num, &port, err, sizeof(err));

	ck_assert_msg(rc == -ENODEV, "-C %s -P %u: %d", ca ? ca : "(none)", num, rc);
	ck_assert_ptr_eq(port, sentinel);
	ck_assert_msg(strstr(err, needle) != NULL, "-C %s -P %u: message \"%s\" lacks \"%s\"",
		      ca ? ca : "(none)", num, err, needle);
}

/* "" and NULL: the first ACTIVE InfiniBand port, else the first LinkUp, else the first
 * not Disabled; non-InfiniBand ports never qualify; a switch offers port 0. */
START_TEST(test_default)
{
	struct ibpath_devlist *list;

	list = test_open_tree("mlx5-2port", 0);
	select_ok(list, "", "mlx5_0/1");
	select_ok(list, NULL, "mlx5_0/1");
	ibpath_devlist_close(list);

	/* Ethernet is skipped even though ACTIVE; LinkUp beats the earlier Polling port */
	list = test_open_tree("roce", 0);
	select_ok(list, "", "mlx4_0/2");
	ibpath_devlist_close(list);

	list = test_open_tree("switch", 0);
	select_ok(list, "", "switch0/0");
	ibpath_devlist_close(list);

	list = test_open_tree("down", 0);
	select_fails(list, "", -ENODEV, "no RDMA device has a usable InfiniBand port");
	select_fails(list, NULL, -ENODEV, "no RDMA device has a usable InfiniBand port");
	ibpath_devlist_close(list);

	/* bad0/1 (unknown state, LinkUp) beats bad0/2 (nothing known), bad0/3 is not IB */
	list = test_open_tree("damaged", 0);
	select_ok(list, "", "bad0/1");
	ibpath_devlist_close(list);
}
END_TEST

/* Both HCAs of `multi` have an ACTIVE port: the first device in list order wins, and within
 * it the ACTIVE port beats the LinkUp one before it. */
START_TEST(test_default_first_active)
{
	struct ibpath_devlist *list = test_open_tree("multi", IBPATH_DEVLIST_SORTED);
	const char *first;

	select_ok(list, "", "mlx4_0/2");
	ca_port_ok(list, NULL, 0, "mlx4_0/2");
	ibpath_devlist_close(list);

	/* directory order decides without sorting (libibumad does not sort either) */
	list = test_open_tree("multi", 0);
	first = ibpath_device_name(ibpath_devlist_device(list, 0));
	select_ok(list, "", !strcmp(first, "mlx4_0") ? "mlx4_0/2" : "mlx5_0/1");
	ibpath_devlist_close(list);
}
END_TEST

START_TEST(test_device)
{
	struct ibpath_devlist *list;

	list = test_open_tree("multi", 0);
	select_ok(list, "mlx4_0", "mlx4_0/2");
	select_ok(list, "mlx5_0", "mlx5_0/1");
	ibpath_devlist_close(list);

	list = test_open_tree("mlx5-2port", 0);
	select_ok(list, "mlx5_0", "mlx5_0/1");
	ibpath_devlist_close(list);

	list = test_open_tree("roce", 0);
	select_ok(list, "mlx4_0", "mlx4_0/2");
	/* libibumad's last resort ignores the link layer: the first port not disabled */
	select_ok(list, "rocep1s0f0", "rocep1s0f0/1");
	ibpath_devlist_close(list);

	list = test_open_tree("switch", 0);
	select_ok(list, "switch0", "switch0/0");
	ibpath_devlist_close(list);

	list = test_open_tree("down", 0);
	select_fails(list, "qib0", -ENODEV, "'qib0' has no usable InfiniBand port");
	ibpath_devlist_close(list);

	list = test_open_tree("damaged", 0);
	select_ok(list, "bad0", "bad0/1");
	select_fails(list, "noports0", -ENODEV, "'noports0' has no usable InfiniBand port");
	/* skipped for lack of a ports directory */
	select_fails(list, "portless0", -ENODEV, "'portless0'");
	ibpath_devlist_close(list);
}
END_TEST

/* device/port is taken as given, whatever the port's state or link layer. */
START_TEST(test_device_port)
{
	struct ibpath_devlist *list;

	list = test_open_tree("mlx5-2port", 0);
	select_ok(list, "mlx5_0/1", "mlx5_0/1");
	select_ok(list, "mlx5_0/2", "mlx5_0/2");
	select_ok(list, "mlx5_0/02", "mlx5_0/2");
	select_fails(list, "mlx5_0/3", -ENODEV, "'mlx5_0' has no port 3");
	select_fails(list, "mlx5_0/0", -ENODEV, "'mlx5_0' has no port 0");
	select_fails(list, "mlx5_9/1", -ENODEV, "no RDMA device named 'mlx5_9'");
	/* not device/number: no device of that name either */
	select_fails(list, "mlx5_0/", -ENODEV, "'mlx5_0/'");
	select_fails(list, "/1", -ENODEV, "'/1'");
	select_fails(list, "mlx5_0/1x", -ENODEV, "'mlx5_0/1x'");
	select_fails(list, "mlx5_0/+1", -ENODEV, "mlx5_0/+1");
	select_fails(list, "mlx5_0/ 1", -ENODEV, "mlx5_0/ 1");
	select_fails(list, "mlx5_0/-1", -ENODEV, "mlx5_0/-1");
	/* a port number that only wraps around to 1 */
	select_fails(list, "mlx5_0/4294967297", -ENODEV, "4294967297");
	select_fails(list, "mlx5_0/18446744073709551617", -ENODEV, "18446744073709551617");
	ibpath_devlist_close(list);

	list = test_open_tree("roce", 0);
	select_ok(list, "rocep1s0f0/1", "rocep1s0f0/1");
	select_ok(list, "mlx4_0/1", "mlx4_0/1");
	ibpath_devlist_close(list);

	list = test_open_tree("down", 0);
	select_ok(list, "qib0/1", "qib0/1");
	ibpath_devlist_close(list);

	list = test_open_tree("switch", 0);
	select_ok(list, "switch0/0", "switch0/0");
	select_fails(list, "switch0/1", -ENODEV, "'switch0' has no port 1");
	ibpath_devlist_close(list);

	list = test_open_tree("damaged", 0);
	select_ok(list, "bad0/2", "bad0/2");
	select_ok(list, "bad0/3", "bad0/3");
	select_fails(list, "noports0/1", -ENODEV, "'noports0' has no port 1");
	ibpath_devlist_close(list);
}
END_TEST

/* A GID names the port holding it; a link-local GID also names the port with its GUID
 * whatever the port's subnet prefix. Unused (all-zero) table entries name nothing. */
START_TEST(test_gid)
{
	struct ibpath_devlist *list;

	list = test_open_tree("mlx5-2port", 0);
	select_ok(list, "fe80::2:c903:0:1491", "mlx5_0/1");
	select_ok(list, "fe80:0000:0000:0000:0002:c903:0000:1492", "mlx5_0/2");
	select_ok(list, "2001:db8:0:1:2:c903:0:1491", "mlx5_0/1");
	select_fails(list, "2001:db8:0:1:2:c903:0:1492", -ENODEV, "GID 2001:db8:0:1:2:c903:0:1492");
	select_fails(list, "fe80::2:c903:0:1499", -ENODEV, "GID fe80::2:c903:0:1499");
	select_fails(list, "::", -ENODEV, "GID ::");
	select_fails(list, "fe80::", -ENODEV, "GID fe80::");
	ibpath_devlist_close(list);

	list = test_open_tree("multi", 0);
	select_ok(list, "fec0::2:c903:ef:101", "mlx5_0/1");
	select_ok(list, "fe80::2:c903:ef:101", "mlx5_0/1");
	/* mlx5_0/2's table holds only its fec0:: GID */
	select_ok(list, "fec0::2:c903:ef:102", "mlx5_0/2");
	select_ok(list, "fe80::2:c903:ef:102", "mlx5_0/2");
	select_ok(list, "fe80::2:c903:ab:cd02", "mlx4_0/2");
	/* a global GID must be in the table */
	select_fails(list, "fec0::2:c903:ab:cd01", -ENODEV, "fec0::2:c903:ab:cd01");
	ibpath_devlist_close(list);

	list = test_open_tree("roce", 0);
	select_ok(list, "fe80::a00:27ff:fe12:3456", "rocep1s0f0/1");
	select_ok(list, "::ffff:192.168.1.2", "rocep1s0f0/1");
	ibpath_devlist_close(list);

	/* bad0/1 has no GIDs, bad0/3 a garbage GID 0: neither has GUID or GID zero */
	list = test_open_tree("damaged", 0);
	select_ok(list, "fe80::ab:cdef", "bad0/3");
	select_fails(list, "fe80::", -ENODEV, "fe80::");
	select_fails(list, "::", -ENODEV, "GID ::");
	ibpath_devlist_close(list);
}
END_TEST

START_TEST(test_guid)
{
	struct ibpath_devlist *list;

	list = test_open_tree("mlx5-2port", 0);
	/* port GUIDs, both forms */
	select_ok(list, "0x0002c90300001492", "mlx5_0/2");
	select_ok(list, "0x2c90300001492", "mlx5_0/2");
	select_ok(list, "0002:c903:0000:1492", "mlx5_0/2");
	select_ok(list, "2:c903:0:1491", "mlx5_0/1");
	select_ok(list, "0X0002C90300001491", "mlx5_0/1");
	/* the node GUID: that device's best port */
	select_ok(list, "0x0002c90300001490", "mlx5_0/1");
	select_ok(list, "0002:c903:0000:1490", "mlx5_0/1");
	/* the system image GUID names nothing */
	select_fails(list, "0x0002c90300001493", -ENODEV, "GUID 0x0002c90300001493");
	select_fails(list, "0x0", -ENODEV, "GUID 0x0");
	/* bare hex is not a GUID form of the selection string */
	select_fails(list, "0002c90300001491", -ENODEV, "'0002c90300001491'");
	ibpath_devlist_close(list);

	list = test_open_tree("multi", 0);
	select_ok(list, "0x0002c90300abcd00", "mlx4_0/2");
	select_ok(list, "0x0002c90300abcd01", "mlx4_0/1");
	select_ok(list, "0002:c903:00ef:0100", "mlx5_0/1");
	select_ok(list, "0002:c903:00ef:0102", "mlx5_0/2");
	ibpath_devlist_close(list);

	list = test_open_tree("switch", 0);
	select_ok(list, "0x7cfe900300a0b1c2", "switch0/0");
	ibpath_devlist_close(list);

	list = test_open_tree("down", 0);
	select_ok(list, "0x0011750000798a5e", "qib0/1");
	ibpath_devlist_close(list);

	/* ports and devices whose GUID is unknown (0) are never selected by GUID 0 */
	list = test_open_tree("damaged", 0);
	select_ok(list, "0xabcdef", "bad0/3");
	select_ok(list, "0000:0000:00ab:cdef", "bad0/3");
	select_fails(list, "0x0", -ENODEV, "0x0");
	select_fails(list, "0000:0000:0000:0000", -ENODEV, "0000:0000:0000:0000");
	select_fails(list, "0002:c903:00ff:0000", -ENODEV, "'noports0' has no usable InfiniBand port");
	select_fails(list, "0002:c903:00ee:0000", -ENODEV, "0002:c903:00ee:0000");
	ibpath_devlist_close(list);
}
END_TEST

START_TEST(test_bad_strings)
{
	struct ibpath_devlist *list = test_open_tree("mlx5-2port", 0);
	const struct ibpath_port *port = sentinel;
	char err[16];

	select_fails(list, "nosuch", -ENODEV, "'nosuch' names no local end port");
	select_fails(list, "mlx5_0 ", -ENODEV, "'mlx5_0 '");
	select_fails(list, "MLX5_0", -ENODEV, "'MLX5_0'");
	select_fails(list, "fe80::zz", -ENODEV, "'fe80::zz'");
	select_fails(list, "0x", -ENODEV, "'0x'");
	select_fails(list, "0x10000000000000000", -ENODEV, "'0x10000000000000000'");
	select_fails(list, "1", -ENODEV, "'1'");
	/* no error buffer, or a short one */
	ck_assert_int_eq(ibpath_devlist_select(list, "nosuch", &port, NULL, 0), -ENODEV);
	ck_assert_int_eq(ibpath_devlist_select(list, "nosuch", &port, NULL, 100), -ENODEV);
	ck_assert_int_eq(ibpath_devlist_select(list, "nosuch", &port, err, sizeof(err)), -ENODEV);
	ck_assert_uint_eq(strlen(err), sizeof(err) - 1);
	ck_assert_ptr_eq(port, sentinel);
	/* bad arguments */
	ck_assert_int_eq(ibpath_devlist_select(NULL, "", &port, NULL, 0), -EINVAL);
	ck_assert_int_eq(ibpath_devlist_select(list, "", NULL, NULL, 0), -EINVAL);
	ck_assert_int_eq(ibpath_devlist_select_ca_port(NULL, NULL, 0, &port, NULL, 0), -EINVAL);
	ck_assert_int_eq(ibpath_devlist_select_ca_port(list, NULL, 0, NULL, NULL, 0), -EINVAL);
	ck_assert_ptr_eq(port, sentinel);
	ibpath_devlist_close(list);
}
END_TEST

/* -C alone: that device's best port; -P alone: the best device having that port (first in
 * list order on a tie); both: used as given, whatever the port's state. */
START_TEST(test_ca_port_multi)
{
	unsigned pass;

	/* every answer has a unique best rank, so it does not depend on the list order */
	for (pass = 0; pass < 2; pass++) {
		struct ibpath_devlist *list = test_open_tree("multi", pass ? IBPATH_DEVLIST_SORTED : 0);

		ca_port_ok(list, "mlx4_0", 0, "mlx4_0/2");
		ca_port_ok(list, "mlx5_0", 0, "mlx5_0/1");
		/* -P 1: mlx5_0/1 is ACTIVE, mlx4_0/1 only LinkUp */
		ca_port_ok(list, NULL, 1, "mlx5_0/1");
		ca_port_ok(list, "", 1, "mlx5_0/1");
		/* -P 2: mlx4_0/2 is ACTIVE, mlx5_0/2 Disabled */
		ca_port_ok(list, NULL, 2, "mlx4_0/2");
		ca_port_fails(list, NULL, 3, "no RDMA device has a usable InfiniBand port 3");
		/* both given */
		ca_port_ok(list, "mlx5_0", 2, "mlx5_0/2");
		ca_port_ok(list, "mlx4_0", 1, "mlx4_0/1");
		ca_port_fails(list, "mlx4_0", 5, "device 'mlx4_0' has no port 5");
		ca_port_fails(list, "nosuch", 0, "no RDMA device named 'nosuch'");
		ca_port_fails(list, "nosuch", 1, "no RDMA device named 'nosuch'");
		/* a port negative as an int (-P -1): "not given" (as 0) without a device, a port no
		 * device has with one (libibumad) */
		ca_port_ok(list, NULL, (unsigned)-1, "mlx4_0/2");
		ca_port_fails(list, "mlx4_0", (unsigned)-1, "device 'mlx4_0' has no port 4294967295");
		ibpath_devlist_close(list);
	}
}
END_TEST

START_TEST(test_ca_port_others)
{
	struct ibpath_devlist *list;

	list = test_open_tree("mlx5-2port", 0);
	ca_port_ok(list, NULL, 0, "mlx5_0/1");
	/* Polling is not Disabled: usable with -P */
	ca_port_ok(list, NULL, 2, "mlx5_0/2");
	ca_port_ok(list, "mlx5_0", 2, "mlx5_0/2");
	ibpath_devlist_close(list);

	list = test_open_tree("roce", 0);
	ca_port_ok(list, NULL, 0, "mlx4_0/2");
	ca_port_ok(list, NULL, 1, "mlx4_0/1");
	ca_port_ok(list, "mlx4_0", 0, "mlx4_0/2");
	ca_port_ok(list, "rocep1s0f0", 0, "rocep1s0f0/1");
	ca_port_ok(list, "rocep1s0f0", 1, "rocep1s0f0/1");
	ibpath_devlist_close(list);

	list = test_open_tree("down", 0);
	ca_port_fails(list, NULL, 0, "no RDMA device has a usable InfiniBand port");
	ca_port_fails(list, NULL, 1, "usable InfiniBand port 1");
	ca_port_fails(list, "qib0", 0, "'qib0' has no usable InfiniBand port");
	ca_port_ok(list, "qib0", 1, "qib0/1");
	ibpath_devlist_close(list);

	list = test_open_tree("damaged", 0);
	ca_port_ok(list, NULL, 0, "bad0/1");
	ca_port_ok(list, NULL, 2, "bad0/2");
	/* bad0/3 has an unknown link layer */
	ca_port_fails(list, NULL, 3, "usable InfiniBand port 3");
	ca_port_ok(list, "bad0", 3, "bad0/3");
	ca_port_fails(list, "noports0", 0, "'noports0' has no usable InfiniBand port");
	ibpath_devlist_close(list);
}
END_TEST

/* A switch uses its port 0 (the SMA port) when only the device is named. */
START_TEST(test_switch_port0)
{
	struct ibpath_devlist *list = test_open_tree("switch", 0);

	ca_port_ok(list, NULL, 0, "switch0/0");
	ca_port_ok(list, "switch0", 0, "switch0/0");
	ca_port_fails(list, "switch0", 1, "device 'switch0' has no port 1");
	select_ok(list, "switch0", "switch0/0");
	select_ok(list, "0x7cfe900300a0b1c2", "switch0/0");
	select_ok(list, "fe80::7cfe:9003:a0:b1c2", "switch0/0");
	ibpath_devlist_close(list);
}
END_TEST

/* The selection string and -C/-P agree on the same inputs. */
START_TEST(test_select_matches_ca_port)
{
	static const char *const trees[] = { "mlx5-2port", "roce", "switch", "multi", "damaged" };
	unsigned t, i;

	for (t = 0; t < sizeof(trees) / sizeof(trees[0]); t++) {
		struct ibpath_devlist *list = test_open_tree(trees[t], 0);
		const struct ibpath_port *a = NULL, *b = NULL;

		ck_assert_int_eq(ibpath_devlist_select(list, "", &a, NULL, 0), 0);
		ck_assert_int_eq(ibpath_devlist_select_ca_port(list, NULL, 0, &b, NULL, 0), 0);
		ck_assert_ptr_eq(a, b);
		for (i = 0; i < ibpath_devlist_count(list); i++) {
			const char *name = ibpath_device_name(ibpath_devlist_device(list, i));
			int ra = ibpath_devlist_select(list, name, &a, NULL, 0);
			int rb = ibpath_devlist_select_ca_port(list, name, 0, &b, NULL, 0);

			ck_assert_int_eq(ra, rb);
			if (!ra)
				ck_assert_ptr_eq(a, b);
		}
		ibpath_devlist_close(list);
	}
}
END_TEST

Suite *make_select_suite(void)
{
	Suite *s = suite_create("select");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_default);
	tcase_add_test(tc, test_default_first_active);
	tcase_add_test(tc, test_device);
	tcase_add_test(tc, test_device_port);
	tcase_add_test(tc, test_gid);
	tcase_add_test(tc, test_guid);
	tcase_add_test(tc, test_bad_strings);
	tcase_add_test(tc, test_ca_port_multi);
	tcase_add_test(tc, test_ca_port_others);
	tcase_add_test(tc, test_switch_port0);
	tcase_add_test(tc, test_select_matches_ca_port);
	suite_add_tcase(s, tc);
	return s;
}
