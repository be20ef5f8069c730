/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Directed-route discovery: libibnetdisc's walk, on libibsched.
 *
 * libibnetdisc keeps one FIFO queue of SMPs; each answer is processed by a callback that may
 * queue more.  On the simulator answers come back in the order they were sent, so what it
 * builds (node order, links, paths) is what processing the answers in queue order gives.
 * Here many SMPs are on the wire at once and answers may come back in any order: each
 * answer is kept in its queue slot, and the answers are committed strictly in queue order
 * (a reorder ring).  Committing runs libibnetdisc's callback logic, which appends to the
 * queue and submits at once; libibsched keeps its own FIFO for what does not fit the window.
 * The result is the same for any window and any arrival order.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ibtopo-private.h"

enum smp_kind {
	K_NODE_INFO,
	K_NODE_DESC,
	K_SWITCH_INFO,
	K_PORT_INFO,
	K_PORT0_INFO, /* PortInfo of port 0 of a switch: then every other port */
	K_MLNX_EPI,
};

/* A route shared by the SMPs sent along it (libibnetdisc copies smp->path into each). */
struct wpath {
	unsigned refs;
	struct ibtopo_dr_path dr;
	struct ibpath_path *ip;
};

struct slot {
	struct wpath *path;
	struct ibtopo_node *node;     /* the node the SMP is about (not NodeInfo) */
	struct ibtopo_node *rem_node; /* NodeInfo: where we came from (NULL: the start) */
	uint8_t rem_port;
	uint8_t kind;
	uint8_t state; /* S_* */
	uint8_t port;  /* attribute modifier for PortInfo/EPI */
	uint16_t mad_status;
	int errnum;
	const struct ibpath_path *lid_path; /* LID mode: the LID-routed path to send it on */
	uint8_t data[IBTOPO_SMP_DATA_SIZE];
};

enum {
	S_FREE = 0,
	S_WIRE = 1,     /* sent, no answer yet */
	S_ANSWERED = 2,
	S_FAILED = 3,
	S_QUEUED = 4,   /* waiting for room in the window */
};

/* The group's user data: outlives the discovery if the discovery is freed while running. */
struct stub {
	struct ibtopo_discovery *disc;
};

struct ibtopo_discovery {
	struct ibsched *sched;
	struct ibsa *sa;
	struct ibtopo *topo;
	enum ibtopo_discovery_mode mode;
	struct ibtopo_dr_path from;
	bool have_from;
	unsigned max_hops;
	unsigned timeout_ms, retries;
	unsigned outstanding;
	uint64_t mkey;
	bool mlx_epi;
	ibtopo_progress_fn progress;
	void *progress_user;
	ibtopo_node_seen_fn node_seen;
	void *node_seen_user;
	ibtopo_done_fn done;
	void *done_user;

	bool started, finished, cancelled, committing;
	int status;
	struct ibsched_group *group;
	struct stub *stub;
	uint64_t mads;

	/* the queue: slots[seq & mask] for head <= seq < tail; the ones from next_send on have not
	 * been sent.  Only `window` SMPs are handed to libibsched at a time: the rest wait here,
	 * 100 bytes each, rather than as scheduler work with a whole MAD each. */
	struct slot *slots;
	uint32_t mask;
	uint32_t head, tail, next_send;
	unsigned in_flight, window;

	unsigned initial_hops;
	uint16_t self_lid;
	struct ibtopo_node *from_node;
	uint8_t from_portnum;
	int fatal; /* -ENOMEM while committing */
	struct topo_image *image; /* LID and SA modes: the SA's view the walk runs over (image.c) */
};

/* ---- Settings ------------------------------------------------------------------------------ */

IBTOPO_EXPORT int ibtopo_discovery_new(struct ibtopo_discovery **out, struct ibsched *sched)
{
	struct ibtopo_discovery *d;

	if (!out || !sched)
		return -EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->sched = sched;
	d->mlx_epi = true;
	d->outstanding = IBTOPO_DEFAULT_OUTSTANDING;
	d->retries = UINT32_MAX; /* the path's default */
	*out = d;
	return 0;
}

IBTOPO_EXPORT int ibtopo_discovery_set_mode(struct ibtopo_discovery *disc, enum ibtopo_discovery_mode mode)
{
	if (!disc || disc->started || (unsigned)mode > IBTOPO_DISCOVER_SA)
		return -EINVAL;
	disc->mode = mode;
	return 0;
}

IBTOPO_EXPORT int ibtopo_discovery_set_sa(struct ibtopo_discovery *disc, struct ibsa *sa)
{
	if (!disc || disc->started)
		return -EINVAL;
	disc->sa = sa;
	return 0;
}

IBTOPO_EXPORT int ibtopo_discovery_set_from(struct ibtopo_discovery *disc, const struct ibtopo_dr_path *from)
{
	if (!disc || disc->started || (from && from->hops > IBTOPO_MAX_HOPS))
		return -EINVAL;
	if (from) {
		disc->from = *from;
		disc->have_from = true;
	} else {
		disc->have_from = false;
	}
	return 0;
}

IBTOPO_EXPORT int ibtopo_discovery_set_max_hops(struct ibtopo_discovery *disc, unsigned max_hops)
{
	if (!disc || disc->started)
		return -EINVAL;
	disc->max_hops = max_hops;
	return 0;
}

IBTOPO_EXPORT int ibtopo_discovery_set_timeout(struct ibtopo_discovery *disc, unsigned timeout_ms,
					       unsigned retries)
{
	if (!disc || disc->started)
		return -EINVAL;
	disc->timeout_ms = timeout_ms;
	disc->retries = retries;
	return 0;
}

IBTOPO_EXPORT int ibtopo_discovery_set_outstanding(struct ibtopo_discovery *disc, unsigned max)
{
	if (!disc || disc->started || max > 128)
		return -EINVAL;
	disc->outstanding = max;
	return 0;
}

IBTOPO_EXPORT void ibtopo_discovery_set_mkey(struct ibtopo_discovery *disc, uint64_t mkey)
{
	if (disc)
		disc->mkey = mkey;
}

IBTOPO_EXPORT void ibtopo_discovery_set_mlx_epi(struct ibtopo_discovery *disc, bool on)
{
	if (disc)
		disc->mlx_epi = on;
}

IBTOPO_EXPORT void ibtopo_discovery_set_progress(struct ibtopo_discovery *disc, ibtopo_progress_fn fn,
						 void *user)
{
	if (!disc)
		return;
	disc->progress = fn;
	disc->progress_user = user;
}

IBTOPO_EXPORT void ibtopo_discovery_set_node_seen(struct ibtopo_discovery *disc, ibtopo_node_seen_fn fn,
						  void *user)
{
	if (!disc)
		return;
	disc->node_seen = fn;
	disc->node_seen_user = user;
}

IBTOPO_EXPORT struct ibtopo *ibtopo_discovery_topology(struct ibtopo_discovery *disc)
{
	return disc ? ibtopo_ref(disc->topo) : NULL;
}

IBTOPO_EXPORT uint64_t ibtopo_discovery_mads(const struct ibtopo_discovery *disc)
{
	return disc ? disc->mads : 0;
}

/* ---- Paths ----------------------------------------------------------------------------------- */

static void wpath_unref(struct wpath *p)
{
	if (p && !--p->refs) {
		ibpath_path_unref(p->ip);
		free(p);
	}
}

static struct wpath *wpath_new(const struct ibtopo_dr_path *dr)
{
	struct wpath *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->refs = 1;
	p->dr = *dr;
	return p;
}

/* The route as a libibpath path, made when the first SMP along it is sent. */
static int wpath_ip(struct ibtopo_discovery *d, struct wpath *p)
{
	const struct ibtopo_dr_path *dr = &p->dr;
	struct ibpath_path *ip = NULL;

	if (p->ip)
		return 0;
	if (ibpath_path_new(&ip, IBPATH_KIND_DR))
		goto fail;
	if (ibpath_path_set_dr_ports(ip, dr->port, dr->hops + 1u))
		goto fail;
	if (dr->lid) {
		/* a LID-routed part first, then the directed route */
		if (ibpath_path_set(ip, IBPATH_DLID, dr->lid) ||
		    ibpath_path_set(ip, IBPATH_DR_SLID, dr->drslid ? dr->drslid : 0xffff) ||
		    ibpath_path_set(ip, IBPATH_DR_DLID, dr->drdlid ? dr->drdlid : 0xffff))
			goto fail;
	}
	if (d->timeout_ms && ibpath_path_set(ip, IBPATH_TIMEOUT_MS, d->timeout_ms))
		goto fail;
	if (d->retries != UINT32_MAX && ibpath_path_set(ip, IBPATH_RETRIES, d->retries))
		goto fail;
	p->ip = ip;
	return 0;
fail:
	ibpath_path_unref(ip);
	return -ENOMEM;
}

/* ---- The queue ------------------------------------------------------------------------------ */

static int work_done(struct ibsched *sched, struct ibsched_work *work, const struct ibmadrpc_reply *reply,
		     const struct ibmadrpc_error *err, void *user);

static int ring_grow(struct ibtopo_discovery *d)
{
	uint32_t size = d->mask ? (d->mask + 1) * 2 : 256;
	struct slot *s = calloc(size, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (uint32_t q = d->head; q != d->tail; q++)
		s[q & (size - 1)] = d->slots[q & d->mask];
	free(d->slots);
	d->slots = s;
	d->mask = size - 1;
	return 0;
}

static const uint16_t kind_attr[] = {
	[K_NODE_INFO] = ATTR_NODE_INFO,   [K_NODE_DESC] = ATTR_NODE_DESC,
	[K_SWITCH_INFO] = ATTR_SWITCH_INFO, [K_PORT_INFO] = ATTR_PORT_INFO,
	[K_PORT0_INFO] = ATTR_PORT_INFO,  [K_MLNX_EPI] = ATTR_MLNX_EXT_PORT_INFO,
};

/* Sends queued SMPs, in queue order, while the window has room. */
static void pump(struct ibtopo_discovery *d)
{
	while (d->next_send != d->tail && d->in_flight < d->window) {
		struct slot *s = &d->slots[d->next_send & d->mask];
		uint32_t seq = d->next_send++;
		struct ibmadrpc_request req;
		int rc;

		if (s->state != S_QUEUED)
			continue;
		memset(&req, 0, sizeof(req));
		req.mgmt_class = 0x01;
		req.method = 0x01; /* Get */
		req.attr_id = kind_attr[s->kind];
		req.attr_mod = s->port;
		req.key = d->mkey;
		if (s->lid_path) {
			req.path = s->lid_path;
		} else {
			rc = wpath_ip(d, s->path);
			if (rc) {
				s->state = S_FAILED;
				s->errnum = rc;
				continue;
			}
			req.path = s->path->ip;
		}
		rc = ibsched_submit(d->sched, d->group, &req, work_done, (void *)(uintptr_t)seq, NULL);
		if (rc < 0) {
			/* not sent: it fails in its place, as a send error would in libibnetdisc */
			s->state = S_FAILED;
			s->errnum = rc;
			continue;
		}
		s->state = S_WIRE;
		d->in_flight++;
		d->mads++;
	}
}

/* libibnetdisc's issue_smp(): append to the queue and send what fits the window. */
static int issue(struct ibtopo_discovery *d, struct wpath *path, enum smp_kind kind, uint8_t port,
		 struct ibtopo_node *node, struct ibtopo_node *rem_node, uint8_t rem_port)
{
	struct slot *s;
	uint32_t seq;

	if (d->cancelled)
		return -ECANCELED;
	if ((!d->slots || d->tail - d->head > d->mask) && ring_grow(d))
		return -ENOMEM;
	seq = d->tail++;
	s = &d->slots[seq & d->mask];
	memset(s, 0, sizeof(*s));
	s->path = path;
	path->refs++;
	s->kind = (uint8_t)kind;
	s->port = port;
	s->node = node;
	s->rem_node = rem_node;
	s->rem_port = rem_port;
	s->state = S_QUEUED;
	if (d->image) {
		struct ibmadrpc_request req;
		int rc;

		memset(&req, 0, sizeof(req));
		req.mgmt_class = 0x01;
		req.method = 0x01;
		req.attr_id = kind_attr[kind];
		req.attr_mod = port;
		req.key = d->mkey;
		/* SA mode: answered from the image at once; LID mode: sent LID routed */
		rc = topo_image_smp(d->image, &path->dr, &req, s->data, &s->mad_status);
		if (rc <= 0) {
			s->state = rc ? S_FAILED : S_ANSWERED;
			s->errnum = rc;
			return 0;
		}
		s->lid_path = req.path;
	}
	pump(d);
	return 0;
}

/* ---- libibnetdisc's callbacks, run in queue order -------------------------------------------- */

static void query_error(struct ibtopo_discovery *d, const struct slot *s)
{
	char path[160];
	const struct ibtopo_dr_path *p = &s->path->dr;
	int n = 0;

	/* libibmad's portid2str(): "Lid 3 DR path slid 3; dlid 65535; 0,1" or "DR path ..." */
	if (p->lid)
		n = snprintf(path, sizeof(path), "Lid %u%s", p->lid, p->hops ? " " : "");
	if (!p->lid || p->hops) {
		n += snprintf(path + n, sizeof(path) - (size_t)n, "DR path slid %u; dlid %u; ", p->drslid,
			      p->drdlid);
		ibtopo_dr_path_format(p, path + n, sizeof(path) - (size_t)n);
	}
	if (s->errnum == -EREMOTEIO)
		topo_add_error(d->topo, IBTOPO_ERR_QUERY, s->errnum, kind_attr[s->kind], s->port,
			       s->mad_status, p, s->node ? s->node->guid : 0,
			       "mad (%s Attr 0x%x:%u) bad status 0x%x", path, kind_attr[s->kind], s->port,
			       s->mad_status);
	else
		topo_add_error(d->topo, IBTOPO_ERR_QUERY, s->errnum, kind_attr[s->kind], s->port, 0, p,
			       s->node ? s->node->guid : 0, "umad (%s Attr 0x%x:%u) bad status %d; %s", path,
			       kind_attr[s->kind], s->port, -s->errnum, strerror(-s->errnum));
}

static int extend_path(struct ibtopo_discovery *d, struct ibtopo_dr_path *p, unsigned port)
{
	struct ibtopo *t = d->topo;

	if (d->max_hops && t->max_hops > d->max_hops)
		return 0;
	if (p->lid) {
		/* LID routed to the start: the directed part begins at our LID */
		p->drslid = d->self_lid;
		p->drdlid = 0xffff;
	}
	if (p->hops >= IBTOPO_MAX_HOPS) {
		topo_add_error(t, IBTOPO_ERR_LIMIT, -ERANGE, ATTR_NODE_INFO, 0, 0, p, 0,
			       "add port %u to DR path failed: %u hops is the limit", port, IBTOPO_MAX_HOPS);
		return -1;
	}
	p->port[++p->hops] = (uint8_t)port;
	if ((unsigned)p->hops - d->initial_hops > t->max_hops)
		t->max_hops++;
	return 1;
}

static int retract_path(struct ibtopo_discovery *d, struct ibtopo_dr_path *p)
{
	struct ibtopo *t = d->topo;

	if (d->max_hops && t->max_hops > d->max_hops)
		return 0;
	/* back from a CA we started behind: counts as a hop discovered, as in libibnetdisc */
	t->max_hops++;
	p->port[p->hops] = 0;
	p->hops--;
	return 1;
}

/* After a port's PortInfo (or its extended info): go through the port if it leads on. */
static int follow_port(struct ibtopo_discovery *d, const struct slot *s, struct ibtopo_node *node,
		       struct ibtopo_port *port)
{
	unsigned num = port->num;
	struct ibtopo_dr_path p;
	struct wpath *wp;
	int rc = 0;

	if (!num || PI_PHYS_STATE(port->info) != PHYS_STATE_LINKUP)
		return 0;
	if (!((node->type == IBTOPO_NODE_SWITCH && num != PI_LOCAL_PORT(port->info)) ||
	      (node == d->from_node && num == d->from_portnum)))
		return 0;
	p = s->path->dr;
	if (node->type != IBTOPO_NODE_SWITCH && node == d->from_node && p.hops > 1)
		rc = retract_path(d, &p);
	else if (p.lid == 0 || node->type == IBTOPO_NODE_SWITCH)
		rc = extend_path(d, &p, num);
	if (rc <= 0)
		return 0;
	wp = wpath_new(&p);
	if (!wp)
		return -ENOMEM;
	rc = issue(d, wp, K_NODE_INFO, 0, NULL, node, (uint8_t)num);
	wpath_unref(wp);
	return rc == -ECANCELED ? 0 : rc;
}

static bool mlnx_epi_supported(const struct ibtopo_node *n)
{
	unsigned dev = NI_DEVICE_ID(n->info);
	unsigned vendor = NI_VENDOR_ID(n->info);

	if ((dev >= 0xc738 && dev <= 0xc73b) || dev == 0xc839 || dev == 0xcb20 || dev == 0xcf08 ||
	    dev == 0xcf09 || dev == 0xd2f0 ||
	    (vendor == 0x119f && (dev == 0x1b02 || dev == 0x1b50 || dev == 0x1ba0 ||
				  (dev >= 0x1bd0 && dev <= 0x1bd5) || dev == 0x1bf0)))
		return true;
	if ((dev >= 0x1003 && dev <= 0x101b) || dev == 0xa2d2 ||
	    (vendor == 0x119f && (dev == 0x1b33 || dev == 0x1b73 || dev == 0x1b40 || dev == 0x1b41 ||
				  dev == 0x1b60 || dev == 0x1b61 || dev == 0x1b83 || dev == 0x1b93 ||
				  dev == 0x1b94 || dev == 0x1bb4 || dev == 0x1bb5 ||
				  (dev >= 0x1bc4 && dev <= 0x1bc6))))
		return true;
	return false;
}

/* libibnetdisc's ibnd_get_agg_linkspeedext(): LinkSpeedExtActive where the capability mask
 * says extended speeds are there, LinkSpeedExtActive2 (<< 5) where CapabilityMask2 says so. */
static unsigned agg_speed_ext(const uint8_t *cap, const uint8_t *info)
{
	uint32_t mask = cap ? PI_CAP_MASK(cap) : 0;
	unsigned e = 0, e2 = 0;

	if (mask & (1u << 14)) { /* HasExtendedSpeeds */
		e = PI_LINK_SPEED_EXT_ACTIVE(info);
		if (mask & (1u << 15)) { /* HasCapabilityMask2 */
			unsigned mask2 = get_be16(cap + 60);

			if (mask2 & (1u << 10)) /* IsExtendedSpeeds2Supported */
				e2 = (unsigned)((info[56] >> 5) & 3) << 5;
		}
	}
	return e2 ? e2 : e;
}

static int on_port_info(struct ibtopo_discovery *d, const struct slot *s)
{
	struct ibtopo_node *node = s->node;
	struct ibtopo_port *port = topo_port_get(node, s->port);

	if (!port)
		return s->port > node->num_ports ? 0 : -ENOMEM;
	if (topo_port_set_info(port, s->data))
		return -ENOMEM;
	if (d->mlx_epi && mlnx_epi_supported(node)) {
		const uint8_t *cap = node->type == IBTOPO_NODE_SWITCH ?
					     (node->ports[0] && node->ports[0]->has_info ? node->ports[0]->info : NULL) :
					     port->info;

		if (PI_PHYS_STATE(port->info) == PHYS_STATE_LINKUP && PI_LINK_SPEED_ACTIVE(port->info) == 4 &&
		    agg_speed_ext(cap, port->info) == 0) {
			int rc = issue(d, s->path, K_MLNX_EPI, s->port, node, NULL, 0);

			return rc == -ECANCELED ? 0 : rc;
		}
	}
	return follow_port(d, s, node, port);
}

static int on_node_info(struct ibtopo_discovery *d, const struct slot *s)
{
	struct ibtopo *t = d->topo;
	uint64_t guid = NI_NODE_GUID(s->data);
	unsigned port_num = NI_LOCAL_PORT(s->data);
	struct ibtopo_node *node = ibtopo_find_node_guid(t, guid);
	struct ibtopo_port *port;
	bool is_new = false;
	int rc = 0;

	if (!node) {
		node = topo_node_create(t, s->data, &s->path->dr);
		if (!node)
			return -ENOMEM;
		is_new = true;
	} else if (node->type != NI_NODE_TYPE(s->data) || node->num_ports != NI_NUM_PORTS(s->data)) {
		topo_add_error(t, IBTOPO_ERR_DUPLICATE, -EEXIST, ATTR_NODE_INFO, 0, 0, &s->path->dr, guid,
			       "node GUID 0x%016llx answered as a different node (type %u, %u ports) at this "
			       "path",
			       (unsigned long long)guid, NI_NODE_TYPE(s->data), NI_NUM_PORTS(s->data));
	}
	if (port_num > node->num_ports) {
		topo_add_error(t, IBTOPO_ERR_INCONSISTENT, -EPROTO, ATTR_NODE_INFO, 0, 0, &s->path->dr, guid,
			       "node 0x%016llx says it was reached on port %u of %u",
			       (unsigned long long)guid, port_num, node->num_ports);
		return 0;
	}
	port = topo_port_get(node, port_num);
	if (!port)
		return -ENOMEM;
	port->guid = NI_PORT_GUID(s->data);
	if (d->node_seen)
		d->node_seen(d, &s->path->dr, node, port, is_new, d->node_seen_user);

	if (!s->rem_node) {
		d->from_node = node;
		d->from_portnum = (uint8_t)port_num;
		t->from_node = node;
		t->from_port = (uint8_t)port_num;
	} else {
		struct ibtopo_port *rp = s->rem_node->ports[s->rem_port];

		if (rp)
			topo_link(port, rp);
	}
	if (is_new) {
		rc = issue(d, s->path, K_NODE_DESC, 0, node, NULL, 0);
		if (!rc && node->type == IBTOPO_NODE_SWITCH) {
			rc = issue(d, s->path, K_SWITCH_INFO, 0, node, NULL, 0);
			if (!rc)
				rc = issue(d, s->path, K_PORT0_INFO, 0, node, NULL, 0);
		}
	}
	if (!rc && node->type != IBTOPO_NODE_SWITCH)
		rc = issue(d, s->path, K_PORT_INFO, (uint8_t)port_num, node, NULL, 0);
	return rc == -ECANCELED ? 0 : rc;
}

static int commit_one(struct ibtopo_discovery *d, struct slot *s)
{
	int rc = 0;

	if (s->state == S_FAILED) {
		query_error(d, s);
		/* a failed extended port info goes on as if it had answered (libibnetdisc) */
		if (s->kind == K_MLNX_EPI) {
			struct ibtopo_port *port = s->node->ports[s->port];

			if (port)
				rc = follow_port(d, s, s->node, port);
		}
		return rc;
	}
	switch (s->kind) {
	case K_NODE_INFO:
		return on_node_info(d, s);
	case K_NODE_DESC:
		topo_node_set_desc(s->node, s->data);
		return 0;
	case K_SWITCH_INFO:
		topo_node_set_switch_info(s->node, s->data);
		return 0;
	case K_PORT0_INFO:
		rc = on_port_info(d, s);
		for (unsigned i = 1; !rc && i <= s->node->num_ports; i++)
			rc = issue(d, s->path, K_PORT_INFO, (uint8_t)i, s->node, NULL, 0);
		return rc == -ECANCELED ? 0 : rc;
	case K_PORT_INFO:
		return on_port_info(d, s);
	case K_MLNX_EPI: {
		struct ibtopo_port *port = s->node->ports[s->port];

		if (!port)
			return 0;
		if (topo_port_set_ext_info(port, s->data))
			return -ENOMEM;
		return follow_port(d, s, s->node, port);
	}
	}
	return 0;
}

static void commit(struct ibtopo_discovery *d)
{
	if (d->committing)
		return;
	d->committing = true;
	while (d->head != d->tail) {
		struct slot *s = &d->slots[d->head & d->mask];
		struct slot cur;
		int rc;

		if (s->state != S_ANSWERED && s->state != S_FAILED)
			break;
		/* work on a copy: committing queues more SMPs, which may move the ring */
		cur = *s;
		s->path = NULL;
		s->state = S_FREE;
		d->head++;
		rc = d->cancelled || d->fatal ? 0 : commit_one(d, &cur);
		if (rc < 0 && !d->fatal) {
			d->fatal = rc;
			ibsched_group_cancel(d->sched, d->group);
		}
		wpath_unref(cur.path);
	}
	d->committing = false;
	if (d->progress && !d->cancelled)
		d->progress(d, d->topo->all.n, ibsched_outstanding(d->sched), d->progress_user);
}

static int work_done(struct ibsched *sched, struct ibsched_work *work, const struct ibmadrpc_reply *reply,
		     const struct ibmadrpc_error *err, void *user)
{
	struct stub *stub = ibsched_group_user(ibsched_work_group(work));
	struct ibtopo_discovery *d = stub ? stub->disc : NULL;
	uint32_t seq = (uint32_t)(uintptr_t)user;
	struct slot *s;

	(void)sched;
	if (!d || seq - d->head >= d->tail - d->head)
		return IBSCHED_HANDLED;
	s = &d->slots[seq & d->mask];
	if (s->state != S_WIRE)
		return IBSCHED_HANDLED;
	d->in_flight--;
	if (reply) {
		size_t off = reply->data_offset;

		memset(s->data, 0, sizeof(s->data));
		if (reply->len > off)
			memcpy(s->data, reply->mad + off,
			       reply->len - off < IBTOPO_SMP_DATA_SIZE ? reply->len - off : IBTOPO_SMP_DATA_SIZE);
		if (d->image)
			topo_image_fix(d->image, &s->path->dr, kind_attr[s->kind], s->data);
		s->state = S_ANSWERED;
	} else {
		int e = ibmadrpc_error_errno(err);

		/* the error object may hold the errno either way round */
		s->errnum = e > 0 ? -e : e < 0 ? e : -EIO;
		s->mad_status = ibmadrpc_error_status(err) & 0x7fff;
		s->state = S_FAILED;
	}
	pump(d);
	/* the head may be this answer, or a send that failed in pump() */
	commit(d);
	return IBSCHED_HANDLED;
}

static int group_done(struct ibsched *sched, struct ibsched_group *group, int status,
		      const struct ibmadrpc_error *err, void *user)
{
	struct stub *stub = user;
	struct ibtopo_discovery *d = stub->disc;

	(void)sched;
	(void)group;
	(void)status; /* the walk's own status says more */
	(void)err;
	if (!d) {
		free(stub);
		return IBSCHED_HANDLED;
	}
	d->group = NULL;
	d->finished = true;
	/* answers cancelled on the wire never come: drop what is left of the queue */
	while (d->head != d->tail) {
		struct slot *s = &d->slots[d->head & d->mask];

		wpath_unref(s->path);
		s->path = NULL;
		d->head++;
	}
	if (d->fatal)
		d->status = d->fatal;
	else if (d->cancelled)
		d->status = -ECANCELED;
	else if (!d->topo->all.n)
		d->status = d->topo->n_errors ? d->topo->errors[0].errnum : -EIO;
	else
		d->status = 0;
	if (d->status == 0) {
		/* chassis, as libibnetdisc groups them at the end of its discovery */
		int rc = ibtopo_group_chassis(d->topo);

		if (rc == -EPROTO)
			topo_add_error(d->topo, IBTOPO_ERR_INCONSISTENT, rc, 0, 0, 0, NULL, 0,
				       "chassis grouping gave up: the nodes' chassis data is inconsistent "
				       "(libibnetdisc fails the whole discovery here)");
		else if (rc)
			d->status = rc;
	}
	if (d->topo) {
		d->topo->mads = d->mads;
		/* libibnetdisc counts the hops of the start path in at the end */
		d->topo->max_hops += d->initial_hops;
	}
	if (d->done)
		d->done(d, d->status, d->done_user);
	return IBSCHED_HANDLED;
}

/* The walk's first SMP: NodeInfo of the start node. */
static void walk_begin(struct ibtopo_discovery *disc)
{
	struct ibtopo_dr_path start;
	struct wpath *wp;
	int rc;

	memset(&start, 0, sizeof(start));
	if (disc->have_from)
		start = disc->from;
	disc->initial_hops = start.hops;
	disc->self_lid = ibmadrpc_port_lid(ibsched_port(disc->sched));
	wp = wpath_new(&start);
	if (!wp) {
		disc->fatal = -ENOMEM;
		ibsched_group_cancel(disc->sched, disc->group);
		return;
	}
	rc = issue(disc, wp, K_NODE_INFO, 0, NULL, NULL, 0);
	wpath_unref(wp);
	if (rc) {
		disc->fatal = rc;
		ibsched_group_cancel(disc->sched, disc->group);
		return;
	}
	/* a send that failed at once sits failed at the head: commit it now */
	commit(disc);
}

/* LID and SA modes: the SA's image is in (image.c); without it the errors met say why. */
static void image_ready(void *walk, int status)
{
	struct ibtopo_discovery *disc = walk;

	if (!status && !disc->cancelled)
		walk_begin(disc);
}

IBTOPO_EXPORT int ibtopo_discovery_start(struct ibtopo_discovery *disc, ibtopo_done_fn done, void *user)
{
	int rc;

	if (!disc)
		return -EINVAL;
	if (disc->started)
		return -EBUSY;
	rc = ibtopo_new(&disc->topo);
	if (rc)
		return rc;
	disc->stub = calloc(1, sizeof(*disc->stub));
	if (!disc->stub)
		return -ENOMEM;
	disc->stub->disc = disc;
	if (disc->outstanding) {
		rc = ibsched_set_max_outstanding(disc->sched, disc->outstanding);
		if (rc)
			return rc;
	}
	disc->window = ibsched_max_outstanding(disc->sched);
	rc = ibsched_group_new(disc->sched, ibsched_root(disc->sched), IBSCHED_COLLECT, group_done,
			       disc->stub, &disc->group);
	if (rc) {
		free(disc->stub);
		disc->stub = NULL;
		return rc;
	}
	disc->started = true;
	disc->done = done;
	disc->done_user = user;
	if (disc->mode != IBTOPO_DISCOVER_DR) {
		struct topo_image_env env = {
			.sched = disc->sched, .group = disc->group, .sa = disc->sa, .mode = disc->mode,
			.topo = disc->topo, .timeout_ms = disc->timeout_ms, .retries = disc->retries,
			.mads = &disc->mads, .ready = image_ready, .walk = disc,
		};

		/* the SA has no Mellanox ExtendedPortInfo */
		if (disc->mode == IBTOPO_DISCOVER_SA)
			disc->mlx_epi = false;
		rc = topo_image_start(&disc->image, &env);
		if (rc) {
			disc->fatal = rc;
			ibsched_group_cancel(disc->sched, disc->group);
		}
		return 0;
	}
	walk_begin(disc);
	return 0;
}

IBTOPO_EXPORT void ibtopo_discovery_cancel(struct ibtopo_discovery *disc)
{
	if (!disc || !disc->started || disc->finished || disc->cancelled)
		return;
	disc->cancelled = true;
	if (disc->group)
		ibsched_group_cancel(disc->sched, disc->group);
}

IBTOPO_EXPORT void ibtopo_discovery_free(struct ibtopo_discovery *disc)
{
	if (!disc)
		return;
	if (disc->started && !disc->finished) {
		disc->cancelled = true;
		/* the group's callback still runs later: it frees the stub */
		disc->stub->disc = NULL;
		if (disc->group)
			ibsched_group_cancel(disc->sched, disc->group);
	} else {
		free(disc->stub);
	}
	while (disc->head != disc->tail) {
		wpath_unref(disc->slots[disc->head & disc->mask].path);
		disc->head++;
	}
	free(disc->slots);
	topo_image_free(disc->image);
	ibtopo_unref(disc->topo);
	free(disc);
}

IBTOPO_EXPORT int ibtopo_discover(struct ibtopo_discovery *disc, struct ibtopo **out)
{
	int rc;

	if (!disc || !out)
		return -EINVAL;
	*out = NULL;
	rc = ibtopo_discovery_start(disc, NULL, NULL);
	if (rc)
		return rc;
	while (!disc->finished) {
		rc = ibsched_dispatch(disc->sched, -1);
		if (rc < 0 && rc != -EINTR) {
			ibtopo_discovery_cancel(disc);
			/* let the cancelled group finish */
			for (int i = 0; i < 100 && !disc->finished; i++)
				if (ibsched_dispatch(disc->sched, 10) < 0)
					break;
			if (!disc->finished)
				return rc;
		}
	}
	if (disc->topo && (disc->topo->all.n || disc->status == 0))
		*out = ibtopo_ref(disc->topo);
	return disc->status;
}
