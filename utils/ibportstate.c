// SPDX-License-Identifier: BSD-3-Clause
/*
 * ibportstate: query a port's PortInfo, or change its state, speeds, width, LID, M_Key
 * fields ... with a PortInfo SubnSet, as infiniband-diags' ibportstate does.
 *
 *   ibportstate <dest dr_path|lid|guid> <portnum> [<op> [value]] ...
 *
 * A query of a switch port whose link is Active also shows the port at the other end of the
 * link ("Peer PortInfo") and warns when the two ends run below what both enable.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/ibdiag.h"

#define NODE_TYPE_SWITCH     2
#define CAP_EXT_SPEEDS       0x4000u /* PortInfo CapabilityMask: IsExtendedSpeedsSupported */
#define MLNX_FDR10           0x01    /* MlnxExtPortInfo speed bit of FDR10 */
#define PHYS_STATE_POLLING   2
#define PHYS_STATE_DISABLED  3
#define PORT_STATE_DOWN      1
#define PORT_STATE_ARMED     3
#define PORT_STATE_ACTIVE    4
#define UNLIKELY_LID         0x1234

/* With -d an error names the function it comes from; the reference raises these from its
 * main(), so ours say "main" too wherever the code lives. */
#define MAIN_EXIT(...) ibdiag_exit("main", __VA_ARGS__)
#define MAIN_WARN(...) ibdiag_warn("main", __VA_ARGS__)

/* The operations, in the reference's table order (the first match of a word wins). */
enum port_op {
	OP_QUERY,
	OP_ENABLE,
	OP_RESET,
	OP_DISABLE,
	OP_SPEED,
	OP_ESPEED,
	OP_FDR10,
	OP_WIDTH,
	OP_DOWN,
	OP_ARM,
	OP_ACTIVE,
	OP_VLS,
	OP_MTU,
	OP_LID,
	OP_SMLID,
	OP_LMC,
	OP_MKEY,
	OP_MKEYLEASE,
	OP_MKEYPROT,
	OP_ON,
	OP_OFF,
	OP_COUNT_
};

/* One operation word.  Value operations check `lo <= value <= hi` (or value == also) and
 * report a failure as "<what> <value>" (hex with 0x when `hex`). */
struct op_def {
	const char *name;
	bool has_value;
	uint64_t lo, hi, also;
	const char *what;
	bool hex;
};

static const struct op_def op_defs[OP_COUNT_] = {
	[OP_QUERY] = {"query"},
	[OP_ENABLE] = {"enable"},
	[OP_RESET] = {"reset"},
	[OP_DISABLE] = {"disable"},
	[OP_SPEED] = {"speed", true, 0, 15, 0, "invalid speed value"},
	[OP_ESPEED] = {"espeed", true, 0, 31, 0, "invalid extended speed value"},
	[OP_FDR10] = {"fdr10", true, 0, 1, 0, "invalid fdr10 speed value"},
	/* 255 = "set LinkWidthEnabled to LinkWidthSupported" */
	[OP_WIDTH] = {"width", true, 0, 31, 255, "invalid width value"},
	[OP_DOWN] = {"down"},
	[OP_ARM] = {"arm"},
	[OP_ACTIVE] = {"active"},
	[OP_VLS] = {"vls", true, 1, 5, 0, "invalid vls value"},
	[OP_MTU] = {"mtu", true, 1, 5, 0, "invalid mtu value"},
	[OP_LID] = {"lid", true, 1, 0xbfff, 0, "invalid lid value", true},
	[OP_SMLID] = {"smlid", true, 1, 0xbfff, 0, "invalid smlid value", true},
	[OP_LMC] = {"lmc", true, 0, 7, 0, "invalid lmc value"},
	[OP_MKEY] = {"mkey", true, 0, UINT64_MAX},
	[OP_MKEYLEASE] = {"mkeylease", true, 0, 0xffff, 0, "invalid mkey lease time"},
	[OP_MKEYPROT] = {"mkeyprot", true, 0, 3, 0, "invalid mkey protection bit setting"},
	[OP_ON] = {"on"},
	[OP_OFF] = {"off"},
};

/* What the command line asked for. */
static struct {
	int op; /* the state operation (one of the value-less words), -1: none */
	bool set[OP_COUNT_];
	uint64_t val[OP_COUNT_]; /* speed/espeed/width stay 0 (= no change) unless given */
	bool changed;            /* a value operation was given */
} req = {.op = -1};

static struct ibdiag_port *port;

static uint64_t parse_mkey(const char *text)
{
	char *end;
	uint64_t val;

	errno = 0;
	val = strtoull(text, &end, 0);
	if (!errno && *end == '\0')
		return val;
	/* Not a number: ask for it without echo, as the reference does. */
	text = getpass("New M_Key: ");
	if (!text)
		MAIN_EXIT("Bad new M_Key\n");
	errno = 0;
	val = strtoull(text, &end, 0);
	if (errno || *end != '\0')
		MAIN_EXIT("Bad new M_Key\n"); /* sic: the reference's message ends in a newline */
	return val;
}

static void parse_ops(int nargs, char **args)
{
	for (int i = 0; i < nargs; i++) {
		const struct op_def *d;
		uint64_t val;
		int j;

		for (j = 0; j < OP_COUNT_; j++)
			if (!strcmp(args[i], op_defs[j].name))
				break;
		if (j == OP_COUNT_)
			MAIN_EXIT("invalid operation: %s", args[i]);
		d = &op_defs[j];
		req.set[j] = true;
		if (!d->has_value) {
			if (req.op >= 0)
				MAIN_EXIT("%s only one of: query, enable, disable, reset, down, arm, "
				       "active, can be specified",
				       d->name);
			req.op = j;
			continue;
		}
		if (++i >= nargs)
			MAIN_EXIT("%s requires an additional parameter", d->name);
		if (j == OP_MKEY) {
			val = parse_mkey(args[i]);
		} else {
			/* strtoull() as the reference: "-1" is a huge value, garbage is 0. */
			val = strtoull(args[i], NULL, 0);
			if ((val < d->lo || val > d->hi) && !(d->also && val == d->also)) {
				if (d->hex)
					MAIN_EXIT("%s 0x%" PRIx64, d->what, val);
				MAIN_EXIT("%s %" PRIu64, d->what, val);
			}
		}
		req.val[j] = val;
		req.changed = true;
	}
	if (req.op < 0)
		req.op = OP_QUERY;
}

/* ---- SMPs ---------------------------------------------------------------------------- */

/* The common layer prints a failure's details itself (with -vv), so no error object here. */
static int smp_get(const struct ibpath_path *path, uint16_t attr, uint32_t mod, uint8_t data[64])
{
	return ibdiag_smp_get(port, path, attr, mod, data, NULL);
}

static int smp_set(const struct ibpath_path *path, uint16_t attr, uint32_t mod,
		   const uint8_t in[64], uint8_t out[64])
{
	return ibdiag_smp_set(port, path, attr, mod, in, out, NULL);
}

/* NodeInfo of the target; true for a switch. */
static bool get_node_info(const struct ibpath_path *path, struct ibstruct_smp_node_info *ni)
{
	uint8_t data[64];

	if (smp_get(path, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, data) < 0 ||
	    ibstruct_smp_node_info_unpack(ni, data, sizeof(data)) < 0)
		IBEXIT("smp query nodeinfo failed");
	return ni->nodeType == NODE_TYPE_SWITCH;
}

/* PortInfo of portnum; returns whether the node supports extended speeds, which a switch
 * reports in the CapabilityMask of its port 0 (only port 0 has one). */
static bool get_port_info(const struct ibpath_path *path, int portnum, bool is_switch,
			  struct ibstruct_smp_port_info *pi)
{
	struct ibstruct_smp_port_info port0;
	uint8_t data[64];
	uint32_t cap_mask;

	if (is_switch) {
		if (smp_get(path, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, 0, data) < 0 ||
		    ibstruct_smp_port_info_unpack(&port0, data, sizeof(data)) < 0)
			IBEXIT("smp query port 0 portinfo failed");
	}
	if (smp_get(path, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, (uint32_t)portnum, data) < 0 ||
	    ibstruct_smp_port_info_unpack(pi, data, sizeof(data)) < 0)
		IBEXIT("smp query portinfo failed");
	cap_mask = is_switch ? port0.capabilityMask : pi->capabilityMask;
	return cap_mask & CAP_EXT_SPEEDS;
}

/* Mellanox devices with the vendor-specific MlnxExtPortInfo attribute (FDR10), as
 * infiniband-diags knows them (MLX_EPI in the config file turns this off). */
static bool mlnx_ext_port_info_supported(uint32_t vendor, uint16_t devid)
{
	static const uint16_t bull_switches[] = {0x1b02, 0x1b50, 0x1ba0, 0x1bf0};
	static const uint16_t bull_cas[] = {0x1b33, 0x1b73, 0x1b40, 0x1b41, 0x1b60, 0x1b61,
					    0x1b83, 0x1b93, 0x1b94, 0x1bb4, 0x1bb5};
	const bool bull = vendor == 0x119f;
	size_t i;

	if (!ibd.mlx_epi)
		return false;
	/* SwitchX, Switch-IB, Switch-IB 2, Quantum and their Bull versions */
	if ((devid >= 0xc738 && devid <= 0xc73b) || devid == 0xc839 || devid == 0xcb20 ||
	    devid == 0xcf08 || devid == 0xcf09 || devid == 0xd2f0)
		return true;
	/* ConnectX-3 .. ConnectX-7 and Bull adapters */
	if ((devid >= 0x1003 && devid <= 0x101b) || devid == 0xa2d2)
		return true;
	if (!bull)
		return false;
	if ((devid >= 0x1bd0 && devid <= 0x1bd5) || (devid >= 0x1bc4 && devid <= 0x1bc6))
		return true;
	for (i = 0; i < sizeof(bull_switches) / sizeof(bull_switches[0]); i++)
		if (devid == bull_switches[i])
			return true;
	for (i = 0; i < sizeof(bull_cas) / sizeof(bull_cas[0]); i++)
		if (devid == bull_cas[i])
			return true;
	return false;
}

static void get_mlnx_ext_port_info(const struct ibpath_path *path, int portnum,
				   struct ibstruct_mlnx_ext_port_info *ext)
{
	uint8_t data[64];

	if (smp_get(path, IBSTRUCT_MLNX_EXT_PORT_INFO_ATTR_ID, (uint32_t)portnum, data) < 0 ||
	    ibstruct_mlnx_ext_port_info_unpack(ext, data, sizeof(data)) < 0)
		IBEXIT("smp query ext portinfo failed");
}

/* ---- Output ---------------------------------------------------------------------------- */

static void print_field(const struct ibstruct_desc *d, const void *host, const char *field)
{
	char line[256];

	ibstruct_snprint_diags_field(line, sizeof(line), d, host, field, NULL);
	printf("%s\n", line);
}

static void show_port_info(const struct ibpath_path *path, int portnum, bool espeed_cap,
			   bool is_switch, const struct ibstruct_smp_port_info *pi)
{
	static const char *const fields[] = {
		"portState",          "portPhysicalState", "LID",
		"masterSMLID",        "LMC",               "linkWidthSupported",
		"linkWidthEnabled",   "linkWidthActive",   "linkSpeedSupported",
		"linkSpeedEnabled",   "linkSpeedActive",
	};
	static const char *const ext_fields[] = {
		"linkSpeedExtSupported", "linkSpeedExtEnabled", "linkSpeedExtActive",
	};
	const struct ibstruct_desc *d = ibstruct_smp_port_info_desc();
	char where[256], line[256];
	size_t i;

	printf("# Port info: %s port %d\n", ibdiag_portid_str(path, where, sizeof(where)), portnum);
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		print_field(d, pi, fields[i]);
	if (espeed_cap)
		for (i = 0; i < sizeof(ext_fields) / sizeof(ext_fields[0]); i++)
			print_field(d, pi, ext_fields[i]);
	/* The M_Key fields exist only on CA/router ports and switch port 0. */
	if (!is_switch || portnum == 0) {
		if (ibd.show_keys) {
			print_field(d, pi, "MKey");
		} else {
			ibstruct_snprint_diags_line(line, sizeof(line), "Mkey", "<not displayed>");
			printf("%s\n", line);
		}
		print_field(d, pi, "MKeyLeasePeriod");
		print_field(d, pi, "MKeyProtectBits");
	}
}

static void show_mlnx_ext_port_info(const struct ibpath_path *path, int portnum,
				    const struct ibstruct_mlnx_ext_port_info *ext)
{
	char where[256], text[1024];

	ibstruct_snprint_diags(text, sizeof(text), ibstruct_mlnx_ext_port_info_desc(), ext);
	printf("# MLNX ext Port info: %s port %d\n%s",
	       ibdiag_portid_str(path, where, sizeof(where)), portnum, text);
}

/* ---- Set ------------------------------------------------------------------------------ */

static void set_port_info(const struct ibpath_path *path, int portnum, bool espeed_cap,
			  bool is_switch, const struct ibstruct_smp_port_info *pi)
{
	struct ibstruct_smp_port_info after;
	uint8_t in[64] = {0}, out[64];
	uint32_t mod = (uint32_t)portnum;

	/* Bit 31 of the modifier: the extended speed fields are valid (AllowExtendedSpeeds) */
	if (espeed_cap)
		mod |= 1u << 31;
	if (ibstruct_smp_port_info_pack(pi, in, sizeof(in)) < 0 ||
	    smp_set(path, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, mod, in, out) < 0 ||
	    ibstruct_smp_port_info_unpack(&after, out, sizeof(out)) < 0)
		IBEXIT("smp set portinfo failed");
	printf("\nAfter PortInfo set:\n");
	show_port_info(path, portnum, espeed_cap, is_switch, &after);
}

static void set_mlnx_ext_port_info(const struct ibpath_path *path, int portnum,
				   const struct ibstruct_mlnx_ext_port_info *ext)
{
	struct ibstruct_mlnx_ext_port_info after;
	uint8_t in[64] = {0}, out[64];

	if (ibstruct_mlnx_ext_port_info_pack(ext, in, sizeof(in)) < 0 ||
	    smp_set(path, IBSTRUCT_MLNX_EXT_PORT_INFO_ATTR_ID, (uint32_t)portnum, in, out) < 0 ||
	    ibstruct_mlnx_ext_port_info_unpack(&after, out, sizeof(out)) < 0)
		IBEXIT("smp set MLNX ext portinfo failed");
	printf("\nAfter MLNXExtendedPortInfo set:\n");
	show_mlnx_ext_port_info(path, portnum, &after);
}

/* Applies the requested changes to the PortInfo just read and sends it.  Returns without
 * a Set for "on" when the port is not Disabled. */
static void change_port(const struct ibpath_path *path, int portnum, bool espeed_cap,
			bool is_switch, struct ibstruct_smp_port_info *pi,
			struct ibstruct_mlnx_ext_port_info *ext)
{
	unsigned phys_state = pi->portPhysicalState;

	/* An SMA rejects a PortInfo whose LID or SM LID is 0 or the permissive LID, which is
	 * what an unconfigured port reports: send an unlikely but valid one instead. */
	if (!req.set[OP_LID] && (!pi->LID || pi->LID == 0xffff))
		pi->LID = UNLIKELY_LID;
	if (!req.set[OP_SMLID] && (!pi->masterSMLID || pi->masterSMLID == 0xffff))
		pi->masterSMLID = UNLIKELY_LID;
	pi->portState = 0;         /* no state change */
	pi->portPhysicalState = 0; /* no state change */

	switch (req.op) {
	case OP_ON:
		if (phys_state != PHYS_STATE_DISABLED) {
			printf("Port is already in enable state\n");
			return;
		}
		/* fall through */
	case OP_ENABLE:
	case OP_RESET:
		pi->portPhysicalState = PHYS_STATE_POLLING;
		break;
	case OP_OFF:
	case OP_DISABLE:
		printf("Disable may be irreversible\n");
		pi->portPhysicalState = PHYS_STATE_DISABLED;
		break;
	case OP_DOWN:
		pi->portState = PORT_STATE_DOWN;
		break;
	case OP_ARM:
		pi->portState = PORT_STATE_ARMED;
		break;
	case OP_ACTIVE:
		pi->portState = PORT_STATE_ACTIVE;
		break;
	default:
		break;
	}

	/* Always written: 0 means "no change" for the enabled speeds and width. */
	pi->linkSpeedEnabled = (uint8_t)req.val[OP_SPEED];
	pi->linkSpeedExtEnabled = (uint8_t)req.val[OP_ESPEED];
	pi->linkWidthEnabled = (uint8_t)req.val[OP_WIDTH];
	if (req.set[OP_VLS])
		pi->operationalVLs = (uint8_t)req.val[OP_VLS];
	if (req.set[OP_MTU])
		pi->neighborMTU = (uint8_t)req.val[OP_MTU];
	if (req.set[OP_LID])
		pi->LID = (uint16_t)req.val[OP_LID];
	if (req.set[OP_SMLID])
		pi->masterSMLID = (uint16_t)req.val[OP_SMLID];
	if (req.set[OP_LMC])
		pi->LMC = (uint8_t)req.val[OP_LMC];

	/* FDR10 lives in the vendor attribute, sent first (also to a device that was not
	 * known to have it: then with the rest of the attribute zero, as the reference). */
	if (req.set[OP_FDR10]) {
		ext->stateChangeEnable = MLNX_FDR10;
		ext->linkSpeedEnabled = (uint8_t)req.val[OP_FDR10];
		set_mlnx_ext_port_info(path, portnum, ext);
	}

	if (req.set[OP_MKEY])
		pi->MKey = req.val[OP_MKEY];
	if (req.set[OP_MKEYLEASE])
		pi->MKeyLeasePeriod = (uint16_t)req.val[OP_MKEYLEASE];
	if (req.set[OP_MKEYPROT])
		pi->MKeyProtectBits = (uint8_t)req.val[OP_MKEYPROT];

	set_port_info(path, portnum, espeed_cap, is_switch, pi);
}

/* ---- Peer check ------------------------------------------------------------------------ */

/* The link parameters one end of a link reports. */
struct link_end {
	unsigned lwe, lws, lwa; /* width enabled/supported/active */
	unsigned lse, lss, lsa; /* speed */
	unsigned lsee, lses, lsea; /* extended speed (valid with the capability) */
	unsigned fdr10e, fdr10a;
};

static void link_end_read(struct link_end *e, const struct ibstruct_smp_port_info *pi,
			  const struct ibstruct_mlnx_ext_port_info *ext, bool espeed_cap)
{
	memset(e, 0, sizeof(*e));
	e->lwe = pi->linkWidthEnabled;
	e->lws = pi->linkWidthSupported;
	e->lwa = pi->linkWidthActive;
	e->lse = pi->linkSpeedEnabled;
	e->lss = pi->linkSpeedSupported;
	e->lsa = pi->linkSpeedActive;
	e->fdr10e = ext->linkSpeedEnabled;
	e->fdr10a = ext->linkSpeedActive;
	if (espeed_cap) {
		e->lsee = pi->linkSpeedExtEnabled;
		e->lses = pi->linkSpeedExtSupported;
		e->lsea = pi->linkSpeedExtActive;
	}
}

/* "Enabled" values with their "all supported" codes replaced by the supported set. */
static unsigned link_width(const struct link_end *e)
{
	return e->lwe == 255 ? e->lws : e->lwe;
}

static unsigned link_speed(const struct link_end *e)
{
	return e->lse == 15 ? e->lss : e->lse;
}

static unsigned link_speed_ext(const struct link_end *e)
{
	return e->lsee == 31 ? e->lses : e->lsee;
}

struct link_rate {
	unsigned bit;
	const char *name;
};

/* The first of `rates` (in the reference's order: widest or fastest first) that both ends
 * enable, and a warning when the link is active at another; fn: the reference's function. */
static void validate_active(const char *fn, const char *what, const struct link_rate *rates,
			    size_t n, unsigned enabled, unsigned peer_enabled, unsigned active)
{
	for (size_t i = 0; i < n; i++) {
		if (!(enabled & peer_enabled & rates[i].bit))
			continue;
		if (active != rates[i].bit)
			ibdiag_warn(fn, "Peer ports operating at active %s %u rather than %u (%s)",
				    what, active, rates[i].bit, rates[i].name);
		return;
	}
}

static void validate_width(unsigned width, unsigned peer_width, unsigned lwa)
{
	static const struct link_rate widths[] = {
	    {8, "12x"}, {4, "8x"}, {2, "4x"}, {16, "2x"}, {1, "1x"}};

	validate_active(__func__, "width", widths, sizeof(widths) / sizeof(widths[0]), width,
			peer_width, lwa);
}

static void validate_speed(unsigned speed, unsigned peer_speed, unsigned lsa)
{
	static const struct link_rate speeds[] = {
	    {4, "10.0 Gbps"}, {2, "5.0 Gbps"}, {1, "2.5 Gbps"}};

	validate_active(__func__, "speed", speeds, sizeof(speeds) / sizeof(speeds[0]), speed,
			peer_speed, lsa);
}

static void validate_extended_speed(unsigned espeed, unsigned peer_espeed, unsigned lsea)
{
	static const struct link_rate speeds[] = {
	    {8, "106.25 Gbps"}, {4, "53.125 Gbps"}, {2, "25.78125 Gbps"}, {1, "14.0625 Gbps"}};

	validate_active(__func__, "extended speed", speeds, sizeof(speeds) / sizeof(speeds[0]),
			espeed, peer_espeed, lsea);
}

/* The route to the port at the other end of `portnum`: one more hop for a directed route;
 * for a LID-routed target a combined route (LID-routed to the switch, then one directed
 * hop out of portnum, DrSLID = our LID), as the reference builds it. */
static struct ibpath_path *peer_path(const struct ibpath_path *path, int portnum)
{
	static const enum ibpath_attr keep[] = {IBPATH_PKEY_INDEX, IBPATH_TIMEOUT_MS,
						IBPATH_RETRIES};
	uint8_t hops[IBPATH_MAX_HOPS + 1] = {0};
	struct ibpath_path *peer = NULL;
	const uint8_t *ports;
	unsigned count;

	if (ibpath_path_kind(path) == IBPATH_KIND_DR) {
		count = ibpath_path_dr_ports(path, &ports);
		if (count >= IBPATH_MAX_HOPS)
			MAIN_EXIT("Too many hops");
		if (count)
			memcpy(hops, ports, count);
		else
			count = 1; /* no hop list at all: the local port */
		hops[count++] = (uint8_t)portnum;
		if (ibpath_path_copy(path, &peer) < 0 ||
		    ibpath_path_set_dr_ports(peer, hops, count) < 0)
			MAIN_EXIT("could not build the peer's directed route");
		return peer;
	}

	if (ibdiag_self(port, NULL, NULL, NULL) < 0 || ibpath_path_new(&peer, IBPATH_KIND_DR) < 0)
		MAIN_EXIT("could not resolve self");
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		ibpath_path_set(peer, keep[i], ibpath_path_get(path, keep[i]));
	if (ibpath_path_end_port(path))
		ibpath_path_set_end_port(peer, ibpath_path_end_port(path));
	hops[1] = (uint8_t)portnum;
	if (ibpath_path_set(peer, IBPATH_SLID, port->lid) < 0 ||
	    ibpath_path_set(peer, IBPATH_DLID, ibpath_path_get(path, IBPATH_DLID)) < 0 ||
	    ibpath_path_set(peer, IBPATH_DR_SLID, port->lid) < 0 ||
	    ibpath_path_set(peer, IBPATH_DR_DLID, 0xffff) < 0 ||
	    ibpath_path_set_dr_ports(peer, hops, 2) < 0)
		MAIN_EXIT("could not resolve self");
	return peer;
}

/* Shows the peer of an Active switch port and warns about a link running below what both
 * ends enable. */
static void check_peer(const struct ibpath_path *path, int portnum, bool espeed_cap,
		       const struct ibstruct_smp_port_info *pi,
		       const struct ibstruct_mlnx_ext_port_info *ext)
{
	struct ibstruct_mlnx_ext_port_info peer_ext = {0};
	struct ibstruct_smp_port_info peer_pi;
	struct ibstruct_smp_node_info ni;
	struct link_end local, remote;
	struct ibpath_path *peer;
	bool peer_switch, peer_espeed_cap, peer_mlnx;
	int peer_portnum;

	if (pi->portState != PORT_STATE_ACTIVE)
		return;
	link_end_read(&local, pi, ext, espeed_cap);

	peer = peer_path(path, portnum);
	peer_switch = get_node_info(peer, &ni);
	peer_mlnx = mlnx_ext_port_info_supported(ni.vendorID, ni.deviceID);
	peer_portnum = ni.localPortNum;

	printf("Peer PortInfo:\n");
	peer_espeed_cap = get_port_info(peer, peer_portnum, peer_switch, &peer_pi);
	if (peer_mlnx)
		get_mlnx_ext_port_info(peer, peer_portnum, &peer_ext);
	show_port_info(peer, peer_portnum, peer_espeed_cap, peer_switch, &peer_pi);
	if (peer_mlnx)
		show_mlnx_ext_port_info(peer, peer_portnum, &peer_ext);
	link_end_read(&remote, &peer_pi, &peer_ext, peer_espeed_cap);

	validate_width(link_width(&local), link_width(&remote), local.lwa);
	validate_speed(link_speed(&local), link_speed(&remote), local.lsa);
	if (espeed_cap && peer_espeed_cap) {
		validate_extended_speed(link_speed_ext(&local), link_speed_ext(&remote),
					local.lsea);
	} else if ((local.fdr10e & MLNX_FDR10) && (remote.fdr10e & MLNX_FDR10) &&
		   !(local.fdr10a & MLNX_FDR10)) {
		MAIN_WARN("Peer ports operating at active speed %u rather than FDR10", local.lsa);
	}
	ibpath_path_unref(peer);
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt no_opts[] = {{0}};
	static const char *const examples[] = {
		"-C qib0 -P 1 3 1 disable     # by CA name, CA Port Number, lid, physical port "
		"number",
		"-C qib0 -P 1 3 1 enable      # by CA name, CA Port Number, lid, physical port "
		"number",
		"-D 0 1\t\t\t# (query) by direct route",
		"3 1 reset\t\t\t# by lid",
		"3 1 speed 1\t\t\t# by lid",
		"3 1 width 1\t\t\t# by lid",
		"-D 0 1 lid 0x1234 arm\t\t# by direct route",
		NULL,
	};
	static const char usage_args[] =
		"<dest dr_path|lid|guid> <portnum> [<op>]\n"
		"\nSupported ops: enable, disable, on, off, reset, speed, espeed, fdr10,\n"
		"\twidth, query, down, arm, active, vls, mtu, lid, smlid, lmc,\n"
		"\tmkey, mkeylease, mkeyprot\n";
	struct ibstruct_mlnx_ext_port_info ext = {0};
	struct ibstruct_smp_port_info pi;
	struct ibstruct_smp_node_info ni;
	struct ibpath_path *path = NULL;
	bool is_switch, espeed_cap, mlnx, setting;
	int first, nargs, portnum;

	first = ibdiag_process_opts(argc, argv, NULL, "", no_opts, NULL, usage_args, examples);
	argv += first;
	nargs = argc - first;
	if (nargs < 2)
		ibdiag_show_usage();

	port = ibdiag_open_port();
	if (ibdiag_resolve(port, argv[0], ibd.dest_type, &path) < 0)
		IBEXIT("can't resolve destination port %s", argv[0]);
	portnum = (int)strtol(argv[1], NULL, 0);
	parse_ops(nargs - 2, argv + 2);

	is_switch = get_node_info(path, &ni);
	mlnx = mlnx_ext_port_info_supported(ni.vendorID, ni.deviceID);
	if ((req.set[OP_MKEY] || req.set[OP_MKEYLEASE] || req.set[OP_MKEYPROT]) && is_switch &&
	    portnum != 0)
		IBEXIT("Can't set M_Key fields on switch port != 0");

	setting = req.op != OP_QUERY || req.changed;
	printf("%s%s PortInfo:\n", setting ? "Initial " : "", is_switch ? "Switch" : "CA/RT");
	espeed_cap = get_port_info(path, portnum, is_switch, &pi);
	show_port_info(path, portnum, espeed_cap, is_switch, &pi);
	if (mlnx) {
		get_mlnx_ext_port_info(path, portnum, &ext);
		show_mlnx_ext_port_info(path, portnum, &ext);
	}

	if (setting)
		change_port(path, portnum, espeed_cap, is_switch, &pi, &ext);
	else if (is_switch && portnum)
		check_peer(path, portnum, espeed_cap, &pi, &ext);

	ibpath_path_unref(path);
	ibdiag_close_port(port);
	return 0;
}
