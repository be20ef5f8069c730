/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * smpquery: formatted SubnGet queries of the SMA attributes of one node, a drop-in
 * replacement for infiniband-diags' smpquery (same options, output, errors, exit codes).
 *
 *   smpquery [options] <op> <dest dr_path|lid|guid> [op params]
 *
 * Each operation prints one attribute (or a table built from several) the way libibmad's
 * dump functions do; failures end with "operation <op>: <reason>" (IBEXIT, status 255).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ibdiag.h"

#define SMP_DATA 64

/* libibmad's IB_NODE_SWITCH */
#define NODE_TYPE_SWITCH 2
#define ATTR_PORT_INFO_EXT 0x0033
#define ATTR_MLNX_EXT_PORT_INFO 0xff90

static struct ibdiag_port *port;
static struct ibdiag_nnmap *nnmap;
static const char *nnmap_file;
static bool extended_speeds;

typedef const char *(*op_fn)(const struct ibpath_path *dest, char **argv, int argc);

struct op {
	const char *name;
	const char *alias;
	op_fn fn;
	bool port_param; /* takes an optional port number ("[<portnum>]" in the usage) */
};

/* ---- Helpers ---------------------------------------------------------------------------- */

/* SubnGet; 0 or -1 (the common layer has shown any -v error details). */
static int smp_get(const struct ibpath_path *dest, uint16_t attr, uint32_t mod,
		   uint8_t data[SMP_DATA])
{
	memset(data, 0, SMP_DATA);
	return ibdiag_smp_get(port, dest, attr, mod, data, NULL) < 0 ? -1 : 0;
}

static const char *portid(const struct ibpath_path *dest)
{
	static char buf[512];

	return ibdiag_portid_str(dest, buf, sizeof(buf));
}

/* The optional port number operand: strtol base 0, 0 when absent (as the reference). */
static int port_arg(char **argv, int argc)
{
	return argc > 0 ? (int)strtol(argv[0], NULL, 0) : 0;
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* Prints the "Name:....value" lines of every displayed field of an attribute. */
static void print_diags(const struct ibstruct_desc *desc, const uint8_t data[SMP_DATA])
{
	char host[512] __attribute__((aligned(8)));
	char buf[4096];

	if (!desc || ibstruct_desc_host_size(desc) > sizeof(host) ||
	    ibstruct_unpack(desc, host, data, SMP_DATA) < 0)
		return;
	ibstruct_snprint_diags(buf, sizeof(buf), desc, host);
	fputs(buf, stdout);
}

/* infiniband-diags' dump_portinfo(): every PortInfo field, the M_Key hidden unless -K. */
static void dump_portinfo(const uint8_t data[SMP_DATA])
{
	const struct ibstruct_desc *desc = ibstruct_smp_port_info_desc();
	struct ibstruct_smp_port_info pi;
	char buf[4096];

	if (ibstruct_smp_port_info_unpack(&pi, data, SMP_DATA) < 0)
		return;
	if (ibd.show_keys)
		ibstruct_snprint_diags_field(buf, sizeof(buf), desc, &pi, "MKey", NULL);
	else
		ibstruct_snprint_diags_line(buf, sizeof(buf), "Mkey", "<not displayed>");
	printf("%s\n", buf);
	ibstruct_snprint_diags_range(buf, sizeof(buf), desc, &pi, "GidPrefix",
				     "LinkSpeedExtEnabled");
	fputs(buf, stdout);
}

/* ---- Operations ------------------------------------------------------------------------- */

/* One attribute's fields under "# <title>: <portid>", " port N" after it when asked. */
static const char *dump_attr(const struct ibpath_path *dest, uint16_t attr, int portnum,
			     bool show_port, const char *title, const char *failed)
{
	uint8_t data[SMP_DATA];

	if (smp_get(dest, attr, (uint32_t)portnum, data) < 0)
		return failed;
	printf("# %s: %s", title, portid(dest));
	if (show_port)
		printf(" port %d", portnum);
	printf("\n");
	print_diags(ibstruct_desc_by_attr(IBSTRUCT_CLASS_SMP, attr), data);
	return NULL;
}

static const char *node_info(const struct ibpath_path *dest, char **argv, int argc)
{
	(void)argv;
	(void)argc;
	return dump_attr(dest, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, false, "Node info",
			 "node info query failed");
}

static const char *node_desc(const struct ibpath_path *dest, char **argv, int argc)
{
	struct ibstruct_smp_node_info ni;
	uint8_t data[SMP_DATA];
	char desc[SMP_DATA + 1];
	char *name;
	size_t len;

	(void)argv;
	(void)argc;
	if (smp_get(dest, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, data) < 0)
		return "node info query failed";
	ibstruct_smp_node_info_unpack(&ni, data, SMP_DATA);
	if (smp_get(dest, IBSTRUCT_SMP_NODE_DESCRIPTION_ATTR_ID, 0, data) < 0)
		return "node desc query failed";
	memcpy(desc, data, SMP_DATA);
	desc[SMP_DATA] = '\0';
	name = ibdiag_nnmap_name(nnmap, ni.nodeGUID, desc);
	if (!name)
		IBPANIC("out of memory");
	/* dots up to column 49 (not 33 as the other dumps), at least one */
	len = strlen(name);
	printf("Node Description:%.*s%s\n", len < 32 ? (int)(32 - len) : 1,
	       "................................", name);
	free(name);
	return NULL;
}

static const char *port_info(const struct ibpath_path *dest, char **argv, int argc)
{
	uint8_t data[SMP_DATA];
	int portnum = port_arg(argv, argc);
	uint32_t mod = (uint32_t)portnum;

	/* -x: bit 31 of the modifier asks for the extended speed fields (IBA 1.3 / MLNX) */
	if (extended_speeds)
		mod |= 1u << 31;
	if (smp_get(dest, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, mod, data) < 0)
		return "port info query failed";
	printf("# Port info: %s port %d\n", portid(dest), portnum);
	dump_portinfo(data);
	return NULL;
}

static const char *port_info_extended(const struct ibpath_path *dest, char **argv, int argc)
{
	int portnum = port_arg(argv, argc);

	/* the reference checks the capability masks first, and exits from inside that check */
	if (!ibdiag_port_info_ext_supported(port, dest, portnum))
		return "port info extended not supported";
	return dump_attr(dest, ATTR_PORT_INFO_EXT, portnum, true, "Port info Extended",
			 "port info extended query failed");
}

static const char *switch_info(const struct ibpath_path *dest, char **argv, int argc)
{
	(void)argv;
	(void)argc;
	return dump_attr(dest, IBSTRUCT_SMP_SWITCH_INFO_ATTR_ID, 0, false, "Switch info",
			 "switch info query failed");
}

static const char *pkey_table(const struct ibpath_path *dest, char **argv, int argc)
{
	int portnum = port_arg(argv, argc);
	uint8_t data[SMP_DATA];
	int n, blocks, i, j, rows;

	if (smp_get(dest, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, data) < 0)
		return "node info query failed";
	if (portnum > data[3])
		return "invalid port number";
	/* a switch's external ports have the switch's partition enforcement capacity */
	if (data[2] == NODE_TYPE_SWITCH && portnum != 0) {
		if (smp_get(dest, IBSTRUCT_SMP_SWITCH_INFO_ATTR_ID, 0, data) < 0)
			return "switch info failed";
		n = be16(data + 14);
	} else {
		n = be16(data + 28);
	}
	blocks = (n + 31) / 32;
	for (i = 0; i < blocks; i++) {
		uint32_t mod = (uint32_t)i | (uint32_t)portnum << 16;

		if (smp_get(dest, IBSTRUCT_SMP_PKEY_TABLE_ATTR_ID, mod, data) < 0)
			return "pkey table query failed";
		/* the last block: whole rows of 8 up to the capacity */
		rows = i + 1 == blocks ? (n + 7 - i * 32) / 8 * 8 : 32;
		for (j = 0; j < rows; j += 8) {
			const uint8_t *p = data + 2 * j;

			printf("%4u: 0x%04x 0x%04x 0x%04x 0x%04x 0x%04x 0x%04x 0x%04x 0x%04x\n",
			       (unsigned)(i * 32 + j), be16(p), be16(p + 2), be16(p + 4),
			       be16(p + 6), be16(p + 8), be16(p + 10), be16(p + 12), be16(p + 14));
		}
	}
	printf("%d pkeys capacity for this port\n", n);
	return NULL;
}

static const char *sl2vl_entry(const struct ibpath_path *dest, int in, int out)
{
	uint8_t data[SMP_DATA];
	int sl;

	if (smp_get(dest, IBSTRUCT_SMP_SL2VL_MAPPING_TABLE_ATTR_ID, (uint32_t)(in << 8 | out),
		    data) < 0)
		return "slvl query failed";
	printf("ports: in %2d, out %2d: |", in, out);
	for (sl = 0; sl < 16; sl++)
		printf("%2u|", (unsigned)(sl & 1 ? data[sl / 2] & 0xf : data[sl / 2] >> 4));
	printf("\n");
	return NULL;
}

static const char *sl2vl_table(const struct ibpath_path *dest, char **argv, int argc)
{
	int portnum = port_arg(argv, argc);
	uint8_t data[SMP_DATA];
	int nports, i;
	const char *ret;

	if (smp_get(dest, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, data) < 0)
		return "node info query failed";
	nports = data[3];
	if (portnum > nports)
		return "invalid port number";
	printf("# SL2VL table: %s\n", portid(dest));
	printf("#                 SL: |");
	for (i = 0; i < 16; i++)
		printf("%2d|", i);
	printf("\n");
	/* a CA has one table; a switch one per input port towards the output port asked for */
	if (data[2] != NODE_TYPE_SWITCH)
		return sl2vl_entry(dest, 0, 0);
	for (i = 0; i <= nports; i++) {
		ret = sl2vl_entry(dest, i, portnum);
		if (ret)
			return ret;
	}
	return NULL;
}

/* One VLArbitration block: `entries` VL/weight pairs. */
static const char *vlarb_entry(const struct ibpath_path *dest, int portnum, int block, int entries)
{
	uint8_t data[SMP_DATA];
	int i;

	uint32_t mod = (uint32_t)block << 16 | (uint32_t)portnum;

	if (smp_get(dest, IBSTRUCT_SMP_VLARB_TABLE_ATTR_ID, mod, data) < 0)
		return "vl arb query failed";
	printf("\nVL    : |");
	for (i = 0; i < entries; i++)
		printf("0x%-2X|", data[2 * i] & 0xf);
	printf("\nWEIGHT: |");
	for (i = 0; i < entries; i++)
		printf("0x%-2X|", data[2 * i + 1]);
	printf("\n");
	return NULL;
}

static const char *vlarb_dump(const struct ibpath_path *dest, int portnum, const char *name,
			      int block, int cap)
{
	const char *ret;

	printf("# %s priority VL Arbitration Table:", name);
	ret = vlarb_entry(dest, portnum, block, cap < 32 ? cap : 32);
	if (!ret && cap > 32)
		ret = vlarb_entry(dest, portnum, block + 1, cap - 32);
	return ret;
}

static const char *vlarb_table(const struct ibpath_path *dest, char **argv, int argc)
{
	int portnum = port_arg(argv, argc);
	uint8_t data[SMP_DATA];
	int lowcap, highcap;
	const char *ret = NULL;

	/* port 0 is a switch's base port 0 (no tables) or the port the SMP arrives on */
	if (portnum == 0) {
		if (smp_get(dest, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, data) < 0)
			return "node info query failed";
		if (data[2] == NODE_TYPE_SWITCH) {
			if (smp_get(dest, IBSTRUCT_SMP_SWITCH_INFO_ATTR_ID, 0, data) < 0)
				return "switch info query failed";
			if (!(data[16] & 0x08)) { /* EnhancedPort0 */
				printf("# No VLArbitration tables (BSP0): %s port %d\n",
				       portid(dest), 0);
				return NULL;
			}
		}
	}
	if (smp_get(dest, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, (uint32_t)portnum, data) < 0)
		return "port info query failed";
	highcap = data[39];
	lowcap = data[40];
	printf("# VLArbitration tables: %s port %d LowCap %d HighCap %d\n", portid(dest), portnum,
	       lowcap, highcap);
	if (lowcap > 0)
		ret = vlarb_dump(dest, portnum, "Low", 1, lowcap);
	if (!ret && highcap > 0)
		ret = vlarb_dump(dest, portnum, "High", 3, highcap);
	return ret;
}

static const char *guid_info(const struct ibpath_path *dest, char **argv, int argc)
{
	uint8_t data[SMP_DATA];
	int n, blocks, i, j, rows;

	(void)argv;
	(void)argc;
	/* the capacity comes from PortInfo of port 0 whatever port was named */
	if (smp_get(dest, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, 0, data) < 0)
		return "port info failed";
	n = data[50];
	blocks = (n + 7) / 8;
	for (i = 0; i < blocks; i++) {
		if (smp_get(dest, IBSTRUCT_SMP_GUID_INFO_ATTR_ID, (uint32_t)i, data) < 0)
			return "guid info query failed";
		rows = i + 1 == blocks ? (n + 1 - i * 8) / 2 * 2 : 8;
		for (j = 0; j < rows; j += 2)
			printf("%4u: 0x%016" PRIx64 " 0x%016" PRIx64 "\n", (unsigned)(i * 8 + j),
			       be64(data + 8 * j), be64(data + 8 * j + 8));
	}
	printf("%d guids capacity for this port\n", n);
	return NULL;
}

static const char *mlnx_ext_port_info(const struct ibpath_path *dest, char **argv, int argc)
{
	return dump_attr(dest, ATTR_MLNX_EXT_PORT_INFO, port_arg(argv, argc), true,
			 "MLNX ext Port info", "Mellanox ext port info query failed");
}

static const struct op ops[] = {
	{ "NodeInfo", "NI", node_info, false },
	{ "NodeDesc", "ND", node_desc, false },
	{ "PortInfo", "PI", port_info, true },
	{ "PortInfoExtended", "PIE", port_info_extended, true },
	{ "SwitchInfo", "SI", switch_info, false },
	{ "PKeyTable", "PKeys", pkey_table, true },
	{ "SL2VLTable", "SL2VL", sl2vl_table, true },
	{ "VLArbitration", "VLArb", vlarb_table, true },
	{ "GUIDInfo", "GI", guid_info, false },
	{ "MlnxExtPortInfo", "MEPI", mlnx_ext_port_info, true },
	{ NULL, NULL, NULL, false },
};

static op_fn find_op(const char *name)
{
	const struct op *o;

	for (o = ops; o->name; o++)
		if (!strcasecmp(o->name, name) || !strcasecmp(o->alias, name))
			return o->fn;
	return NULL;
}

/* ---- Main ------------------------------------------------------------------------------- */

static int process_opt(void *ctx, int letter, char *arg)
{
	(void)ctx;
	switch (letter) {
	case 1:
		nnmap_file = arg;
		break;
	case 'c':
		ibd.dest_type = IBDIAG_DEST_DRSLID;
		break;
	case 'x':
		extended_speeds = true;
		break;
	default:
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{ "combined", 'c', 0, NULL, "use Combined route address argument" },
		{ "node-name-map", 1, 1, "<file>", "node name map file" },
		{ "extended", 'x', 0, NULL, "use extended speeds" },
		{ NULL, 0, 0, NULL, NULL },
	};
	static const char *const examples[] = {
		"portinfo 3 1\t\t\t\t# portinfo by lid, with port modifier",
		"-G switchinfo 0x2C9000100D051 1\t# switchinfo by guid",
		"-D nodeinfo 0\t\t\t\t# nodeinfo by direct route",
		"-c nodeinfo 6 0,12\t\t\t# nodeinfo by combined route",
		NULL,
	};
	char usage_args[1024];
	struct ibpath_path *dest = NULL;
	const struct op *o;
	const char *err;
	op_fn fn;
	size_t n;
	int first;

	/* the operand line, then the operations (the usage prints a blank line after it) */
	n = (size_t)snprintf(usage_args, sizeof(usage_args),
			     "<op> <dest dr_path|lid|guid> [op params]\n"
			     "\nSupported ops (and aliases, case insensitive):\n");
	for (o = ops; o->name && n < sizeof(usage_args); o++)
		n += (size_t)snprintf(usage_args + n, sizeof(usage_args) - n,
				      "  %s (%s) <addr>%s\n", o->name, o->alias,
				      o->port_param ? " [<portnum>]" : "");

	first = ibdiag_process_opts(argc, argv, NULL, NULL, opts, process_opt, usage_args,
				    examples);
	argc -= first;
	argv += first;
	if (argc < 2)
		ibdiag_show_usage();

	fn = find_op(argv[0]);
	if (!fn)
		IBEXIT("operation '%s' not supported", argv[0]);

	port = ibdiag_open_port();
	nnmap = ibdiag_nnmap_open(nnmap_file);

	if (ibd.dest_type != IBDIAG_DEST_DRSLID) {
		if (ibdiag_resolve(port, argv[1], ibd.dest_type, &dest) < 0)
			IBEXIT("can't resolve destination port %s", argv[1]);
		err = fn(dest, argv + 2, argc - 2);
	} else {
		/* -c: "<lid> <dr path>" from two operands, joined into 64 bytes as the reference
		 * does (glibc prints a missing second operand as "(null)") */
		char concat[64];

		snprintf(concat, sizeof(concat), "%s %s", argv[1], argc > 2 ? argv[2] : "(null)");
		if (ibdiag_resolve(port, concat, ibd.dest_type, &dest) < 0)
			IBEXIT("can't resolve destination port %s", concat);
		err = fn(dest, argv + 3, argc - 3);
	}
	if (err)
		IBEXIT("operation %s: %s", argv[0], err);

	ibpath_path_unref(dest);
	ibdiag_nnmap_close(nnmap);
	ibdiag_close_port(port);
	return 0;
}
