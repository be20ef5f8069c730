/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Diff of two subnets (ibtopo_diff()): the node walk that infiniband-diags' --diff options
 * print, and the set report of python-rdma's subnet_diff.  The rules and the order of the
 * items are documented with the declarations in ibtopo.h.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ibtopo-private.h"

struct diff_ctx {
	ibtopo_diff_fn fn;
	void *user;
	unsigned flags;
	int count; /* difference items so far */
};

/* Hands an item to the callback: 0 to go on, else the callback's value. */
static int emit(struct diff_ctx *c, const struct ibtopo_diff_item *item)
{
	int rc = c->fn ? c->fn(item, c->user) : 0;

	if (rc)
		return rc;
	if (item->what != IBTOPO_DIFF_SET)
		c->count++;
	return 0;
}

/* ---- The node walk ------------------------------------------------------------------------ */

static const uint8_t zero_info[IBTOPO_SMP_DATA_SIZE];

static const uint8_t *pinfo(const struct ibtopo_port *p)
{
	return p->has_info ? p->info : zero_info;
}

/* What differs between port `num` of two matched nodes, within the comparisons enabled. */
static unsigned port_changes(const struct ibtopo_port *pa, const struct ibtopo_port *pb,
			     unsigned flags)
{
	const bool links = flags & IBTOPO_DIFF_F_LINKS;
	unsigned ch = 0;

	if (!pa && !pb)
		return 0;
	if (!pa || !pb) {
		/* only the connection check looks at a port that one side lacks */
		if (links)
			ch |= pa ? IBTOPO_DIFF_C_PORT_A_ONLY : IBTOPO_DIFF_C_PORT_B_ONLY;
		return ch;
	}
	if (links) {
		if (pa->remote && !pb->remote)
			ch |= IBTOPO_DIFF_C_LINK_A_ONLY;
		else if (!pa->remote && pb->remote)
			ch |= IBTOPO_DIFF_C_LINK_B_ONLY;
		if (pa->guid != pb->guid)
			ch |= IBTOPO_DIFF_C_PORT_GUID;
		if (pa->remote && pb->remote) {
			if (pa->remote->guid != pb->remote->guid)
				ch |= IBTOPO_DIFF_C_REMOTE_GUID;
			if (pa->remote->num != pb->remote->num)
				ch |= IBTOPO_DIFF_C_REMOTE_PORT;
		}
	}
	if (flags & IBTOPO_DIFF_F_LIDS) {
		if (pa->base_lid != pb->base_lid)
			ch |= IBTOPO_DIFF_C_LID;
		if (pa->lmc != pb->lmc)
			ch |= IBTOPO_DIFF_C_LMC;
		if (links && pa->remote && pb->remote && pa->remote->base_lid != pb->remote->base_lid)
			ch |= IBTOPO_DIFF_C_REMOTE_LID;
	}
	if ((flags & IBTOPO_DIFF_F_DESC) && links && pa->remote && pb->remote &&
	    memcmp(pa->remote->node->desc, pb->remote->node->desc, IBTOPO_SMP_DATA_SIZE))
		ch |= IBTOPO_DIFF_C_REMOTE_DESC;
	if (flags & IBTOPO_DIFF_F_STATE) {
		const uint8_t *ia = pinfo(pa), *ib = pinfo(pb);

		if (PI_PORT_STATE(ia) != PI_PORT_STATE(ib))
			ch |= IBTOPO_DIFF_C_STATE;
		if (PI_PHYS_STATE(ia) != PI_PHYS_STATE(ib))
			ch |= IBTOPO_DIFF_C_PHYS_STATE;
		if (PI_LINK_WIDTH_ACTIVE(ia) != PI_LINK_WIDTH_ACTIVE(ib))
			ch |= IBTOPO_DIFF_C_WIDTH;
		if (PI_LINK_SPEED_ACTIVE(ia) != PI_LINK_SPEED_ACTIVE(ib))
			ch |= IBTOPO_DIFF_C_SPEED;
		if (PI_LINK_SPEED_EXT_ACTIVE(ia) != PI_LINK_SPEED_EXT_ACTIVE(ib))
			ch |= IBTOPO_DIFF_C_SPEED_EXT;
	}
	return ch;
}

#define COMPARE_FLAGS \
	(IBTOPO_DIFF_F_LINKS | IBTOPO_DIFF_F_DESC | IBTOPO_DIFF_F_LIDS | IBTOPO_DIFF_F_STATE)

/* A node of a with its match in b (pass 1). */
static int diff_matched(struct diff_ctx *c, const struct ibtopo_node *na,
			const struct ibtopo_node *nb)
{
	struct ibtopo_diff_item it = { .a_node = na, .b_node = nb };
	unsigned ch = 0;
	int rc;

	if (!(c->flags & COMPARE_FLAGS))
		return 0;
	if ((c->flags & IBTOPO_DIFF_F_LIDS) && na->sma_lid != nb->sma_lid)
		ch |= IBTOPO_DIFF_C_SMA_LID;
	if ((c->flags & IBTOPO_DIFF_F_DESC) && memcmp(na->desc, nb->desc, IBTOPO_SMP_DATA_SIZE))
		ch |= IBTOPO_DIFF_C_DESC;
	if (ch) {
		it.what = IBTOPO_DIFF_NODE_CHANGED;
		it.changes = ch;
		rc = emit(c, &it);
		if (rc)
			return rc;
	}
	if (na->num_ports != nb->num_ports) {
		it.what = IBTOPO_DIFF_NUM_PORTS;
		it.changes = 0;
		return emit(c, &it);
	}
	for (unsigned p = 1; p <= na->num_ports; p++) {
		const struct ibtopo_port *pa = na->ports[p], *pb = nb->ports[p];

		ch = port_changes(pa, pb, c->flags);
		if (!ch)
			continue;
		it.what = IBTOPO_DIFF_PORT;
		it.changes = ch;
		it.port = p;
		it.a_port = pa;
		it.b_port = pb;
		rc = emit(c, &it);
		if (rc)
			return rc;
	}
	return 0;
}

static int diff_walk(struct diff_ctx *c, const struct ibtopo *a, const struct ibtopo *b,
		     enum ibtopo_node_type type)
{
	unsigned n = ibtopo_node_count(a, type);
	int rc;

	for (unsigned i = 0; i < n; i++) {
		const struct ibtopo_node *na = ibtopo_node_get(a, type, i);
		const struct ibtopo_node *nb = ibtopo_find_node_guid(b, na->guid);

		if (nb) {
			rc = diff_matched(c, na, nb);
		} else if (c->flags & IBTOPO_DIFF_F_NODES) {
			struct ibtopo_diff_item it = { .what = IBTOPO_DIFF_NODE_REMOVED, .a_node = na };

			rc = emit(c, &it);
		} else {
			rc = 0;
		}
		if (rc)
			return rc;
	}
	if (!(c->flags & IBTOPO_DIFF_F_NODES))
		return 0;
	n = ibtopo_node_count(b, type);
	for (unsigned i = 0; i < n; i++) {
		const struct ibtopo_node *nb = ibtopo_node_get(b, type, i);

		if (!ibtopo_find_node_guid(a, nb->guid)) {
			struct ibtopo_diff_item it = { .what = IBTOPO_DIFF_NODE_ADDED, .b_node = nb };

			rc = emit(c, &it);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* ---- The sets ------------------------------------------------------------------------------- */

/* One member of a set: a sort key and what the item shows. */
struct member {
	uint64_t g1, g2;
	unsigned p1, p2;
	const struct ibtopo_port *port;
	const struct ibtopo_node *node;
};

struct set {
	struct member *v;
	size_t n, cap;
};

static int set_add(struct set *s, const struct member *m)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct member *nv = realloc(s->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = *m;
	return 0;
}

static int member_cmp(const struct member *x, const struct member *y)
{
	if (x->g1 != y->g1)
		return x->g1 < y->g1 ? -1 : 1;
	if (x->p1 != y->p1)
		return x->p1 < y->p1 ? -1 : 1;
	if (x->g2 != y->g2)
		return x->g2 < y->g2 ? -1 : 1;
	if (x->p2 != y->p2)
		return x->p2 < y->p2 ? -1 : 1;
	return 0;
}

static int member_qsort_cmp(const void *x, const void *y)
{
	const struct member *mx = x, *my = y;
	int r = member_cmp(mx, my);

	if (r)
		return r;
	/* equal keys: keep the first created (stable, so the result does not depend on qsort) */
	if (mx->node != my->node)
		return mx->node->index < my->node->index ? -1 : 1;
	return mx->port && my->port && mx->port->num != my->port->num
		       ? (mx->port->num < my->port->num ? -1 : 1)
		       : 0;
}

/* Sorts and drops repeated keys (a set). */
static void set_sort(struct set *s)
{
	size_t out = 0;

	if (!s->n)
		return;
	qsort(s->v, s->n, sizeof(*s->v), member_qsort_cmp);
	for (size_t i = 1; i < s->n; i++)
		if (member_cmp(&s->v[out], &s->v[i]))
			s->v[++out] = s->v[i];
	s->n = out + 1;
}

static bool node_has_link(const struct ibtopo_node *n)
{
	for (unsigned p = 0; p <= n->num_ports; p++)
		if (n->ports[p] && n->ports[p]->remote)
			return true;
	return false;
}

/* The end port of a port: a switch's port 0 (or, when port 0 was never seen, the port
 * itself: every port of a switch has its GUID), else the port. */
static const struct ibtopo_port *end_port(const struct ibtopo_port *p)
{
	const struct ibtopo_node *n = p->node;

	if (n->type == IBTOPO_NODE_SWITCH && n->ports[0])
		return n->ports[0];
	return p;
}

static int collect_end_ports(const struct ibtopo *t, struct set *s)
{
	for (unsigned i = 0; i < t->all.n; i++) {
		const struct ibtopo_node *n = t->all.v[i];

		for (unsigned p = 0; p <= n->num_ports; p++) {
			const struct ibtopo_port *port = n->ports[p];
			struct member m = { 0 };

			if (!port || !port->remote)
				continue;
			m.port = end_port(port);
			m.node = n;
			m.g1 = m.port->guid;
			if (set_add(s, &m))
				return -ENOMEM;
			if (n->type == IBTOPO_NODE_SWITCH)
				break; /* one end port for the whole switch */
		}
	}
	set_sort(s);
	return 0;
}

static int collect_nodes(const struct ibtopo *t, struct set *s)
{
	for (unsigned i = 0; i < t->all.n; i++) {
		const struct ibtopo_node *n = t->all.v[i];
		struct member m = { .g1 = n->guid, .node = n };

		if (node_has_link(n) && set_add(s, &m))
			return -ENOMEM;
	}
	set_sort(s);
	return 0;
}

static int collect_links(const struct ibtopo *t, struct set *s)
{
	for (unsigned i = 0; i < t->all.n; i++) {
		const struct ibtopo_node *n = t->all.v[i];

		for (unsigned p = 0; p <= n->num_ports; p++) {
			const struct ibtopo_port *x = n->ports[p], *y;
			struct member m = { 0 };

			if (!x || !x->remote)
				continue;
			y = x->remote;
			m.g1 = end_port(x)->guid;
			m.p1 = x->num;
			m.g2 = end_port(y)->guid;
			m.p2 = y->num;
			/* each link is seen from both ends: keep the one whose end is the larger */
			if (m.g1 < m.g2 || (m.g1 == m.g2 && m.p1 < m.p2))
				continue;
			m.port = x;
			m.node = n;
			if (set_add(s, &m))
				return -ENOMEM;
		}
	}
	set_sort(s);
	return 0;
}

/* Walks two sorted sets: fn(only_a, only_b, both) per member (NULL for the missing side). */
typedef int (*merge_fn)(struct diff_ctx *c, const struct member *ma, const struct member *mb,
			void *arg);

static int merge(struct diff_ctx *c, const struct set *sa, const struct set *sb, merge_fn fn,
		 void *arg)
{
	size_t i = 0, j = 0;
	int rc = 0;

	while (!rc && (i < sa->n || j < sb->n)) {
		int r = i == sa->n ? 1 : j == sb->n ? -1 : member_cmp(&sa->v[i], &sb->v[j]);

		if (r < 0)
			rc = fn(c, &sa->v[i++], NULL, arg);
		else if (r > 0)
			rc = fn(c, NULL, &sb->v[j++], arg);
		else
			rc = fn(c, &sa->v[i++], &sb->v[j++], arg);
	}
	return rc;
}

struct one_side {
	enum ibtopo_diff_what what, what_b; /* the kinds of a's and b's items */
	bool want_a;        /* report the members only a has (else only b) */
	unsigned a_only, b_only;
	bool counting;      /* first run: count only */
};

static int one_side_fn(struct diff_ctx *c, const struct member *ma, const struct member *mb,
		       void *arg)
{
	struct one_side *os = arg;
	struct ibtopo_diff_item it = { .what = ma ? os->what : os->what_b };

	if (ma && mb)
		return 0;
	if (os->counting) {
		if (ma)
			os->a_only++;
		else
			os->b_only++;
		return 0;
	}
	if (!!ma != os->want_a)
		return 0;
	if (ma) {
		it.a_node = ma->node;
		it.a_port = ma->port;
	} else {
		it.b_node = mb->node;
		it.b_port = mb->port;
	}
	return emit(c, &it);
}

/* A section of members one side has and the other not: b's first, then a's. */
static int one_side_section(struct diff_ctx *c, enum ibtopo_diff_set which,
			    enum ibtopo_diff_what what, enum ibtopo_diff_what what_b,
			    const struct set *sa, const struct set *sb)
{
	struct one_side os = { .what = what, .what_b = what_b, .counting = true };
	struct ibtopo_diff_item it = { .what = IBTOPO_DIFF_SET };
	int rc;

	merge(c, sa, sb, one_side_fn, &os);
	it.set.which = which;
	it.set.a_count = (unsigned)sa->n;
	it.set.b_count = (unsigned)sb->n;
	it.set.a_only = os.a_only;
	it.set.b_only = os.b_only;
	rc = emit(c, &it);
	if (rc)
		return rc;
	os.counting = false;
	os.want_a = false;
	rc = merge(c, sa, sb, one_side_fn, &os);
	if (rc)
		return rc;
	os.want_a = true;
	return merge(c, sa, sb, one_side_fn, &os);
}

struct rates {
	unsigned changed;
	bool counting;
};

static int rate_fn(struct diff_ctx *c, const struct member *ma, const struct member *mb, void *arg)
{
	struct rates *r = arg;
	struct ibtopo_diff_item it = { .what = IBTOPO_DIFF_LINK_RATE };
	const uint8_t *ia, *ib;

	if (!ma || !mb)
		return 0;
	ia = pinfo(ma->port);
	ib = pinfo(mb->port);
	if (PI_LINK_SPEED_ACTIVE(ia) != PI_LINK_SPEED_ACTIVE(ib))
		it.changes |= IBTOPO_DIFF_C_SPEED;
	if (PI_LINK_WIDTH_ACTIVE(ia) != PI_LINK_WIDTH_ACTIVE(ib))
		it.changes |= IBTOPO_DIFF_C_WIDTH;
	if (!it.changes)
		return 0;
	if (r->counting) {
		r->changed++;
		return 0;
	}
	it.a_node = ma->node;
	it.b_node = mb->node;
	it.a_port = ma->port;
	it.b_port = mb->port;
	return emit(c, &it);
}

static const struct ibtopo_port *lid_port(const struct ibtopo *t, unsigned lid)
{
	return t->lid_tab ? t->lid_tab[lid] : NULL;
}

static bool lid_differs(const struct ibtopo_port *pa, const struct ibtopo_port *pb)
{
	return (pa || pb) && (!pa || !pb || pa->guid != pb->guid);
}

static int lid_section(struct diff_ctx *c, const struct ibtopo *a, const struct ibtopo *b)
{
	struct ibtopo_diff_item it = { .what = IBTOPO_DIFF_SET };
	int rc;

	it.set.which = IBTOPO_DIFF_SET_LIDS;
	for (unsigned lid = 0; lid < LID_TAB_SIZE; lid++) {
		const struct ibtopo_port *pa = lid_port(a, lid), *pb = lid_port(b, lid);

		it.set.a_count += pa != NULL;
		it.set.b_count += pb != NULL;
		if (!lid_differs(pa, pb))
			continue;
		if (!pb)
			it.set.a_only++;
		else if (!pa)
			it.set.b_only++;
		it.set.changed++;
	}
	rc = emit(c, &it);
	if (rc)
		return rc;
	for (unsigned lid = 0; lid < LID_TAB_SIZE; lid++) {
		const struct ibtopo_port *pa = lid_port(a, lid), *pb = lid_port(b, lid);
		struct ibtopo_diff_item li = { .what = IBTOPO_DIFF_LID_MAP, .lid = (uint16_t)lid };

		if (!lid_differs(pa, pb))
			continue;
		li.a_port = pa;
		li.b_port = pb;
		li.a_node = pa ? pa->node : NULL;
		li.b_node = pb ? pb->node : NULL;
		rc = emit(c, &li);
		if (rc)
			return rc;
	}
	return 0;
}

static int diff_sets(struct diff_ctx *c, const struct ibtopo *a, const struct ibtopo *b)
{
	unsigned f = c->flags;
	struct set sa = { 0 }, sb = { 0 };
	int rc = 0;

	/* F_DESC has no section: alone, it means all of them too */
	if (!(f & (IBTOPO_DIFF_F_NODES | IBTOPO_DIFF_F_LINKS | IBTOPO_DIFF_F_STATE |
		   IBTOPO_DIFF_F_LIDS)))
		f = IBTOPO_DIFF_F_ALL;
	if (f & IBTOPO_DIFF_F_NODES) {
		if (collect_end_ports(a, &sa) || collect_end_ports(b, &sb))
			rc = -ENOMEM;
		if (!rc)
			rc = one_side_section(c, IBTOPO_DIFF_SET_END_PORTS, IBTOPO_DIFF_END_PORT,
					      IBTOPO_DIFF_END_PORT, &sa, &sb);
		sa.n = sb.n = 0;
		if (!rc && (collect_nodes(a, &sa) || collect_nodes(b, &sb)))
			rc = -ENOMEM;
		if (!rc)
			rc = one_side_section(c, IBTOPO_DIFF_SET_NODES, IBTOPO_DIFF_NODE_REMOVED,
					      IBTOPO_DIFF_NODE_ADDED, &sa, &sb);
		sa.n = sb.n = 0;
	}
	if (!rc && (f & (IBTOPO_DIFF_F_LINKS | IBTOPO_DIFF_F_STATE)) &&
	    (collect_links(a, &sa) || collect_links(b, &sb)))
		rc = -ENOMEM;
	if (!rc && (f & IBTOPO_DIFF_F_LINKS))
		rc = one_side_section(c, IBTOPO_DIFF_SET_LINKS, IBTOPO_DIFF_LINK, IBTOPO_DIFF_LINK,
				      &sa, &sb);
	if (!rc && (f & IBTOPO_DIFF_F_STATE)) {
		struct ibtopo_diff_item it = { .what = IBTOPO_DIFF_SET };
		struct rates r = { .counting = true };

		merge(c, &sa, &sb, rate_fn, &r);
		it.set.which = IBTOPO_DIFF_SET_RATES;
		/* the rates compared are those of the links both subnets have */
		for (size_t i = 0, j = 0; i < sa.n && j < sb.n;) {
			int cmp = member_cmp(&sa.v[i], &sb.v[j]);

			if (!cmp)
				it.set.a_count++;
			i += cmp <= 0;
			j += cmp >= 0;
		}
		it.set.b_count = it.set.a_count;
		it.set.changed = r.changed;
		rc = emit(c, &it);
		r.counting = false;
		if (!rc)
			rc = merge(c, &sa, &sb, rate_fn, &r);
	}
	if (!rc && (f & IBTOPO_DIFF_F_LIDS))
		rc = lid_section(c, a, b);
	free(sa.v);
	free(sb.v);
	return rc;
}

IBTOPO_EXPORT int ibtopo_diff(const struct ibtopo *a, const struct ibtopo *b,
			      enum ibtopo_node_type type, unsigned flags, ibtopo_diff_fn fn,
			      void *user)
{
	struct diff_ctx c = { .fn = fn, .user = user };
	int rc;

	if (!a || !b || (unsigned)type > IBTOPO_NODE_ROUTER ||
	    (flags & ~(IBTOPO_DIFF_F_ALL | IBTOPO_DIFF_F_SETS)))
		return -EINVAL;
	if ((flags & IBTOPO_DIFF_F_SETS) && type != IBTOPO_NODE_ANY)
		return -EINVAL;
	/* no comparison chosen: all of them */
	c.flags = flags & IBTOPO_DIFF_F_ALL ? flags : flags | IBTOPO_DIFF_F_ALL;
	if (flags & IBTOPO_DIFF_F_SETS)
		rc = diff_sets(&c, a, b);
	else
		rc = diff_walk(&c, a, b, type);
	return rc ? rc : c.count;
}
