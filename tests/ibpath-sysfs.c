// SPDX-License-Identifier: BSD-3-Clause
/* Devices and ports read from the shipped fake sysfs trees: every getter, exact values. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-ibpath.h"

#define LINK_LOCAL 0xfe80000000000000ull
#define IB IBPATH_LINK_LAYER_INFINIBAND
#define ETH IBPATH_LINK_LAYER_ETHERNET
#define UNKNOWN IBPATH_LINK_LAYER_UNKNOWN

struct exp_dev {
	const char *name;
	unsigned node_type;
	uint64_t node_guid, sys_image_guid;
	const char *fw_ver, *hw_rev, *hca_type, *board_id, *node_desc;
	unsigned nports;
};

struct exp_port {
	const char *dev;
	unsigned num;
	uint16_t lid;
	uint8_t lmc;
	uint16_t sm_lid;
	uint8_t sm_sl;
	unsigned state, phys_state;
	const char *rate;
	unsigned mbps;
	uint32_t cap_mask;
	enum ibpath_link_layer link_layer;
	uint64_t guid, prefix;
	const char *gids[4]; /* NULL-terminated; "::" for an all-zero entry */
	unsigned npkeys;
	uint16_t pkeys[4];
	const char *umad, *issm;
};

static void check_device(const struct ibpath_device *dev, const struct exp_dev *e)
{
	ck_assert_ptr_nonnull(dev);
	ck_assert_str_eq(ibpath_device_name(dev), e->name);
	ck_assert_uint_eq(ibpath_device_node_type(dev), e->node_type);
	ck_assert_msg(ibpath_device_node_guid(dev) == e->node_guid, "%s node GUID 0x%llx", e->name,
		      (unsigned long long)ibpath_device_node_guid(dev));
	ck_assert_msg(ibpath_device_sys_image_guid(dev) == e->sys_image_guid, "%s system GUID", e->name);
	ck_assert_str_eq(ibpath_device_fw_ver(dev), e->fw_ver);
	ck_assert_str_eq(ibpath_device_hw_rev(dev), e->hw_rev);
	ck_assert_str_eq(ibpath_device_hca_type(dev), e->hca_type);
	ck_assert_str_eq(ibpath_device_board_id(dev), e->board_id);
	ck_assert_str_eq(ibpath_device_node_desc(dev), e->node_desc);
	ck_assert_uint_eq(ibpath_device_port_count(dev), e->nports);
}

static void check_port(const struct ibpath_devlist *list, const struct exp_port *e)
{
	const struct ibpath_device *dev = ibpath_devlist_find(list, e->dev);
	const struct ibpath_port *port = ibpath_device_port_by_num(dev, e->num);
	char name[128], want[128];
	unsigned i, ngids = 0;

	ck_assert_msg(port != NULL, "no port %s/%u", e->dev, e->num);
	snprintf(want, sizeof(want), "%s/%u", e->dev, e->num);
	ck_assert_int_eq(ibpath_port_format(port, name, sizeof(name)), (int)strlen(want));
	ck_assert_str_eq(name, want);
	ck_assert_ptr_eq(ibpath_port_device(port), dev);
	ck_assert_uint_eq(ibpath_port_num(port), e->num);
	ck_assert_msg(ibpath_port_lid(port) == e->lid, "%s lid %u", want, ibpath_port_lid(port));
	ck_assert_msg(ibpath_port_lmc(port) == e->lmc, "%s lmc", want);
	ck_assert_msg(ibpath_port_sm_lid(port) == e->sm_lid, "%s sm_lid", want);
	ck_assert_msg(ibpath_port_sm_sl(port) == e->sm_sl, "%s sm_sl", want);
	ck_assert_msg(ibpath_port_state(port) == e->state, "%s state %u", want, ibpath_port_state(port));
	ck_assert_msg(ibpath_port_phys_state(port) == e->phys_state, "%s phys_state", want);
	ck_assert_str_eq(ibpath_port_rate_text(port), e->rate);
	ck_assert_msg(ibpath_port_rate_mbps(port) == e->mbps, "%s rate %u Mb/s", want,
		      ibpath_port_rate_mbps(port));
	ck_assert_msg(ibpath_port_cap_mask(port) == e->cap_mask, "%s cap_mask 0x%x", want,
		      ibpath_port_cap_mask(port));
	ck_assert_msg(ibpath_port_link_layer(port) == e->link_layer, "%s link layer %d", want,
		      (int)ibpath_port_link_layer(port));
	ck_assert_msg(ibpath_port_guid(port) == e->guid, "%s port GUID 0x%llx", want,
		      (unsigned long long)ibpath_port_guid(port));
	ck_assert_msg(ibpath_port_subnet_prefix(port) == e->prefix, "%s subnet prefix", want);
	while (e->gids[ngids])
		ngids++;
	ck_assert_uint_eq(ibpath_port_gid_count(port), ngids);
	for (i = 0; i < ngids; i++) {
		ibstruct_gid_t got, exp = gid_from_text(e->gids[i]);

		ck_assert_int_eq(ibpath_port_gid(port, i, &got), 0);
		ck_assert_msg(!memcmp(got.raw, exp.raw, 16), "%s gid %u", want, i);
	}
	ck_assert_int_eq(ibpath_port_gid(port, ngids, &(ibstruct_gid_t){ { 0 } }), -ERANGE);
	ck_assert_uint_eq(ibpath_port_pkey_count(port), e->npkeys);
	for (i = 0; i < e->npkeys; i++)
		ck_assert_msg(ibpath_port_pkey(port, i) == e->pkeys[i], "%s pkey %u", want, i);
	ck_assert_uint_eq(ibpath_port_pkey(port, e->npkeys), 0);
	if (e->umad)
		ck_assert_str_eq(ibpath_port_umad_name(port), e->umad);
	else
		ck_assert_ptr_null(ibpath_port_umad_name(port));
	if (e->issm)
		ck_assert_str_eq(ibpath_port_issm_name(port), e->issm);
	else
		ck_assert_ptr_null(ibpath_port_issm_name(port));
	ck_assert_uint_eq(ibpath_port_subnet_timeout(port), 18);
}

/* Devices are given in name order; the tree is opened sorted. */
static void check_tree(const char *tree, const struct exp_dev *devs, unsigned ndevs,
		       const struct exp_port *ports, unsigned nports)
{
	struct ibpath_devlist *list = test_open_tree(tree, IBPATH_DEVLIST_SORTED);
	unsigned i, j, total = 0;

	ck_assert_uint_eq(ibpath_devlist_count(list), ndevs);
	for (i = 0; i < ndevs; i++) {
		const struct ibpath_device *dev = ibpath_devlist_device(list, i);

		check_device(dev, &devs[i]);
		ck_assert_ptr_eq(ibpath_devlist_find(list, devs[i].name), dev);
		/* ports by index come in port number order */
		for (j = 0; j < ibpath_device_port_count(dev); j++) {
			const struct ibpath_port *p = ibpath_device_port(dev, j);

			ck_assert_ptr_nonnull(p);
			ck_assert_ptr_eq(ibpath_port_device(p), dev);
			if (j)
				ck_assert_uint_gt(ibpath_port_num(p),
						  ibpath_port_num(ibpath_device_port(dev, j - 1)));
		}
		ck_assert_ptr_null(ibpath_device_port(dev, j));
		total += ibpath_device_port_count(dev);
	}
	ck_assert_ptr_null(ibpath_devlist_device(list, ndevs));
	ck_assert_uint_eq(total, nports);
	for (i = 0; i < nports; i++)
		check_port(list, &ports[i]);
	ibpath_devlist_close(list);
}

#define N(a) (unsigned)(sizeof(a) / sizeof((a)[0]))

START_TEST(test_tree_mlx5_2port)
{
	static const struct exp_dev devs[] = {
		{ "mlx5_0", 1, 0x0002c90300001490ull, 0x0002c90300001493ull, "16.35.2000", "0x0", "MT4119",
		  "MT_0000000010", "host1 mlx5_0", 2 },
	};
	static const struct exp_port ports[] = {
		{ "mlx5_0", 1, 2, 0, 1, 0, 4, 5, "56 Gb/sec (4X FDR)", 56000, 0x2651e84a, IB,
		  0x0002c90300001491ull, LINK_LOCAL,
		  { "fe80::2:c903:0:1491", "2001:db8:0:1:2:c903:0:1491", "::" }, 3, { 0xffff, 0x8001, 0 },
		  "umad0", "issm0" },
		{ "mlx5_0", 2, 0, 0, 0, 0, 1, 2, "10 Gb/sec (4X SDR)", 10000, 0x2651e848, IB,
		  0x0002c90300001492ull, LINK_LOCAL, { "fe80::2:c903:0:1492", "::" }, 2, { 0xffff, 0 },
		  "umad1", "issm1" },
	};

	check_tree("mlx5-2port", devs, N(devs), ports, N(ports));
}
END_TEST

START_TEST(test_tree_roce)
{
	static const struct exp_dev devs[] = {
		{ "mlx4_0", 1, 0x0002c90300100a00ull, 0x0002c90300100a03ull, "2.42.5000", "0x1", "MT4099",
		  "MT_1090120019", "host2 mlx4_0", 2 },
		{ "rocep1s0f0", 1, 0x0a0027fffe123456ull, 0x0a0027fffe123456ull, "22.36.1010", "0x0",
		  "MT4125", "MT_0000000359", "host2 rocep1s0f0", 1 },
	};
	static const struct exp_port ports[] = {
		{ "mlx4_0", 1, 0, 0, 0, 0, 1, 2, "40 Gb/sec (4X QDR)", 40000, 0x02514868, IB,
		  0x0002c90300100a01ull, LINK_LOCAL, { "fe80::2:c903:10:a01" }, 1, { 0xffff }, "umad1",
		  "issm1" },
		{ "mlx4_0", 2, 0, 0, 0, 0, 2, 5, "40 Gb/sec (4X QDR)", 40000, 0x02514868, IB,
		  0x0002c90300100a02ull, LINK_LOCAL, { "fe80::2:c903:10:a02" }, 1, { 0xffff }, "umad2",
		  "issm2" },
		{ "rocep1s0f0", 1, 0, 0, 0, 0, 4, 5, "25 Gb/sec (1X EDR)", 25000, 0x00010000, ETH,
		  0x0a0027fffe123456ull, LINK_LOCAL, { "fe80::a00:27ff:fe12:3456", "::ffff:192.168.1.2" }, 1,
		  { 0xffff }, "umad0", "issm0" },
	};

	check_tree("roce", devs, N(devs), ports, N(ports));
}
END_TEST

START_TEST(test_tree_switch)
{
	static const struct exp_dev devs[] = {
		{ "switch0", 2, 0x7cfe900300a0b1c2ull, 0x7cfe900300a0b1c2ull, "27.2010.3118", "0xa2",
		  "MT54000", "MT_2630110032", "MF0;sw-leaf1:MSB7700/U1", 1 },
	};
	static const struct exp_port ports[] = {
		{ "switch0", 0, 1, 0, 1, 0, 4, 5, "100 Gb/sec (4X EDR)", 100000, 0x0000c04a, IB,
		  0x7cfe900300a0b1c2ull, LINK_LOCAL, { "fe80::7cfe:9003:a0:b1c2" }, 2, { 0xffff, 0x7fff },
		  "umad0", "issm0" },
	};

	check_tree("switch", devs, N(devs), ports, N(ports));
}
END_TEST

START_TEST(test_tree_down)
{
	static const struct exp_dev devs[] = {
		{ "qib0", 1, 0x0011750000798a5eull, 0x0011750000798a5eull, "0.0.0", "2",
		  "InfiniPath_QLE7340", "InfiniPath_QLE7340", "host3 qib0", 1 },
	};
	static const struct exp_port ports[] = {
		{ "qib0", 1, 0, 0, 0, 0, 1, 3, "40 Gb/sec (4X QDR)", 40000, 0x07610868, IB,
		  0x0011750000798a5eull, LINK_LOCAL, { "fe80::11:7500:79:8a5e" }, 1, { 0xffff }, "umad0",
		  "issm0" },
	};

	check_tree("down", devs, N(devs), ports, N(ports));
}
END_TEST

/* Missing files read as 0/empty, garbage numbers as 0, missing link_layer as InfiniBand,
 * a garbage GID as all zeros; GID and P_Key tables stop at the first missing index; a
 * device without a ports directory is skipped, one with an empty one is kept. */
START_TEST(test_tree_damaged)
{
	static const struct exp_dev devs[] = {
		{ "bad0", 1, 0, 0, "2.42.5000", "", "", "", "damaged  node ", 3 },
		{ "noports0", 1, 0x0002c90300ff0000ull, 0, "", "", "", "", "", 0 },
	};
	static const struct exp_port ports[] = {
		/* no link_layer, no gids, garbage lid/state, no trailing newlines */
		{ "bad0", 1, 0, 0, 1, 0, 0, 5, "", 0, 0x0050c048, IB, 0, 0, { NULL }, 1, { 0xffff },
		  "umad0", NULL },
		/* an empty port directory */
		{ "bad0", 2, 0, 0, 0, 0, 0, 0, "", 0, 0, IB, 0, 0, { NULL }, 0, { 0 }, NULL, NULL },
		/* garbage GID 0, GUID from port_guid, unknown link layer, fractional rate */
		{ "bad0", 3, 0x10, 2, 0, 0, 4, 5, "2.5 Gb/sec (1X SDR)", 2500, 0, UNKNOWN, 0xabcdefull, 0,
		  { "::", "fe80::ab:cdef" }, 0, { 0 }, NULL, "issm3" },
	};

	check_tree("damaged", devs, N(devs), ports, N(ports));
}
END_TEST

START_TEST(test_tree_multi)
{
	static const struct exp_dev devs[] = {
		{ "mlx4_0", 1, 0x0002c90300abcd00ull, 0x0002c90300abcd03ull, "2.42.5000", "0x1", "MT4099",
		  "MT_1090120019", "host4 mlx4_0", 2 },
		{ "mlx5_0", 1, 0x0002c90300ef0100ull, 0x0002c90300ef0100ull, "20.31.1014", "0x0", "MT4123",
		  "MT_0000000223", "host4 mlx5_0", 2 },
	};
	static const struct exp_port ports[] = {
		{ "mlx4_0", 1, 0, 0, 0, 0, 2, 5, "40 Gb/sec (4X QDR)", 40000, 0x02514868, IB,
		  0x0002c90300abcd01ull, LINK_LOCAL, { "fe80::2:c903:ab:cd01" }, 1, { 0xffff }, "umad0",
		  "issm0" },
		{ "mlx4_0", 2, 5, 0, 1, 0, 4, 5, "40 Gb/sec (4X QDR)", 40000, 0x02514868, IB,
		  0x0002c90300abcd02ull, LINK_LOCAL, { "fe80::2:c903:ab:cd02" }, 1, { 0xffff }, "umad1",
		  "issm1" },
		{ "mlx5_0", 1, 0x1a, 1, 3, 2, 4, 5, "200 Gb/sec (4X HDR)", 200000, 0xa651e84a, IB,
		  0x0002c90300ef0101ull, 0xfec0000000000000ull,
		  { "fec0::2:c903:ef:101", "fe80::2:c903:ef:101" }, 2, { 0xffff, 0x8002 }, "umad2", "issm2" },
		{ "mlx5_0", 2, 0, 0, 0, 0, 1, 3, "10 Gb/sec (4X SDR)", 10000, 0xa651e848, IB,
		  0x0002c90300ef0102ull, 0xfec0000000000000ull, { "fec0::2:c903:ef:102" }, 1, { 0xffff },
		  "umad3", "issm3" },
	};

	check_tree("multi", devs, N(devs), ports, N(ports));
}
END_TEST

static int open_root(const char *root, struct ibpath_devlist **out)
{
	return ibpath_devlist_open(out, root, 0);
}

START_TEST(test_no_devices)
{
	struct ibpath_devlist *list = (struct ibpath_devlist *)&list, *sentinel = list;
	char root[4096];

	/* no class/infiniband at all */
	snprintf(root, sizeof(root), "%s/does-not-exist", SYSFS_DIR);
	ck_assert_int_eq(open_root(root, &list), -ENODEV);
	ck_assert_ptr_eq(list, sentinel);
	ck_assert_int_eq(open_root(SYSFS_DIR, &list), -ENODEV);
	ck_assert_ptr_eq(list, sentinel);
	/* class/infiniband holds nothing but .keep */
	snprintf(root, sizeof(root), "%s/empty", SYSFS_DIR);
	ck_assert_int_eq(open_root(root, &list), -ENODEV);
	ck_assert_ptr_eq(list, sentinel);
	ck_assert_int_eq(ibpath_devlist_open(&list, root, IBPATH_DEVLIST_SORTED), -ENODEV);
	ck_assert_ptr_eq(list, sentinel);
	/* the root is a file */
	snprintf(root, sizeof(root), "%s/mlx5-2port/class/infiniband_mad/abi_version", SYSFS_DIR);
	ck_assert_int_eq(open_root(root, &list), -ENOTDIR);
	ck_assert_ptr_eq(list, sentinel);
	/* a root too long for any path */
	memset(root, 'x', sizeof(root) - 1);
	root[0] = '/';
	root[sizeof(root) - 1] = 0;
	ck_assert_int_eq(open_root(root, &list), -ENAMETOOLONG);
	ck_assert_ptr_eq(list, sentinel);
	ck_assert_int_eq(ibpath_devlist_open(NULL, SYSFS_DIR "/multi", 0), -EINVAL);
}
END_TEST

/* NULL means /sys: whatever this machine has, the call succeeds or finds no device. */
START_TEST(test_default_root)
{
	struct ibpath_devlist *list = NULL;
	int rc = ibpath_devlist_open(&list, NULL, 0);

	ck_assert_msg(rc == 0 || rc == -ENODEV || rc == -EACCES, "rc %d", rc);
	if (rc == 0)
		ck_assert_uint_gt(ibpath_devlist_count(list), 0);
	ibpath_devlist_close(list);
}
END_TEST

/* Without IBPATH_DEVLIST_SORTED the devices come in readdir() order, as libibumad lists them. */
static void check_order(const char *tree, const char *const *skip)
{
	struct ibpath_devlist *unsorted = test_open_tree(tree, 0);
	struct ibpath_devlist *sorted = test_open_tree(tree, IBPATH_DEVLIST_SORTED);
	char dir[1024];
	struct dirent *de;
	unsigned i = 0, j;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%s/class/infiniband", SYSFS_DIR, tree);
	d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		const char *const *s;
		bool skipped = de->d_name[0] == '.';

		for (s = skip; *s; s++)
			skipped |= !strcmp(*s, de->d_name);
		if (skipped)
			continue;
		ck_assert_ptr_nonnull(ibpath_devlist_device(unsorted, i));
		ck_assert_str_eq(ibpath_device_name(ibpath_devlist_device(unsorted, i)), de->d_name);
		i++;
	}
	closedir(d);
	ck_assert_uint_eq(ibpath_devlist_count(unsorted), i);
	ck_assert_uint_eq(ibpath_devlist_count(sorted), i);
	for (j = 1; j < i; j++)
		ck_assert_int_lt(strcmp(ibpath_device_name(ibpath_devlist_device(sorted, j - 1)),
					ibpath_device_name(ibpath_devlist_device(sorted, j))),
				 0);
	/* the same devices either way */
	for (j = 0; j < i; j++)
		ck_assert_ptr_nonnull(ibpath_devlist_find(
			sorted, ibpath_device_name(ibpath_devlist_device(unsorted, j))));
	ibpath_devlist_close(unsorted);
	ibpath_devlist_close(sorted);
}

START_TEST(test_directory_order)
{
	static const char *const none[] = { NULL };
	static const char *const portless[] = { "portless0", NULL };

	check_order("multi", none);
	check_order("roce", none);
	check_order("damaged", portless);
}
END_TEST

START_TEST(test_lookup)
{
	struct ibpath_devlist *list = test_open_tree("mlx5-2port", 0);
	const struct ibpath_device *dev = ibpath_devlist_find(list, "mlx5_0");

	ck_assert_ptr_nonnull(dev);
	ck_assert_ptr_eq(ibpath_devlist_device(list, 0), dev);
	ck_assert_ptr_null(ibpath_devlist_device(list, 1));
	ck_assert_ptr_null(ibpath_devlist_find(list, "mlx5_1"));
	ck_assert_ptr_null(ibpath_devlist_find(list, "mlx5"));
	ck_assert_ptr_null(ibpath_devlist_find(list, ""));
	ck_assert_ptr_null(ibpath_devlist_find(list, NULL));
	ck_assert_ptr_null(ibpath_devlist_find(NULL, "mlx5_0"));
	ck_assert_ptr_eq(ibpath_device_port(dev, 0), ibpath_device_port_by_num(dev, 1));
	ck_assert_ptr_eq(ibpath_device_port(dev, 1), ibpath_device_port_by_num(dev, 2));
	ck_assert_ptr_null(ibpath_device_port(dev, 2));
	ck_assert_ptr_null(ibpath_device_port_by_num(dev, 0));
	ck_assert_ptr_null(ibpath_device_port_by_num(dev, 3));
	ibpath_devlist_close(list);
}
END_TEST

/* Every getter tolerates NULL and answers its documented default. */
START_TEST(test_null_getters)
{
	ibstruct_gid_t gid;
	char buf[16];

	ck_assert_uint_eq(ibpath_devlist_count(NULL), 0);
	ck_assert_ptr_null(ibpath_devlist_device(NULL, 0));
	ibpath_devlist_close(NULL);
	ck_assert_ptr_null(ibpath_device_name(NULL));
	ck_assert_uint_eq(ibpath_device_node_type(NULL), 0);
	ck_assert_uint_eq(ibpath_device_node_guid(NULL), 0);
	ck_assert_uint_eq(ibpath_device_sys_image_guid(NULL), 0);
	ck_assert_ptr_null(ibpath_device_fw_ver(NULL));
	ck_assert_ptr_null(ibpath_device_hw_rev(NULL));
	ck_assert_ptr_null(ibpath_device_hca_type(NULL));
	ck_assert_ptr_null(ibpath_device_board_id(NULL));
	ck_assert_ptr_null(ibpath_device_node_desc(NULL));
	ck_assert_uint_eq(ibpath_device_port_count(NULL), 0);
	ck_assert_ptr_null(ibpath_device_port(NULL, 0));
	ck_assert_ptr_null(ibpath_device_port_by_num(NULL, 1));
	ck_assert_ptr_null(ibpath_port_device(NULL));
	ck_assert_uint_eq(ibpath_port_num(NULL), 0);
	ck_assert_uint_eq(ibpath_port_lid(NULL), 0);
	ck_assert_uint_eq(ibpath_port_lmc(NULL), 0);
	ck_assert_uint_eq(ibpath_port_sm_lid(NULL), 0);
	ck_assert_uint_eq(ibpath_port_sm_sl(NULL), 0);
	ck_assert_uint_eq(ibpath_port_state(NULL), 0);
	ck_assert_uint_eq(ibpath_port_phys_state(NULL), 0);
	ck_assert_ptr_null(ibpath_port_rate_text(NULL));
	ck_assert_uint_eq(ibpath_port_rate_mbps(NULL), 0);
	ck_assert_uint_eq(ibpath_port_cap_mask(NULL), 0);
	ck_assert_int_eq(ibpath_port_link_layer(NULL), IBPATH_LINK_LAYER_UNKNOWN);
	ck_assert_uint_eq(ibpath_port_guid(NULL), 0);
	ck_assert_uint_eq(ibpath_port_subnet_prefix(NULL), 0);
	ck_assert_uint_eq(ibpath_port_gid_count(NULL), 0);
	ck_assert_int_eq(ibpath_port_gid(NULL, 0, &gid), -EINVAL);
	ck_assert_uint_eq(ibpath_port_pkey_count(NULL), 0);
	ck_assert_uint_eq(ibpath_port_pkey(NULL, 0), 0);
	ck_assert_ptr_null(ibpath_port_umad_name(NULL));
	ck_assert_ptr_null(ibpath_port_issm_name(NULL));
	ck_assert_uint_eq(ibpath_port_subnet_timeout(NULL), 18);
	ibpath_port_set_subnet_timeout(NULL, 3);
	ck_assert_int_eq(ibpath_port_format(NULL, buf, sizeof(buf)), -EINVAL);
}
END_TEST

START_TEST(test_gid_getter)
{
	struct ibpath_devlist *list = test_open_tree("mlx5-2port", 0);
	const struct ibpath_port *p = ibpath_device_port(ibpath_devlist_device(list, 0), 0);
	ibstruct_gid_t gid = gid_from_text("ff02::1"), keep = gid;

	ck_assert_int_eq(ibpath_port_gid(p, 0, NULL), -EINVAL);
	ck_assert_int_eq(ibpath_port_gid(p, 3, &gid), -ERANGE);
	ck_assert_int_eq(ibpath_port_gid(p, ~0u, &gid), -ERANGE);
	ck_assert(!memcmp(gid.raw, keep.raw, 16));
	ck_assert_int_eq(ibpath_port_gid(p, 1, &gid), 0);
	ck_assert_uint_eq(ibstruct_gid_prefix(&gid), 0x20010db800000001ull);
	ck_assert_uint_eq(ibstruct_gid_guid(&gid), ibpath_port_guid(p));
	ck_assert_uint_eq(ibpath_port_pkey(p, ~0u), 0);
	ibpath_devlist_close(list);
}
END_TEST

START_TEST(test_subnet_timeout)
{
	struct ibpath_devlist *list = test_open_tree("mlx5-2port", 0);
	const struct ibpath_device *dev = ibpath_devlist_find(list, "mlx5_0");
	struct ibpath_port *p1 = (struct ibpath_port *)ibpath_device_port_by_num(dev, 1);
	const struct ibpath_port *p2 = ibpath_device_port_by_num(dev, 2);

	ck_assert_uint_eq(ibpath_port_subnet_timeout(p1), 18);
	ibpath_port_set_subnet_timeout(p1, 14);
	ck_assert_uint_eq(ibpath_port_subnet_timeout(p1), 14);
	ck_assert_uint_eq(ibpath_port_subnet_timeout(p2), 18);
	ibpath_port_set_subnet_timeout(p1, 31);
	ck_assert_uint_eq(ibpath_port_subnet_timeout(p1), 31);
	/* a 5-bit field: larger values are ignored */
	ibpath_port_set_subnet_timeout(p1, 32);
	ck_assert_uint_eq(ibpath_port_subnet_timeout(p1), 31);
	ibpath_port_set_subnet_timeout(p1, 0);
	ck_assert_uint_eq(ibpath_port_subnet_timeout(p1), 0);
	ibpath_devlist_close(list);
}
END_TEST

START_TEST(test_port_format)
{
	struct ibpath_devlist *list = test_open_tree("switch", 0);
	const struct ibpath_port *p = ibpath_device_port(ibpath_devlist_device(list, 0), 0);
	char buf[32];

	ck_assert_int_eq(ibpath_port_format(p, buf, sizeof(buf)), 9);
	ck_assert_str_eq(buf, "switch0/0");
	/* snprintf semantics: the full length, a truncated NUL-terminated text */
	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(ibpath_port_format(p, buf, 4), 9);
	ck_assert_str_eq(buf, "swi");
	ck_assert_int_eq(ibpath_port_format(p, NULL, 0), 9);
	ibpath_devlist_close(list);
}
END_TEST

/* umad/issm names come from class/infiniband_mad; entries naming an unknown device or
 * port, lacking a file, or not called umad<N>/issm<N> are ignored. */
START_TEST(test_mad_device_names)
{
	struct ibpath_devlist *list = test_open_tree("damaged", 0);
	const struct ibpath_device *bad = ibpath_devlist_find(list, "bad0");

	ck_assert_str_eq(ibpath_port_umad_name(ibpath_device_port_by_num(bad, 1)), "umad0");
	ck_assert_ptr_null(ibpath_port_issm_name(ibpath_device_port_by_num(bad, 1)));
	ck_assert_ptr_null(ibpath_port_umad_name(ibpath_device_port_by_num(bad, 3)));
	ck_assert_str_eq(ibpath_port_issm_name(ibpath_device_port_by_num(bad, 3)), "issm3");
	ibpath_devlist_close(list);

	list = test_open_tree("multi", IBPATH_DEVLIST_SORTED);
	ck_assert_str_eq(ibpath_port_umad_name(ibpath_device_port_by_num(
				 ibpath_devlist_find(list, "mlx5_0"), 2)),
			 "umad3");
	ck_assert_str_eq(ibpath_port_issm_name(ibpath_device_port_by_num(
				 ibpath_devlist_find(list, "mlx4_0"), 2)),
			 "issm1");
	ibpath_devlist_close(list);
}
END_TEST

/* Two snapshots of one tree are independent and equal. */
START_TEST(test_two_snapshots)
{
	struct ibpath_devlist *a = test_open_tree("multi", IBPATH_DEVLIST_SORTED);
	struct ibpath_devlist *b = test_open_tree("multi", IBPATH_DEVLIST_SORTED);
	struct ibpath_port *pa = (struct ibpath_port *)ibpath_device_port(ibpath_devlist_device(a, 1), 0);
	const struct ibpath_port *pb = ibpath_device_port(ibpath_devlist_device(b, 1), 0);

	ck_assert_ptr_ne(pa, pb);
	ck_assert_uint_eq(ibpath_port_guid(pa), ibpath_port_guid(pb));
	ibpath_port_set_subnet_timeout(pa, 9);
	ck_assert_uint_eq(ibpath_port_subnet_timeout(pb), 18);
	ibpath_devlist_close(a);
	ck_assert_uint_eq(ibpath_port_lid(pb), 0x1a);
	ibpath_devlist_close(b);
}
END_TEST

Suite *make_sysfs_suite(void)
{
	Suite *s = suite_create("sysfs");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_tree_mlx5_2port);
	tcase_add_test(tc, test_tree_roce);
	tcase_add_test(tc, test_tree_switch);
	tcase_add_test(tc, test_tree_down);
	tcase_add_test(tc, test_tree_damaged);
	tcase_add_test(tc, test_tree_multi);
	tcase_add_test(tc, test_no_devices);
	tcase_add_test(tc, test_default_root);
	tcase_add_test(tc, test_directory_order);
	tcase_add_test(tc, test_lookup);
	tcase_add_test(tc, test_null_getters);
	tcase_add_test(tc, test_gid_getter);
	tcase_add_test(tc, test_subnet_timeout);
	tcase_add_test(tc, test_port_format);
	tcase_add_test(tc, test_mad_device_names);
	tcase_add_test(tc, test_two_snapshots);
	suite_add_tcase(s, tc);
	return s;
}
