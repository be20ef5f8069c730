/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibcacheedit: changes node, port and system image GUIDs in a libibnetdisc cache file (as
 * written by ibnetdiscover --cache), a drop-in replacement for infiniband-diags' ibcacheedit.
 *
 *   ibcacheedit [--switchguid B:A] [--caguid B:A] [--sysimgguid B:A]
 *               [--portguid NODEGUID:B:A] <orig.cache> <new.cache>
 *
 * The reference loads the file with libibnetdisc, changes the GUIDs in its structures and
 * writes the fabric again.  libibnetdisc does not re-hash a port whose GUID changed, so the
 * port records come out in the order of the GUIDs they had when the file was loaded.  The
 * edit is therefore done here on the records themselves: the file is checked by libibtopo's
 * reader (which refuses hostile files), the records are located, the GUIDs are changed and
 * the file is written again the way libibnetdisc writes a fabric it loaded:
 *   - nodes in file order, each with its port keys in port number order;
 *   - the port records a node key refers to (others are dropped), in libibnetdisc's port
 *     hash order after loading: bucket of the loaded GUID, then the port entered last first,
 *     ports being entered node by node from the last node record, keys in file order;
 *   - a port's node GUID and remote GUID taken from the records they resolve to.
 * Look-ups resolve duplicates as libibnetdisc's hash lists do: the record read last wins.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ibmgmt/ibtopo.h>

#include "ibdiag.h"

/* The cache format (doc/libibtopo-cache.md): little-endian, fixed-size records. */
#define CE_MAGIC 0x8fe7832bu
#define CE_VERSION 1u
#define CE_HEADER_LEN 28
#define CE_NODE_LEN 207 /* up to and with the key count */
#define CE_KEY_LEN 9
#define CE_PORT_LEN 95
#define CE_MAX_FILE (256u << 20)
#define CE_HTSZ 137 /* libibnetdisc's GUID hash */

/* offsets in a node record */
#define CN_GUID 68
#define CN_TYPE 76
#define CN_NUM_PORTS 77
#define CN_NODE_INFO 78
#define CN_NUM_KEYS 206
/* offsets in a port record */
#define CP_GUID 0
#define CP_NUM 8
#define CP_NODE_GUID 77
#define CP_LINKED 85
#define CP_REMOTE_GUID 86
#define CP_REMOTE_NUM 94

#define NI_SYS_GUID_OFF 4 /* NodeInfo.SystemImageGUID, big-endian */

#define NODE_CA 1
#define NODE_SWITCH 2

#define NONE UINT32_MAX

/* What to change: a before/after pair (and for --portguid, the node). */
struct edit {
	bool on;
	uint64_t node;
	uint64_t before;
	uint64_t after;
};

struct edits {
	struct edit sw, ca, sys, port;
};

struct ce_node {
	const uint8_t *rec;
	uint64_t guid;     /* current */
	uint64_t sys_guid; /* current */
	uint8_t type;
	uint8_t num_ports;
	unsigned n_keys;
	uint32_t *ports; /* num_ports + 1 port record indexes, NONE where no key */
};

struct ce_port {
	const uint8_t *rec;
	uint64_t guid;       /* current */
	uint64_t load_guid;  /* as read: decides the hash bucket */
	uint8_t num;
	uint32_t owner;      /* node record its node GUID resolves to */
	uint32_t remote;     /* port record its remote key resolves to, NONE when not linked */
	uint32_t seq;        /* order entered into the hash, 0: not entered */
};

struct cache {
	const uint8_t *data;
	size_t len;
	uint32_t n_nodes, n_ports;
	uint32_t from;       /* node record of the start node */
	struct ce_node *nodes;
	struct ce_port *ports;
};

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void wr64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

static void wr_be64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

static unsigned hash_bucket(uint64_t guid)
{
	return (((uint32_t)guid * 101u) ^ ((uint32_t)(guid >> 32) * 103u)) % CE_HTSZ;
}

/* ---- look-up tables: GUID (and port number) -> the record read last ------------------------ */

struct lookup {
	uint64_t *keys;
	uint32_t *vals;
	uint8_t *nums;
	size_t size; /* power of two */
};

static size_t mix(uint64_t guid, unsigned num)
{
	uint64_t h = (guid ^ ((uint64_t)num << 56)) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 17);
}

static int lookup_init(struct lookup *l, size_t n)
{
	l->size = 16;
	while (l->size < 2 * n + 2)
		l->size <<= 1;
	l->keys = calloc(l->size, sizeof(*l->keys));
	l->vals = malloc(l->size * sizeof(*l->vals));
	l->nums = calloc(l->size, sizeof(*l->nums));
	if (!l->keys || !l->vals || !l->nums)
		return -ENOMEM;
	for (size_t i = 0; i < l->size; i++)
		l->vals[i] = NONE;
	return 0;
}

static void lookup_free(struct lookup *l)
{
	free(l->keys);
	free(l->vals);
	free(l->nums);
}

/* Enters (guid, num) -> val; a later record replaces an earlier one. */
static void lookup_put(struct lookup *l, uint64_t guid, unsigned num, uint32_t val)
{
	size_t i = mix(guid, num) & (l->size - 1);

	while (l->vals[i] != NONE && (l->keys[i] != guid || l->nums[i] != num))
		i = (i + 1) & (l->size - 1);
	l->keys[i] = guid;
	l->nums[i] = (uint8_t)num;
	l->vals[i] = val;
}

static uint32_t lookup_get(const struct lookup *l, uint64_t guid, unsigned num)
{
	size_t i = mix(guid, num) & (l->size - 1);

	while (l->vals[i] != NONE) {
		if (l->keys[i] == guid && l->nums[i] == num)
			return l->vals[i];
		i = (i + 1) & (l->size - 1);
	}
	return NONE;
}

/* ---- reading --------------------------------------------------------------------------------- */

static int read_file(const char *path, uint8_t **out, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	size_t done = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > CE_MAX_FILE) {
		close(fd);
		return -EINVAL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + done, (size_t)st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(fd);
	*out = buf;
	*len = done;
	return 0;
}

/* Locates every record and resolves the references between them as libibnetdisc's loader
 * does; -EPROTO for anything it would refuse (or crash on). */
static int cache_parse(struct cache *c)
{
	struct lookup nodes = { 0 }, ports = { 0 };
	size_t off = CE_HEADER_LEN;
	uint32_t seq = 0;
	int rc = -EPROTO;

	if (c->len < CE_HEADER_LEN || rd32(c->data) != CE_MAGIC || rd32(c->data + 4) != CE_VERSION)
		return -EPROTO;
	c->n_nodes = rd32(c->data + 8);
	c->n_ports = rd32(c->data + 12);
	/* every record takes at least its fixed part: bounds the counts before allocating */
	if (c->n_nodes > c->len / CE_NODE_LEN || c->n_ports > c->len / CE_PORT_LEN)
		return -EPROTO;
	c->nodes = calloc(c->n_nodes + 1, sizeof(*c->nodes));
	c->ports = calloc(c->n_ports + 1, sizeof(*c->ports));
	if (!c->nodes || !c->ports)
		return -ENOMEM;
	if (lookup_init(&nodes, c->n_nodes) || lookup_init(&ports, c->n_ports)) {
		rc = -ENOMEM;
		goto out;
	}

	for (uint32_t i = 0; i < c->n_nodes; i++) {
		struct ce_node *n = &c->nodes[i];

		if (c->len - off < CE_NODE_LEN)
			goto out;
		n->rec = c->data + off;
		n->guid = rd64(n->rec + CN_GUID);
		n->type = n->rec[CN_TYPE];
		n->num_ports = n->rec[CN_NUM_PORTS];
		n->sys_guid = be64(n->rec + CN_NODE_INFO + NI_SYS_GUID_OFF);
		n->n_keys = n->rec[CN_NUM_KEYS];
		off += CE_NODE_LEN;
		if ((c->len - off) / CE_KEY_LEN < n->n_keys)
			goto out;
		off += (size_t)n->n_keys * CE_KEY_LEN;
		n->ports = malloc(((size_t)n->num_ports + 1) * sizeof(*n->ports));
		if (!n->ports) {
			rc = -ENOMEM;
			goto out;
		}
		for (unsigned p = 0; p <= n->num_ports; p++)
			n->ports[p] = NONE;
		lookup_put(&nodes, n->guid, 0, i);
	}
	for (uint32_t i = 0; i < c->n_ports; i++) {
		struct ce_port *p = &c->ports[i];

		if (c->len - off < CE_PORT_LEN)
			goto out;
		p->rec = c->data + off;
		p->guid = p->load_guid = rd64(p->rec + CP_GUID);
		p->num = p->rec[CP_NUM];
		off += CE_PORT_LEN;
		lookup_put(&ports, p->guid, p->num, i);
	}

	c->from = lookup_get(&nodes, rd64(c->data + 16), 0);
	if (c->from == NONE)
		goto out;

	/* node keys -> ports, entered into the hash from the last node record on */
	for (uint32_t i = c->n_nodes; i-- > 0;) {
		struct ce_node *n = &c->nodes[i];
		const uint8_t *k = n->rec + CE_NODE_LEN;

		for (unsigned j = 0; j < n->n_keys; j++, k += CE_KEY_LEN) {
			uint32_t pi = lookup_get(&ports, rd64(k), k[8]);

			if (pi == NONE || c->ports[pi].seq)
				goto out; /* no such port, or a port claimed twice */
			/* libibnetdisc writes past its array here; refuse */
			if (c->ports[pi].num > n->num_ports)
				goto out;
			n->ports[c->ports[pi].num] = pi;
			c->ports[pi].seq = ++seq;
		}
	}
	/* ports -> their node and remote port */
	for (uint32_t i = 0; i < c->n_ports; i++) {
		struct ce_port *p = &c->ports[i];

		p->owner = lookup_get(&nodes, rd64(p->rec + CP_NODE_GUID), 0);
		if (p->owner == NONE)
			goto out;
		p->remote = NONE;
		if (p->rec[CP_LINKED]) {
			p->remote = lookup_get(&ports, rd64(p->rec + CP_REMOTE_GUID), p->rec[CP_REMOTE_NUM]);
			if (p->remote == NONE)
				goto out;
		}
	}
	rc = 0;
out:
	lookup_free(&nodes);
	lookup_free(&ports);
	return rc;
}

static void cache_free(struct cache *c)
{
	if (c->nodes)
		for (uint32_t i = 0; i < c->n_nodes; i++)
			free(c->nodes[i].ports);
	free(c->nodes);
	free(c->ports);
}

/* ---- the edits (ibcacheedit's order: switch, CA, system image, port) ------------------------ */

/* A switch's ports share its GUID: they follow it. */
static void set_switch_guid(struct cache *c, struct ce_node *n, uint64_t guid)
{
	n->guid = guid;
	for (unsigned p = 0; p <= n->num_ports; p++)
		if (n->ports[p] != NONE)
			c->ports[n->ports[p]].guid = guid;
}

/* Node GUIDs of one type; returns how many nodes had `before`. */
static unsigned edit_node_guid(struct cache *c, uint8_t type, const struct edit *e)
{
	unsigned found = 0;

	for (uint32_t i = 0; i < c->n_nodes; i++) {
		struct ce_node *n = &c->nodes[i];

		if (n->type != type || n->guid != e->before)
			continue;
		if (type == NODE_SWITCH)
			set_switch_guid(c, n, e->after);
		else
			n->guid = e->after;
		found++;
	}
	return found;
}

static unsigned edit_sys_guid(struct cache *c, const struct edit *e)
{
	unsigned found = 0;

	for (uint32_t i = 0; i < c->n_nodes; i++)
		if (c->nodes[i].sys_guid == e->before) {
			c->nodes[i].sys_guid = e->after;
			found++;
		}
	return found;
}

/* --portguid: on a switch the port GUID is the node's (both change); on others the first
 * port (1..NumPorts) that has `before`.  *nodes counts the nodes that have e->node. */
static unsigned edit_port_guid(struct cache *c, const struct edit *e, unsigned *nodes)
{
	unsigned found = 0;

	*nodes = 0;
	for (uint32_t i = 0; i < c->n_nodes; i++) {
		struct ce_node *n = &c->nodes[i];

		if (n->guid != e->node)
			continue;
		(*nodes)++;
		if (n->type == NODE_SWITCH) {
			if (n->guid == e->before) {
				set_switch_guid(c, n, e->after);
				found++;
			}
			continue;
		}
		for (unsigned p = 1; p <= n->num_ports; p++) {
			if (n->ports[p] != NONE && c->ports[n->ports[p]].guid == e->before) {
				c->ports[n->ports[p]].guid = e->after;
				found++;
				break;
			}
		}
	}
	return found;
}

/* ---- writing --------------------------------------------------------------------------------- */

static const struct cache *sort_cache; /* qsort has no context argument */

static int port_order(const void *a, const void *b)
{
	const struct ce_port *pa = &sort_cache->ports[*(const uint32_t *)a];
	const struct ce_port *pb = &sort_cache->ports[*(const uint32_t *)b];
	unsigned ba = hash_bucket(pa->load_guid), bb = hash_bucket(pb->load_guid);

	if (ba != bb)
		return ba < bb ? -1 : 1;
	return pa->seq > pb->seq ? -1 : pa->seq < pb->seq;
}

static int cache_serialize(const struct cache *c, uint8_t **out, size_t *len)
{
	size_t size = CE_HEADER_LEN;
	uint32_t n_out = 0, *order;
	uint8_t *buf, *w;

	for (uint32_t i = 0; i < c->n_nodes; i++) {
		unsigned keys = 0;

		for (unsigned p = 0; p <= c->nodes[i].num_ports; p++)
			keys += c->nodes[i].ports[p] != NONE;
		size += CE_NODE_LEN + (size_t)keys * CE_KEY_LEN;
	}
	for (uint32_t i = 0; i < c->n_ports; i++)
		n_out += c->ports[i].seq != 0;
	size += (size_t)n_out * CE_PORT_LEN;

	order = malloc(((size_t)n_out + 1) * sizeof(*order));
	buf = malloc(size);
	if (!order || !buf) {
		free(order);
		free(buf);
		return -ENOMEM;
	}
	n_out = 0;
	for (uint32_t i = 0; i < c->n_ports; i++)
		if (c->ports[i].seq)
			order[n_out++] = i;
	sort_cache = c;
	qsort(order, n_out, sizeof(*order), port_order);

	memcpy(buf, c->data, CE_HEADER_LEN);
	wr32(buf + 8, c->n_nodes);
	wr32(buf + 12, n_out);
	wr64(buf + 16, c->nodes[c->from].guid);
	w = buf + CE_HEADER_LEN;
	for (uint32_t i = 0; i < c->n_nodes; i++) {
		const struct ce_node *n = &c->nodes[i];
		unsigned keys = 0;

		memcpy(w, n->rec, CE_NODE_LEN);
		wr64(w + CN_GUID, n->guid);
		wr_be64(w + CN_NODE_INFO + NI_SYS_GUID_OFF, n->sys_guid);
		for (unsigned p = 0; p <= n->num_ports; p++) {
			if (n->ports[p] == NONE)
				continue;
			wr64(w + CE_NODE_LEN + keys * CE_KEY_LEN, c->ports[n->ports[p]].guid);
			w[CE_NODE_LEN + keys * CE_KEY_LEN + 8] = (uint8_t)p;
			keys++;
		}
		w[CN_NUM_KEYS] = (uint8_t)keys;
		w += CE_NODE_LEN + keys * CE_KEY_LEN;
	}
	for (uint32_t k = 0; k < n_out; k++) {
		const struct ce_port *p = &c->ports[order[k]];

		memcpy(w, p->rec, CE_PORT_LEN);
		wr64(w + CP_GUID, p->guid);
		wr64(w + CP_NODE_GUID, c->nodes[p->owner].guid);
		if (p->remote != NONE) {
			w[CP_LINKED] = 1;
			wr64(w + CP_REMOTE_GUID, c->ports[p->remote].guid);
			w[CP_REMOTE_NUM] = c->ports[p->remote].num;
		} else {
			w[CP_LINKED] = 0;
			wr64(w + CP_REMOTE_GUID, 0);
			w[CP_REMOTE_NUM] = 0;
		}
		w += CE_PORT_LEN;
	}
	free(order);
	*out = buf;
	*len = size;
	return 0;
}

/* ---- options ---------------------------------------------------------------------------------- */

/* "BEFORE:AFTER" (count 2) or "NODE:BEFORE:AFTER" (count 3), each read by strtoull base 0
 * as the reference does; every part after the first must be non-empty. */
static int parse_guids(const char *arg, unsigned count, uint64_t *v)
{
	char *copy = strdup(arg), *part = copy, *colon = NULL;
	int rc = 0;

	if (!copy)
		return -1;
	for (unsigned i = 0; i < count; i++) {
		if (i + 1 < count) {
			colon = strchr(part, ':');
			if (!colon || !colon[1]) {
				fprintf(stderr, "invalid input '%s'\n", arg);
				rc = -1;
				break;
			}
			*colon = '\0';
		}
		v[i] = strtoull(part, NULL, 0);
		if (colon)
			part = colon + 1;
	}
	free(copy);
	return rc;
}

static int process_opt(void *ctx, int letter, char *arg)
{
	struct edits *ed = ctx;
	uint64_t v[3];
	struct edit *e;

	switch (letter) {
	case 1:
		e = &ed->sw;
		break;
	case 2:
		e = &ed->ca;
		break;
	case 3:
		e = &ed->sys;
		break;
	case 4:
		if (parse_guids(arg, 3, v))
			return -1;
		ed->port = (struct edit){ .on = true, .node = v[0], .before = v[1], .after = v[2] };
		return 0;
	default:
		return -1;
	}
	if (parse_guids(arg, 2, v))
		return -1;
	*e = (struct edit){ .on = true, .before = v[0], .after = v[1] };
	return 0;
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{ "switchguid", 1, 1, "BEFOREGUID:AFTERGUID", "Specify before and after switchguid to edit" },
		{ "caguid", 2, 1, "BEFOREGUID:AFTERGUID", "Specify before and after caguid to edit" },
		{ "sysimgguid", 3, 1, "BEFOREGUID:AFTERGUID", "Specify before and after sysimgguid to edit" },
		{ "portguid", 4, 1, "NODEGUID:BEFOREGUID:AFTERGUID", "Specify before and after port guid to edit" },
		{ NULL, 0, 0, NULL, NULL },
	};
	struct edits ed = { 0 };
	struct cache c = { 0 };
	struct ibtopo *topo = NULL;
	char why[256];
	uint8_t *data = NULL, *out = NULL;
	size_t len = 0, out_len = 0;
	struct ibdiag_sighold hold;
	bool saved = false;
	unsigned nodes;
	int first;

	first = ibdiag_process_opts(argc, argv, &ed, "CDdeGKLPstvy", opts, process_opt,
				    "<orig.cache> <new.cache>", NULL);
	if (first >= argc)
		IBEXIT("original cache file not specified");
	if (first + 1 >= argc)
		IBEXIT("new cache file not specified");

	/* libibtopo's reader refuses what is not a consistent cache file; the records are then
	 * read again here to be edited in place */
	if (read_file(argv[first], &data, &len) < 0 ||
	    ibtopo_cache_load_mem(data, len, &topo, why, sizeof(why)) < 0 || (c.data = data, c.len = len,
	    cache_parse(&c) < 0)) {
		free(data);
		cache_free(&c);
		IBEXIT("loading original cached fabric failed");
	}
	ibtopo_unref(topo);

	if (ed.sw.on && !edit_node_guid(&c, NODE_SWITCH, &ed.sw))
		IBEXIT("switchguid = %" PRIx64 " not found", ed.sw.before);
	if (ed.ca.on && !edit_node_guid(&c, NODE_CA, &ed.ca))
		IBEXIT("caguid = %" PRIx64 " not found", ed.ca.before);
	if (ed.sys.on && !edit_sys_guid(&c, &ed.sys))
		IBEXIT("sysimgguid = %" PRIx64 " not found", ed.sys.before);
	if (ed.port.on) {
		unsigned found = edit_port_guid(&c, &ed.port, &nodes);

		if (!nodes)
			IBEXIT("nodeguid = %" PRIx64 " not found", ed.port.node);
		if (!found)
			IBEXIT("portguid = %" PRIx64 " not found", ed.port.before);
	}

	/* written as libibtopo writes its caches: atomically, nothing left when killed; the
	 * catchable signals held meanwhile */
	if (cache_serialize(&c, &out, &out_len) == 0) {
		ibdiag_signals_hold(argv[first + 1], -1, &hold);
		saved = ibtopo_cache_save_mem(out, out_len, argv[first + 1]) == 0;
		ibdiag_signals_release(&hold);
	}
	if (!saved) {
		free(out);
		cache_free(&c);
		free(data);
		IBEXIT("caching new cache data failed");
	}
	free(out);
	cache_free(&c);
	free(data);
	return 0;
}
