/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibtracert: the route between two ports, followed through the switches' forwarding
 * tables with directed-route SMPs; a drop-in replacement for infiniband-diags' ibtracert.
 *
 *   ibtracert [options] <src-addr> <dest-addr>
 *   ibtracert [options] --ports-file <file>
 *
 * Unicast: first the local port finds a directed route to the source (following the LFTs
 * towards the source's LID), then the walk goes on from the source to the destination's
 * LID, one hop after the other, as the reference does (each hop needs the answers of the
 * one before).  Multicast (-m): a breadth-first search from the source over the ports the
 * switches' MFTs give for the MLID, until the destination port is met.
 *
 * The walk keeps the reference's quirks, since they show in its output: a node whose query
 * fails keeps what the previous node of that slot held (with -f the walk goes on with
 * that), the hop limit counts one short, the multicast search state lasts over every pair
 * of a ports file.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ibdiag.h"

#define MAXHOPS 63
#define DR_MAX 64 /* libibmad's ib_dr_path_t port array */
#define NODE_SWITCH 2

/* ib_portid_t as far as the walk uses it: a LID, or (lid 0) a directed route. */
struct portid {
	int lid;
	int cnt;
	uint8_t p[DR_MAX];
};

struct tport {
	struct tport *next;
	struct tport *remote;
	uint64_t guid;
	int portnum;
	int lid;
	int lmc;
	int state;
	int physstate;
};

struct tnode {
	struct tnode *htnext;
	struct tnode *dnext;
	struct tnode *allnext;   /* every node allocated, to free them */
	struct tport *ports;
	struct portid path;
	int type;
	int dist;
	int numports;
	int upport;
	struct tnode *upnode;
	uint64_t guid;
	char desc[65];
};

struct tswitch {
	int linearcap;
	int mccap;
	int top;
	int enhsp0;
};

#define HTSZ 137

struct tracert {
	struct ibdiag_port *port;
	struct ibdiag_nnmap *map;
	bool force;
	int dumplevel;
	bool multicast;
	int mlid;
	/* multicast search state (kept over all pairs, as the reference's statics) */
	struct tnode *table[HTSZ];
	struct tnode *bydist[MAXHOPS];
	struct tnode *allnodes;
	struct tport *allports;
	uint64_t target_guid;
};

static const char *const type_names[] = { "???", "ca", "switch", "router", "iwarp rnic" };

static const char *type_str(int type)
{
	return type >= 0 && type <= 4 ? type_names[type] : "???";
}

static const char *portid_str(const struct portid *pid, char *buf, size_t len)
{
	size_t n;

	if (pid->lid > 0)
		return snprintf(buf, len, "Lid %d", pid->lid), buf;
	n = (size_t)snprintf(buf, len, "DR path slid 65535; dlid 65535; %d", pid->p[0]);
	for (int i = 1; i <= pid->cnt && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, ",%d", pid->p[i]);
	return buf;
}

/* One SubnGet; out is left as it is when it fails. */
static int smp_get(struct tracert *t, const struct portid *pid, uint16_t attr, uint32_t mod,
		   uint8_t out[64])
{
	struct ibpath_path *path;
	uint8_t data[64];
	int rc;

	if (pid->lid > 0) {
		if (ibpath_path_new(&path, IBPATH_KIND_IB) < 0)
			IBPANIC("out of memory");
		ibpath_path_set(path, IBPATH_DLID, (uint64_t)pid->lid);
	} else {
		if (ibpath_path_new(&path, IBPATH_KIND_DR) < 0)
			IBPANIC("out of memory");
		if (ibpath_path_set_dr_ports(path, pid->p, (unsigned)pid->cnt + 1) < 0) {
			ibpath_path_unref(path);
			return -1;
		}
	}
	rc = ibdiag_smp_get(t->port, path, attr, mod, data, NULL);
	ibpath_path_unref(path);
	if (rc < 0)
		return -1;
	memcpy(out, data, 64);
	return 0;
}

/* NodeInfo, NodeDescription, PortInfo of the port at pid: the node's fields change only
 * when all three answered (its description as soon as it did). */
static int get_node(struct tracert *t, struct tnode *node, struct tport *port,
		    const struct portid *pid)
{
	uint8_t ni[64] = { 0 }, nd[64] = { 0 }, pi[64] = { 0 };
	struct ibstruct_smp_node_info info;
	struct ibstruct_smp_port_info pinfo;

	if (smp_get(t, pid, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, ni) < 0)
		return -1;
	memset(node->desc, 0, sizeof(node->desc));
	if (smp_get(t, pid, IBSTRUCT_SMP_NODE_DESCRIPTION_ATTR_ID, 0, nd) < 0)
		return -1;
	memcpy(node->desc, nd, 64);
	for (int i = 0; i < 64 && node->desc[i]; i++)
		if (!isprint((unsigned char)node->desc[i]))
			node->desc[i] = ' ';
	if (smp_get(t, pid, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, 0, pi) < 0)
		return -1;
	ibstruct_smp_node_info_unpack(&info, ni, sizeof(ni));
	ibstruct_smp_port_info_unpack(&pinfo, pi, sizeof(pi));
	node->guid = info.nodeGUID;
	node->type = info.nodeType;
	node->numports = info.numPorts;
	port->guid = info.portGUID;
	port->portnum = info.localPortNum;
	port->lid = pinfo.LID;
	port->lmc = pinfo.LMC;
	port->state = pinfo.portState;
	return 0;
}

/* The switch's out port for lid, or -1. */
static int switch_lookup(struct tracert *t, struct tswitch *sw, const struct portid *pid, int lid)
{
	struct ibstruct_smp_switch_info si;
	uint8_t data[64] = { 0 }, fdb[64] = { 0 };

	if (smp_get(t, pid, IBSTRUCT_SMP_SWITCH_INFO_ATTR_ID, 0, data) < 0)
		return -1;
	ibstruct_smp_switch_info_unpack(&si, data, sizeof(data));
	sw->linearcap = si.linearFDBCap;
	sw->top = si.linearFDBTop;
	sw->enhsp0 = si.enhancedPort0;
	if (lid >= sw->linearcap && lid > sw->top)
		return -1;
	if (smp_get(t, pid, IBSTRUCT_SMP_LINEAR_FORWARDING_TABLE_ATTR_ID, (uint32_t)lid / 64, fdb) < 0)
		return -1;
	return fdb[lid % 64];
}

/* Not active, except a switch's base port 0 (always active). */
static bool port_inactive(const struct tnode *node, const struct tport *port,
			  const struct tswitch *sw)
{
	return port->state != 4 && (node->type != NODE_SWITCH || sw->enhsp0);
}

static bool same_port(const struct tracert *t, const struct tport *a, const struct tport *b)
{
	return a->guid == b->guid || (t->force && a->lid == b->lid);
}

static int extend_path(struct portid *pid, int port)
{
	if (pid->cnt + 2 >= DR_MAX)
		return -1;
	pid->p[++pid->cnt] = (uint8_t)port;
	return pid->cnt;
}

static void dump_endnode(struct tracert *t, int dump, const char *prompt,
			 const struct tnode *node, const struct tport *port)
{
	int portnum = node->type == NODE_SWITCH ? 0 : port->portnum;
	char *name;

	if (!dump)
		return;
	if (dump == 1) {
		printf("%s {0x%016" PRIx64 "}[%d]\n", prompt, node->guid, portnum);
		return;
	}
	name = ibdiag_nnmap_name(t->map, node->guid, node->desc);
	printf("%s %s {0x%016" PRIx64 "} portnum %d lid %u-%u \"%s\"\n", prompt,
	       type_str(node->type), node->guid, portnum, (unsigned)port->lid,
	       (unsigned)(port->lid + (1 << port->lmc) - 1), name);
	free(name);
}

static void dump_route(struct tracert *t, int dump, const struct tnode *node, int outport,
		       const struct tport *port)
{
	char *name;

	if (!dump && !ibd.verbose)
		return;
	if (dump == 1) {
		printf("[%d] -> {0x%016" PRIx64 "}[%d]\n", outport, port->guid, port->portnum);
		return;
	}
	name = ibdiag_nnmap_name(t->map, node->guid, node->desc);
	printf("[%d] -> %s port {0x%016" PRIx64 "}[%d] lid %u-%u \"%s\"\n", outport,
	       type_str(node->type), port->guid, port->portnum, (unsigned)port->lid,
	       (unsigned)(port->lid + (1 << port->lmc) - 1), name);
	free(name);
}

/* Follows the LFTs from `from` (a directed route, extended as the walk goes) to the port
 * of to->lid. */
static int find_route(struct tracert *t, struct portid *from, const struct portid *to, int dump)
{
	static const char fn[] = "find_route";
	struct tnode fromnode = { 0 }, tonode = { 0 }, nextnode = { 0 }, *node;
	struct tport fromport = { 0 }, toport = { 0 }, nextport = { 0 }, *port;
	struct tswitch sw = { 0 };
	int maxhops = MAXHOPS, portnum, outport = 255, next_out = 255;
	char buf[300];

	if (get_node(t, &fromnode, &fromport, from) < 0 ||
	    get_node(t, &tonode, &toport, to) < 0) {
		ibdiag_warn(fn, "can't reach to/from ports");
		if (!t->force)
			return -1;
		if (to->lid > 0)
			toport.lid = to->lid;
		ibdiag_warn(fn, "Force: look for lid %d", to->lid);
	}

	node = &fromnode;
	port = &fromport;
	portnum = port->portnum;
	dump_endnode(t, dump, "From", node, port);
	if (node->type == NODE_SWITCH) {
		next_out = switch_lookup(t, &sw, from, to->lid);
		if (next_out < 0 || next_out > node->numports) {
			outport = next_out;
			goto badtbl;
		}
	}

	while (maxhops--) {
		if (port_inactive(node, port, &sw))
			goto badport;
		if (same_port(t, port, &toport))
			break;
		if (node->type == NODE_SWITCH) {
			outport = next_out;
			if (extend_path(from, outport) < 0)
				goto badpath;
			if (get_node(t, &nextnode, &nextport, from) < 0) {
				ibdiag_warn(fn, "can't reach port at %s",
					    portid_str(from, buf, sizeof(buf)));
				return -1;
			}
			if (outport == 0) {
				if (!same_port(t, &nextport, &toport))
					goto badtbl;
				break; /* the switch's own port */
			}
		} else if (node->type == 1 || node->type == 3) {
			bool ca_src = false;

			outport = portnum;
			if (!same_port(t, port, &fromport)) {
				ibdiag_warn(fn, "can't continue: reached CA or router port %" PRIx64
					    ", lid %d", port->guid, port->lid);
				return -1;
			}
			/* back one hop from the CA or router to (one hopes) a switch */
			if (from->cnt > 0) {
				from->cnt--;
			} else {
				ca_src = true;
				if (portnum && extend_path(from, portnum) < 0)
					goto badpath;
			}
			if (get_node(t, &nextnode, &nextport, from) < 0) {
				ibdiag_warn(fn, "can't reach port at %s",
					    portid_str(from, buf, sizeof(buf)));
				return -1;
			}
			/* the port number as seen from the CA or router side */
			if (!ca_src)
				nextport.portnum = from->p[from->cnt + 1];
		}
		if (nextnode.type == NODE_SWITCH) {
			next_out = switch_lookup(t, &sw, from, to->lid);
			if (next_out < 0 || next_out > nextnode.numports) {
				outport = next_out;
				goto badtbl;
			}
		}
		port = &nextport;
		if (port_inactive(&nextnode, port, &sw))
			goto badoutport;
		node = &nextnode;
		portnum = port->portnum;
		dump_route(t, dump, node, outport, port);
	}
	if (maxhops <= 0) {
		ibdiag_warn(fn, "no route found after %d hops", MAXHOPS);
		return -1;
	}
	dump_endnode(t, dump, "To", node, port);
	return 0;

badport:
	ibdiag_warn(fn, "Bad port state found: node \"%s\" port %d state %d",
		    ibdiag_clean_nodedesc(node->desc), portnum, port->state);
	return -1;
badoutport:
	ibdiag_warn(fn, "Bad out port state found: node \"%s\" outport %d state %d",
		    ibdiag_clean_nodedesc(node->desc), outport, port->state);
	return -1;
badtbl:
	ibdiag_warn(fn, "Bad forwarding table entry found at: node \"%s\" lid entry %d is %d "
		    "(top %d)", ibdiag_clean_nodedesc(node->desc), to->lid, outport, sw.top);
	return -1;
badpath:
	ibdiag_warn(fn, "Direct path too long!");
	return -1;
}

/* ---- Multicast -------------------------------------------------------------------------- */

static struct tnode *node_new(struct tracert *t)
{
	struct tnode *n = calloc(1, sizeof(*n));

	if (!n)
		IBEXIT("out of memory");
	n->allnext = t->allnodes;
	t->allnodes = n;
	return n;
}

static struct tport *port_new(struct tracert *t)
{
	struct tport *p = calloc(1, sizeof(*p));

	if (!p)
		IBEXIT("out of memory");
	/* the list of every port allocated threads through `next` until the port is linked;
	 * linked ports are reached through their nodes */
	p->remote = NULL;
	p->next = t->allports;
	t->allports = p;
	return p;
}

static unsigned guid_hash(uint64_t guid)
{
	return ((uint32_t)guid * 101u ^ (uint32_t)(guid >> 32) * 103u) % HTSZ;
}

static int insert_node(struct tracert *t, struct tnode *node)
{
	unsigned h = guid_hash(node->guid);

	for (struct tnode *n = t->table[h]; n; n = n->htnext)
		if (n->guid == node->guid)
			return -1;
	node->htnext = t->table[h];
	t->table[h] = node;
	return 0;
}

/* 1: the target was found (tagged dist -1), 0: a new node, -1: a known node. */
static int add_node(struct tracert *t, struct tnode *node, struct tport *port,
		    const struct portid *path, int dist)
{
	if (port->guid == t->target_guid) {
		node->dist = -1;
		node->ports = port;
		dump_endnode(t, ibd.verbose, "found target", node, port);
		return 1;
	}
	if (insert_node(t, node) < 0)
		return -1;
	node->ports = port;
	node->dist = dist;
	node->path = *path;
	node->dnext = t->bydist[dist];
	t->bydist[dist] = node;
	return 0;
}

/* The ports of the switch's MFT entry for mlid, as a 0/1 map by port number. */
static int switch_mclookup(struct tracert *t, const struct tnode *node, const struct portid *pid,
			   int mlid, char map[256])
{
	struct ibstruct_smp_switch_info si;
	uint8_t data[64] = { 0 };
	int sets, block;

	memset(map, 0, 256);
	if (smp_get(t, pid, IBSTRUCT_SMP_SWITCH_INFO_ATTR_ID, 0, data) < 0)
		return -1;
	ibstruct_smp_switch_info_unpack(&si, data, sizeof(data));
	mlid -= 0xc000;
	if (mlid >= si.multicastFDBCap || mlid < 0)
		return -1;
	block = mlid / 32;
	sets = (node->numports + 15) / 16;
	for (int set = 0; set < sets && set < 16; set++) {
		uint8_t mdb[64] = { 0 };
		unsigned mask;

		if (smp_get(t, pid, IBSTRUCT_SMP_MULTICAST_FORWARDING_TABLE_ATTR_ID,
			    (uint32_t)block | (uint32_t)set << 28, mdb) < 0)
			return -1;
		mask = (unsigned)mdb[2 * (mlid % 32)] << 8 | mdb[2 * (mlid % 32) + 1];
		for (int i = 0; i < 16; i++)
			if (mask & (1u << i))
				map[set * 16 + i] = 1;
	}
	return 0;
}

static int get_port(struct tracert *t, struct tport *port, int portnum, const struct portid *pid)
{
	struct ibstruct_smp_port_info pi;
	uint8_t data[64] = { 0 };

	port->portnum = portnum;
	if (smp_get(t, pid, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, (uint32_t)portnum, data) < 0)
		return -1;
	ibstruct_smp_port_info_unpack(&pi, data, sizeof(data));
	port->lid = pi.LID;
	port->lmc = pi.LMC;
	port->state = pi.portState;
	port->physstate = pi.portPhysicalState;
	return 1;
}

static struct tnode *find_mcpath(struct tracert *t, struct portid *from, int mlid)
{
	static const char fn[] = "find_mcpath";
	struct tnode *node = node_new(t);
	struct tport *port = port_new(t);
	int leafport = 0;
	char map[256], buf[300];

	if (get_node(t, node, port, from) < 0) {
		ibdiag_warn(fn, "can't reach node %s", portid_str(from, buf, sizeof(buf)));
		return NULL;
	}
	node->upnode = NULL;
	if (add_node(t, node, port, from, 0) > 0) {
		if (node->type != NODE_SWITCH) {
			ibdiag_warn(fn, "ibtracert from CA to CA is unsupported");
			return NULL;
		}
		if (switch_mclookup(t, node, from, mlid, map) < 0 || !map[0])
			return NULL;
		return node;
	}

	for (int dist = 0; dist < MAXHOPS; dist++) {
		for (node = t->bydist[dist]; node; node = node->dnext) {
			struct portid *path = &node->path;

			dump_endnode(t, ibd.verbose, "processing", node, node->ports);
			memset(map, 0, sizeof(map));
			if (node->type != NODE_SWITCH) {
				if (dist)
					continue;
				leafport = path->p[path->cnt];
				map[port->portnum & 0xff] = 1;
				node->upport = 0;
			} else {
				if (dist == 1 && leafport)
					node->upport = leafport;
				if (switch_mclookup(t, node, path, mlid, map) < 0) {
					ibdiag_warn(fn, "skipping bad Switch 0x%" PRIx64, node->guid);
					continue;
				}
			}
			for (int i = 1; i <= node->numports && i < 256; i++) {
				struct tnode *remote;
				struct tport *rport;
				int r;

				if (!map[i] || i == node->upport)
					continue;
				if (dist == 0 && leafport) {
					if (from->cnt > 0)
						path->cnt--;
				} else {
					port = port_new(t);
					if (get_port(t, port, i, path) < 0) {
						ibdiag_warn(fn, "can't reach node %s port %d",
							    portid_str(path, buf, sizeof(buf)), i);
						return NULL;
					}
					if (port->physstate != 5)
						continue;
					if (extend_path(path, i) < 0)
						return NULL;
				}
				remote = node_new(t);
				rport = port_new(t);
				if (get_node(t, remote, rport, path) < 0) {
					ibdiag_warn(fn, "NodeInfo on %s port %d failed, skipping port",
						    portid_str(path, buf, sizeof(buf)), i);
					path->cnt--;
					continue;
				}
				remote->upnode = node;
				remote->upport = rport->portnum;
				rport->remote = port;
				r = add_node(t, remote, rport, path, dist + 1);
				if (r > 0)
					return remote;
				if (r == 0)
					dump_endnode(t, ibd.verbose, "new remote", remote, rport);
				else if (remote->type == NODE_SWITCH)
					dump_endnode(t, 2, "ERR: circle discovered at", remote, rport);
				path->cnt--;
			}
		}
	}
	return NULL;
}

static void dump_mcpath(struct tracert *t, const struct tnode *node, int level)
{
	const struct tport *p = node->ports;
	char *name;

	if (node->upnode)
		dump_mcpath(t, node->upnode, level);
	name = ibdiag_nnmap_name(t->map, node->guid, node->desc);
	if (!node->dist) {
		printf("From %s 0x%" PRIx64 " port %d lid %u-%u \"%s\"\n", type_str(node->type),
		       node->guid, p->portnum, (unsigned)p->lid,
		       (unsigned)(p->lid + (1 << p->lmc) - 1), name);
		free(name);
		return;
	}
	if (level == 1)
		printf("[%d] -> %s {0x%016" PRIx64 "}[%d]\n", p->remote ? p->remote->portnum : 0,
		       type_str(node->type), node->guid, node->upport);
	else
		printf("[%d] -> %s 0x%" PRIx64 "[%d] lid %u \"%s\"\n",
		       p->remote ? p->remote->portnum : 0, type_str(node->type), node->guid,
		       node->upport, (unsigned)p->lid, name);
	if (node->dist < 0)
		printf("To %s 0x%" PRIx64 " port %d lid %u-%u \"%s\"\n", type_str(node->type),
		       node->guid, p->portnum, (unsigned)p->lid,
		       (unsigned)(p->lid + (1 << p->lmc) - 1), name);
	free(name);
}

/* ---- Pairs -------------------------------------------------------------------------------- */

/* A target text to a portid: a LID, or (other forms) the LID a directed route leads to. */
static int resolve(struct tracert *t, const char *text, struct portid *out)
{
	struct ibpath_path *path = NULL;

	memset(out, 0, sizeof(*out));
	if (ibdiag_resolve(t->port, text, ibd.dest_type, &path) < 0)
		return -1;
	if (ibpath_path_kind(path) == IBPATH_KIND_DR &&
	    ibpath_path_get(path, IBPATH_DR_SLID) == 0xffff) {
		/* the reference's resolve_lid(): the LID in the port's PortInfo */
		struct ibstruct_smp_port_info pi;
		uint8_t data[64] = { 0 };
		int rc = ibdiag_smp_get(t->port, path, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, 0, data, NULL);

		ibpath_path_unref(path);
		if (rc < 0) {
			ibdiag_warn("get_route", "cannot resolve lid for port '%s'", text);
			return -2;
		}
		ibstruct_smp_port_info_unpack(&pi, data, sizeof(data));
		out->lid = pi.LID;
		return 0;
	}
	out->lid = (int)ibpath_path_get(path, IBPATH_DLID);
	ibpath_path_unref(path);
	return 0;
}

static int get_route(struct tracert *t, const char *src, const char *dst)
{
	static const char fn[] = "get_route";
	struct portid me = { 0 }, from, to;
	struct tnode *end;
	int rc;

	rc = resolve(t, src, &from);
	if (rc < 0) {
		if (rc == -1)
			ibdiag_warn(fn, "can't resolve source port %s", src);
		return -1;
	}
	rc = resolve(t, dst, &to);
	if (rc < 0) {
		if (rc == -1)
			ibdiag_warn(fn, "can't resolve destination port %s", dst);
		return -1;
	}
	if (to.lid == 0 || from.lid == 0) {
		ibdiag_warn(fn, "bad src/dest lid");
		ibdiag_show_usage();
	}
	/* a directed route from here to the source first */
	if (find_route(t, &me, &from, 0) < 0) {
		ibdiag_warn(fn, "can't find a route to the src port");
		return -1;
	}
	from = me;

	if (!t->multicast) {
		if (find_route(t, &from, &to, t->dumplevel) < 0) {
			ibdiag_warn(fn, "can't find a route from src to dest");
			return -1;
		}
		return 0;
	}
	if (t->mlid < 0xc000)
		ibdiag_warn(fn, "invalid MLID; must be 0xc000 or larger");
	{
		struct tnode tonode = { 0 };
		struct tport toport = { 0 };

		if (get_node(t, &tonode, &toport, &to) < 0) {
			ibdiag_warn("find_target_portguid", "can't find to port\n");
			t->target_guid = UINT64_MAX;
		} else {
			t->target_guid = toport.guid;
		}
	}
	if (!t->target_guid) {
		ibdiag_warn(fn, "can't reach target lid %d", to.lid);
		return -1;
	}
	end = find_mcpath(t, &from, t->mlid);
	if (!end) {
		ibdiag_warn(fn, "can't find a multicast route from src to dest");
		return -1;
	}
	dump_mcpath(t, end, t->dumplevel);
	return 0;
}

struct cli {
	struct tracert *t;
	char *map_file;
	char *ports_file;
};

static int process_opt(void *ctx, int letter, char *arg)
{
	struct cli *c = ctx;

	switch (letter) {
	case 1:
		free(c->map_file);
		c->map_file = strdup(arg);
		if (!c->map_file)
			IBEXIT("out of memory, strdup for node_name_map_file name failed");
		break;
	case 2:
		free(c->ports_file);
		c->ports_file = strdup(arg);
		if (!c->ports_file)
			IBEXIT("out of memory, strdup for ports_file name failed");
		break;
	case 'm':
		c->t->multicast = true;
		c->t->mlid = (int)strtoul(arg, NULL, 0);
		break;
	case 'f':
		c->t->force = true;
		break;
	case 'n':
		c->t->dumplevel = 1;
		break;
	default:
		return -1;
	}
	return 0;
}

static void ports_file_routes(struct tracert *t, const char *file)
{
	char line[80], src[21], dst[21];
	int lineno = 0, pairs = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		IBEXIT("cannot open ports-file %s", file);
	/* 80-byte reads as the reference: a longer line counts as several */
	while (fgets(line, sizeof(line), f)) {
		char *s;

		lineno++;
		s = strtok(line, "\n");
		if (!s)
			continue;
		while (*s && isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			continue;
		if (sscanf(line, "%20s %20s", src, dst) != 2) {
			fclose(f);
			IBEXIT("ports-file, %s, at line %i contains bad data", file, lineno);
		}
		pairs++;
		if (get_route(t, src, dst) != 0) {
			fclose(f);
			IBEXIT("Failed to get route information at line %i", lineno);
		}
	}
	fclose(f);
	printf("%i lid/guid pairs processed from %s\n", pairs, file);
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{ "force", 'f', 0, NULL, "force" },
		{ "no_info", 'n', 0, NULL, "simple format" },
		{ "mlid", 'm', 1, "<mlid>", "multicast trace of the mlid" },
		{ "node-name-map", 1, 1, "<file>", "node name map file" },
		{ "ports-file", 2, 1, "<file>", "port pairs file" },
		{ NULL, 0, 0, NULL, NULL },
	};
	static const char *const examples[] = {
		"- Unicast examples:",
		"4 16\t\t\t# show path between lids 4 and 16",
		"-n 4 16\t\t# same, but using simple output format",
		"-G 0x8f1040396522d 0x002c9000100d051\t# use guid addresses",
		" - Multicast examples:",
		"-m 0xc000 4 16\t# show multicast path of mlid 0xc000 between lids 4 and 16",
		NULL,
	};
	static struct tracert t = { .dumplevel = 2 };
	struct cli c = { .t = &t };
	int first;

	first = ibdiag_process_opts(argc, argv, &c, "DK", opts, process_opt,
				    "<src-addr> <dest-addr>", examples);
	argc -= first;
	argv += first;
	if (argc < 2 && !c.ports_file)
		ibdiag_show_usage();

	t.port = ibdiag_open_port();
	t.map = ibdiag_nnmap_open(c.map_file);
	if (!c.ports_file) {
		if (get_route(&t, argv[0], argv[1]) != 0)
			IBEXIT("Failed to get route information");
	} else {
		ports_file_routes(&t, c.ports_file);
	}

	while (t.allnodes) {
		struct tnode *n = t.allnodes;

		t.allnodes = n->allnext;
		free(n);
	}
	while (t.allports) {
		struct tport *p = t.allports;

		t.allports = p->next;
		free(p);
	}
	ibdiag_nnmap_close(t.map);
	ibdiag_close_port(t.port);
	free(c.map_file);
	free(c.ports_file);
	return 0;
}
