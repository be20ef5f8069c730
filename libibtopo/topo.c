/* SPDX-License-Identifier: BSD-3-Clause */
/* The topology database: nodes, ports, links, look-ups, errors met. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibtopo-private.h"

IBTOPO_EXPORT const char *ibtopo_version(void)
{
	return PACKAGE_VERSION;
}

/* ---- DR paths --------------------------------------------------------------------------- */

IBTOPO_EXPORT int ibtopo_dr_path_format(const struct ibtopo_dr_path *path, char *buf, size_t len)
{
	size_t n = 0;
	int rc;

	if (!path || (!buf && len))
		return -EINVAL;
	if (path->hops > IBTOPO_MAX_HOPS)
		return -EINVAL;
	rc = snprintf(buf, len, "%u", path->port[0]);
	if (rc < 0)
		return -EINVAL;
	n = (size_t)rc;
	for (unsigned i = 1; i <= path->hops; i++) {
		rc = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, ",%u", path->port[i]);
		if (rc < 0)
			return -EINVAL;
		n += (size_t)rc;
	}
	return (int)n;
}

IBTOPO_EXPORT int ibtopo_dr_path_parse(const char *text, struct ibtopo_dr_path *path)
{
	struct ibtopo_dr_path p;
	const char *s = text;
	unsigned count = 0;
	uint8_t ports[IBTOPO_MAX_HOPS + 2];

	if (!text || !path)
		return -EINVAL;
	memset(&p, 0, sizeof(p));
	p.drslid = 0xffff;
	p.drdlid = 0xffff;
	for (;;) {
		unsigned long v = 0;
		const char *start = s;

		while (*s >= '0' && *s <= '9') {
			v = v * 10 + (unsigned long)(*s - '0');
			if (v > 255)
				return -ERANGE;
			s++;
		}
		if (s == start)
			return -EINVAL;
		if (count >= IBTOPO_MAX_HOPS + 1 + (count == 0 ? 0 : 1))
			return -ERANGE;
		ports[count++] = (uint8_t)v;
		if (*s == '\0')
			break;
		if (*s != ',')
			return -EINVAL;
		s++;
	}
	/* element 0 is the local port (0); "1,3" means the hops 1 then 3 */
	if (ports[0] == 0) {
		if (count - 1 > IBTOPO_MAX_HOPS)
			return -ERANGE;
		p.hops = (uint8_t)(count - 1);
		memcpy(p.port + 1, ports + 1, count - 1);
	} else {
		if (count > IBTOPO_MAX_HOPS)
			return -ERANGE;
		p.hops = (uint8_t)count;
		memcpy(p.port + 1, ports, count);
	}
	for (unsigned i = 1; i <= p.hops; i++)
		if (p.port[i] == 0)
			return -EINVAL;
	*path = p;
	return 0;
}

/* ---- The topology ------------------------------------------------------------------------- */

IBTOPO_EXPORT int ibtopo_new(struct ibtopo **out)
{
	struct ibtopo *t;

	if (!out)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->refs = 1;
	*out = t;
	return 0;
}

IBTOPO_EXPORT struct ibtopo *ibtopo_ref(struct ibtopo *topo)
{
	if (topo)
		topo->refs++;
	return topo;
}

static void node_free(struct ibtopo_node *n)
{
	if (n->ports)
		for (unsigned p = 0; p <= n->num_ports; p++) {
			if (n->ports[p])
				free(n->ports[p]->ext_info);
			free(n->ports[p]);
		}
	free(n->ports);
	free(n->lft);
	free(n->mft);
	free(n);
}

IBTOPO_EXPORT void ibtopo_unref(struct ibtopo *topo)
{
	if (!topo || --topo->refs)
		return;
	for (unsigned i = 0; i < topo->all.n; i++)
		node_free(topo->all.v[i]);
	free(topo->all.v);
	for (unsigned i = 0; i < 4; i++)
		free(topo->by_type[i].v);
	free(topo->node_hash);
	free(topo->port_hash);
	free(topo->lid_tab);
	for (unsigned i = 0; i < topo->n_errors; i++)
		free((char *)topo->errors[i].message);
	free(topo->errors);
	topo_chassis_free(topo);
	free(topo);
}

IBTOPO_EXPORT unsigned ibtopo_node_count(const struct ibtopo *topo, enum ibtopo_node_type type)
{
	if (!topo || (unsigned)type > IBTOPO_NODE_ROUTER)
		return 0;
	return type == IBTOPO_NODE_ANY ? topo->all.n : topo->by_type[type].n;
}

IBTOPO_EXPORT struct ibtopo_node *ibtopo_node_get(const struct ibtopo *topo,
						  enum ibtopo_node_type type, unsigned index)
{
	const struct node_vec *v;

	if (!topo || (unsigned)type > IBTOPO_NODE_ROUTER)
		return NULL;
	v = type == IBTOPO_NODE_ANY ? &topo->all : &topo->by_type[type];
	if (index >= v->n)
		return NULL;
	/* most recently created first, as libibnetdisc's lists */
	return v->v[v->n - 1 - index];
}

/* ---- Hashes ---------------------------------------------------------------------------------- */

static inline unsigned guid_slot(uint64_t guid, unsigned size)
{
	guid ^= guid >> 33;
	guid *= 0xff51afd7ed558ccdULL;
	guid ^= guid >> 33;
	return (unsigned)guid & (size - 1);
}

static int node_hash_grow(struct ibtopo *t)
{
	unsigned size = t->node_hash_size ? t->node_hash_size * 2 : 64;
	struct ibtopo_node **h = calloc(size, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (unsigned i = 0; i < t->node_hash_size; i++) {
		struct ibtopo_node *n = t->node_hash[i];
		unsigned s;

		if (!n)
			continue;
		for (s = guid_slot(n->guid, size); h[s]; s = (s + 1) & (size - 1))
			;
		h[s] = n;
	}
	free(t->node_hash);
	t->node_hash = h;
	t->node_hash_size = size;
	return 0;
}

IBTOPO_EXPORT struct ibtopo_node *ibtopo_find_node_guid(const struct ibtopo *topo, uint64_t guid)
{
	if (!topo || !topo->node_hash_size)
		return NULL;
	for (unsigned s = guid_slot(guid, topo->node_hash_size); topo->node_hash[s];
	     s = (s + 1) & (topo->node_hash_size - 1))
		if (topo->node_hash[s]->guid == guid)
			return topo->node_hash[s];
	return NULL;
}

static int node_hash_add(struct ibtopo *t, struct ibtopo_node *n)
{
	unsigned s;

	if ((t->all.n + 1) * 2 > t->node_hash_size && node_hash_grow(t))
		return -ENOMEM;
	for (s = guid_slot(n->guid, t->node_hash_size); t->node_hash[s];
	     s = (s + 1) & (t->node_hash_size - 1))
		if (t->node_hash[s]->guid == n->guid)
			return -EEXIST;
	t->node_hash[s] = n;
	return 0;
}

static int port_hash_grow(struct ibtopo *t)
{
	unsigned size = t->port_hash_size ? t->port_hash_size * 2 : 64;
	struct ibtopo_port **h = calloc(size, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (unsigned i = 0; i < t->port_hash_size; i++) {
		struct ibtopo_port *p = t->port_hash[i];
		unsigned s;

		if (!p)
			continue;
		for (s = guid_slot(p->guid, size); h[s]; s = (s + 1) & (size - 1))
			;
		h[s] = p;
	}
	free(t->port_hash);
	t->port_hash = h;
	t->port_hash_size = size;
	return 0;
}

IBTOPO_EXPORT struct ibtopo_port *ibtopo_find_port_guid(const struct ibtopo *topo, uint64_t guid)
{
	if (!topo || !topo->port_hash_size)
		return NULL;
	for (unsigned s = guid_slot(guid, topo->port_hash_size); topo->port_hash[s];
	     s = (s + 1) & (topo->port_hash_size - 1))
		if (topo->port_hash[s]->guid == guid)
			return topo->port_hash[s];
	return NULL;
}

static int port_hash_add(struct ibtopo *t, struct ibtopo_port *p)
{
	unsigned s;

	if ((t->port_hash_used + 1) * 2 > t->port_hash_size && port_hash_grow(t))
		return -ENOMEM;
	for (s = guid_slot(p->guid, t->port_hash_size); t->port_hash[s];
	     s = (s + 1) & (t->port_hash_size - 1)) {
		struct ibtopo_port *q = t->port_hash[s];

		if (q->guid != p->guid)
			continue;
		/* a switch's ports share its GUID: port 0 stands for them */
		if (q->node == p->node && p->num == 0)
			t->port_hash[s] = p;
		return 0;
	}
	t->port_hash[s] = p;
	t->port_hash_used++;
	return 0;
}

IBTOPO_EXPORT struct ibtopo_port *ibtopo_find_port_lid(const struct ibtopo *topo, uint16_t lid)
{
	if (!topo || !topo->lid_tab || lid >= LID_TAB_SIZE)
		return NULL;
	return topo->lid_tab[lid];
}

IBTOPO_EXPORT struct ibtopo_node *ibtopo_find_node_dr(const struct ibtopo *topo,
						      const struct ibtopo_dr_path *path)
{
	struct ibtopo_node *n;

	if (!topo || !path || path->hops > IBTOPO_MAX_HOPS)
		return NULL;
	n = topo->from_node;
	for (unsigned i = 1; n && i <= path->hops; i++) {
		struct ibtopo_port *p = path->port[i] <= n->num_ports ? n->ports[path->port[i]] : NULL;

		if (!p || !p->remote)
			return NULL;
		n = p->remote->node;
	}
	return n;
}

IBTOPO_EXPORT struct ibtopo_node *ibtopo_from_node(const struct ibtopo *topo)
{
	return topo ? topo->from_node : NULL;
}

IBTOPO_EXPORT unsigned ibtopo_from_port(const struct ibtopo *topo)
{
	return topo ? topo->from_port : 0;
}

IBTOPO_EXPORT unsigned ibtopo_max_hops_discovered(const struct ibtopo *topo)
{
	return topo ? topo->max_hops : 0;
}

IBTOPO_EXPORT uint64_t ibtopo_mads_used(const struct ibtopo *topo)
{
	return topo ? topo->mads : 0;
}

/* ---- Building ---------------------------------------------------------------------------------- */

static int vec_push(struct node_vec *v, struct ibtopo_node *n)
{
	if (v->n == v->cap) {
		unsigned cap = v->cap ? v->cap * 2 : 64;
		struct ibtopo_node **nv = realloc(v->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		v->v = nv;
		v->cap = cap;
	}
	v->v[v->n++] = n;
	return 0;
}

struct ibtopo_node *topo_node_create(struct ibtopo *topo, const uint8_t info[IBTOPO_SMP_DATA_SIZE],
				     const struct ibtopo_dr_path *path)
{
	struct ibtopo_node *n = calloc(1, sizeof(*n));
	unsigned type = NI_NODE_TYPE(info);

	if (!n)
		return NULL;
	n->topo = topo;
	n->guid = NI_NODE_GUID(info);
	n->type = (uint8_t)type;
	n->num_ports = NI_NUM_PORTS(info);
	memcpy(n->info, info, IBTOPO_SMP_DATA_SIZE);
	if (path)
		n->path = *path;
	n->ports = calloc((size_t)n->num_ports + 1, sizeof(*n->ports));
	if (!n->ports)
		goto fail;
	n->index = topo->all.n;
	if (vec_push(&topo->all, n))
		goto fail;
	if (type >= IBTOPO_NODE_CA && type <= IBTOPO_NODE_ROUTER &&
	    vec_push(&topo->by_type[type], n)) {
		topo->all.n--;
		goto fail;
	}
	if (node_hash_add(topo, n) == -ENOMEM) {
		topo->all.n--;
		if (type >= IBTOPO_NODE_CA && type <= IBTOPO_NODE_ROUTER)
			topo->by_type[type].n--;
		goto fail;
	}
	return n;
fail:
	free(n->ports);
	free(n);
	return NULL;
}

void topo_node_set_desc(struct ibtopo_node *node, const uint8_t desc[IBTOPO_SMP_DATA_SIZE])
{
	memcpy(node->desc, desc, IBTOPO_SMP_DATA_SIZE);
	node->desc_str[IBTOPO_SMP_DATA_SIZE] = '\0';
	node->has_desc = true;
}

int topo_port_set_ext_info(struct ibtopo_port *port, const uint8_t data[IBTOPO_SMP_DATA_SIZE])
{
	if (!port->ext_info) {
		port->ext_info = malloc(IBTOPO_SMP_DATA_SIZE);
		if (!port->ext_info)
			return -ENOMEM;
	}
	memcpy(port->ext_info, data, IBTOPO_SMP_DATA_SIZE);
	port->has_ext_info = true;
	return 0;
}

void topo_node_set_switch_info(struct ibtopo_node *node, const uint8_t si[IBTOPO_SMP_DATA_SIZE])
{
	memcpy(node->switch_info, si, IBTOPO_SMP_DATA_SIZE);
	node->sma_enh_sp0 = SI_ENH_PORT0(si);
	node->has_switch_info = true;
}

struct ibtopo_port *topo_port_get(struct ibtopo_node *node, unsigned num)
{
	struct ibtopo_port *p;

	if (num > node->num_ports)
		return NULL;
	if (node->ports[num])
		return node->ports[num];
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->node = node;
	p->num = (uint8_t)num;
	node->ports[num] = p;
	return p;
}

int topo_port_index(struct ibtopo_port *port)
{
	struct ibtopo *t = port->node->topo;
	unsigned mask = (1u << port->lmc) - 1;

	/* libibnetdisc enters a port in its GUID hash once: a second PortInfo keeps its place */
	if (!port->seq)
		port->seq = ++t->port_seq;
	if (port_hash_add(t, port))
		return -ENOMEM;
	/* 0 < LID <= 0xbfff; every LID of the range maps to the port, the first port keeps a LID */
	if (port->base_lid == 0 || port->base_lid > LID_UNICAST_MAX)
		return 0;
	if (!t->lid_tab) {
		t->lid_tab = calloc(LID_TAB_SIZE, sizeof(*t->lid_tab));
		if (!t->lid_tab)
			return -ENOMEM;
	}
	for (unsigned lid = port->base_lid; lid <= port->base_lid + mask; lid++)
		if (!t->lid_tab[lid])
			t->lid_tab[lid] = port;
	return 0;
}

int topo_port_set_info(struct ibtopo_port *port, const uint8_t info[IBTOPO_SMP_DATA_SIZE])
{
	struct ibtopo_node *n = port->node;

	memcpy(port->info, info, IBTOPO_SMP_DATA_SIZE);
	port->has_info = true;
	port->ext_num = 0;
	port->base_lid = PI_LID(info);
	port->lmc = PI_LMC(info);
	if (!port->guid)
		port->guid = NI_PORT_GUID(n->info);
	if (port->num == 0) {
		n->sma_lid = port->base_lid;
		n->sma_lmc = port->lmc;
	} else if (n->type == IBTOPO_NODE_SWITCH) {
		port->base_lid = n->sma_lid;
		port->lmc = n->sma_lmc;
	}
	return topo_port_index(port);
}

void topo_link(struct ibtopo_port *a, struct ibtopo_port *b)
{
	if (a->remote)
		a->remote->remote = NULL;
	if (b->remote)
		b->remote->remote = NULL;
	a->remote = b;
	b->remote = a;
}

int topo_add_error(struct ibtopo *topo, enum ibtopo_error_kind kind, int errnum, uint16_t attr_id,
		   uint32_t attr_mod, uint16_t status, const struct ibtopo_dr_path *path, uint64_t guid,
		   const char *fmt, ...)
{
	struct ibtopo_error *e;
	va_list ap;
	char *msg;
	int rc;

	if (topo->n_errors == topo->cap_errors) {
		unsigned cap = topo->cap_errors ? topo->cap_errors * 2 : 16;
		struct ibtopo_error *ne = realloc(topo->errors, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		topo->errors = ne;
		topo->cap_errors = cap;
	}
	va_start(ap, fmt);
	rc = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -ENOMEM;
	e = &topo->errors[topo->n_errors++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->errnum = errnum;
	e->attr_id = attr_id;
	e->attr_mod = attr_mod;
	e->status = status;
	if (path)
		e->path = *path;
	e->guid = guid;
	e->message = msg;
	return 0;
}

IBTOPO_EXPORT unsigned ibtopo_error_count(const struct ibtopo *topo)
{
	return topo ? topo->n_errors : 0;
}

IBTOPO_EXPORT const struct ibtopo_error *ibtopo_error_get(const struct ibtopo *topo, unsigned index)
{
	if (!topo || index >= topo->n_errors)
		return NULL;
	return &topo->errors[index];
}

/* ---- Node and port getters ------------------------------------------------------------------ */

IBTOPO_EXPORT struct ibtopo *ibtopo_node_topo(const struct ibtopo_node *node)
{
	return node ? node->topo : NULL;
}

IBTOPO_EXPORT enum ibtopo_node_type ibtopo_node_type(const struct ibtopo_node *node)
{
	return node ? (enum ibtopo_node_type)node->type : IBTOPO_NODE_ANY;
}

IBTOPO_EXPORT uint64_t ibtopo_node_guid(const struct ibtopo_node *node)
{
	return node ? node->guid : 0;
}

IBTOPO_EXPORT unsigned ibtopo_node_num_ports(const struct ibtopo_node *node)
{
	return node ? node->num_ports : 0;
}

IBTOPO_EXPORT const uint8_t *ibtopo_node_info(const struct ibtopo_node *node)
{
	return node ? node->info : NULL;
}

IBTOPO_EXPORT const uint8_t *ibtopo_node_desc_raw(const struct ibtopo_node *node)
{
	return node && node->has_desc ? node->desc : NULL;
}

IBTOPO_EXPORT const uint8_t *ibtopo_node_switch_info(const struct ibtopo_node *node)
{
	return node && node->has_switch_info ? node->switch_info : NULL;
}

IBTOPO_EXPORT const char *ibtopo_node_desc(const struct ibtopo_node *node)
{
	return node ? node->desc_str : "";
}

IBTOPO_EXPORT uint16_t ibtopo_node_sma_lid(const struct ibtopo_node *node)
{
	return node ? node->sma_lid : 0;
}

IBTOPO_EXPORT uint8_t ibtopo_node_sma_lmc(const struct ibtopo_node *node)
{
	return node ? node->sma_lmc : 0;
}

IBTOPO_EXPORT bool ibtopo_node_enhanced_port0(const struct ibtopo_node *node)
{
	return node && node->sma_enh_sp0;
}

IBTOPO_EXPORT const struct ibtopo_dr_path *ibtopo_node_dr_path(const struct ibtopo_node *node)
{
	return node ? &node->path : NULL;
}

IBTOPO_EXPORT struct ibtopo_port *ibtopo_node_port(const struct ibtopo_node *node, unsigned num)
{
	if (!node || num > node->num_ports)
		return NULL;
	return node->ports[num];
}

IBTOPO_EXPORT struct ibtopo_node *ibtopo_port_node(const struct ibtopo_port *port)
{
	return port ? port->node : NULL;
}

IBTOPO_EXPORT unsigned ibtopo_port_num(const struct ibtopo_port *port)
{
	return port ? port->num : 0;
}

IBTOPO_EXPORT unsigned ibtopo_port_ext_num(const struct ibtopo_port *port)
{
	return port ? port->ext_num : 0;
}

IBTOPO_EXPORT uint64_t ibtopo_port_guid(const struct ibtopo_port *port)
{
	return port ? port->guid : 0;
}

IBTOPO_EXPORT uint16_t ibtopo_port_base_lid(const struct ibtopo_port *port)
{
	return port ? port->base_lid : 0;
}

IBTOPO_EXPORT uint8_t ibtopo_port_lmc(const struct ibtopo_port *port)
{
	return port ? port->lmc : 0;
}

IBTOPO_EXPORT const uint8_t *ibtopo_port_info(const struct ibtopo_port *port)
{
	return port && port->has_info ? port->info : NULL;
}

IBTOPO_EXPORT const uint8_t *ibtopo_port_ext_info(const struct ibtopo_port *port)
{
	return port && port->has_ext_info ? port->ext_info : NULL;
}

IBTOPO_EXPORT struct ibtopo_port *ibtopo_port_remote(const struct ibtopo_port *port)
{
	return port ? port->remote : NULL;
}
