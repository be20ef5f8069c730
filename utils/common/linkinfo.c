/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The link line of iblinkinfo and ibqueryerrors -r: a port's width, speed and states, the
 * port it is linked to and what the link could run at (the best width and speed both ends
 * support).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "linkinfo.h"

#define CAP_HAS_EXT_SPEEDS (1u << 14) /* PortInfo.CapabilityMask */
#define MLNX_FDR10 0x01                /* Mellanox ExtendedPortInfo link speed bit */
#define SPEED_QDR 4                    /* LinkSpeedActive 10.0 Gbps */

void linkinfo_port_info(const struct ibtopo_port *port, struct ibstruct_smp_port_info *pi)
{
	const uint8_t *raw = port ? ibtopo_port_info(port) : NULL;

	memset(pi, 0, sizeof(*pi));
	if (raw)
		ibstruct_smp_port_info_unpack(pi, raw, IBTOPO_SMP_DATA_SIZE);
}

static void mlnx_info(const struct ibtopo_port *port, struct ibstruct_mlnx_ext_port_info *ei)
{
	const uint8_t *raw = ibtopo_port_ext_info(port);

	memset(ei, 0, sizeof(*ei));
	if (raw)
		ibstruct_mlnx_ext_port_info_unpack(ei, raw, IBTOPO_SMP_DATA_SIZE);
}

const char *linkinfo_fmt(enum ibstruct_diags_fmt fmt, unsigned value, char *buf, size_t len)
{
	if (ibstruct_snprint_diags_value(buf, len, fmt, 8, value, NULL) < 0 && len)
		buf[0] = '\0';
	return buf;
}

/* The PortInfo that holds the CapabilityMask of the port: port 0's on a switch.  false
 * when that is unknown. */
static bool cap_mask_of(const struct ibtopo_port *port, uint32_t *mask)
{
	const struct ibtopo_node *node = ibtopo_port_node(port);
	const struct ibtopo_port *holder = port;
	struct ibstruct_smp_port_info pi;

	if (ibtopo_node_type(node) == IBTOPO_NODE_SWITCH) {
		holder = ibtopo_node_port(node, 0);
		if (!holder) {
			*mask = 0;
			return false;
		}
	}
	linkinfo_port_info(holder, &pi);
	*mask = pi.capabilityMask;
	return true;
}

void linkinfo_width_speed(const struct ibtopo_port *port, char *width, char *speed, size_t len)
{
	struct ibstruct_smp_port_info pi;
	struct ibstruct_mlnx_ext_port_info ei;
	unsigned iwidth, ispeed, espeed = 0;
	uint32_t cap;

	linkinfo_port_info(port, &pi);
	mlnx_info(port, &ei);
	iwidth = pi.linkWidthActive;
	ispeed = pi.linkSpeedActive;
	if (cap_mask_of(port, &cap)) {
		if (cap & CAP_HAS_EXT_SPEEDS)
			espeed = pi.linkSpeedExtActive;
	} else {
		iwidth = ispeed = 0;
	}
	if (espeed)
		linkinfo_fmt(IBSTRUCT_FMT_LINKSPEEDEXT, espeed, speed, len);
	else if (ei.linkSpeedActive & MLNX_FDR10)
		snprintf(speed, len, "10.0 Gbps (FDR10)");
	else
		linkinfo_fmt(IBSTRUCT_FMT_LINKSPEED, ispeed, speed, len);
	linkinfo_fmt(IBSTRUCT_FMT_LINKWIDTH, iwidth, width, len);
}

int linkinfo_link_str(const struct ibtopo_port *port, char *buf, size_t len)
{
	char width[64], speed[64], state[64], phys[64];
	struct ibstruct_smp_port_info pi;

	linkinfo_port_info(port, &pi);
	linkinfo_fmt(IBSTRUCT_FMT_PORTSTATE, pi.portState, state, sizeof(state));
	linkinfo_fmt(IBSTRUCT_FMT_PHYSPORTSTATE, pi.portPhysicalState, phys, sizeof(phys));
	/* a port that is down may report anything but its states (IBA C14-24.2.1) */
	if (pi.portState == LINKINFO_STATE_DOWN)
		return snprintf(buf, len, "(              %6s/%8s)", state, phys);
	linkinfo_width_speed(port, width, speed, sizeof(width));
	return snprintf(buf, len, "(%3s %18s %6s/%8s)", width, speed, state, phys);
}

/* The widest width set in a LinkWidthSupported mask (12X, 8X, 4X, 2X, else 1X). */
static unsigned widest(unsigned mask)
{
	if (mask & 8)
		return 8;
	if (mask & 4)
		return 4;
	if (mask & 2)
		return 2;
	if (mask & 0x10)
		return 0x10;
	return 1;
}

/* The highest bit of a speed mask (1 for an empty one). */
static unsigned fastest(unsigned mask)
{
	unsigned r = 1;

	while (mask >>= 1)
		r <<= 1;
	return r;
}

void linkinfo_max_msg(const struct ibtopo_port *port, char *width_msg, char *speed_msg, size_t len)
{
	const struct ibtopo_port *remote = ibtopo_port_remote(port);
	struct ibstruct_smp_port_info pi, rpi;
	struct ibstruct_mlnx_ext_port_info ei, rei;
	uint32_t cap, rcap;
	unsigned best;
	char buf[64];

	width_msg[0] = speed_msg[0] = '\0';
	if (!remote)
		return;
	linkinfo_port_info(port, &pi);
	linkinfo_port_info(remote, &rpi);
	mlnx_info(port, &ei);
	mlnx_info(remote, &rei);

	best = widest(pi.linkWidthSupported & rpi.linkWidthSupported);
	if (!(best & pi.linkWidthActive))
		snprintf(width_msg, len, "Could be %s",
			 linkinfo_fmt(IBSTRUCT_FMT_LINKWIDTH, best, buf, sizeof(buf)));

	cap_mask_of(port, &cap);
	cap_mask_of(remote, &rcap);
	if ((cap & CAP_HAS_EXT_SPEEDS) && (rcap & CAP_HAS_EXT_SPEEDS) &&
	    pi.linkSpeedExtSupported && rpi.linkSpeedExtSupported) {
		best = fastest(pi.linkSpeedExtSupported & rpi.linkSpeedExtSupported);
		if (!(best & pi.linkSpeedExtActive))
			snprintf(speed_msg, len, "Could be %s",
				 linkinfo_fmt(IBSTRUCT_FMT_LINKSPEEDEXT, best, buf, sizeof(buf)));
		return;
	}
	if ((ei.linkSpeedSupported & MLNX_FDR10) && (rei.linkSpeedSupported & MLNX_FDR10)) {
		if (!(ei.linkSpeedActive & MLNX_FDR10)) {
			/* QDR runs at the same 10 Gb/s: say which was expected */
			if (pi.linkSpeedActive == SPEED_QDR)
				snprintf(speed_msg, len, "Could be FDR10 (Found link at QDR but "
							 "expected speed is FDR10)");
			else
				snprintf(speed_msg, len, "Could be FDR10");
		}
		return;
	}
	best = fastest(pi.linkSpeedSupported & rpi.linkSpeedSupported);
	if (!(best & pi.linkSpeedActive))
		snprintf(speed_msg, len, "Could be %s",
			 linkinfo_fmt(IBSTRUCT_FMT_LINKSPEED, best, buf, sizeof(buf)));
}

uint16_t linkinfo_remote_lid(const struct ibtopo_port *remote)
{
	uint16_t lid = ibtopo_port_base_lid(remote);

	return lid ? lid : ibtopo_node_sma_lid(ibtopo_port_node(remote));
}

void linkinfo_ext_str(const struct ibtopo_port *port, char buf[16])
{
	unsigned ext = ibtopo_port_ext_num(port);

	if (ext)
		snprintf(buf, 16, "%u", ext);
	else
		buf[0] = '\0';
}

int linkinfo_remote_str(const struct ibtopo_port *port, const struct ibdiag_nnmap *map,
			bool with_guid, char *buf, size_t len)
{
	const struct ibtopo_port *remote = ibtopo_port_remote(port);
	const struct ibtopo_node *rnode;
	char width_msg[256], speed_msg[256], ext[16], guid[32] = "";
	char *name;
	int n;

	if (!remote) {
		if (len)
			buf[0] = '\0';
		return 0;
	}
	rnode = ibtopo_port_node(remote);
	linkinfo_ext_str(remote, ext);
	linkinfo_max_msg(port, width_msg, speed_msg, sizeof(width_msg));
	if (with_guid)
		snprintf(guid, sizeof(guid), "0x%016" PRIx64 " ", ibtopo_port_guid(remote));
	name = ibdiag_nnmap_name(map, ibtopo_node_guid(rnode), ibtopo_node_desc(rnode));
	n = snprintf(buf, len, "%s%6d %4u[%2s] \"%s\" (%s %s)\n", guid, linkinfo_remote_lid(remote),
		     ibtopo_port_num(remote), ext, name ? name : "", width_msg, speed_msg);
	free(name);
	return n;
}

const char *linkinfo_human(uint64_t val64, float *val, bool data)
{
	static const char *const data_units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
	static const char *const count_units[] = {"", "K", "M", "G", "T", "P", "E"};
	uint64_t rest = val64 / 1024, div = 1;
	unsigned ui = 0;

	while (rest) {
		ui++;
		rest /= 1024;
		div *= 1024;
	}
	*val = (float)val64;
	if (data) {
		/* PortXmitData/PortRcvData count 32-bit words */
		*val *= 4;
		if (*val / (float)div > 1024) {
			ui++;
			div *= 1024;
		}
	}
	*val /= (float)div;
	if (ui > 6)
		return "";
	return data ? data_units[ui] : count_units[ui];
}

void linkinfo_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

struct ibtopo *linkinfo_discover(struct ibdiag_port *p, const char *from, unsigned max_hops,
				 unsigned outstanding)
{
	struct ibdiag_topo_opts o = {
		.from = from,
		.max_hops = max_hops,
		.outstanding = outstanding,
	};
	struct ibtopo *t = NULL;
	int rc = ibdiag_topo_discover(p, &o, &t);

	/* libibnetdisc fails before its walk when its own port does not answer */
	if (!from && !ibdiag_topo_self_resolved(t)) {
		ibtopo_unref(t);
		fprintf(stderr, "./libibnetdisc/ibnetdisc.c:811; Failed to resolve self\n");
		return NULL;
	}
	ibdiag_topo_print_errors(t);
	/* the start node did not answer: libibnetdisc reports its NodeInfo query as it
	 * reports any other (a topology, and so its error list, only exists after it) */
	if (!t && from && rc == -ETIMEDOUT)
		fprintf(stderr, "./libibnetdisc/query_smp.c:186; umad (DR path slid 65535; dlid 65535; "
			"%s Attr 0x11:0) bad status 110; %s\n", from, strerror(ETIMEDOUT));
	return t;
}

bool linkinfo_dr_text(const struct ibpath_path *path, char *buf, size_t len)
{
	const uint8_t *ports;
	unsigned count, i;
	size_t n = 0;

	if (ibpath_path_kind(path) != IBPATH_KIND_DR || ibpath_path_get(path, IBPATH_DLID))
		return false;
	count = ibpath_path_dr_ports(path, &ports);
	if (!count)
		return false;
	for (i = 0; i < count && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, i ? ",%u" : "%u", ports[i]);
	return n < len;
}

struct ibtopo_node *linkinfo_find_target(const struct ibtopo *t, const char *text,
					 const struct ibpath_path *resolved)
{
	uint64_t guid = strtoull(text, NULL, 0);
	struct ibtopo_port *port = NULL;

	if (guid && !strchr(text, ':'))
		port = ibtopo_find_port_guid(t, guid);
	else if (resolved && ibpath_path_kind(resolved) == IBPATH_KIND_IB)
		port = ibtopo_find_port_lid(t, (uint16_t)ibpath_path_get(resolved, IBPATH_DLID));
	return port ? ibtopo_port_node(port) : NULL;
}
