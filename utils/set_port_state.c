/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * set_port_state: disable, enable or reset to INIT several fabric ports at once, reaching
 * each over a directed route that avoids every link being changed (python-rdma's ibtool
 * set_port_state).
 *
 *   set_port_state [--disable | --enable | --init] [options] TARGET@PORT...
 *
 * The subnet is discovered from the local port first.  Every TARGET (any target form: LID,
 * GUID, DR path, GID, ...) must be a node of it and PORT one of its ports; nothing is
 * changed otherwise.  The links of the ports named are then left out of the topology and a
 * shortest directed route is looked for to each port's node through what remains, so that
 * no change cuts the way to another.  A CA's or router's SMA only changes the port an SMP
 * arrives on, so such a port is reached through its own link (the last hop of its route).
 * Each change is announced, then made (PortInfo Get, then Set): CA ports first, switch
 * ports next, a port of the local node last.  Without --disable, --enable or --init the
 * changes are only announced.
 *
 * --disable sets PortPhysicalState Disabled, --enable Polling (the link trains again),
 * --init PortState Down, which drops the link back to Initialize (IBA 14.2.5.6: PortState
 * is written with 1 = Down; python-rdma wrote 2, which means Armed when written).
 *
 * Exit status: 0 all done, 1 a change failed, 2 usage, 255 bad target or no route.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portset.h"

enum sps_action { SPS_SHOW = 0, SPS_DISABLE, SPS_ENABLE, SPS_INIT };

static const char *const action_verb[] = { "Would change", "Disable", "Enable", "Set to INIT" };

struct sps_target {
	const char *text;           /* the argument */
	struct ibtopo_node *node;
	unsigned num;               /* the port number */
	struct ibtopo_port *port;   /* may be NULL (never seen by the discovery) */
	uint8_t dr[PORTSET_MAX_DR]; /* the route to the node */
	unsigned dr_len;
	int order;                  /* 0 CA, 1 switch, 2 the local node */
};

struct sps {
	enum sps_action action;
	unsigned nactions;
	struct ibdiag_port *port;
	struct ibtopo *topo;
	struct portset_routes *routes;
	struct sps_target *tgt;
	unsigned n;
};

/* file scope: what an IBEXIT() leaves is still referenced (leak checkers) */
static struct sps s;

static int handle_opt(void *ctx, int letter, char *arg)
{
	struct sps *o = ctx;

	(void)arg;
	if (letter < SPS_DISABLE || letter > SPS_INIT)
		return -1;
	if (o->nactions++ && o->action != (enum sps_action)letter)
		IBEXIT("give only one of --disable, --enable, --init");
	o->action = (enum sps_action)letter;
	return 0;
}

static void cleanup(void)
{
	free(s.tgt);
	portset_routes_free(s.routes);
	ibtopo_unref(s.topo);
	if (s.port)
		ibdiag_topo_close(s.port);
	s.tgt = NULL;
	s.routes = NULL;
	s.topo = NULL;
	s.port = NULL;
}

/* "TARGET@PORT": the port number after the last '@' (0: none given). */
static unsigned split_port(char *arg)
{
	char *at = strrchr(arg, '@'), *end;
	unsigned long v;

	if (!at)
		return 0;
	*at = '\0';
	if (!at[1] || at[1] < '0' || at[1] > '9')
		IBEXIT("bad port number '%s' in '%s@%s'", at + 1, arg, at + 1);
	v = strtoul(at + 1, &end, 10);
	if (*end || v < 1 || v > IBTOPO_MAX_PORTS)
		IBEXIT("bad port number '%s' in '%s@%s'", at + 1, arg, at + 1);
	return (unsigned)v;
}

static struct ibtopo_port *port_by_guid(uint64_t guid, struct ibtopo_node **node)
{
	struct ibtopo_port *port = ibtopo_find_port_guid(s.topo, guid);

	if (port) {
		*node = ibtopo_port_node(port);
		/* a switch's port GUID names the switch, not one of its ports */
		return ibtopo_node_type(*node) == IBTOPO_NODE_SWITCH ? NULL : port;
	}
	*node = ibtopo_find_node_guid(s.topo, guid);
	return NULL;
}

/* The node (and, for a CA port given by LID or port GUID, the port) a TARGET names. */
static struct ibtopo_port *find_target(const char *text, struct ibtopo_node **node)
{
	struct ibtopo_dr_path dr;
	struct ibpath_path *path = NULL;
	struct ibtopo_port *port = NULL;
	const uint8_t *ports;
	uint64_t guid;
	unsigned n;

	*node = NULL;
	if (ibd.dest_type == IBDIAG_DEST_GUID) {
		if (ibstruct_guid_parse(text, &guid) < 0)
			IBEXIT("bad GUID '%s'", text);
		return port_by_guid(guid, node);
	}
	if (ibd.dest_type == IBDIAG_DEST_DR) {
		if (ibtopo_dr_path_parse(text, &dr) < 0)
			IBEXIT("bad directed route '%s'", text);
		*node = ibtopo_find_node_dr(s.topo, &dr);
		return NULL;
	}
	/* a canonical GUID (0002:c903:0000:1492): looked up here, no SA needed */
	if (strchr(text, ':') && !strstr(text, "::") && ibstruct_guid_parse(text, &guid) == 0)
		return port_by_guid(guid, node);
	if (ibdiag_resolve(s.port, text, ibd.dest_type, &path) < 0)
		return NULL;
	if (ibpath_path_kind(path) == IBPATH_KIND_DR && !ibpath_path_get(path, IBPATH_DLID)) {
		n = ibpath_path_dr_ports(path, &ports);
		memset(&dr, 0, sizeof(dr));
		dr.hops = (uint8_t)(n ? n - 1 : 0);
		memcpy(dr.port, ports, n < sizeof(dr.port) ? n : sizeof(dr.port));
		*node = ibtopo_find_node_dr(s.topo, &dr);
	} else {
		port = ibtopo_find_port_lid(s.topo, (uint16_t)ibpath_path_get(path, IBPATH_DLID));
		if (port)
			*node = ibtopo_port_node(port);
		if (port && ibtopo_node_type(*node) == IBTOPO_NODE_SWITCH)
			port = NULL;
	}
	ibpath_path_unref(path);
	return port;
}

static void resolve(struct sps_target *t, char *arg)
{
	struct ibtopo_port *found;
	char name[128];

	t->num = split_port(arg);
	t->text = arg;
	found = find_target(arg, &t->node);
	if (!t->node)
		IBEXIT("%s: no such node in the subnet", arg);
	portset_node_text(t->node, name, sizeof(name));
	if (!t->num) {
		if (!found)
			IBEXIT("%s is %s %s: give the port as %s@PORT", arg,
			       ibtopo_node_type(t->node) == IBTOPO_NODE_SWITCH ? "the switch" : "the node",
			       name, arg);
		t->num = ibtopo_port_num(found);
	}
	if (t->num > ibtopo_node_num_ports(t->node))
		IBEXIT("%s has no port %u (it has %u)", name, t->num,
		       ibtopo_node_num_ports(t->node));
	t->port = ibtopo_node_port(t->node, t->num);
	if (t->node == ibtopo_from_node(s.topo))
		t->order = 2;
	else
		t->order = ibtopo_node_type(t->node) == IBTOPO_NODE_SWITCH ? 1 : 0;
}

/* The route to a target, around every link being changed. */
static void route(struct sps_target *t, const struct portset_routes *r)
{
	const struct ibtopo_node *from = ibtopo_from_node(s.topo);
	const struct ibtopo_port *peer;
	char name[128], pname[128];

	portset_node_text(t->node, name, sizeof(name));
	if (ibtopo_node_type(t->node) == IBTOPO_NODE_SWITCH) {
		t->dr_len = portset_route(r, t->node, t->dr);
		if (!t->dr_len)
			IBEXIT("no directed route to %s that avoids the links being changed", name);
		return;
	}
	/* a CA or router: the SMP must come in through the port it changes */
	if (t->node == from) {
		if (t->num != ibtopo_from_port(s.topo))
			IBEXIT("port %u of %s (the local node) can only be changed through itself: "
			       "attach to it (-P %u) or name the port at the other end of its link",
			       t->num, name, t->num);
		t->dr[0] = 0;
		t->dr_len = 1;
		return;
	}
	peer = t->port ? ibtopo_port_remote(t->port) : NULL;
	if (!peer || ibtopo_node_type(ibtopo_port_node(peer)) != IBTOPO_NODE_SWITCH)
		IBEXIT("port %u of %s has no link to a switch to reach it through: name the port "
		       "at the other end of its link instead", t->num, name);
	t->dr_len = portset_route(r, ibtopo_port_node(peer), t->dr);
	if (!t->dr_len || t->dr_len >= PORTSET_MAX_DR)
		IBEXIT("no directed route to %s that avoids the links being changed",
		       portset_node_text(ibtopo_port_node(peer), pname, sizeof(pname)));
	t->dr[t->dr_len++] = (uint8_t)ibtopo_port_num(peer);
}

static const char *state_text(const uint8_t *pi, char *buf, size_t len)
{
	struct ibstruct_smp_port_info p;
	const char *st, *ph;

	if (ibstruct_smp_port_info_unpack(&p, pi, 64) < 0)
		return "?";
	st = ibstruct_enum_name(IBSTRUCT_ENUM_PORT_STATE, p.portState);
	ph = ibstruct_enum_name(IBSTRUCT_ENUM_PHYS_PORT_STATE, p.portPhysicalState);
	snprintf(buf, len, "%s/%s", st ? st : "?", ph ? ph : "?");
	return buf;
}

static void announce(const struct sps_target *t)
{
	const struct ibtopo_port *peer = t->port ? ibtopo_port_remote(t->port) : NULL;
	char name[128], pname[128], dr[256];

	printf("%s port %u of %s", action_verb[s.action], t->num,
	       portset_node_text(t->node, name, sizeof(name)));
	if (peer)
		printf(", linked to port %u of %s", ibtopo_port_num(peer),
		       portset_node_text(ibtopo_port_node(peer), pname, sizeof(pname)));
	printf(", via DR path %s\n", portset_dr_text(t->dr, t->dr_len, dr, sizeof(dr)));
}

static int change(const struct sps_target *t)
{
	static const unsigned state[] = { 0, 0, 0, 1 }, phys[] = { 0, 3, 2, 0 };
	struct ibmadrpc_error *err = NULL;
	uint8_t before[64], after[64];
	char b[64], a[64];
	int rc;

	rc = portset_set(s.port, t->dr, t->dr_len, t->num, state[s.action], phys[s.action],
			 before, after, &err);
	if (rc == -ETIMEDOUT && s.action == SPS_DISABLE && t->order == 0) {
		/* the Set went in through the port it disables: its answer cannot come out */
		printf("  no answer: it would have crossed the link just disabled\n");
		ibmadrpc_error_free(err);
		return 0;
	}
	if (rc < 0) {
		printf("  failed: %s\n", strerror(-rc));
		ibdiag_show_error(err);
		ibmadrpc_error_free(err);
		return -1;
	}
	printf("  port state %s -> %s\n", state_text(before, b, sizeof(b)),
	       state_text(after, a, sizeof(a)));
	return 0;
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{ "disable", SPS_DISABLE, 0, NULL, "Set the physical port state to disabled." },
		{ "enable", SPS_ENABLE, 0, NULL, "Set the physical port state to polling." },
		{ "init", SPS_INIT, 0, NULL, "Set the port state to initialize." },
		{ NULL, 0, 0, NULL, NULL },
	};
	static const char *const examples[] = {
		"--disable 3@7 3@8      # take down the links at ports 7 and 8 of LID 3",
		"--enable -G 0x200001@7 # let port 7 of that switch train again",
		"--init -D 0,1@7        # drop the link at port 7 of the switch at 0,1 to INIT",
		NULL,
	};
	const struct ibtopo_port **avoid;
	unsigned failed = 0, navoid = 0;
	int first;

	first = ibdiag_process_opts(argc, argv, &s, "K", opts, handle_opt, "TARGET@PORT...",
				    examples);
	if (first >= argc)
		ibdiag_show_usage();
	atexit(cleanup);
	s.n = (unsigned)(argc - first);
	s.tgt = calloc(s.n, sizeof(*s.tgt));
	if (!s.tgt)
		IBPANIC("out of memory");

	s.topo = portset_discover(&s.port);

	for (unsigned i = 0; i < s.n; i++)
		resolve(&s.tgt[i], argv[first + (int)i]);

	/* every link being changed is left out of the routes */
	avoid = calloc(s.n, sizeof(*avoid));
	if (!avoid)
		IBPANIC("out of memory");
	for (unsigned i = 0; i < s.n; i++)
		if (s.tgt[i].port)
			avoid[navoid++] = s.tgt[i].port;
	s.routes = portset_routes_new(s.topo, avoid, navoid);
	free(avoid);
	if (!s.routes)
		IBPANIC("out of memory");
	for (unsigned i = 0; i < s.n; i++)
		route(&s.tgt[i], s.routes);

	/* CA ports first (their own links are their routes), switches, the local node last */
	for (int order = 0; order <= 2; order++)
		for (unsigned i = 0; i < s.n; i++) {
			if (s.tgt[i].order != order)
				continue;
			announce(&s.tgt[i]);
			if (s.action != SPS_SHOW && change(&s.tgt[i]) < 0)
				failed++;
		}
	fflush(stdout);
	return failed ? 1 : 0;
}
