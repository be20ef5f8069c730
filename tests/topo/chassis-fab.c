// SPDX-License-Identifier: BSD-3-Clause
/*
 * chassis-fab: libibtopo's side of the chassis differential (tests/topo/chassis-diff.sh).
 * Builds a random chassis-shaped fabric from a seed with the internal builders (Voltaire ISR
 * chassis of every kind, wired cleanly or not, Mellanox IS4 systems with descriptions right
 * and wrong, Topspin/InfiniCon/Xsigo and plain system image GUIDs, Voltaire chassis GUIDs
 * reused, now and then hundreds of chassis or one system of ~256 nodes), writes it as a
 * libibnetdisc cache file (version 1) for tests/topo/ibnd-chassis to load with
 * ibnd_load_fabric(), which runs libibnetdisc's group_nodes(), groups it with
 * ibtopo_group_chassis() and prints the result in ibnd-chassis's format.
 *
 *   chassis-fab SEED0 COUNT DIR    seeds SEED0.. : DIR/cache-SEED, and the reports of all in
 *                                  DIR/ours (as built) and DIR/ours-cache (ibtopo_cache_load())
 *   chassis-fab --report CACHE REPORT   the report of a cache file (tests/fabric/topo-chassis.sh)
 *   chassis-fab --hostile SEED0 COUNT   fabrics libibnetdisc cannot take (ports up to 254,
 *        "L37", 64-character descriptions, ...): ours must group them without fault, keep
 *        its result consistent, and give the same result when grouping again
 *   chassis-fab --bench NODES CACHE_UNIQUE CACHE_NOSYS
 *        16k-node timing: one system image GUID per node (libibnetdisc's worst case) and
 *        none at all (no grouping work); prints our grouping time
 *
 * The fabrics avoid what makes libibnetdisc 44 read or write out of bounds (port numbers
 * above 36 used as table indexes, a Mellanox "L37", descriptions of 64 characters, a
 * Voltaire router-module switch with a port linked to nothing, an Xsigo adapter without
 * ports), where no result can be compared.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ibtopo-private.h"

#define VTR 0x0008f1
#define MLX 0x0002c9
#define IS4 0xbd36

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned below(unsigned n)
{
	return n ? (unsigned)(rnd() % n) : 0;
}

static bool chance(unsigned percent)
{
	return below(100) < percent;
}

/* ---- Node specifications, created in a shuffled order, then wired ---------------------- */

enum role { R_GENERIC, R_SPINE, R_LINE, R_ROUTER, R_MLX };

struct spec {
	uint8_t type, nports;
	uint16_t devid;
	uint32_t vendor;
	uint64_t guid, sysguid;
	char desc[IBTOPO_SMP_DATA_SIZE + 1];
	enum role role;
	int chassis;              /* Voltaire chassis index, -1 */
	bool only_linked_ports;   /* a router-module switch: no port without a link */
	bool clean;               /* in a chassis wired as built: no random links */
	struct ibtopo_node *node;
};

struct fab {
	struct spec *s;
	unsigned n, cap;
	uint64_t next_guid;
	uint64_t sys_pool[16];
	unsigned n_pool;
};

static struct spec *add(struct fab *f, uint8_t type, uint8_t nports, uint32_t vendor, uint16_t devid,
			uint64_t sysguid, enum role role)
{
	struct spec *s;

	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 256;
		f->s = realloc(f->s, f->cap * sizeof(*f->s));
		if (!f->s)
			abort();
	}
	s = &f->s[f->n++];
	memset(s, 0, sizeof(*s));
	s->type = type;
	s->nports = nports;
	s->vendor = vendor;
	s->devid = devid;
	/* GUIDs 0x100 apart (a CA's ports take the ones after), low bits varied for GUID % 4 */
	f->next_guid += 0x100;
	s->guid = f->next_guid + below(4);
	s->sysguid = sysguid;
	s->role = role;
	s->chassis = -1;
	return s;
}

/* ---- Voltaire chassis ---------------------------------------------------------------------- */

struct vkind {
	uint16_t spine[2];
	uint16_t line[3];
	uint8_t spine_ports, spine_inner, line_ports, line_inner;
};

static const struct vkind vkinds[] = {
	{ { 0x5a0b, 0x5a33 }, { 0x5a09, 0x5a34, 0x5a0d }, 24, 24, 24, 12 }, /* ISR9096 */
	{ { 0x5a08, 0x5a32 }, { 0x5a09, 0x5a34, 0x5a09 }, 24, 24, 24, 12 }, /* ISR9288 */
	{ { 0x5a40, 0x5a40 }, { 0x5a09, 0x5a42, 0x5a0d }, 24, 24, 24, 12 }, /* ISR2004 */
	{ { 0x5a37, 0x5a37 }, { 0x5a38, 0x5a38, 0x5a38 }, 24, 24, 24, 12 }, /* ISR2012 */
	{ { 0x5a5c, 0x5a5d }, { 0x5a5b, 0x5a5b, 0x5a5b }, 36, 18, 36, 18 }, /* ISR4700 */
	{ { 0x5a60, 0x5a60 }, { 0x5a09, 0x5a34, 0x5a09 }, 36, 36, 24, 12 }, /* ISR4200 */
};

static void gen_voltaire(struct fab *f, int ci)
{
	const struct vkind *k = &vkinds[below(sizeof(vkinds) / sizeof(vkinds[0]))];
	unsigned ns = 1 + below(4), nl = 1 + below(8), nr = below(3), first = f->n;
	bool clean = chance(70);

	for (unsigned i = 0; i < ns; i++) {
		struct spec *s = add(f, IBTOPO_NODE_SWITCH, k->spine_ports, VTR, k->spine[below(2)], 0, R_SPINE);

		s->chassis = ci;
		if (chance(50))
			s->sysguid = s->guid;
		if (chance(5))
			s->vendor = MLX; /* a Voltaire board with another vendor ID */
	}
	for (unsigned i = 0; i < nl; i++) {
		const struct vkind *lk = chance(8) ? &vkinds[below(6)] : k;
		struct spec *s = add(f, IBTOPO_NODE_SWITCH, lk->line_ports, VTR, lk->line[below(3)], 0, R_LINE);

		s->chassis = ci;
		if (chance(50))
			s->sysguid = s->guid;
	}
	for (unsigned i = 0; i < nr; i++) {
		bool sw = chance(40);
		struct spec *s = add(f, sw ? IBTOPO_NODE_SWITCH : IBTOPO_NODE_CA, (uint8_t)(1 + below(2)),
				     chance(90) ? VTR : 0x1234, (uint16_t)(chance(70) ? 0x5a00 + below(2) : 0x6278),
				     chance(30) ? 0x4000 + below(4) : 0, R_ROUTER);

		s->chassis = ci;
		s->only_linked_ports = sw;
	}
	for (unsigned i = first; i < f->n; i++)
		f->s[i].clean = clean;
}

/* ---- Mellanox IS4 descriptions -------------------------------------------------------------- */

static void mlx_desc(char *d, size_t len)
{
	static const char *const types[] = { "IS5600", "IS5300", "SX6536", "MIS5030Q-1SFC",
					     "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "", "T" };
	static const char *const numbers[] = { "01", "1", "05", "12", "13", "14", "18", "19", "20", "36", "00",
					       " 7", "+3", "-2", "x", "", "999999999999999999999",
					       "0009", "3a" };
	char slot = "LLLLLSSSSSXlQ"[below(13)];
	const char *num = numbers[below(sizeof(numbers) / sizeof(numbers[0]))];
	char board[16] = "", asic[24], head[8];

	if (slot == 'L' && atoi(num) != 37 && (unsigned char)atoi(num) == 37)
		num = "36";
	snprintf(head, sizeof(head), "%s", chance(92) ? "MF0;" : (const char *[]){ "MF1;", "mf0;", "MF0", "" }[below(4)]);
	if (chance(15))
		snprintf(board, sizeof(board), ":%s", chance(50) ? "brd" : "");
	snprintf(asic, sizeof(asic), "%s%s", chance(92) ? "/U" : (const char *[]){ "/X", "U", "/" }[below(3)],
		 (const char *[]){ "1", "1", "2", "3", "-255", "", " 4", "300" }[below(8)]);
	snprintf(d, len, "%ssys%u%s%s%s%c%s%s%s", head, below(100), chance(95) ? ":" : "",
		 types[below(sizeof(types) / sizeof(types[0]))], chance(95) ? "/" : "", slot, num,
		 board, chance(97) ? asic : "");
}

static void gen_mellanox(struct fab *f)
{
	unsigned n = 1 + below(6);
	uint64_t sys = chance(90) ? 0x0002c90000000000ULL + rnd() % 0x100000 : 0;

	for (unsigned i = 0; i < n; i++) {
		struct spec *s = add(f, IBTOPO_NODE_SWITCH, (uint8_t)(chance(80) ? 36 : 1 + below(36)),
				     chance(95) ? MLX : 0x1234, chance(90) ? IS4 : 0xbd35, chance(90) ? sys : rnd(),
				     R_MLX);

		/* at most 63 characters: a description that fills all 64 bytes has no NUL in the
		 * cache file, and libibnetdisc parses its 64-byte stack copy past the end (a "U-25"
		 * or "U300" at the end read "-250" or "3000" in 1 of 16 runs of the test, when the stack
		 * byte after it was '0'); whole-64-byte MF0 descriptions are in --hostile */
		mlx_desc(s->desc, sizeof(s->desc) - 1);
	}
}

/* ---- Nodes grouped by system image GUID ------------------------------------------------------ */

static uint64_t pick_sysguid(struct fab *f, uint32_t vendor)
{
	unsigned r = below(100);

	if (vendor == 0x0005ad || vendor == 0x00066a)
		return 0x0005ad0000000000ULL | ((uint64_t)below(3) << 32) | ((uint64_t)below(256) << 24) | below(4);
	if (vendor == 0x001397 || r < 8) {
		/* Xsigo: switches (byte 3 = 1, byte 4 the port type; leaf one = 2), HCAs, TCAs */
		static const uint64_t kind[] = { 0x0013970100000000ULL, 0x0013970102000000ULL,
						 0x0013970200000000ULL, 0x0013970300000000ULL };
		uint64_t g = kind[below(4)] | below(3);

		if ((g >> 32) == 0x00139701)
			g |= (uint64_t)below(4) << 24;
		return g;
	}
	if (r < 20)
		return 0;
	if (r < 30) {
		/* a Voltaire chassis GUID: some spine's GUID minus one */
		for (unsigned tries = 0; tries < 8 && f->n; tries++) {
			const struct spec *s = &f->s[below(f->n)];

			if (s->role == R_SPINE)
				return s->guid - 1;
		}
	}
	if (r < 70 && f->n_pool)
		return f->sys_pool[below(f->n_pool)];
	return 0x0800690000000000ULL + rnd() % 0x1000000; /* most likely alone */
}

static void gen_generic(struct fab *f, unsigned count)
{
	static const uint32_t vendors[] = { MLX, MLX, 0x0005ad, 0x00066a, 0x001397, 0x001234, 0x001234,
					    VTR, 0x00144f };

	for (unsigned i = 0; i < count; i++) {
		uint32_t vendor = vendors[below(sizeof(vendors) / sizeof(vendors[0]))];
		unsigned r = below(10);
		uint8_t type = r < 5 ? IBTOPO_NODE_CA : r < 9 ? IBTOPO_NODE_SWITCH : IBTOPO_NODE_ROUTER;
		uint8_t np = type == IBTOPO_NODE_SWITCH ? (uint8_t)(4 + below(33)) : (uint8_t)below(3);

		uint64_t sys = pick_sysguid(f, vendor);

		/* no port 1 is fine, except where libibnetdisc's Xsigo rule reads ports[1] past the
		 * end of a 0-port node's array */
		if (np == 0 && (chance(70) || vendor == 0x001397 || (sys >> 40) == 0x001397))
			np = 1;
		struct spec *sp = add(f, type, np, vendor, (uint16_t)(chance(5) ? 0x5a0b : 0x1003), sys,
				      R_GENERIC);
		unsigned d = below(10);

		/* descriptions as remap_node_name() prints them: unprintable bytes, 64 characters */
		if (d < 6)
			snprintf(sp->desc, sizeof(sp->desc), "node-%u HCA-1", i);
		else if (d < 8)
			snprintf(sp->desc, sizeof(sp->desc), "node\t%u\x7f\xe9\x01 %c", i, "\r\n\v~"[below(4)]);
		else if (d < 9)
			memset(sp->desc, 'a' + (int)below(26), IBTOPO_SMP_DATA_SIZE);
	}
}

/* ---- Building and wiring ------------------------------------------------------------------------ */

static struct ibtopo_port *port_at(struct spec *s, unsigned p)
{
	struct ibtopo_port *pt;

	if (p > s->nports)
		return NULL;
	pt = topo_port_get(s->node, p);
	if (!pt)
		abort();
	pt->guid = s->type == IBTOPO_NODE_SWITCH ? s->guid : s->guid + p;
	return pt;
}

/* Links two free ports (1..) */
static bool link_ports(struct spec *a, unsigned pa, struct spec *b, unsigned pb)
{
	struct ibtopo_port *x, *y;

	if (pa == 0 || pb == 0 || pa > a->nports || pb > b->nports || (a == b && pa == pb))
		return false;
	if ((a->node->ports[pa] && a->node->ports[pa]->remote) ||
	    (b->node->ports[pb] && b->node->ports[pb]->remote))
		return false;
	x = port_at(a, pa);
	y = port_at(b, pb);
	topo_link(x, y);
	return true;
}

static struct spec *random_in(struct fab *f, enum role role, int chassis)
{
	unsigned start = below(f->n);

	for (unsigned i = 0; i < f->n; i++) {
		struct spec *s = &f->s[(start + i) % f->n];

		if (s->role == role && (chassis < 0 || s->chassis == chassis))
			return s;
	}
	return NULL;
}

static const struct vkind *kind_of_spine(uint16_t devid)
{
	for (unsigned k = 0; k < sizeof(vkinds) / sizeof(vkinds[0]); k++)
		if (vkinds[k].spine[0] == devid || vkinds[k].spine[1] == devid)
			return &vkinds[k];
	return &vkinds[0];
}

/* A free inner port of a spine for a line, of a line for a spine (clean chassis) */
static unsigned spine_inner_port(const struct spec *s)
{
	return 1 + below(s->devid == 0x5a5d ? 18 : kind_of_spine(s->devid)->spine_inner);
}

static unsigned line_inner_port(const struct spec *l)
{
	return 1 + below(l->nports == 36 ? 18 : 12);
}

/* Spines that place router modules (sFB-4, sFB-12, sFB-2004, sFB-2012) */
static bool places_routers(uint16_t devid)
{
	return devid == 0x5a0b || devid == 0x5a33 || devid == 0x5a08 || devid == 0x5a32 ||
	       devid == 0x5a40 || devid == 0x5a37;
}

static void wire(struct fab *f, unsigned n_chassis)
{
	for (int ci = 0; ci < (int)n_chassis; ci++) {
		for (unsigned i = 0; i < f->n; i++) {
			struct spec *l = &f->s[i];

			if (l->chassis != ci || l->role != R_LINE)
				continue;
			/* each line: some inner ports to spines' inner ports */
			for (unsigned k = 1 + below(3); k-- > 0;) {
				struct spec *s = random_in(f, R_SPINE, ci);

				for (unsigned tries = 0; s && tries < 20; tries++)
					if (link_ports(l, line_inner_port(l), s, spine_inner_port(s)))
						break;
			}
			if (!l->clean && chance(10))
				link_ports(l, 1 + below(l->nports), &f->s[below(f->n)], 1 + below(36));
		}
		/* a clean chassis has no spine without a line */
		for (unsigned i = 0; i < f->n; i++) {
			struct spec *s = &f->s[i], *l;
			bool has_line = false;

			if (s->chassis != ci || s->role != R_SPINE || !s->clean)
				continue;
			for (unsigned p = 1; p <= s->nports; p++)
				if (s->node->ports[p] && s->node->ports[p]->remote &&
				    s->node->ports[p]->remote->node->type == IBTOPO_NODE_SWITCH)
					has_line = true;
			l = random_in(f, R_LINE, ci);
			for (unsigned tries = 0; !has_line && l && tries < 40; tries++)
				has_line = link_ports(l, line_inner_port(l), s, spine_inner_port(s));
		}
		for (unsigned i = 0; i < f->n; i++) {
			struct spec *r = &f->s[i];
			struct spec *s;

			if (r->chassis != ci || r->role != R_ROUTER)
				continue;
			for (unsigned p = 1; p <= r->nports; p++) {
				s = random_in(f, r->clean || chance(85) ? R_SPINE : R_LINE, ci);
				if (s && r->clean && !places_routers(s->devid))
					continue;
				for (unsigned tries = 0; s && tries < 40; tries++)
					if (link_ports(r, p, s, 1 + below(r->clean || s->nports == 24 ? 24 : 36)))
						break;
			}
		}
	}
	/* everything else: random links, more of them on switches */
	for (unsigned e = 0; e < f->n * 2; e++) {
		struct spec *a = &f->s[below(f->n)], *b = &f->s[below(f->n)];

		if (!a->nports || !b->nports || (a->only_linked_ports && b->only_linked_ports) || a->clean ||
		    b->clean)
			continue;
		link_ports(a, 1 + below(a->nports), b, 1 + below(b->nports));
	}
	/* ports without a link: most nodes have them all, router-module switches none */
	for (unsigned i = 0; i < f->n; i++) {
		struct spec *s = &f->s[i];

		if (s->type == IBTOPO_NODE_SWITCH)
			port_at(s, 0);
		if (s->only_linked_ports)
			continue;
		for (unsigned p = 1; p <= s->nports; p++)
			if (!s->node->ports[p] && chance(90))
				port_at(s, p);
	}
	/* external numbers a cache file may carry: kept where grouping sets none */
	for (unsigned i = 0; i < f->n; i++)
		for (unsigned p = 0; p <= f->s[i].nports; p++)
			if (f->s[i].node->ports[p] && chance(5))
				f->s[i].node->ports[p]->ext_num = (uint8_t)(1 + below(40));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static struct ibtopo *build(struct fab *f)
{
	struct ibtopo *t;

	if (ibtopo_new(&t))
		abort();
	/* creation order shuffled: libibnetdisc's lists are in the reverse of it */
	for (unsigned i = f->n; i > 1; i--) {
		unsigned j = below(i);
		struct spec tmp = f->s[i - 1];

		f->s[i - 1] = f->s[j];
		f->s[j] = tmp;
	}
	for (unsigned i = 0; i < f->n; i++) {
		struct spec *s = &f->s[i];
		uint8_t ni[IBTOPO_SMP_DATA_SIZE] = { 1, 1, s->type, s->nports };
		uint8_t nd[IBTOPO_SMP_DATA_SIZE] = { 0 };

		put64(ni + 4, s->sysguid);
		put64(ni + 12, s->guid);
		put64(ni + 20, s->type == IBTOPO_NODE_SWITCH ? s->guid : s->guid + 1);
		ni[30] = (uint8_t)(s->devid >> 8);
		ni[31] = (uint8_t)s->devid;
		ni[36] = 1;
		ni[37] = (uint8_t)(s->vendor >> 16);
		ni[38] = (uint8_t)(s->vendor >> 8);
		ni[39] = (uint8_t)s->vendor;
		s->node = topo_node_create(t, ni, NULL);
		if (!s->node)
			abort();
		memcpy(nd, s->desc, strnlen(s->desc, IBTOPO_SMP_DATA_SIZE));
		topo_node_set_desc(s->node, nd);
	}
	return t;
}

/* What libibnetdisc cannot take and ours must: switches of up to 254 ports wired anywhere,
 * Voltaire and IS4 device IDs on any node, "L37" and 64-character descriptions, router-module
 * switches with ports linked to nothing, adapters without ports */
static void roughen(struct fab *f)
{
	static const uint16_t devids[] = { 0x5a00, 0x5a01, 0x5a0b, 0x5a33, 0x5a08, 0x5a32, 0x5a40,
					   0x5a37, 0x5a5c, 0x5a5d, 0x5a60, 0x5a09, 0x5a34, 0x5a42,
					   0x5a0d, 0x5a38, 0x5a5b, IS4 };
	static const uint32_t vendors[] = { VTR, MLX, 0x001397, 0x0005ad };

	for (unsigned i = 0; i < f->n; i++) {
		struct spec *s = &f->s[i];

		s->clean = false;
		s->only_linked_ports = false;
		if (s->type == IBTOPO_NODE_SWITCH && chance(30))
			s->nports = (uint8_t)(1 + below(254));
		if (s->type != IBTOPO_NODE_SWITCH && chance(10))
			s->nports = 0;
		if (chance(30))
			s->devid = devids[below(sizeof(devids) / sizeof(devids[0]))];
		if (chance(20))
			s->vendor = vendors[below(4)];
		if (chance(10))
			snprintf(s->desc, sizeof(s->desc), "MF0;s:T/%c%u/U%u", chance(50) ? 'L' : 'S', below(40),
				 below(300));
		if (chance(5)) {
			/* no NUL in the 64 bytes */
			memset(s->desc, chance(50) ? 'M' : '/', IBTOPO_SMP_DATA_SIZE);
			memcpy(s->desc, "MF0;s:T/L1", chance(50) ? 10 : 4);
		}
	}
}

static bool hostile;

static void generate(struct fab *f, uint64_t seed, struct ibtopo **out)
{
	unsigned n_chassis = 0, shape;

	rng = seed * 0x2545f4914f6cdd1dULL + 1;
	memset(f, 0, sizeof(*f));
	f->next_guid = 0x0008f10000000000ULL + (rnd() % 0x10000) * 0x10000;
	f->n_pool = 1 + below(12);
	for (unsigned i = 0; i < f->n_pool; i++)
		f->sys_pool[i] = 0x0002c90300000000ULL + rnd() % 0x1000;
	shape = (unsigned)(seed % 10);
	for (unsigned i = below(4); i-- > 0;)
		gen_voltaire(f, (int)n_chassis++);
	for (unsigned i = below(4); i-- > 0;)
		gen_mellanox(f);
	gen_generic(f, 10 + below(100));
	if (shape == 7) {
		/* more than 255 chassis: numbers wrap */
		for (unsigned i = 0; i < 270 + below(40); i++) {
			uint64_t sys = 0x0011750000000000ULL + i;

			add(f, IBTOPO_NODE_CA, 1, 0x001175, 1, sys, R_GENERIC);
			add(f, IBTOPO_NODE_CA, 1, 0x001175, 1, sys, R_GENERIC);
		}
	} else if (shape == 3) {
		/* one system of about 256 nodes: its 8-bit count wraps */
		uint64_t sys = 0x0011760000000000ULL;

		for (unsigned i = 0; i < 254 + below(6); i++)
			add(f, IBTOPO_NODE_CA, 1, 0x001176, 1, sys, R_GENERIC);
	}
	if (hostile)
		roughen(f);
	*out = build(f);
	wire(f, n_chassis);
}

/* ---- A libibnetdisc cache file (little endian, version 1) --------------------------------- */

static void le(FILE *o, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++, v >>= 8)
		fputc((int)(v & 0xff), o);
}

static int write_cache(const struct ibtopo *t, const char *path)
{
	unsigned n = ibtopo_node_count(t, IBTOPO_NODE_ANY), ports = 0;
	static const uint8_t zero[IBTOPO_SMP_DATA_SIZE];
	FILE *o = fopen(path, "wb");

	if (!o)
		return -errno;
	for (unsigned i = 0; i < n; i++) {
		const struct ibtopo_node *nd = ibtopo_node_get(t, IBTOPO_NODE_ANY, i);

		for (unsigned p = 0; p <= nd->num_ports; p++)
			ports += nd->ports[p] != NULL;
	}
	le(o, 0x8fe7832b, 4);
	le(o, 1, 4);
	le(o, n, 4);
	le(o, ports, 4);
	le(o, ibtopo_node_get(t, IBTOPO_NODE_ANY, n - 1)->guid, 8);
	le(o, 0, 4);
	/* the nodes in libibnetdisc's list order: it loads them back in that order */
	for (unsigned i = 0; i < n; i++) {
		const struct ibtopo_node *nd = ibtopo_node_get(t, IBTOPO_NODE_ANY, i);
		unsigned keys = 0;

		le(o, 0, 2);
		le(o, 0, 1);
		le(o, 0, 1);
		fwrite(zero, 1, sizeof(zero), o);
		le(o, nd->guid, 8);
		le(o, nd->type, 1);
		le(o, nd->num_ports, 1);
		fwrite(nd->info, 1, IBTOPO_SMP_DATA_SIZE, o);
		fwrite(nd->desc, 1, IBTOPO_SMP_DATA_SIZE, o);
		for (unsigned p = 0; p <= nd->num_ports; p++)
			keys += nd->ports[p] != NULL;
		le(o, keys, 1);
		for (unsigned p = 0; p <= nd->num_ports; p++)
			if (nd->ports[p]) {
				le(o, nd->ports[p]->guid, 8);
				le(o, p, 1);
			}
	}
	for (unsigned i = 0; i < n; i++) {
		const struct ibtopo_node *nd = ibtopo_node_get(t, IBTOPO_NODE_ANY, i);

		for (unsigned p = 0; p <= nd->num_ports; p++) {
			const struct ibtopo_port *pt = nd->ports[p];

			if (!pt)
				continue;
			le(o, pt->guid, 8);
			le(o, p, 1);
			le(o, pt->ext_num, 1);
			le(o, 0, 2);
			le(o, 0, 1);
			fwrite(zero, 1, sizeof(zero), o);
			le(o, nd->guid, 8);
			le(o, pt->remote != NULL, 1);
			le(o, pt->remote ? pt->remote->guid : 0, 8);
			le(o, pt->remote ? pt->remote->num : 0, 1);
		}
	}
	return fclose(o) ? -errno : 0;
}

/* ---- The report (tests/topo/ibnd-chassis.c prints the same) --------------------------------- */

static void report(FILE *o, struct ibtopo *t, int rc)
{
	unsigned n = t ? ibtopo_node_count(t, IBTOPO_NODE_ANY) : 0;

	if (rc) {
		fprintf(o, "result fail\n");
		return;
	}
	fprintf(o, "result ok\n");
	for (unsigned i = 0; i < ibtopo_chassis_count(t); i++) {
		const struct ibtopo_chassis *ch = ibtopo_chassis_get(t, i);

		fprintf(o, "chassis %u num %u guid 0x%016" PRIx64 "\n", i, ibtopo_chassis_num(ch),
			ibtopo_chassis_guid(ch));
		for (unsigned s = 1; s <= IBTOPO_CHASSIS_SPINES; s++)
			if (ibtopo_chassis_spine(ch, s))
				fprintf(o, " spine %u 0x%016" PRIx64 "\n", s, ibtopo_node_guid(ibtopo_chassis_spine(ch, s)));
		for (unsigned s = 1; s <= IBTOPO_CHASSIS_LINES; s++)
			if (ibtopo_chassis_line(ch, s))
				fprintf(o, " line %u 0x%016" PRIx64 "\n", s, ibtopo_node_guid(ibtopo_chassis_line(ch, s)));
		for (unsigned m = 0; m < ibtopo_chassis_node_count(ch); m++)
			fprintf(o, " member 0x%016" PRIx64 "\n", ibtopo_node_guid(ibtopo_chassis_node(ch, m)));
	}
	for (unsigned num = 1; num <= 255; num++) {
		const struct ibtopo_chassis *ch = ibtopo_chassis_find_num(t, num);

		if (ch && ibtopo_chassis_guid(ch))
			fprintf(o, "bynum %u 0x%016" PRIx64 "\n", num, ibtopo_chassis_guid(ch));
	}
	for (unsigned i = 0; i < n; i++) {
		const struct ibtopo_node *nd = ibtopo_node_get(t, IBTOPO_NODE_ANY, i);
		const struct ibtopo_chassis *ch = ibtopo_node_chassis(nd);
		const char *ts = ibtopo_chassis_type_str(nd);
		char buf[256];
		const char *ss = ibtopo_node_chassis_slot_str(nd, buf, sizeof(buf));

		fprintf(o, "node 0x%016" PRIx64 " ch ", ibtopo_node_guid(nd));
		if (ch)
			fprintf(o, "%u", ch->index);
		else
			fprintf(o, "-");
		fprintf(o, " type %u slot %u slotnum %u anafa %u tstr %s sstr %s\n",
			ibtopo_node_chassis_type(nd), ibtopo_node_chassis_slot(nd),
			ibtopo_node_chassis_slotnum(nd), ibtopo_node_chassis_anafanum(nd), ts ? ts : "-",
			ss ? ss : "-");
		for (unsigned p = 0; p <= ibtopo_node_num_ports(nd); p++) {
			const struct ibtopo_port *pt = ibtopo_node_port(nd, p);

			if (pt && ibtopo_port_ext_num(pt))
				fprintf(o, " ext %u %u\n", p, ibtopo_port_ext_num(pt));
		}
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* NODES switches of 36 ports and CAs in a fat-tree-ish mesh, one system GUID per node */
static int bench(unsigned nodes, const char *unique, const char *nosys)
{
	struct fab f;
	struct ibtopo *t;
	double t0, best = 1e9;
	int rc;

	rng = 42;
	memset(&f, 0, sizeof(f));
	f.next_guid = 0x0002c90000000000ULL;
	for (unsigned i = 0; i < nodes; i++)
		add(&f, i % 8 ? IBTOPO_NODE_CA : IBTOPO_NODE_SWITCH, i % 8 ? 1 : 36, MLX, 0x1003, 0, R_GENERIC);
	for (unsigned i = 0; i < f.n; i++)
		f.s[i].sysguid = f.s[i].guid;
	t = build(&f);
	wire(&f, 0);
	for (int i = 0; i < 5; i++) {
		t0 = now();
		rc = ibtopo_group_chassis(t);
		if (now() - t0 < best)
			best = now() - t0;
		if (rc)
			return 1;
	}
	printf("ours: %u nodes, %u chassis, ibtopo_group_chassis %.3f ms (best of 5)\n", nodes,
	       ibtopo_chassis_count(t), best * 1e3);
	if (write_cache(t, unique))
		return 1;
	for (unsigned i = 0; i < ibtopo_node_count(t, IBTOPO_NODE_ANY); i++)
		memset(t->all.v[i]->info + 4, 0, 8);
	if (write_cache(t, nosys))
		return 1;
	ibtopo_unref(t);
	free(f.s);
	return 0;
}

/* One seed: the cache file, our report of the built fabric to `ours`, of the loaded one to
 * `ours_cache`: 0, or 1 on a failure of the test itself */
static int one(uint64_t seed, const char *cache, FILE *ours, FILE *ours_cache)
{
	struct fab f;
	struct ibtopo *t, *t2;
	char err[256];
	int rc;

	generate(&f, seed, &t);
	if (write_cache(t, cache)) {
		perror(cache);
		return 1;
	}
	fprintf(ours, "seed %" PRIu64 "\n", seed);
	rc = ibtopo_group_chassis(t);
	if (rc && rc != -EPROTO) {
		fprintf(stderr, "seed %" PRIu64 ": ibtopo_group_chassis: %s\n", seed, strerror(-rc));
		return 1;
	}
	report(ours, t, rc);
	ibtopo_unref(t);
	free(f.s);
	if (!ours_cache)
		return 0;
	fprintf(ours_cache, "seed %" PRIu64 "\n", seed);
	/* the loader groups as ibnd_load_fabric() does, failing where it fails */
	rc = ibtopo_cache_load(cache, &t2, err, sizeof(err));
	if (rc == -EPROTO) {
		report(ours_cache, NULL, rc);
		return 0;
	}
	if (rc) {
		fprintf(stderr, "seed %" PRIu64 ": ibtopo_cache_load: %s\n", seed, err);
		return 1;
	}
	/* and grouping again changes nothing */
	rc = ibtopo_group_chassis(t2);
	if (rc) {
		fprintf(stderr, "seed %" PRIu64 ": grouping a loaded fabric again: %s\n", seed, strerror(-rc));
		return 1;
	}
	report(ours_cache, t2, rc);
	ibtopo_unref(t2);
	return 0;
}

/* The report of a cache file (one ibnetdiscover --cache wrote) as ibtopo_cache_load() reads
 * and groups it */
static int report_file(const char *cache, const char *out)
{
	struct ibtopo *t = NULL;
	char err[256];
	FILE *o;
	int rc;

	rc = ibtopo_cache_load(cache, &t, err, sizeof(err));
	if (rc && rc != -EPROTO) {
		fprintf(stderr, "%s: %s\n", cache, err);
		return 1;
	}
	o = fopen(out, "w");
	if (!o) {
		perror(out);
		return 1;
	}
	report(o, t, rc);
	ibtopo_unref(t);
	return fclose(o) != 0;
}

static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *o;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	o = fopen(path, "w");
	if (!o)
		perror(path);
	return o;
}

/* The report of a topology, in memory */
static char *report_text(struct ibtopo *t, int rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&text, &len);

	if (!o)
		abort();
	report(o, t, rc);
	fclose(o);
	return text;
}

/* Hostile fabrics: no crash (the sanitizer build), a consistent result, the same again */
static int hostile_run(uint64_t seed0, uint64_t count)
{
	unsigned grouped = 0;

	hostile = true;
	for (uint64_t seed = seed0; seed < seed0 + count; seed++) {
		struct fab f;
		struct ibtopo *t;
		char *first, *again;
		int rc, rc2;

		generate(&f, seed, &t);
		rc = ibtopo_group_chassis(t);
		if (rc && rc != -EPROTO) {
			fprintf(stderr, "hostile seed %" PRIu64 ": %s\n", seed, strerror(-rc));
			return 1;
		}
		grouped += rc == 0;
		for (unsigned i = 0; i < ibtopo_node_count(t, IBTOPO_NODE_ANY); i++) {
			const struct ibtopo_node *n = ibtopo_node_get(t, IBTOPO_NODE_ANY, i);
			const struct ibtopo_chassis *ch = ibtopo_node_chassis(n);

			if (ch && (rc || ch != ibtopo_chassis_get(t, ch->index))) {
				fprintf(stderr, "hostile seed %" PRIu64 ": node in no listed chassis\n", seed);
				return 1;
			}
		}
		for (unsigned c = 0; c < ibtopo_chassis_count(t); c++) {
			const struct ibtopo_chassis *ch = ibtopo_chassis_get(t, c);

			for (unsigned m = 0; m < ibtopo_chassis_node_count(ch); m++)
				if (ibtopo_node_chassis(ibtopo_chassis_node(ch, m)) != ch) {
					fprintf(stderr, "hostile seed %" PRIu64 ": member elsewhere\n", seed);
					return 1;
				}
		}
		first = report_text(t, rc);
		rc2 = ibtopo_group_chassis(t);
		again = report_text(t, rc2);
		if (rc2 != rc || strcmp(first, again)) {
			fprintf(stderr, "hostile seed %" PRIu64 ": grouping again differs\n", seed);
			return 1;
		}
		free(first);
		free(again);
		ibtopo_unref(t);
		free(f.s);
	}
	printf("hostile: %" PRIu64 " fabrics, %u grouped, the others given up as libibnetdisc would\n",
	       count, grouped);
	return 0;
}

int main(int argc, char **argv)
{
	FILE *ours, *ours_cache;
	uint64_t seed0, count;
	char path[4096];
	int rc = 0;

	if (argc == 5 && !strcmp(argv[1], "--bench"))
		return bench((unsigned)strtoul(argv[2], NULL, 0), argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "--report"))
		return report_file(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "--hostile"))
		return hostile_run(strtoull(argv[2], NULL, 0), strtoull(argv[3], NULL, 0));
	if (argc != 4) {
		fprintf(stderr, "usage: chassis-fab SEED0 COUNT DIR\n"
				"       chassis-fab --report CACHE REPORT\n"
				"       chassis-fab --hostile SEED0 COUNT\n"
				"       chassis-fab --bench NODES CACHE_UNIQUE CACHE_NOSYS\n");
		return 2;
	}
	seed0 = strtoull(argv[1], NULL, 0);
	count = strtoull(argv[2], NULL, 0);
	ours = open_out(argv[3], "ours");
	ours_cache = open_out(argv[3], "ours-cache");
	if (!ours || !ours_cache)
		return 1;
	for (uint64_t s = seed0; s < seed0 + count && !rc; s++) {
		snprintf(path, sizeof(path), "%s/cache-%" PRIu64, argv[3], s);
		rc = one(s, path, ours, ours_cache);
	}
	if (fclose(ours) || fclose(ours_cache))
		rc = 1;
	return rc;
}
