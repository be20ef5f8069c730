/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The subnet as the SA knows it, for the SA and LID discovery modes.
 *
 * The image is built from the SA's NodeRecord, LinkRecord, PortInfoRecord and
 * SwitchInfoRecord tables (LID mode: NodeRecords and LinkRecords only).  When a table comes
 * back cut short (an SA without RMPP, as the simulator's: one MAD of records), the records
 * that did come are kept and the rest is fetched record by record, breadth first from the
 * local port: NodeRecord by LID, LinkRecords by fromLID (and fromPort for a switch),
 * PortInfoRecords by endportLID (and portNum for a switch), SwitchInfoRecord by LID.
 *
 * The directed-route walk (walk.c) then runs over the image instead of the wire: a DR path
 * is followed link by link through the image to the node and port it reaches.  In SA mode
 * the walk's SMPs are answered from the records at once (no MAD); in LID mode they go to
 * the LID of the port the path reaches, LID routed, and only the port the answer names as
 * the one it came in on is set to the one the directed route would have entered.  Either
 * way the walk builds what it builds on the wire: the same nodes in the same order, the
 * same paths, links and raw attributes.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibtopo-private.h"

#define LID_COUNT (LID_UNICAST_MAX + 1)

#define SA_STATUS_NO_RECORDS 3 /* SA class status (bits 8-14): nothing matched */
#define SA_MAD_DATA 200        /* bytes of records in one SA MAD */

/* what a query fetches */
enum img_kind {
	Q_NODES,    /* NodeRecord */
	Q_LINKS,    /* LinkRecord */
	Q_PINFO,    /* PortInfoRecord */
	Q_SWINFO,   /* SwitchInfoRecord */
	Q_KINDS
};

struct img_port {
	uint64_t guid;
	uint16_t lid;   /* a CA's or router's port LID (a switch's is the node's) */
	int32_t peer;   /* node index, -1: no link */
	uint8_t peer_port;
	bool has_info;
	uint8_t info[IBTOPO_SMP_DATA_SIZE];
	struct ibpath_path *path; /* LID mode: the LID-routed path to this CA port */
};

struct img_node {
	uint64_t guid;
	uint8_t type, nports;
	uint16_t lid; /* a switch's LID */
	bool has_swinfo;
	uint8_t info[IBTOPO_SMP_DATA_SIZE];
	uint8_t desc[IBTOPO_SMP_DATA_SIZE];
	uint8_t swinfo[IBTOPO_SMP_DATA_SIZE];
	struct img_port *ports; /* nports + 1 */
	struct ibpath_path *path; /* LID mode: to a switch */
};

/* per LID while fetching */
enum {
	L_NR_ASKED = 1 << 0,  /* NodeRecord asked for (or had from the table) */
	L_NR_HAVE = 1 << 1,
	L_FOLLOWED = 1 << 2,  /* its links, port infos, switch info asked for */
	L_SWITCH = 1 << 3,
	L_SW_HAVE = 1 << 4,   /* SwitchInfoRecord in */
};

#define BITS_PINFO 0 /* lid_ent.bits: ports whose PortInfoRecord is in */
#define BITS_LINK 4  /* ... ports whose LinkRecord is in */

struct lid_ent {
	uint8_t flags;
	uint8_t nports;     /* a switch's */
	uint64_t port_guid; /* from the LID's NodeRecord */
	uint64_t *bits;     /* 8 words, see BITS_*; allocated on the first record */
};

/* the records as they came (wire bytes, record header included) */
struct rec_vec {
	uint8_t *data;
	size_t n, cap, size;
};

/* one query on the wire; kept in a list so that none leaks if the discovery is cancelled */
struct img_query {
	struct img_query *next;
	struct topo_image *img;
	uint8_t kind;
	bool table;
	uint16_t lid;
	uint8_t port;
};

struct topo_image {
	struct topo_image_env env;
	struct ibsa *sa;
	bool own_sa;
	uint16_t self_lid;

	/* fetching */
	struct lid_ent *lids;
	struct rec_vec recs[Q_KINDS];
	bool full[Q_KINDS]; /* the table came whole */
	struct img_query *queries;
	unsigned pending;
	bool tables_in, done;

	/* the image */
	struct img_node **nodes;
	unsigned n, cap;
	unsigned *guid_hash; /* node GUID -> index + 1, open addressed */
	unsigned hash_mask;
	int32_t *lid_node;  /* LID -> node index, -1 */
	uint8_t *lid_port;  /* LID -> port */
	struct img_node *self;
	uint8_t self_port;
};

static const size_t rec_size[Q_KINDS] = {
	[Q_NODES] = IBSTRUCT_SA_NODE_RECORD_SIZE,
	[Q_LINKS] = IBSTRUCT_SA_LINK_RECORD_SIZE,
	[Q_PINFO] = IBSTRUCT_SA_PORT_INFO_RECORD_SIZE,
	[Q_SWINFO] = IBSTRUCT_SA_SWITCH_INFO_RECORD_SIZE,
};

static const char *const kind_name[Q_KINDS] = { "NodeRecord", "LinkRecord", "PortInfoRecord",
						"SwitchInfoRecord" };

static const struct ibstruct_desc *kind_desc(enum img_kind k)
{
	switch (k) {
	case Q_NODES: return ibstruct_sa_node_record_desc();
	case Q_LINKS: return ibstruct_sa_link_record_desc();
	case Q_PINFO: return ibstruct_sa_port_info_record_desc();
	case Q_SWINFO: return ibstruct_sa_switch_info_record_desc();
	case Q_KINDS: break;
	}
	return NULL;
}

static int rec_push(struct rec_vec *v, const uint8_t *rec)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		uint8_t *d = realloc(v->data, cap * v->size);

		if (!d)
			return -ENOMEM;
		v->data = d;
		v->cap = cap;
	}
	memcpy(v->data + v->n * v->size, rec, v->size);
	v->n++;
	return 0;
}

/* ---- Fetching -------------------------------------------------------------------------------- */

static int follow_lid(struct topo_image *img, uint16_t lid);
static void fetch_done(struct topo_image *img);

/* An error met, with the SA's error text when there is one. */
static void image_error(struct topo_image *img, int errnum, const struct ibmadrpc_error *err, const char *fmt,
			...) __attribute__((format(printf, 4, 5)));
static void image_error(struct topo_image *img, int errnum, const struct ibmadrpc_error *err, const char *fmt,
			...)
{
	char head[256], msg[512];
	size_t n = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	if (errnum > 0)
		errnum = -errnum;
	msg[0] = '\0';
	/* the error's messages on one line, the outermost first */
	for (unsigned i = 0; err && i < ibmadrpc_error_count(err) && n < sizeof(msg); i++) {
		int k = snprintf(msg + n, sizeof(msg) - n, "%s%s", i ? "; " : "", ibmadrpc_error_message(err, i));

		if (k < 0)
			break;
		n += (size_t)k;
	}
	if (!msg[0])
		snprintf(msg, sizeof(msg), "%s", strerror(-errnum));
	topo_add_error(img->env.topo, IBTOPO_ERR_QUERY, errnum, 0, 0, err ? ibmadrpc_error_status(err) : 0, NULL, 0,
		       "%s: %s", head, msg);
}

static int query_done(struct ibsa *sa, struct ibsa_result *res, const struct ibmadrpc_error *err, void *user);

/* Sends one query: a whole table (tmpl NULL) or a Get of the records matching tmpl/mask. */
static int ask(struct topo_image *img, enum img_kind kind, bool table, const void *tmpl, uint64_t mask,
	       uint16_t lid, uint8_t port)
{
	struct img_query *q = calloc(1, sizeof(*q));
	int rc;

	if (!q)
		return -ENOMEM;
	q->img = img;
	q->kind = (uint8_t)kind;
	q->table = table;
	q->lid = lid;
	q->port = port;
	rc = ibsa_query_submit(img->sa, img->env.group, table ? IBSTRUCT_METHOD_GET_TABLE : IBSTRUCT_METHOD_GET,
			       kind_desc(kind), tmpl, mask, query_done, q);
	if (rc) {
		free(q);
		return rc;
	}
	q->next = img->queries;
	img->queries = q;
	img->pending++;
	if (img->env.mads)
		(*img->env.mads)++;
	return 0;
}

static uint64_t *lid_bits(struct topo_image *img, uint16_t lid)
{
	struct lid_ent *e = &img->lids[lid];

	if (!e->bits)
		e->bits = calloc(8, sizeof(uint64_t));
	return e->bits;
}

static bool bit_test(const uint64_t *w, unsigned i)
{
	return w[i / 64] >> (i % 64) & 1;
}

static void bit_set(uint64_t *w, unsigned i)
{
	w[i / 64] |= 1ull << (i % 64);
}

static bool any_bit(const uint64_t *w)
{
	return w && (w[0] | w[1] | w[2] | w[3]);
}

/* The NodeRecord of a LID, unless it was asked for already. */
static int ask_node(struct topo_image *img, uint16_t lid)
{
	struct ibstruct_sa_node_record nr = { .LID = lid };

	if (img->lids[lid].flags & L_NR_ASKED)
		return 0;
	img->lids[lid].flags |= L_NR_ASKED;
	return ask(img, Q_NODES, false, &nr, IBSTRUCT_SA_NODE_RECORD_CM_LID, lid, 0);
}

/* Takes in what one record says (table or Get) and asks for what it leads to. */
static int take_record(struct topo_image *img, enum img_kind kind, const uint8_t *r)
{
	uint16_t lid = get_be16(r);
	uint64_t *b;
	int rc = rec_push(&img->recs[kind], r);

	if (rc)
		return rc;
	if (!lid || lid > LID_UNICAST_MAX)
		return 0;
	switch (kind) {
	case Q_NODES: {
		const uint8_t *ni = r + 4;
		struct lid_ent *e = &img->lids[lid];

		e->flags |= L_NR_ASKED | L_NR_HAVE;
		e->port_guid = NI_PORT_GUID(ni);
		if (NI_NODE_TYPE(ni) == IBTOPO_NODE_SWITCH) {
			e->flags |= L_SWITCH;
			e->nports = NI_NUM_PORTS(ni);
		}
		return img->tables_in ? follow_lid(img, lid) : 0;
	}
	case Q_LINKS: {
		uint16_t to = get_be16(r + 4);

		/* both ends are known now */
		b = lid_bits(img, lid);
		if (!b)
			return -ENOMEM;
		bit_set(b + BITS_LINK, r[2]);
		if (!to || to > LID_UNICAST_MAX)
			return 0;
		b = lid_bits(img, to);
		if (!b)
			return -ENOMEM;
		bit_set(b + BITS_LINK, r[3]);
		if (!img->tables_in)
			return 0;
		rc = ask_node(img, lid);
		return rc ? rc : ask_node(img, to);
	}
	case Q_PINFO:
		b = lid_bits(img, lid);
		if (!b)
			return -ENOMEM;
		bit_set(b + BITS_PINFO, r[2]);
		return 0;
	case Q_SWINFO:
		img->lids[lid].flags |= L_SW_HAVE;
		return 0;
	case Q_KINDS:
		break;
	}
	return 0;
}

/* A node's LID is known: ask for what the tables did not bring about it. */
static int follow_lid(struct topo_image *img, uint16_t lid)
{
	struct lid_ent *e = &img->lids[lid];
	bool sa_mode = img->env.mode == IBTOPO_DISCOVER_SA;
	int rc = 0;

	if ((e->flags & (L_NR_HAVE | L_FOLLOWED)) != L_NR_HAVE)
		return 0;
	e->flags |= L_FOLLOWED;
	if (e->flags & L_SWITCH) {
		uint64_t *b = lid_bits(img, lid);

		if (!b)
			return -ENOMEM;
		for (unsigned p = 0; !rc && p <= e->nports; p++) {
			if (p && !img->full[Q_LINKS] && !bit_test(b + BITS_LINK, p)) {
				struct ibstruct_sa_link_record lr = { .fromLID = lid, .fromPort = (uint8_t)p };

				rc = ask(img, Q_LINKS, false, &lr,
					 IBSTRUCT_SA_LINK_RECORD_CM_FROMLID | IBSTRUCT_SA_LINK_RECORD_CM_FROMPORT, lid,
					 (uint8_t)p);
			}
			if (!rc && sa_mode && !img->full[Q_PINFO] && !bit_test(b + BITS_PINFO, p)) {
				struct ibstruct_sa_port_info_record pr = { .endportLID = lid, .portNum = (uint8_t)p };

				rc = ask(img, Q_PINFO, false, &pr,
					 IBSTRUCT_SA_PORT_INFO_RECORD_CM_ENDPORTLID |
						 IBSTRUCT_SA_PORT_INFO_RECORD_CM_PORTNUM,
					 lid, (uint8_t)p);
			}
		}
		if (!rc && sa_mode && !img->full[Q_SWINFO] && !(e->flags & L_SW_HAVE)) {
			struct ibstruct_sa_switch_info_record sr = { .LID = lid };

			rc = ask(img, Q_SWINFO, false, &sr, IBSTRUCT_SA_SWITCH_INFO_RECORD_CM_LID, lid, 0);
		}
		return rc;
	}
	/* a CA's (router's) port: its one link, its PortInfo (which names the port) */
	if (!img->full[Q_LINKS] && !any_bit(e->bits ? e->bits + BITS_LINK : NULL)) {
		struct ibstruct_sa_link_record lr = { .fromLID = lid };

		rc = ask(img, Q_LINKS, false, &lr, IBSTRUCT_SA_LINK_RECORD_CM_FROMLID, lid, 0);
	}
	if (!rc && sa_mode && !img->full[Q_PINFO] && !any_bit(e->bits ? e->bits + BITS_PINFO : NULL)) {
		struct ibstruct_sa_port_info_record pr = { .endportLID = lid };

		rc = ask(img, Q_PINFO, false, &pr, IBSTRUCT_SA_PORT_INFO_RECORD_CM_ENDPORTLID, lid, 0);
	}
	return rc;
}

/* After the tables: what they did not bring, record by record. */
static int tables_in(struct topo_image *img)
{
	int rc = 0;

	img->tables_in = true;
	rc = ask_node(img, img->self_lid);
	for (unsigned lid = 1; !rc && lid < LID_COUNT; lid++)
		rc = follow_lid(img, (uint16_t)lid);
	/* LIDs the links name that no NodeRecord was had for */
	for (size_t i = 0; !rc && i < img->recs[Q_LINKS].n; i++) {
		const uint8_t *r = img->recs[Q_LINKS].data + i * img->recs[Q_LINKS].size;
		uint16_t from = get_be16(r), to = get_be16(r + 4);

		if (from && from <= LID_UNICAST_MAX)
			rc = ask_node(img, from);
		if (!rc && to && to <= LID_UNICAST_MAX)
			rc = ask_node(img, to);
	}
	return rc;
}

static int query_done(struct ibsa *sa, struct ibsa_result *res, const struct ibmadrpc_error *err, void *user)
{
	struct img_query *q = user;
	struct topo_image *img = q->img;
	int rc = 0;

	(void)sa;
	img->pending--;
	if (img->done) {
		ibsa_result_free(res);
		return IBSCHED_HANDLED;
	}
	if (!res) {
		uint16_t status = ibmadrpc_error_status(err);
		int e = ibmadrpc_error_errno(err);

		/* a table that does not come is asked for record by record; a Get that matches
		 * nothing (a port without a link) is an answer */
		if (!q->table && ((status >> 8) & 0x7f) != SA_STATUS_NO_RECORDS) {
			if (q->kind == Q_NODES || q->kind == Q_SWINFO || !q->port)
				image_error(img, e ? e : EIO, err, "SA query for the %s of LID %u failed",
					    kind_name[q->kind], q->lid);
			else
				image_error(img, e ? e : EIO, err, "SA query for the %s of LID %u port %u failed",
					    kind_name[q->kind], q->lid, q->port);
		}
	} else {
		size_t size = rec_size[q->kind];

		/* a table answer of exactly one MAD's data (200 bytes) may have been cut at a
		 * record's end, which libibsa cannot see: only a longer one is surely whole
		 * (or a shorter one, which ended on its own) */
		if (q->table)
			img->full[q->kind] = !res->truncated && (res->count * res->rec_size > SA_MAD_DATA ||
								 res->count * res->rec_size + res->rec_size <= SA_MAD_DATA);
		for (size_t i = 0; !rc && i < res->count; i++)
			if (res->rec_size >= size)
				rc = take_record(img, (enum img_kind)q->kind, res->wire + i * res->rec_size);
		ibsa_result_free(res);
	}
	if (!rc && !img->pending && !img->tables_in)
		rc = tables_in(img);
	if (rc) {
		/* out of memory, or the scheduler refused a query: stop here */
		image_error(img, rc, NULL, "SA discovery stopped");
		img->done = true;
		img->env.ready(img->env.walk, rc);
	} else if (!img->pending) {
		fetch_done(img);
	}
	return IBSCHED_HANDLED;
}

/* ---- Building ------------------------------------------------------------------------------- */

static struct img_node *node_of(const struct topo_image *img, uint16_t lid)
{
	if (!lid || lid > LID_UNICAST_MAX || img->lid_node[lid] < 0)
		return NULL;
	return img->nodes[img->lid_node[lid]];
}

static int add_node(struct topo_image *img, const uint8_t *r)
{
	uint16_t lid = get_be16(r);
	const uint8_t *ni = r + 4;
	uint64_t guid = NI_NODE_GUID(ni);
	struct img_node *n = NULL;
	unsigned i;

	if (!lid || lid > LID_UNICAST_MAX)
		return 0;
	/* a CA has a record per port: one node */
	for (i = (unsigned)((guid * 0x9e3779b97f4a7c15ull) >> 40) & img->hash_mask; img->guid_hash[i];
	     i = (i + 1) & img->hash_mask)
		if (img->nodes[img->guid_hash[i] - 1]->guid == guid)
			break;
	if (img->guid_hash[i]) {
		n = img->nodes[img->guid_hash[i] - 1];
		i = img->guid_hash[i] - 1;
	} else {
		if (img->n == img->cap) {
			unsigned cap = img->cap ? img->cap * 2 : 64;
			struct img_node **v = realloc(img->nodes, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			img->nodes = v;
			img->cap = cap;
		}
		n = calloc(1, sizeof(*n));
		if (!n)
			return -ENOMEM;
		n->guid = guid;
		n->type = NI_NODE_TYPE(ni);
		n->nports = NI_NUM_PORTS(ni);
		n->ports = calloc((size_t)n->nports + 1, sizeof(*n->ports));
		if (!n->ports) {
			free(n);
			return -ENOMEM;
		}
		for (unsigned p = 0; p <= n->nports; p++)
			n->ports[p].peer = -1;
		memcpy(n->info, ni, IBSTRUCT_SMP_NODE_INFO_SIZE);
		memcpy(n->desc, r + 4 + IBSTRUCT_SMP_NODE_INFO_SIZE, IBTOPO_SMP_DATA_SIZE);
		img->guid_hash[i] = img->n + 1;
		i = img->n;
		img->nodes[img->n++] = n;
	}
	img->lid_node[lid] = (int32_t)i;
	if (n->type == IBTOPO_NODE_SWITCH) {
		n->lid = lid;
		img->lid_port[lid] = 0;
	}
	return 0;
}

/* the port a CA's LID belongs to, once a record names it */
static struct img_port *ca_port(struct topo_image *img, uint16_t lid, unsigned port)
{
	struct img_node *n = node_of(img, lid);

	if (!n || port > n->nports || (n->type == IBTOPO_NODE_SWITCH))
		return NULL;
	img->lid_port[lid] = (uint8_t)port;
	if (!n->ports[port].lid) {
		n->ports[port].lid = lid;
		n->ports[port].guid = img->lids[lid].port_guid; /* from the LID's NodeRecord */
	}
	return &n->ports[port];
}

static void add_link(struct topo_image *img, const uint8_t *r)
{
	uint16_t from = get_be16(r), to = get_be16(r + 4);
	unsigned fport = r[2], tport = r[3];
	struct img_node *a = node_of(img, from), *b = node_of(img, to);

	if (!a || !b || fport > a->nports || tport > b->nports || !fport || !tport)
		return;
	if (a->type != IBTOPO_NODE_SWITCH)
		ca_port(img, from, fport);
	if (b->type != IBTOPO_NODE_SWITCH)
		ca_port(img, to, tport);
	a->ports[fport].peer = img->lid_node[to];
	a->ports[fport].peer_port = (uint8_t)tport;
	b->ports[tport].peer = img->lid_node[from];
	b->ports[tport].peer_port = (uint8_t)fport;
}

static void add_port_info(struct topo_image *img, const uint8_t *r)
{
	uint16_t lid = get_be16(r);
	unsigned port = r[2];
	struct img_node *n = node_of(img, lid);
	struct img_port *p;

	if (!n || port > n->nports)
		return;
	p = n->type == IBTOPO_NODE_SWITCH ? &n->ports[port] : ca_port(img, lid, port);
	if (!p)
		return;
	memcpy(p->info, r + 4, IBTOPO_SMP_DATA_SIZE);
	p->has_info = true;
}

static int build(struct topo_image *img)
{
	size_t i;
	int rc;

	unsigned size = 64;

	while (size < 2 * img->recs[Q_NODES].n)
		size *= 2;
	img->hash_mask = size - 1;
	img->guid_hash = calloc(size, sizeof(*img->guid_hash));
	img->lid_node = malloc(LID_COUNT * sizeof(*img->lid_node));
	img->lid_port = calloc(LID_COUNT, 1);
	if (!img->guid_hash || !img->lid_node || !img->lid_port)
		return -ENOMEM;
	for (i = 0; i < LID_COUNT; i++)
		img->lid_node[i] = -1;
	for (i = 0; i < img->recs[Q_NODES].n; i++) {
		rc = add_node(img, img->recs[Q_NODES].data + i * img->recs[Q_NODES].size);
		if (rc)
			return rc;
	}
	for (i = 0; i < img->recs[Q_LINKS].n; i++)
		add_link(img, img->recs[Q_LINKS].data + i * img->recs[Q_LINKS].size);
	for (i = 0; i < img->recs[Q_PINFO].n; i++)
		add_port_info(img, img->recs[Q_PINFO].data + i * img->recs[Q_PINFO].size);
	for (i = 0; i < img->recs[Q_SWINFO].n; i++) {
		const uint8_t *r = img->recs[Q_SWINFO].data + i * img->recs[Q_SWINFO].size;
		struct img_node *n = node_of(img, get_be16(r));

		if (n && n->type == IBTOPO_NODE_SWITCH) {
			memcpy(n->swinfo, r + 4, IBSTRUCT_SMP_SWITCH_INFO_SIZE);
			n->has_swinfo = true;
		}
	}
	img->self = node_of(img, img->self_lid);
	img->self_port = img->lid_port[img->self_lid];
	return 0;
}

static void fetch_done(struct topo_image *img)
{
	int rc;

	img->done = true;
	rc = build(img);
	if (!rc && (!img->self || (img->self->type != IBTOPO_NODE_SWITCH && !img->self_port))) {
		rc = -ENOENT;
		image_error(img, rc, NULL, "the SA told nothing of the local port (LID %u)", img->self_lid);
	} else if (rc) {
		image_error(img, rc, NULL, "building the SA's image failed");
	}
	/* what the fetching needed is no longer needed */
	for (unsigned k = 0; k < Q_KINDS; k++) {
		free(img->recs[k].data);
		img->recs[k].data = NULL;
		img->recs[k].n = img->recs[k].cap = 0;
	}
	for (unsigned lid = 0; lid < LID_COUNT; lid++)
		free(img->lids[lid].bits);
	free(img->lids);
	img->lids = NULL;
	free(img->guid_hash);
	img->guid_hash = NULL;
	img->env.ready(img->env.walk, rc);
}

/* ---- The interface to the walk ------------------------------------------------------------- */

int topo_image_start(struct topo_image **out, const struct topo_image_env *env)
{
	struct topo_image *img;
	int rc;

	*out = NULL;
	img = calloc(1, sizeof(*img));
	if (!img)
		return -ENOMEM;
	img->env = *env;
	img->self_lid = ibmadrpc_port_lid(ibsched_port(env->sched));
	if (!img->self_lid || img->self_lid > LID_UNICAST_MAX) {
		topo_add_error(env->topo, IBTOPO_ERR_QUERY, -ENETDOWN, 0, 0, 0, NULL, 0,
			       "the local port has no LID: %s discovery needs a subnet manager",
			       env->mode == IBTOPO_DISCOVER_SA ? "SA" : "LID");
		free(img);
		return -ENETDOWN;
	}
	for (unsigned k = 0; k < Q_KINDS; k++)
		img->recs[k].size = rec_size[k];
	img->lids = calloc(LID_COUNT, sizeof(*img->lids));
	if (!img->lids) {
		free(img);
		return -ENOMEM;
	}
	if (env->sa) {
		img->sa = env->sa;
	} else {
		rc = ibsa_new(&img->sa, ibsched_port(env->sched));
		if (rc) {
			topo_image_free(img);
			return rc;
		}
		img->own_sa = true;
	}
	ibsa_set_sched(img->sa, env->sched);
	*out = img;
	/* the tables; what they lack follows record by record */
	rc = ask(img, Q_NODES, true, NULL, 0, 0, 0);
	if (!rc)
		rc = ask(img, Q_LINKS, true, NULL, 0, 0, 0);
	if (!rc && env->mode == IBTOPO_DISCOVER_SA)
		rc = ask(img, Q_PINFO, true, NULL, 0, 0, 0);
	if (!rc && env->mode == IBTOPO_DISCOVER_SA)
		rc = ask(img, Q_SWINFO, true, NULL, 0, 0, 0);
	if (rc) {
		topo_add_error(env->topo, IBTOPO_ERR_QUERY, rc, 0, 0, 0, NULL, 0,
			       "cannot send SA queries: %s", strerror(-rc));
		/* the walk cancels what was sent */
		img->done = true;
		return rc;
	}
	return 0;
}

void topo_image_free(struct topo_image *img)
{
	if (!img)
		return;
	while (img->queries) {
		struct img_query *q = img->queries;

		img->queries = q->next;
		free(q);
	}
	for (unsigned k = 0; k < Q_KINDS; k++)
		free(img->recs[k].data);
	if (img->lids)
		for (unsigned lid = 0; lid < LID_COUNT; lid++)
			free(img->lids[lid].bits);
	free(img->lids);
	for (unsigned i = 0; i < img->n; i++) {
		struct img_node *n = img->nodes[i];

		for (unsigned p = 0; p <= n->nports; p++)
			ibpath_path_unref(n->ports[p].path);
		ibpath_path_unref(n->path);
		free(n->ports);
		free(n);
	}
	free(img->nodes);
	free(img->guid_hash);
	free(img->lid_node);
	free(img->lid_port);
	if (img->own_sa)
		ibsa_free(img->sa);
	free(img);
}

/* Where a directed route ends in the image: the node and the port it enters by.  -ETIMEDOUT
 * where the wire would give no answer (no link, a CA in the middle). */
static int resolve(const struct topo_image *img, const struct ibtopo_dr_path *dr, struct img_node **node,
		   unsigned *in_port)
{
	struct img_node *n;
	unsigned in;

	if (dr->hops > IBTOPO_MAX_HOPS)
		return -EINVAL;
	if (dr->lid) {
		n = node_of(img, dr->lid);
		if (!n)
			return -ETIMEDOUT;
		in = img->lid_port[dr->lid];
	} else {
		n = img->self;
		in = img->self_port;
	}
	for (unsigned h = 1; h <= dr->hops; h++) {
		unsigned out = dr->port[h];
		struct img_port *p;

		/* only switches pass a directed route on (a CA sends it out of its own port) */
		if (h > 1 && n->type != IBTOPO_NODE_SWITCH)
			return -ETIMEDOUT;
		if (!out || out > n->nports)
			return -ETIMEDOUT;
		p = &n->ports[out];
		if (p->peer < 0)
			return -ETIMEDOUT;
		in = p->peer_port;
		n = img->nodes[p->peer];
	}
	*node = n;
	*in_port = in;
	return 0;
}

/* The answer an SMA gives about its port `in` came in by. */
static void fix_local_port(uint16_t attr, uint8_t *data, unsigned in)
{
	if (attr == ATTR_NODE_INFO)
		data[36] = (uint8_t)in; /* NodeInfo.LocalPortNum */
	else if (attr == ATTR_PORT_INFO)
		data[28] = (uint8_t)in; /* PortInfo.LocalPortNum */
}

static int answer(const struct topo_image *img, struct img_node *n, unsigned in, uint16_t attr, uint32_t mod,
		  uint8_t *data, uint16_t *status)
{
	memset(data, 0, IBTOPO_SMP_DATA_SIZE);
	switch (attr) {
	case ATTR_NODE_INFO:
		memcpy(data, n->info, IBTOPO_SMP_DATA_SIZE);
		if (n->type != IBTOPO_NODE_SWITCH) {
			uint64_t g = n->ports[in].guid;

			for (int i = 0; i < 8; i++)
				data[20 + i] = (uint8_t)(g >> (56 - 8 * i));
		}
		fix_local_port(attr, data, in);
		return 0;
	case ATTR_NODE_DESC:
		memcpy(data, n->desc, IBTOPO_SMP_DATA_SIZE);
		return 0;
	case ATTR_SWITCH_INFO:
		if (n->type != IBTOPO_NODE_SWITCH || !n->has_swinfo)
			break;
		memcpy(data, n->swinfo, IBTOPO_SMP_DATA_SIZE);
		return 0;
	case ATTR_PORT_INFO: {
		unsigned p = mod & 0xff;

		if (n->type != IBTOPO_NODE_SWITCH && !p)
			p = in;
		if (p > n->nports || !n->ports[p].has_info)
			break;
		memcpy(data, n->ports[p].info, IBTOPO_SMP_DATA_SIZE);
		fix_local_port(attr, data, in);
		return 0;
	}
	}
	(void)img;
	/* what the SA cannot tell: as an SMA that does not know the attribute */
	*status = 0x000c;
	return -EREMOTEIO;
}

int topo_image_smp(struct topo_image *img, const struct ibtopo_dr_path *dr, struct ibmadrpc_request *req,
		   uint8_t data[IBTOPO_SMP_DATA_SIZE], uint16_t *status)
{
	struct img_node *n;
	struct ibpath_path **pp;
	unsigned in;
	uint16_t lid;
	int rc;

	*status = 0;
	rc = resolve(img, dr, &n, &in);
	if (rc)
		return rc;
	if (img->env.mode == IBTOPO_DISCOVER_SA)
		return answer(img, n, in, req->attr_id, req->attr_mod, data, status);
	/* LID mode: to the LID of the switch, or of the CA port the route enters */
	if (n->type == IBTOPO_NODE_SWITCH) {
		lid = n->lid;
		pp = &n->path;
	} else {
		lid = n->ports[in].lid;
		pp = &n->ports[in].path;
	}
	if (!lid)
		return -EHOSTUNREACH;
	if (!*pp) {
		struct ibtopo_dr_path to;

		memset(&to, 0, sizeof(to));
		to.lid = lid;
		rc = topo_path_to_ibpath(&to, img->env.timeout_ms, img->env.retries, pp);
		if (rc)
			return rc;
	}
	req->path = *pp;
	return 1;
}

void topo_image_fix(const struct topo_image *img, const struct ibtopo_dr_path *dr, uint16_t attr,
		    uint8_t data[IBTOPO_SMP_DATA_SIZE])
{
	struct img_node *n;
	unsigned in;

	if (img->env.mode == IBTOPO_DISCOVER_LID && !resolve(img, dr, &n, &in))
		fix_local_port(attr, data, in);
}
