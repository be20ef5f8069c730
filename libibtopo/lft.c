/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Switch forwarding tables, loaded on demand: LinearForwardingTable blocks (64 one-byte
 * entries each) and MulticastForwardingTable blocks (32 16-bit port masks of one 16-port
 * position each), all requested at once through libibsched so that the scheduler's window
 * is full, over the route by which discovery reached the switch.  Route tracing over the
 * loaded tables.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ibtopo-private.h"

#define LFT_BLOCK 64      /* entries per LinearForwardingTable block */
#define MFT_BLOCK 32      /* MLIDs per MulticastForwardingTable block */
#define MFT_WORDS 16      /* 16-bit words of one MFT entry (ports 0..255) */
#define MLID_FIRST 0xc000
#define MLID_COUNT 0x4000 /* 0xc000..0xffff */

/* The group's user data: outlives the load if the load gives up while work is out. */
struct ft_stub {
	struct ft_load *ld;
};

struct ft_load {
	struct ibtopo_node *node;
	bool is_mft;
	unsigned entries;  /* LFT: LIDs 0..entries-1; MFT: MLIDs 0xc000.. */
	uint8_t *lft;
	uint16_t *mft;
	bool done;
	int status;
	struct ibmadrpc_error *err;
	char where[360];   /* "switch 0x... (DR path 0,1,3)" */
};

/* ---- Where a switch is ------------------------------------------------------------------- */

/* The route to the node: its discovery route, or its LID when the route is unknown (a node
 * other than the start node with an empty route, e.g. from a topology read from a file). */
static int node_route(const struct ibtopo_node *node, struct ibtopo_dr_path *dr)
{
	const struct ibtopo *t = node->topo;

	*dr = node->path;
	if (dr->hops || dr->lid || node == t->from_node)
		return 0;
	if (!node->sma_lid)
		return -EHOSTUNREACH;
	memset(dr, 0, sizeof(*dr));
	dr->lid = node->sma_lid;
	return 0;
}

static void describe(struct ft_load *ld, const struct ibtopo_dr_path *dr)
{
	char path[IBTOPO_MAX_HOPS * 4 + 8];
	int n;

	if (dr->lid && !dr->hops) {
		snprintf(ld->where, sizeof(ld->where), "switch 0x%016llx (LID %u)",
			 (unsigned long long)ld->node->guid, dr->lid);
		return;
	}
	ibtopo_dr_path_format(dr, path, sizeof(path));
	n = snprintf(ld->where, sizeof(ld->where), "switch 0x%016llx (", (unsigned long long)ld->node->guid);
	if (dr->lid)
		n += snprintf(ld->where + n, sizeof(ld->where) - (size_t)n, "LID %u, ", dr->lid);
	snprintf(ld->where + n, sizeof(ld->where) - (size_t)n, "DR path %s)", path);
}

/* ---- The load ------------------------------------------------------------------------------ */

/* The first failure: its error, with what was being read pushed (mod UINT32_MAX: the
 * scheduler failed), and the rest cancelled. */
static void fail(struct ft_load *ld, struct ibsched *sched, struct ibsched_group *group, int errnum,
		 const struct ibmadrpc_error *cause, uint32_t mod)
{
	if (ld->status)
		return;
	ld->status = errnum < 0 ? errnum : -EIO;
	ld->err = cause ? ibmadrpc_error_dup(cause) : ibmadrpc_error_new(-ld->status, "%s", strerror(-ld->status));
	if (ld->err) {
		if (mod == UINT32_MAX)
			ibmadrpc_error_push(ld->err, "Failed reading the %s forwarding table of %s",
					    ld->is_mft ? "multicast" : "linear", ld->where);
		else if (ld->is_mft)
			ibmadrpc_error_push(ld->err,
					    "Failed reading MulticastForwardingTable block %u position %u of %s",
					    mod & 0x1ff, mod >> 28, ld->where);
		else
			ibmadrpc_error_push(ld->err, "Failed reading LinearForwardingTable block %u of %s", mod,
					    ld->where);
	}
	if (group)
		ibsched_group_cancel(sched, group);
}

static int block_done(struct ibsched *sched, struct ibsched_work *work, const struct ibmadrpc_reply *reply,
		      const struct ibmadrpc_error *err, void *user)
{
	struct ibsched_group *group = ibsched_work_group(work);
	struct ft_stub *stub = ibsched_group_user(group);
	struct ft_load *ld = stub ? stub->ld : NULL;
	uint32_t mod = (uint32_t)(uintptr_t)user;
	const uint8_t *data;

	if (!ld || ld->status)
		return IBSCHED_HANDLED;
	if (!reply) {
		int e = ibmadrpc_error_errno(err);

		fail(ld, sched, group, e > 0 ? -e : e < 0 ? e : -EIO, err, mod);
		return IBSCHED_HANDLED;
	}
	if (reply->len < reply->data_offset || reply->len - reply->data_offset < IBTOPO_SMP_DATA_SIZE) {
		struct ibmadrpc_error *e = ibmadrpc_error_new(EPROTO, "a reply of %zu bytes holds no whole block",
							      reply->len);

		fail(ld, sched, group, -EPROTO, e, mod);
		ibmadrpc_error_free(e);
		return IBSCHED_HANDLED;
	}
	data = reply->mad + reply->data_offset;
	if (!ld->is_mft) {
		unsigned first = mod * LFT_BLOCK;
		unsigned n = ld->entries - first < LFT_BLOCK ? ld->entries - first : LFT_BLOCK;

		memcpy(ld->lft + first, data, n);
	} else {
		unsigned first = (mod & 0x1ff) * MFT_BLOCK, pos = mod >> 28;

		for (unsigned i = 0; i < MFT_BLOCK && first + i < ld->entries; i++)
			ld->mft[(size_t)(first + i) * MFT_WORDS + pos] = get_be16(data + 2 * i);
	}
	return IBSCHED_HANDLED;
}

static int group_done(struct ibsched *sched, struct ibsched_group *group, int status,
		      const struct ibmadrpc_error *err, void *user)
{
	struct ft_stub *stub = user;

	(void)sched;
	(void)group;
	(void)err;
	if (stub->ld) {
		stub->ld->done = true;
		/* a cancel that was not ours (an enclosing group, the root) */
		if (status && !stub->ld->status)
			stub->ld->status = status;
	}
	free(stub);
	return IBSCHED_HANDLED;
}

/* Sends every block (LFT: mod = block; MFT: mod = block | position << 28) and runs the
 * scheduler until all are in or one failed. */
static int run_load(struct ft_load *ld, struct ibsched *sched, unsigned blocks, unsigned positions)
{
	struct ibtopo_dr_path dr;
	struct ibpath_path *ip = NULL;
	struct ibsched_group *group = NULL;
	struct ibmadrpc_request req;
	struct ft_stub *stub;
	int rc;

	rc = node_route(ld->node, &dr);
	if (rc)
		return rc;
	describe(ld, &dr);
	/* not from inside a scheduler callback: this waits for its answers */
	rc = ibsched_dispatch(sched, 0);
	if (rc < 0)
		return rc;
	rc = topo_path_to_ibpath(&dr, 0, UINT32_MAX, &ip);
	if (rc)
		return rc;
	stub = calloc(1, sizeof(*stub));
	if (!stub) {
		ibpath_path_unref(ip);
		return -ENOMEM;
	}
	stub->ld = ld;
	rc = ibsched_group_new(sched, ibsched_root(sched), IBSCHED_COLLECT, group_done, stub, &group);
	if (rc) {
		free(stub);
		ibpath_path_unref(ip);
		return rc;
	}
	memset(&req, 0, sizeof(req));
	req.path = ip;
	req.mgmt_class = 0x01;
	req.method = 0x01; /* Get */
	req.attr_id = ld->is_mft ? ATTR_MFT : ATTR_LFT;
	for (unsigned b = 0; b < blocks && !ld->status; b++) {
		for (unsigned p = 0; p < positions && !ld->status; p++) {
			uint32_t mod = ld->is_mft ? b | (uint32_t)p << 28 : b;

			req.attr_mod = mod;
			rc = ibsched_submit(sched, group, &req, block_done, (void *)(uintptr_t)mod, NULL);
			if (rc < 0)
				fail(ld, sched, group, rc, NULL, mod);
		}
	}
	ibpath_path_unref(ip); /* the scheduler copied what it needs */
	while (!ld->done) {
		rc = ibsched_dispatch(sched, -1);
		if (rc < 0 && rc != -EINTR) {
			fail(ld, sched, group, rc, NULL, UINT32_MAX);
			/* let the cancelled group finish; if it cannot, it frees the stub later */
			for (int i = 0; i < 100 && !ld->done; i++)
				if (ibsched_dispatch(sched, 10) < 0)
					break;
			if (!ld->done)
				stub->ld = NULL;
			break;
		}
	}
	return ld->status;
}

/* The failure of a query (or of the scheduler while they ran) to the caller. */
static void give_error(struct ft_load *ld, struct ibmadrpc_error **err)
{
	if (err && !*err)
		*err = ld->err;
	else
		ibmadrpc_error_free(ld->err);
	ld->err = NULL;
}

IBTOPO_EXPORT int ibtopo_load_lft(struct ibtopo *topo, struct ibsched *sched, struct ibtopo_node *node,
				  uint16_t top, struct ibmadrpc_error **err)
{
	struct ft_load ld;
	int rc;

	if (err)
		*err = NULL;
	if (!topo || !sched || !node || node->topo != topo)
		return -EINVAL;
	if (node->type != IBTOPO_NODE_SWITCH)
		return -ENOTSUP;
	if (!top) {
		/* LinearFDBTop, from the SwitchInfo discovery read */
		if (!node->has_switch_info)
			return -ENODATA;
		top = SI_LFT_TOP(node->switch_info);
	}
	if (top > LID_UNICAST_MAX)
		top = LID_UNICAST_MAX;

	memset(&ld, 0, sizeof(ld));
	ld.node = node;
	ld.entries = top + 1u;
	ld.lft = malloc(ld.entries);
	if (!ld.lft)
		return -ENOMEM;
	memset(ld.lft, 0xff, ld.entries);
	/* the old table goes first: a failed load leaves none */
	free(node->lft);
	node->lft = NULL;
	node->lft_len = 0;
	rc = run_load(&ld, sched, (ld.entries + LFT_BLOCK - 1) / LFT_BLOCK, 1);
	if (rc) {
		if (!ld.status)
			ld.status = rc;
		give_error(&ld, err);
		free(ld.lft);
		return rc;
	}
	node->lft = ld.lft;
	node->lft_len = ld.entries;
	return 0;
}

IBTOPO_EXPORT const uint8_t *ibtopo_node_lft(const struct ibtopo_node *node, unsigned *len)
{
	if (len)
		*len = node && node->lft ? node->lft_len : 0;
	return node ? node->lft : NULL;
}

/* The MLIDs to load: up to `top`, else up to SwitchInfo.MulticastFDBTop, else the whole
 * capacity (as infiniband-diags' ibroute/dump_fts choose); never beyond the capacity nor
 * 0xffff.  0 when the table is empty (a top of 0xbfff). */
static int mft_entries(const struct ibtopo_node *node, uint16_t top, unsigned *entries)
{
	unsigned cap = node->has_switch_info ? SI_MFT_CAP(node->switch_info) : 0;
	unsigned si_top = node->has_switch_info ? SI_MFT_TOP(node->switch_info) : 0;
	unsigned end;

	if (top && top < MLID_FIRST - 1)
		return -EINVAL;
	if (cap > MLID_COUNT)
		cap = MLID_COUNT;
	if (top) {
		end = top;
	} else {
		if (!node->has_switch_info)
			return -ENODATA;
		/* a top below 0xbfff is illegal: the capacity then, as ibroute does */
		end = si_top >= MLID_FIRST - 1 ? si_top : MLID_FIRST - 1 + cap;
	}
	if (cap && end > MLID_FIRST - 1 + cap)
		end = MLID_FIRST - 1 + cap;
	*entries = end + 1 - MLID_FIRST;
	return 0;
}

IBTOPO_EXPORT int ibtopo_load_mft(struct ibtopo *topo, struct ibsched *sched, struct ibtopo_node *node,
				  uint16_t top, struct ibmadrpc_error **err)
{
	struct ft_load ld;
	unsigned positions;
	int rc;

	if (err)
		*err = NULL;
	if (!topo || !sched || !node || node->topo != topo)
		return -EINVAL;
	if (node->type != IBTOPO_NODE_SWITCH)
		return -ENOTSUP;
	memset(&ld, 0, sizeof(ld));
	rc = mft_entries(node, top, &ld.entries);
	if (rc)
		return rc;
	ld.node = node;
	ld.is_mft = true;
	positions = (node->num_ports + 1u + 15) / 16;
	/* room for one entry at least, so that a loaded empty table is not NULL */
	ld.mft = calloc((size_t)(ld.entries ? ld.entries : 1) * MFT_WORDS, sizeof(*ld.mft));
	if (!ld.mft)
		return -ENOMEM;
	free(node->mft);
	node->mft = NULL;
	node->mft_entries = 0;
	if (ld.entries) {
		rc = run_load(&ld, sched, (ld.entries + MFT_BLOCK - 1) / MFT_BLOCK, positions);
		if (rc) {
			if (!ld.status)
				ld.status = rc;
			give_error(&ld, err);
			free(ld.mft);
			return rc;
		}
	}
	node->mft = ld.mft;
	node->mft_entries = ld.entries;
	return 0;
}

IBTOPO_EXPORT const uint16_t *ibtopo_node_mft(const struct ibtopo_node *node, unsigned index, unsigned *entries)
{
	if (entries)
		*entries = node && node->mft ? node->mft_entries : 0;
	if (!node || !node->mft || index >= node->mft_entries)
		return NULL;
	return node->mft + (size_t)index * MFT_WORDS;
}

/* ---- Route tracing -------------------------------------------------------------------------- */

/* The port answers for `lid`: its LMC range (a switch's ports share port 0's). */
static bool port_owns(uint16_t base, uint8_t lmc, uint16_t lid)
{
	return base && lid >= base && (unsigned)lid < base + (1u << lmc);
}

struct trace {
	struct ibtopo_hop *hops;
	unsigned max, n;
	struct ibtopo_node **stuck;
};

static int push_hop(struct trace *tr, struct ibtopo_node *node, unsigned in, unsigned out)
{
	if (tr->hops) {
		if (tr->n >= tr->max)
			return -ENOSPC;
		tr->hops[tr->n].node = node;
		tr->hops[tr->n].in_port = in;
		tr->hops[tr->n].out_port = out;
	}
	tr->n++;
	return 0;
}

/* The last hop: the number of hops, or -ENOSPC. */
static int arrive(struct trace *tr, struct ibtopo_node *node, unsigned in)
{
	int rc = push_hop(tr, node, in, 0);

	return rc ? rc : (int)tr->n;
}

static int stuck_at(struct trace *tr, struct ibtopo_node *node, int rc)
{
	if (tr->stuck)
		*tr->stuck = node;
	return rc;
}

IBTOPO_EXPORT int ibtopo_route(const struct ibtopo *topo, struct ibtopo_port *from, uint16_t dlid,
			       struct ibtopo_hop *hops, unsigned max_hops, struct ibtopo_node **stuck)
{
	struct trace tr = { .hops = hops, .max = max_hops, .stuck = stuck };
	struct ibtopo_node *node;
	unsigned in = 0, visits = 0;
	int rc;

	if (stuck)
		*stuck = NULL;
	if (!topo || !from || !from->node || from->node->topo != topo || !dlid || dlid > LID_UNICAST_MAX)
		return -EINVAL;
	node = from->node;
	if (node->type != IBTOPO_NODE_SWITCH) {
		/* out of a CA's (router's) port, unless the LID is its own */
		if (port_owns(from->base_lid, from->lmc, dlid))
			return arrive(&tr, node, 0);
		rc = push_hop(&tr, node, 0, from->num);
		if (rc)
			return rc;
		if (!from->remote)
			return stuck_at(&tr, node, -ENOENT);
		in = from->remote->num;
		node = from->remote->node;
	}
	for (;;) {
		struct ibtopo_port *out;
		unsigned port;

		if (node->type != IBTOPO_NODE_SWITCH) {
			const struct ibtopo_port *p = node->ports[in];

			if (p && port_owns(p->base_lid, p->lmc, dlid))
				return arrive(&tr, node, in);
			return stuck_at(&tr, node, -ENOENT); /* delivered to the wrong end port */
		}
		/* a route without loops enters every switch once at most */
		if (visits++ >= topo->by_type[IBTOPO_NODE_SWITCH].n)
			return stuck_at(&tr, node, -ELOOP);
		if (port_owns(node->sma_lid, node->sma_lmc, dlid))
			return arrive(&tr, node, in);
		if (!node->lft || dlid >= node->lft_len)
			return stuck_at(&tr, node, -ENOENT);
		port = node->lft[dlid];
		if (port == 0 && !node->sma_lid) /* its own LID, which the database does not know */
			return arrive(&tr, node, in);
		out = port && port <= node->num_ports ? node->ports[port] : NULL;
		if (!out || !out->remote)
			return stuck_at(&tr, node, -ENOENT);
		rc = push_hop(&tr, node, in, port);
		if (rc)
			return rc;
		in = out->remote->num;
		node = out->remote->node;
	}
}
