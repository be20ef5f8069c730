// SPDX-License-Identifier: BSD-3-Clause
/*
 * lft-dump: libibtopo's forwarding tables printed as infiniband-diags' dump_fts prints them
 * (the fabric tests compare the two with cmp).  Discovers the fabric with libibtopo, loads
 * every switch's LFT (or MFT with -M) with ibtopo_load_lft()/ibtopo_load_mft() and prints
 * them in dump_fts' format and order, destinations resolved from the database.
 *
 *   lft-dump [-C ca] [-P port] [-o outstanding] [-a] [-n] [-M] [startlid [endlid]]
 *   lft-dump [-C ca] [-P port] --route SRC_LID,DLID...   ibtopo_route() over the loaded LFTs,
 *                                                        printed as ibtracert prints routes
 *   lft-dump [-C ca] [-P port] --join MGID               joins a multicast group (full member)
 *
 * Exit: 0, 1 failure, 2 usage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibtopo.h>

#define MLID_FIRST 0xc000u
#define MLID_LAST 0xfffeu /* libibmad's IB_MAX_MCAST_LID */
#define LID_LAST 0xbfffu

static int dump_all, brief;

static void print_error(const char *what, int rc, struct ibmadrpc_error *err)
{
	char buf[1024];

	if (err) {
		ibmadrpc_error_format(err, 1, buf, sizeof(buf));
		fprintf(stderr, "lft-dump: %s: %s\n", what, buf);
		ibmadrpc_error_free(err);
	} else {
		fprintf(stderr, "lft-dump: %s: %s\n", what, strerror(-rc));
	}
}

/* libibmad's portid2str() of a DR route */
static const char *route_str(const struct ibtopo_node *n, char *buf, size_t len)
{
	const struct ibtopo_dr_path *p = ibtopo_node_dr_path(n);
	int off = 0;

	if (p->lid) {
		off = snprintf(buf, len, "Lid %u", p->lid);
		if (!p->hops)
			return buf;
		off += snprintf(buf + off, len - (size_t)off, " ");
	}
	off += snprintf(buf + off, len - (size_t)off, "DR path slid %u; dlid %u; ", p->drslid, p->drdlid);
	ibtopo_dr_path_format(p, buf + off, len - (size_t)off);
	return buf;
}

static const char *type_str(int type, char *buf, size_t len)
{
	switch (type) {
	case IBTOPO_NODE_CA: return "Channel Adapter";
	case IBTOPO_NODE_SWITCH: return "Switch";
	case IBTOPO_NODE_ROUTER: return "Router";
	}
	snprintf(buf, len, "?(%d)", type);
	return buf;
}

/* dump_fts' dump_lid(): what is behind a LID, from the database */
struct lid_state {
	int last_port_lid, base_port_lid;
	uint64_t portguid;
};

static void dump_lid(const struct ibtopo *t, char *str, size_t len, int lid, int valid, struct lid_state *st)
{
	const struct ibtopo_port *port;
	const struct ibtopo_node *node;
	char name[128], tbuf[32];

	str[0] = 0;
	if (brief)
		return;
	if (lid <= st->last_port_lid) {
		if (!valid)
			snprintf(str, len, ": (path #%d - illegal port)", lid - st->base_port_lid);
		else if (!st->portguid)
			snprintf(str, len, ": (path #%d out of %d)", lid - st->base_port_lid + 1,
				 st->last_port_lid - st->base_port_lid + 1);
		else
			snprintf(str, len, ": (path #%d out of %d: portguid 0x%016" PRIx64 ")",
				 lid - st->base_port_lid + 1, st->last_port_lid - st->base_port_lid + 1, st->portguid);
		return;
	}
	if (!valid) {
		snprintf(str, len, ": (illegal port)");
		return;
	}
	st->portguid = 0;
	port = ibtopo_find_port_lid(t, (uint16_t)lid);
	if (!port) {
		snprintf(str, len, ": (node info not available fabric scan)");
		return;
	}
	node = ibtopo_port_node(port);
	st->portguid = ibtopo_port_guid(port);
	if (ibtopo_port_lmc(port) > 0) {
		st->base_port_lid = ibtopo_port_base_lid(port);
		st->last_port_lid = st->base_port_lid + (1 << ibtopo_port_lmc(port)) - 1;
	}
	ibtopo_nodemap_name(NULL, ibtopo_node_guid(node), ibtopo_node_desc(node), name, sizeof(name));
	snprintf(str, len, ": (%s portguid 0x%016" PRIx64 ": '%s')", type_str(ibtopo_node_type(node), tbuf, sizeof(tbuf)),
		 st->portguid, name);
}

static int dump_unicast(struct ibtopo *t, struct ibsched *sched, struct ibtopo_node *n, unsigned startl,
			unsigned endl)
{
	const uint8_t *si = ibtopo_node_switch_info(n);
	unsigned top = si ? (unsigned)(si[6] << 8 | si[7]) : 0, nports = ibtopo_node_num_ports(n), count = 0, len;
	struct ibmadrpc_error *err = NULL;
	struct lid_state st = { 0, 0, 0 };
	char path[300], name[256], str[400];
	const uint8_t *lft;
	int rc;

	if (!endl || endl > top)
		endl = top;
	if (endl > LID_LAST)
		endl = LID_LAST;
	ibtopo_nodemap_name(NULL, ibtopo_node_guid(n), ibtopo_node_desc(n), name, sizeof(name));
	rc = ibtopo_load_lft(t, sched, n, (uint16_t)endl, &err);
	if (rc) {
		print_error(name, rc, err);
		return 1;
	}
	lft = ibtopo_node_lft(n, &len);
	printf("Unicast lids [0x%x-0x%x] of switch %s guid 0x%016" PRIx64 " (%s):\n", startl, endl,
	       route_str(n, path, sizeof(path)), ibtopo_node_guid(n), name);
	printf("  Lid  Out   Destination\n");
	printf("       Port     Info \n");
	/* dump_fts' bounds: blocks [startl/64, ALIGN(endl, 64)/64) */
	for (unsigned block = startl / 64; block < (endl + 63) / 64; block++) {
		unsigned i = block * 64, e = i + 64;

		if (i < startl)
			i = startl;
		if (e > endl + 1)
			e = endl + 1;
		for (; i < e; i++) {
			unsigned out = i < len ? lft[i] : 0xff;
			int valid = out <= nports;

			if (!valid && !dump_all)
				continue;
			dump_lid(t, str, sizeof(str), (int)i, valid, &st);
			printf("0x%04x %03u %s\n", i, out & 0xff, str);
			count++;
		}
	}
	printf("%u %slids dumped \n", count, dump_all ? "" : "valid ");
	return 0;
}

static int dump_mlid(char *str, size_t len, const uint16_t *mask, unsigned nports)
{
	unsigned nonzero = 0, i;
	int n = 0;

	if (brief) {
		for (i = 0; i < (nports + 1 + 15) / 16; i++) {
			if (mask[i])
				nonzero++;
			n += snprintf(str + n, len - (size_t)n, "%04hx", mask[i]);
		}
		if (!nonzero && !dump_all) {
			str[0] = 0;
			return 0;
		}
		return n;
	}
	for (i = 0; i <= nports; i++) {
		if (mask[i / 16])
			nonzero++;
		str[i * 2] = mask[i / 16] & (1u << (i % 16)) ? 'x' : ' ';
		str[i * 2 + 1] = ' ';
	}
	if (!nonzero && !dump_all) {
		str[0] = 0;
		return 0;
	}
	str[i * 2] = 0;
	return (int)i * 2;
}

static int dump_multicast(struct ibtopo *t, struct ibsched *sched, struct ibtopo_node *n, unsigned startl,
			  unsigned endl)
{
	const uint8_t *si = ibtopo_node_switch_info(n);
	unsigned cap = si ? (unsigned)(si[4] << 8 | si[5]) : 0, top = si ? (unsigned)(si[18] << 8 | si[19]) : 0;
	unsigned nports = ibtopo_node_num_ports(n), count = 0, entries, i;
	struct ibmadrpc_error *err = NULL;
	char path[300], name[256], str[600], *s;
	static const uint16_t none[16];
	int rc;

	if (!endl || endl > MLID_FIRST + cap - 1)
		endl = MLID_FIRST + cap - 1;
	if (!dump_all && top && top < endl) {
		if (top < MLID_FIRST - 1)
			fprintf(stderr, "lft-dump: illegal top mlid %x\n", top);
		else
			endl = top;
	}
	if (!startl)
		startl = MLID_FIRST;
	else if (startl < MLID_FIRST)
		startl = MLID_FIRST;
	if (endl > MLID_LAST)
		endl = MLID_LAST;
	ibtopo_nodemap_name(NULL, ibtopo_node_guid(n), ibtopo_node_desc(n), name, sizeof(name));
	rc = ibtopo_load_mft(t, sched, n, (uint16_t)endl, &err);
	if (rc) {
		print_error(name, rc, err);
		return 1;
	}
	ibtopo_node_mft(n, 0, &entries);
	printf("Multicast mlids [0x%x-0x%x] of switch %s guid 0x%016" PRIx64 " (%s):\n", startl, endl,
	       route_str(n, path, sizeof(path)), ibtopo_node_guid(n), name);
	if (brief) {
		printf(" MLid       Port Mask\n");
	} else {
		if (nports > 9) {
			for (i = 0, s = str; i <= nports; i++) {
				*s++ = (i % 10) ? ' ' : (char)('0' + i / 10);
				*s++ = ' ';
			}
			*s = 0;
			printf("            %s\n", str);
		}
		for (i = 0, s = str; i <= nports; i++)
			s += sprintf(s, "%u ", i % 10);
		printf("     Ports: %s\n", str);
		printf(" MLid\n");
	}
	for (unsigned block = startl / 32; block <= endl / 32; block++) {
		unsigned e = block * 32 + 32;

		i = block * 32;
		if (i < startl)
			i = startl;
		if (e > endl + 1)
			e = endl + 1;
		for (; i < e; i++) {
			const uint16_t *mask = ibtopo_node_mft(n, i - MLID_FIRST, NULL);

			if (dump_mlid(str, sizeof(str), mask ? mask : none, nports) == 0)
				continue;
			printf("0x%04x      %s\n", i, str);
			count++;
		}
	}
	printf("%u %smlids dumped \n", count, dump_all ? "" : "valid ");
	return 0;
}

/* --route SRC,DLID: the hops ibtopo_route() finds over the loaded LFTs, printed as
 * infiniband-diags' ibtracert prints a route; a failure goes to stderr (1 returned). */
static const char *const short_type[] = { "???", "ca", "switch", "router" };

static void tr_port(const struct ibtopo_port *p, char *buf, size_t len)
{
	const struct ibtopo_node *n = ibtopo_port_node(p);
	unsigned lid = ibtopo_port_base_lid(p);
	char name[128];

	ibtopo_nodemap_name(NULL, ibtopo_node_guid(n), ibtopo_node_desc(n), name, sizeof(name));
	snprintf(buf, len, "lid %u-%u \"%s\"", lid, lid + (1u << ibtopo_port_lmc(p)) - 1, name);
}

static void tr_end(const char *prompt, const struct ibtopo_node *n, unsigned port)
{
	const struct ibtopo_port *p = ibtopo_node_port(n, ibtopo_node_type(n) == IBTOPO_NODE_SWITCH ? 0 : port);
	int type = ibtopo_node_type(n);
	char buf[200];

	tr_port(p, buf, sizeof(buf));
	printf("%s %s {0x%016" PRIx64 "} portnum %u %s\n", prompt, type <= 3 ? short_type[type] : "???",
	       ibtopo_node_guid(n), type == IBTOPO_NODE_SWITCH ? 0 : port, buf);
}

static int trace(struct ibtopo *t, const char *spec)
{
	unsigned long slid, dlid;
	char *end, buf[200];
	struct ibtopo_hop hops[64];
	struct ibtopo_node *stuck = NULL;
	struct ibtopo_port *from;
	int n;

	slid = strtoul(spec, &end, 0);
	if (*end != ',')
		return 2;
	dlid = strtoul(end + 1, &end, 0);
	if (*end || !slid || slid > LID_LAST || dlid > 0xffff)
		return 2;
	from = ibtopo_find_port_lid(t, (uint16_t)slid);
	if (!from) {
		fprintf(stderr, "lft-dump: route %lu -> %lu: no port has LID %lu\n", slid, dlid, slid);
		return 1;
	}
	n = ibtopo_route(t, from, (uint16_t)dlid, hops, 64, &stuck);
	if (n < 0) {
		fprintf(stderr, "lft-dump: route %lu -> %lu: %s at 0x%016" PRIx64 "\n", slid, dlid, strerror(-n),
			stuck ? ibtopo_node_guid(stuck) : 0);
		return 1;
	}
	tr_end("From", hops[0].node, ibtopo_port_num(from));
	for (int i = 1; i < n; i++) {
		const struct ibtopo_port *p = ibtopo_node_port(hops[i].node, hops[i].in_port);
		int type = ibtopo_node_type(hops[i].node);

		tr_port(p, buf, sizeof(buf));
		printf("[%u] -> %s port {0x%016" PRIx64 "}[%u] %s\n", hops[i - 1].out_port,
		       type <= 3 ? short_type[type] : "???", ibtopo_port_guid(p), hops[i].in_port, buf);
	}
	tr_end("To", hops[n - 1].node, n == 1 ? ibtopo_port_num(from) : hops[n - 1].in_port);
	return 0;
}

/* --join MGID: an SA MCMemberRecord Set from the local port, as a full member */
static int join(struct ibmadrpc_port *mport, const char *mgid_text)
{
	struct ibstruct_sa_mcmember_record rec;
	struct ibmadrpc_error *err = NULL;
	struct ibsa_result *res = NULL;
	struct ibsa *sa = NULL;
	int rc;

	memset(&rec, 0, sizeof(rec));
	if (ibstruct_gid_parse(mgid_text, &rec.MGID)) {
		fprintf(stderr, "lft-dump: bad MGID %s\n", mgid_text);
		return 2;
	}
	ibmadrpc_port_gid(mport, &rec.portGID);
	rec.joinState = 1;
	/* what creating a group takes; an existing group must agree (the IPoIB broadcast group's) */
	rec.QKey = 0x0b1b;
	rec.PKey = 0xffff;
	rc = ibsa_new(&sa, mport);
	if (rc) {
		print_error("ibsa_new", rc, NULL);
		return 1;
	}
	rc = ibsa_query(sa, IBSTRUCT_METHOD_SET, ibstruct_sa_mcmember_record_desc(), &rec,
			IBSTRUCT_SA_MCMEMBER_RECORD_CM_MGID | IBSTRUCT_SA_MCMEMBER_RECORD_CM_PORTGID |
				IBSTRUCT_SA_MCMEMBER_RECORD_CM_JOINSTATE | IBSTRUCT_SA_MCMEMBER_RECORD_CM_QKEY |
				IBSTRUCT_SA_MCMEMBER_RECORD_CM_PKEY | IBSTRUCT_SA_MCMEMBER_RECORD_CM_SL |
				IBSTRUCT_SA_MCMEMBER_RECORD_CM_FLOWLABEL | IBSTRUCT_SA_MCMEMBER_RECORD_CM_TCLASS,
			&res, &err);
	if (rc) {
		print_error("join", rc, err);
		ibsa_free(sa);
		return 1;
	}
	if (res->count)
		printf("joined MLID 0x%04x\n", ((struct ibstruct_sa_mcmember_record *)res->records)[0].MLID);
	ibsa_result_free(res);
	ibsa_free(sa);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: lft-dump [-C ca] [-P port] [-o outstanding] [-a] [-n] [-M] [startlid [endlid]]\n"
			"       lft-dump [-C ca] [-P port] --route SRC_LID,DLID [--route ...]\n"
			"       lft-dump [-C ca] [-P port] --join MGID\n");
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "route", required_argument, NULL, 'R' },
		{ "join", required_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ca = NULL, *mgid = NULL;
	const char *routes[64];
	unsigned port = 0, outstanding = 64, startl = 0, endl = 0, nroutes = 0;
	int multicast = 0, c, rc, exit_code = 0;
	struct ibmadrpc_port *mport = NULL;
	struct ibmadrpc_error *err = NULL;
	struct ibsched *sched = NULL;
	struct ibtopo_discovery *disc = NULL;
	struct ibtopo *t = NULL;

	while ((c = getopt_long(argc, argv, "C:P:o:anM", longs, NULL)) != -1) {
		switch (c) {
		case 'C': ca = optarg; break;
		case 'P': port = (unsigned)atoi(optarg); break;
		case 'o': outstanding = (unsigned)atoi(optarg); break;
		case 'a': dump_all = 1; break;
		case 'n': brief = 1; break;
		case 'M': multicast = 1; break;
		case 'R':
			if (nroutes == 64) {
				usage();
				return 2;
			}
			routes[nroutes++] = optarg;
			break;
		case 'J': mgid = optarg; break;
		default: usage(); return 2;
		}
	}
	if (optind < argc)
		startl = (unsigned)strtoul(argv[optind++], NULL, 0);
	if (optind < argc)
		endl = (unsigned)strtoul(argv[optind++], NULL, 0);
	if (optind < argc) {
		usage();
		return 2;
	}
	rc = ibmadrpc_port_open_name(&mport, ca, port, &err);
	if (rc) {
		print_error("cannot open the port", rc, err);
		return 1;
	}
	if (mgid) {
		rc = join(mport, mgid);
		ibmadrpc_port_close(mport);
		return rc;
	}
	if (ibsched_new(&sched, mport) || ibtopo_discovery_new(&disc, sched)) {
		fprintf(stderr, "lft-dump: out of memory\n");
		return 1;
	}
	ibtopo_discovery_set_outstanding(disc, outstanding);
	rc = ibtopo_discover(disc, &t);
	if (rc && !t) {
		fprintf(stderr, "lft-dump: discovery failed: %s\n", strerror(-rc));
		return 1;
	}
	for (unsigned i = 0; i < ibtopo_node_count(t, IBTOPO_NODE_SWITCH); i++) {
		struct ibtopo_node *n = ibtopo_node_get(t, IBTOPO_NODE_SWITCH, i);

		if (nroutes) {
			rc = ibtopo_load_lft(t, sched, n, 0, &err);
			if (rc)
				print_error("cannot load an LFT", rc, err);
		} else if (multicast)
			rc = dump_multicast(t, sched, n, startl, endl);
		else
			rc = dump_unicast(t, sched, n, startl, endl);
		err = NULL;
		if (rc)
			exit_code = 1;
	}
	for (unsigned i = 0; i < nroutes; i++) {
		rc = trace(t, routes[i]);
		if (rc == 2) {
			usage();
			exit_code = 2;
		} else if (rc && !exit_code) {
			exit_code = 1;
		}
	}
	ibtopo_unref(t);
	ibtopo_discovery_free(disc);
	ibsched_free(sched);
	ibmadrpc_port_close(mport);
	return exit_code;
}
