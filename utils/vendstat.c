/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vendstat: Mellanox vendor class 0x0a queries of IS3/IS4 switch chips (and later devices
 * that kept the class), a drop-in replacement for infiniband-diags' vendstat.
 *
 *   vendstat [options] <lid|guid> [port]
 *
 * -N GeneralInfo (0x17), -w the IS3 PortXmitWait counters (config space, 0x50), -i the IS4
 * CounterGroupInfo (0x90), -c the IS4 ConfigCounterGroup (0x91, Set then Get), -R/-W config
 * space reads/writes.  Without a target the local port is asked (and its port number used).
 * Vendor class range 1: the attribute data are the 232 bytes behind the 24-byte header.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibdiag.h"

#define MLX_CLASS 0x0a
#define ATTR_CLASS_PORT_INFO 0x0001
#define ATTR_GENERAL_INFO 0x0017
#define ATTR_CONFIG_SPACE 0x0050
#define ATTR_COUNTER_GROUP_INFO 0x0090
#define ATTR_CONFIG_COUNTER_GROUP 0x0091
#define IS3_DEVICE_ID 0xb924
#define IS3_PORT_XMIT_WAIT 0x10013cu
#define VENDOR1_DATA 232
#define MAX_RECORDS 18

/* GeneralInfo offsets in the attribute data */
#define GI_HW_REV 8
#define GI_DEV_ID 10
#define GI_UPTIME 36
#define GI_FW 40          /* resv, major, minor, sub_minor, build_id(4), month, day, year(2), resv(2), hour(2), psid(16), ini(4) */
#define GI_FW_BUILD (GI_FW + 4)
#define GI_FW_MONTH (GI_FW + 8)
#define GI_FW_DAY (GI_FW + 9)
#define GI_FW_YEAR (GI_FW + 10)
#define GI_FW_PSID (GI_FW + 16)
#define GI_FW_INI (GI_FW + 32)
#define GI_IS3_SW 76      /* resv, major, minor, sub_minor */
#define GI_IS4_EXT 76     /* ext major, minor, sub_minor (32 bits each) */
#define GI_IS4_SW 104
/* config space records: 8 reserved bytes, then {address, data, mask} */
#define CS_REC(i) (8 + 12 * (i))

struct cs_records {
	uint32_t address[MAX_RECORDS], data[MAX_RECORDS], mask[MAX_RECORDS];
	unsigned n;
};

struct vendstat_opts {
	int general_info, xmit_wait, counter_group_info, config_counter_group;
	int cg0, cg1;
	struct cs_records read_cs, write_cs;
};

/* Device IDs whose GeneralInfo has the extended firmware version block. */
static const uint16_t ext_fw_devices[][2] = {
	{ 0x0245, 0x0245 }, { 0xc738, 0xc73b }, { 0xcb20, 0xcb20 }, { 0xcf08, 0xcf08 },
	{ 0xd2f0, 0xd2f0 }, { 0x01b3, 0x01b3 }, { 0x1003, 0x101b }, { 0xa2d2, 0xa2d2 },
	{ 0x1b02, 0x1b02 }, { 0x1b50, 0x1b50 }, { 0x1ba0, 0x1ba0 }, { 0x1bd0, 0x1bd5 },
	{ 0x1bf0, 0x1bf0 }, { 0x1b33, 0x1b33 }, { 0x1b73, 0x1b73 }, { 0x1b40, 0x1b41 },
	{ 0x1b60, 0x1b61 }, { 0x1b83, 0x1b83 }, { 0x1b93, 0x1b94 }, { 0x1bb4, 0x1bb5 },
	{ 0x1bc4, 0x1bc6 },
};

static int has_ext_fw(uint16_t dev)
{
	size_t i;

	for (i = 0; i < sizeof(ext_fw_devices) / sizeof(ext_fw_devices[0]); i++)
		if (ext_fw_devices[i][0] <= dev && dev <= ext_fw_devices[i][1])
			return 1;
	return 0;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static int process_opt(void *ctx, int letter, char *arg)
{
	struct vendstat_opts *o = ctx;
	unsigned address, data, mask;
	int n;

	switch (letter) {
	case 'N':
		o->general_info = 1;
		break;
	case 'w':
		o->xmit_wait = 1;
		break;
	case 'i':
		o->counter_group_info = 1;
		break;
	case 'c':
		o->config_counter_group = 1;
		if (sscanf(arg, "%d,%d", &o->cg0, &o->cg1) != 2)
			return -1;
		break;
	case 'R':
		if (o->read_cs.n >= MAX_RECORDS)
			break;
		n = sscanf(arg, "%x,%x", &address, &mask);
		if (n < 1)
			return -1;
		if (n == 1)
			mask = 0xffffffffu;
		o->read_cs.address[o->read_cs.n] = address;
		o->read_cs.data[o->read_cs.n] = 0;
		o->read_cs.mask[o->read_cs.n++] = mask;
		break;
	case 'W':
		if (o->write_cs.n >= MAX_RECORDS)
			break;
		n = sscanf(arg, "%x,%x,%x", &address, &data, &mask);
		if (n < 2)
			return -1;
		if (n == 2)
			mask = 0xffffffffu;
		o->write_cs.address[o->write_cs.n] = address;
		o->write_cs.data[o->write_cs.n] = data;
		o->write_cs.mask[o->write_cs.n++] = mask;
		break;
	default:
		return -1;
	}
	return 0;
}

/* One vendor MAD; data (VENDOR1_DATA bytes) goes out and the answer comes back in it. */
static int do_vendor(struct ibdiag_port *port, const struct ibpath_path *path, uint8_t method,
		     uint16_t attr_id, uint32_t attr_mod, uint8_t *data)
{
	struct ibmadrpc_request req = {
		.path = path,
		.mgmt_class = MLX_CLASS,
		.method = method,
		.attr_id = attr_id,
		.attr_mod = attr_mod,
		.data = data,
		.data_len = VENDOR1_DATA,
	};
	struct ibmadrpc_reply reply;

	if (ibdiag_call(port, &req, &reply, NULL) < 0) {
		fprintf(stderr, "vendstat: method %u, attribute %u failure\n", method, attr_id);
		return -1;
	}
	ibdiag_reply_data(&reply, data, VENDOR1_DATA);
	return 0;
}

static void config_space(struct ibdiag_port *port, const struct ibpath_path *path, int set,
			 const struct cs_records *cs)
{
	uint8_t buf[VENDOR1_DATA] = { 0 };
	unsigned i;

	for (i = 0; i < cs->n; i++) {
		put32(buf + CS_REC(i), cs->address[i]);
		put32(buf + CS_REC(i) + 4, cs->data[i]);
		put32(buf + CS_REC(i) + 8, cs->mask[i]);
	}
	if (do_vendor(port, path, set ? IBSTRUCT_METHOD_SET : IBSTRUCT_METHOD_GET, ATTR_CONFIG_SPACE,
		      2u << 22 | cs->n << 16, buf)) {
		fprintf(stderr, "cannot %s config space records\n", set ? "set" : "get");
		return;
	}
	for (i = 0; i < cs->n; i++)
		printf("Config space record at 0x%x: 0x%x\n", get32(buf + CS_REC(i)),
		       get32(buf + CS_REC(i) + 4) & get32(buf + CS_REC(i) + 8));
}

static void counter_group_info(struct ibdiag_port *port, const struct ibpath_path *path, int portnum)
{
	uint8_t buf[VENDOR1_DATA] = { 0 };
	int i, n;

	if (do_vendor(port, path, IBSTRUCT_METHOD_GET, ATTR_COUNTER_GROUP_INFO, (uint32_t)portnum, buf)) {
		fprintf(stderr, "counter group info query failure\n");
		return;
	}
	n = buf[11];
	printf("counter_group_info:\n");
	printf("%d counter groups\n", n);
	/* the reference reads the masks from its 1 KiB buffer: past the two it declares, zeros */
	for (i = 0; i < n; i++)
		printf("group%d mask %#x\n", i, 12 + 4 * i + 4 <= VENDOR1_DATA ? get32(buf + 12 + 4 * i) : 0);
}

static void config_counter_groups(struct ibdiag_port *port, const struct ibpath_path *path, int portnum,
				  int cg0, int cg1)
{
	uint8_t buf[VENDOR1_DATA] = { 0 };

	printf("counter_groups_config: configuring group0 %d group1 %d\n", cg0, cg1);
	buf[15] = (uint8_t)cg0;
	buf[19] = (uint8_t)cg1;
	if (do_vendor(port, path, IBSTRUCT_METHOD_SET, ATTR_CONFIG_COUNTER_GROUP, (uint32_t)portnum, buf)) {
		fprintf(stderr, "config counter group set failure\n");
		return;
	}
	memset(buf, 0, sizeof(buf));
	if (do_vendor(port, path, IBSTRUCT_METHOD_GET, ATTR_CONFIG_COUNTER_GROUP, (uint32_t)portnum, buf))
		fprintf(stderr, "config counter group query failure\n");
}

static _Noreturn void fail(struct ibdiag_port *port, const char *what)
{
	ibdiag_close_port(port);
	IBEXIT("%s", what);
}

static void xmit_wait(struct ibdiag_port *port, const struct ibpath_path *path)
{
	uint8_t buf[VENDOR1_DATA];
	unsigned i;
	uint32_t v;

	/* ports 4..19 in one query, then 20..23 and 1..3 ... in a second */
	memset(buf, 0, sizeof(buf));
	for (i = 0; i < 16; i++)
		put32(buf + CS_REC(i), IS3_PORT_XMIT_WAIT + ((i + 1) << 12));
	if (do_vendor(port, path, IBSTRUCT_METHOD_GET, ATTR_CONFIG_SPACE, 2u << 22 | 16u << 16, buf))
		fail(port, "vendstat");
	for (i = 0; i < 16; i++)
		if ((v = get32(buf + CS_REC(i) + 4)))
			printf("Port %u: PortXmitWait 0x%x\n", i + 4, v);

	memset(buf, 0, sizeof(buf));
	for (i = 0; i < 8; i++)
		put32(buf + CS_REC(i), IS3_PORT_XMIT_WAIT + ((i + 17) << 12));
	if (do_vendor(port, path, IBSTRUCT_METHOD_GET, ATTR_CONFIG_SPACE, 2u << 22 | 8u << 16, buf))
		fail(port, "vendstat");
	for (i = 0; i < 8; i++)
		if ((v = get32(buf + CS_REC(i) + 4)))
			printf("Port %u: PortXmitWait 0x%x\n", i < 4 ? i + 21 : i - 3, v);
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{ "N", 'N', 0, NULL, "show IS3 or IS4 general information" },
		{ "w", 'w', 0, NULL, "show IS3 port xmit wait counters" },
		{ "i", 'i', 0, NULL, "show IS4 counter group info" },
		{ "c", 'c', 1, "<num,num>", "configure IS4 counter groups" },
		{ "Read", 'R', 1, "<addr,mask>", "Read configuration space record at addr" },
		{ "Write", 'W', 1, "<addr,val,mask>", "Write configuration space record at addr" },
		{ NULL, 0, 0, NULL, NULL },
	};
	static const char *const examples[] = {
		"-N 6\t\t# read IS3 or IS4 general information",
		"-w 6\t\t# read IS3 port xmit wait counters",
		"-i 6 12\t# read IS4 port 12 counter group info",
		"-c 0,1 6 12\t# configure IS4 port 12 counter groups for PortXmitDataSL",
		"-c 2,8 6 12\t# configure IS4 port 12 counter groups for PortRcvDataSL",
		NULL,
	};
	static struct vendstat_opts o;
	struct ibpath_path *path = NULL;
	struct ibdiag_port *port;
	uint8_t gi[VENDOR1_DATA];
	unsigned fw_major, fw_minor, fw_sub, sw_major, sw_minor, sw_sub;
	uint16_t dev;
	int first, portnum = 0;

	first = ibdiag_process_opts(argc, argv, &o, "DKy", opts, process_opt, "<lid|guid> [port]", examples);
	argc -= first;
	argv += first;
	if (argc > 1)
		portnum = (int)strtoul(argv[1], NULL, 0);

	port = ibdiag_open_port();
	if (argc) {
		if (ibdiag_resolve(port, argv[0], ibd.dest_type, &path) < 0) {
			ibdiag_close_port(port);
			IBEXIT("can't resolve destination port %s", argv[0]);
		}
	} else {
		/* the local port: its LID, and its number as the port argument */
		const char *name = ibmadrpc_port_name(port->port);
		const char *slash = name ? strrchr(name, '/') : NULL;

		if (ibdiag_self(port, NULL, NULL, NULL) < 0 ||
		    ibpath_path_new(&path, IBPATH_KIND_IB) < 0 || !port->lid) {
			ibdiag_close_port(port);
			IBEXIT("can't resolve self port %s", "(null)");
		}
		ibpath_path_set(path, IBPATH_DLID, port->lid);
		portnum = slash ? atoi(slash + 1) : (int)ibd.ca_port;
	}

	if (o.counter_group_info) {
		counter_group_info(port, path, portnum);
		goto out;
	}
	if (o.config_counter_group) {
		config_counter_groups(port, path, portnum, o.cg0, o.cg1);
		goto out;
	}
	if (o.read_cs.n || o.write_cs.n) {
		if (o.read_cs.n)
			config_space(port, path, 0, &o.read_cs);
		if (o.write_cs.n)
			config_space(port, path, 1, &o.write_cs);
		goto out;
	}
	if (!o.general_info && !o.xmit_wait)
		fail(port, "at least one of -N and -w must be specified");

	memset(gi, 0, sizeof(gi));
	if (do_vendor(port, path, IBSTRUCT_METHOD_GET, ATTR_CLASS_PORT_INFO, 0, gi))
		fail(port, "classportinfo query");
	memset(gi, 0, sizeof(gi));
	if (do_vendor(port, path, IBSTRUCT_METHOD_GET, ATTR_GENERAL_INFO, 0, gi))
		fail(port, "generalinfo query");

	dev = get16(gi + GI_DEV_ID);
	if (has_ext_fw(dev)) {
		fw_major = get32(gi + GI_IS4_EXT);
		fw_minor = get32(gi + GI_IS4_EXT + 4);
		fw_sub = get32(gi + GI_IS4_EXT + 8);
		sw_major = gi[GI_IS4_SW + 1];
		sw_minor = gi[GI_IS4_SW + 2];
		sw_sub = gi[GI_IS4_SW + 3];
	} else {
		fw_major = gi[GI_FW + 1];
		fw_minor = gi[GI_FW + 2];
		fw_sub = gi[GI_FW + 3];
		sw_major = gi[GI_IS3_SW + 1];
		sw_minor = gi[GI_IS3_SW + 2];
		sw_sub = gi[GI_IS3_SW + 3];
	}
	if (o.general_info) {
		/* the reference prints the PSID as a C string: a PSID of 16 characters runs on
		 * into the ini version's bytes (up to the first 0; the buffer ends in zeros) */
		int psid_len = (int)strnlen((const char *)gi + GI_FW_PSID, VENDOR1_DATA - GI_FW_PSID);

		printf("hw_dev_rev:  0x%04x\n", get16(gi + GI_HW_REV));
		printf("hw_dev_id:   0x%04x\n", dev);
		printf("hw_uptime:   0x%08x\n", get32(gi + GI_UPTIME));
		printf("fw_version:  %02d.%02d.%02d\n", (int)fw_major, (int)fw_minor, (int)fw_sub);
		printf("fw_build_id: 0x%04x\n", get32(gi + GI_FW_BUILD));
		printf("fw_date:     %02x/%02x/%04x\n", gi[GI_FW_MONTH], gi[GI_FW_DAY], get16(gi + GI_FW_YEAR));
		printf("fw_psid:     '%.*s'\n", psid_len, (const char *)gi + GI_FW_PSID);
		printf("fw_ini_ver:  %d\n", (int)get32(gi + GI_FW_INI));
		printf("sw_version:  %02d.%02d.%02d\n", (int)sw_major, (int)sw_minor, (int)sw_sub);
	}
	if (o.xmit_wait) {
		if (dev != IS3_DEVICE_ID) {
			ibdiag_close_port(port);
			IBEXIT("Unsupported device ID 0x%x", dev);
		}
		xmit_wait(port, path);
	}
out:
	ibpath_path_unref(path);
	ibdiag_close_port(port);
	return 0;
}
