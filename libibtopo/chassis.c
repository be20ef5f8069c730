/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Chassis grouping: the same chassis, numbers, slots and external port numbers as
 * libibnetdisc's group_nodes() (rdma-core libibnetdisc/chassis.c), in linear time.
 *
 * libibnetdisc works in four passes, and so does this file:
 *  1. every switch, in its switch-list order: a Voltaire one gets a type, slot, slot number
 *     and ASIC ("anafa") number from the device IDs at both ends of its links and the port
 *     numbers used, and its ports external numbers; a Mellanox IS4 one gets them from its
 *     node description "MF0;<system>:<type>/<L01|S01>[:<board>]/U<asic>";
 *  2. every Voltaire spine not yet in a numbered chassis starts a chassis, filled by passes
 *     over the nodes wired to its slots (a bounded amount of work per chassis);
 *  3. every other node with a system image GUID counts towards the chassis of its "chassis
 *     GUID" (the system image GUID, masked for Topspin and Xsigo), created on first sight;
 *  4. a chassis of more than one node (an 8-bit count) gets a number and its nodes.
 * libibnetdisc finds the chassis of a GUID by walking its chassis list for every node, which
 * is quadratic; a hash of chassis GUID -> first chassis in list order gives the same answers.
 *
 * The quirks are kept because ibnetdiscover -g prints them: 8-bit chassis numbers and node
 * counts that wrap, the list not being searched at all for the first node of pass 3 (its
 * fabric->chassis is still NULL then), Voltaire chassis found by GUID in pass 3, the spine
 * slot 19 that is line slot 0.  Where libibnetdisc 44 reads or writes out of bounds, this file
 * picks a defined result: a port number above 36 used as a table index gives 0; an Xsigo
 * adapter without ports has chassis GUID 0 (what 44 gets when the memory there is zero); a
 * Voltaire router-module switch's port linked to nothing is passed over (44 crashes, rdma-core
 * 64 skips it); a Mellanox "L37" takes a 38th line slot that nothing prints.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibtopo-private.h"

/* Vendor IDs that have rules (NodeInfo.VendorID) */
#define VENDOR_VOLTAIRE 0x0008f1
#define VENDOR_MELLANOX 0x0002c9
#define VENDOR_TOPSPIN 0x0005ad
#define VENDOR_INFINICON 0x00066a
#define VENDOR_XSIGO 0x001397

#define DEVID_MLX_IS4 0xbd36

/* libibnetdisc's enum ibnd_chassis_type and enum ibnd_chassis_slot_type */
enum { CT_NONE, CT_ISR9288, CT_ISR9096, CT_ISR2012, CT_ISR2004, CT_ISR4700, CT_ISR4200 };
enum { CS_NONE, CS_LINE, CS_SPINE, CS_SRBD };

static const char *const chassis_type_names[] = {
	[CT_ISR9288] = "ISR9288", [CT_ISR9096] = "ISR9096", [CT_ISR2012] = "ISR2012",
	[CT_ISR2004] = "ISR2004", [CT_ISR4700] = "ISR4700", [CT_ISR4200] = "ISR4200",
};
static const char *const slot_type_names[] = {
	[CS_LINE] = "Line", [CS_SPINE] = "Spine", [CS_SRBD] = "SRBD",
};

/* ---- Voltaire boards, told apart by device ID alone (whatever the vendor ID says) ---------- */

enum board {
	B_OTHER,
	B_ROUTER,     /* IB-FC / IB-IP router module: 0x5a00, 0x5a01 */
	B_SFB4,       /* ISR9096 spine: 0x5a0b, 0x5a33 */
	B_SFB12,      /* ISR9288 spine: 0x5a08, 0x5a32 */
	B_SFB2004,    /* ISR2004 spine: 0x5a40 */
	B_SFB2012,    /* ISR2012 spine: 0x5a37 */
	B_SFB4700,    /* ISR4700 spine: 0x5a5c */
	B_SFB4700X2,  /* ISR4700 double-density spine: 0x5a5d */
	B_SFB4200,    /* ISR4200 spine: 0x5a60 */
	B_SLB24,      /* 24-port line: 0x5a09, 0x5a34, and the ISR2004 router board 0x5a42 */
	B_SLB8,       /* 8-port line: 0x5a0d */
	B_SLB2024,    /* ISR2012 line: 0x5a38 */
	B_SLB4018,    /* ISR4700 line: 0x5a5b */
};

static enum board board_of(const struct ibtopo_node *n)
{
	switch (NI_DEVICE_ID(n->info)) {
	case 0x5a00: case 0x5a01: return B_ROUTER;
	case 0x5a0b: case 0x5a33: return B_SFB4;
	case 0x5a08: case 0x5a32: return B_SFB12;
	case 0x5a40: return B_SFB2004;
	case 0x5a37: return B_SFB2012;
	case 0x5a5c: return B_SFB4700;
	case 0x5a5d: return B_SFB4700X2;
	case 0x5a60: return B_SFB4200;
	case 0x5a09: case 0x5a34: case 0x5a42: return B_SLB24;
	case 0x5a0d: return B_SLB8;
	case 0x5a38: return B_SLB2024;
	case 0x5a5b: return B_SLB4018;
	default: return B_OTHER;
	}
}

static bool board_is_spine(enum board b)
{
	return b >= B_SFB4 && b <= B_SFB4200;
}

static bool board_is_line(enum board b)
{
	return b >= B_SLB24 && b <= B_SLB4018;
}

/* The ports that run inside the chassis: a line's low ports (1-12, 1-18 on an sLB-4018) and
 * all of a spine's but the sFB-4700X2's external 19-36. */
static unsigned inner_ports(enum board b)
{
	if (b == B_SLB4018 || b == B_SFB4700X2)
		return 18;
	if (board_is_line(b))
		return 12;
	return IBTOPO_MAX_PORTS;
}

/*
 * Slot and ASIC of a line board from the spine port it is wired to (line_slot_2_sfb* and
 * anafa_line_slot_2_sfb* in libibnetdisc), of a router module likewise, and of a spine from
 * the line port it is wired to (*_slot_2_slb).  The tables there are regular: what they hold
 * is computed here; every one is 0 beyond the ports it lists (and beyond 36).
 */
static uint8_t line_slot_by_spine(enum board spine, unsigned p)
{
	switch (spine) {
	case B_SFB4:
	case B_SFB2004:
		return p >= 1 && p <= 24 ? (uint8_t)((p - 1) / 6 + 1) : 0;
	case B_SFB12:
	case B_SFB2012:
		return p >= 1 && p <= 24 ? (uint8_t)((p + 1) / 2) : 0;
	case B_SFB4700:
		return p >= 1 && p <= 36 ? (uint8_t)((p + 1) / 2) : 0;
	case B_SFB4700X2:
		return p >= 1 && p <= 18 ? (uint8_t)p : 0;
	case B_SFB4200:
		return p >= 1 && p <= 36 ? (uint8_t)((p - 1) / 4 + 1) : 0;
	default:
		return 0;
	}
}

static uint8_t line_asic_by_spine(enum board spine, unsigned p)
{
	switch (spine) {
	case B_SFB4:
	case B_SFB2004:
		return p >= 1 && p <= 24 ? (uint8_t)((p - 1) / 3 % 2 + 1) : 0;
	case B_SFB12:
	case B_SFB2012:
		return p >= 1 && p <= 24 ? (uint8_t)((p - 1) % 2 + 1) : 0;
	case B_SFB4700:
	case B_SFB4200:
		return p >= 1 && p <= 36 ? 1 : 0;
	case B_SFB4700X2:
		return p >= 1 && p <= 18 ? 1 : 0;
	default:
		return 0;
	}
}

/* A router module's connector on an sFB-4 (ipr_slot_2_sfb4_port): 3, 2, 1, 3, 2, 1, ... */
static uint8_t router_asic_by_sfb4(unsigned p)
{
	return p >= 1 && p <= 24 ? (uint8_t)(3 - (p - 1) % 3) : 0;
}

static uint8_t spine_slot_by_line(enum board spine, unsigned p)
{
	switch (spine) {
	case B_SFB4:
	case B_SFB2004:
	case B_SFB12:
	case B_SFB2012:
		return p >= 1 && p <= 12 ? (uint8_t)((p - 1) / 3 + 1) : 0;
	case B_SFB4700:
	case B_SFB4700X2:
		return p >= 1 && p <= 18 ? (uint8_t)((p + 1) / 2) : 0;
	case B_SFB4200:
		/* ports 5 and 6 lead nowhere: slots 1, -, 2, 3, 4 by fours */
		if (p >= 1 && p <= 4)
			return 1;
		return p >= 7 && p <= 18 ? (uint8_t)((p - 7) / 4 + 2) : 0;
	default:
		return 0;
	}
}

static uint8_t spine_asic_by_line(enum board spine, unsigned p)
{
	switch (spine) {
	case B_SFB4:
	case B_SFB2004:
		return p >= 1 && p <= 12 ? 1 : 0;
	case B_SFB12:
	case B_SFB2012:
		return p >= 1 && p <= 12 ? (uint8_t)((p - 1) % 3 + 1) : 0;
	case B_SFB4700:
	case B_SFB4200:
		return p >= 1 && p <= 18 ? 1 : 0;
	case B_SFB4700X2:
		return p >= 1 && p <= 18 ? (uint8_t)(2 - (p - 1) % 2) : 0;
	default:
		return 0;
	}
}

static uint8_t chassis_type_of_spine(enum board spine)
{
	switch (spine) {
	case B_SFB4: return CT_ISR9096;
	case B_SFB12: return CT_ISR9288;
	case B_SFB2012: return CT_ISR2012;
	case B_SFB2004: return CT_ISR2004;
	case B_SFB4700:
	case B_SFB4700X2: return CT_ISR4700;
	case B_SFB4200: return CT_ISR4200;
	default: return CT_NONE;
	}
}

/*
 * External (front panel) number of a line or sFB-4700X2 port, from libibnetdisc's comment
 * tables: on an sLB-24 and sLB-8 the two ASICs' ports 13-24 reach the panel in a scrambled
 * order (the second ASIC's numbers are the first's plus 6, resp. 2).
 */
static const uint8_t slb24_ext[12] = { 6, 5, 4, 18, 17, 16, 1, 2, 3, 13, 14, 15 };
static const uint8_t slb8_ext[12] = { 2, 2, 2, 6, 6, 6, 1, 1, 1, 5, 5, 5 };

static uint8_t voltaire_ext_port(enum board b, const struct ibtopo_node *n, unsigned p)
{
	unsigned chip;

	if (b != B_SFB4700X2 && !board_is_line(b))
		return 0;
	if (b == B_SLB4018 || b == B_SFB4700X2) {
		if (p < 19 || p > 36)
			return 0;
	} else if (p < 13 || p > 24) {
		return 0;
	}
	if (n->ch_anafanum < 1 || n->ch_anafanum > 2)
		return 0;
	chip = n->ch_anafanum - 1u;
	switch (b) {
	case B_SLB24:
		return (uint8_t)(slb24_ext[p - 13] + 6 * chip);
	case B_SLB2024:
		return (uint8_t)(chip ? p - 12 : p);
	case B_SLB4018:
		return (uint8_t)(p - 18);
	case B_SFB4700X2:
		return (uint8_t)((p - 19) / 3 + (chip ? 1 : 7));
	default: /* sLB-8 */
		return (uint8_t)(slb8_ext[p - 13] + 2 * chip);
	}
}

/* ---- The state of one grouping ----------------------------------------------------------- */

struct grouping {
	struct ibtopo *topo;
	unsigned n;             /* nodes */
	uint8_t *found;         /* libibnetdisc's ch_found, by node index */
	int *chassis_of;        /* node -> chassis index, -1 */
	uint64_t *chguid;       /* pass 3's chassis GUID of each node */
	struct ibtopo_chassis *ch; /* the list being built (objects are moved, so indices) */
	unsigned n_ch, cap_ch;
	int counter;            /* chassisnum's int counter, before truncation to 8 bits */
	/* chassis GUID -> first chassis of the list with it (open addressing, -1 empty) */
	int *hash;
	unsigned hash_size;
	bool list_visible;      /* libibnetdisc's fabric->chassis is set (see pass 3) */
	/* pass 4: node added to chassis, in order */
	unsigned *member_node, *member_ch;
	unsigned n_members;
};

static inline uint32_t vendor_of(const struct ibtopo_node *n)
{
	return NI_VENDOR_ID(n->info);
}

/* The i-th node of libibnetdisc's list of one type (most recently created first) */
static inline struct ibtopo_node *list_node(const struct node_vec *v, unsigned i)
{
	return v->v[v->n - 1 - i];
}

static inline struct ibtopo_port *port_of(const struct ibtopo_node *n, unsigned p)
{
	return p <= n->num_ports ? n->ports[p] : NULL;
}

static int new_chassis(struct grouping *g)
{
	struct ibtopo_chassis *c;

	if (g->n_ch == g->cap_ch) {
		unsigned cap = g->cap_ch ? g->cap_ch * 2 : 16;
		struct ibtopo_chassis *nc = realloc(g->ch, cap * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		g->ch = nc;
		g->cap_ch = cap;
	}
	c = &g->ch[g->n_ch];
	memset(c, 0, sizeof(*c));
	c->topo = g->topo;
	c->index = g->n_ch;
	return (int)g->n_ch++;
}

static struct ibtopo_node **slots_of(struct grouping *g, unsigned ci)
{
	struct ibtopo_chassis *c = &g->ch[ci];

	if (!c->slots)
		c->slots = calloc(CH_SLOTS, sizeof(*c->slots));
	return c->slots;
}

/* ---- Pass 1: Voltaire --------------------------------------------------------------------- */

/* get_router_slot(): a router module (or a CA) wired to a spine's port */
static void router_slot(struct ibtopo_node *n, struct grouping *g,
			const struct ibtopo_port *spine_port)
{
	const struct ibtopo_node *spine = spine_port->node;
	enum board sb = board_of(spine);
	unsigned p = spine_port->num;

	g->found[n->index] = 1;
	n->ch_slot = CS_SRBD;
	switch (sb) {
	case B_SFB4:
	case B_SFB2004:
		n->ch_type = sb == B_SFB4 ? CT_ISR9096 : CT_ISR2004;
		n->ch_slotnum = line_slot_by_spine(sb, p);
		n->ch_anafanum = router_asic_by_sfb4(p);
		break;
	case B_SFB12:
	case B_SFB2012: {
		/* a guess from the spine ASIC's GUID, as libibnetdisc makes it */
		unsigned guess = (unsigned)(spine->guid % 4);

		n->ch_type = sb == B_SFB12 ? CT_ISR9288 : CT_ISR2012;
		n->ch_slotnum = line_slot_by_spine(sb, p);
		n->ch_anafanum = guess == 3 ? 1 : guess == 1 ? 3 : 2;
		break;
	}
	default:
		break; /* libibnetdisc logs "Unexpected node found" and leaves the rest */
	}
}

/* get_sfb_slot() and get_slb_slot(): a spine from a line port, a line from a spine port */
static void spine_slot(struct ibtopo_node *n, const struct ibtopo_port *line_port)
{
	enum board b = board_of(n);

	n->ch_slot = CS_SPINE;
	if (!board_is_spine(b))
		return;
	n->ch_type = chassis_type_of_spine(b);
	n->ch_slotnum = spine_slot_by_line(b, line_port->num);
	n->ch_anafanum = spine_asic_by_line(b, line_port->num);
}

static void line_slot(struct ibtopo_node *n, const struct ibtopo_port *spine_port)
{
	enum board sb = board_of(spine_port->node);

	n->ch_slot = CS_LINE;
	if (!board_is_spine(sb))
		return;
	n->ch_type = chassis_type_of_spine(sb);
	n->ch_slotnum = line_slot_by_spine(sb, spine_port->num);
	n->ch_anafanum = line_asic_by_spine(sb, spine_port->num);
}

static void fill_voltaire(struct grouping *g, struct ibtopo_node *n)
{
	enum board b = board_of(n);

	if (g->found[n->index])
		return;
	g->found[n->index] = 1;

	if (b == B_ROUTER) {
		for (unsigned p = 1; p <= n->num_ports; p++) {
			struct ibtopo_port *port = n->ports[p];

			if (port && port->remote && board_is_spine(board_of(port->remote->node)))
				router_slot(n, g, port->remote);
		}
	} else if (board_is_spine(b)) {
		unsigned last = inner_ports(b);

		for (unsigned p = 1; p <= n->num_ports && p <= last; p++) {
			struct ibtopo_port *port = n->ports[p];
			struct ibtopo_node *rn;

			if (!port || !port->remote)
				continue;
			rn = port->remote->node;
			if (rn->type != IBTOPO_NODE_SWITCH) {
				if (!g->found[rn->index])
					router_slot(rn, g, port);
				continue;
			}
			if (!n->ch_type)
				spine_slot(n, port->remote);
		}
	} else if (board_is_line(b)) {
		unsigned last = inner_ports(b);

		for (unsigned p = 1; p <= n->num_ports && p <= last; p++) {
			struct ibtopo_port *port = n->ports[p];

			if (port && port->remote) {
				line_slot(n, port->remote);
				break;
			}
		}
	}

	for (unsigned p = 1; p <= n->num_ports; p++)
		if (n->ports[p])
			n->ports[p]->ext_num = voltaire_ext_port(b, n, p);
}

/* ---- Pass 1: Mellanox --------------------------------------------------------------------- */

/* atoi() as glibc has it (strtol, clamped to long, then int), kept in an unsigned char */
static uint8_t atoi_u8(const char *s)
{
	bool neg = false, over = false;
	uint64_t v = 0;

	while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
		s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			over = true;
		else
			v = v * 10 + d;
	}
	if (over || v > (neg ? (uint64_t)1 << 63 : ((uint64_t)1 << 63) - 1))
		return neg ? 0x00 : 0xff; /* LONG_MIN / LONG_MAX, low byte */
	return (uint8_t)(neg ? 0 - v : v);
}

static void fill_mellanox(struct grouping *g, struct ibtopo_node *n)
{
	char d[IBTOPO_SMP_DATA_SIZE + 1];
	char *it, *type, *slot, *asic;
	unsigned max;

	if (g->found[n->index] || NI_DEVICE_ID(n->info) != DEVID_MLX_IS4)
		return;
	memcpy(d, n->desc, IBTOPO_SMP_DATA_SIZE);
	d[IBTOPO_SMP_DATA_SIZE] = '\0';
	if (strncmp(d, "MF0;", 4))
		return;
	/* MF0;<system name>:<system type>/<slot>[:<board type>]/U<asic> */
	it = d + 4 + strcspn(d + 4, ":");
	if (!*it)
		return;
	type = ++it;
	it += strcspn(it, "/");
	if (!*it)
		return;
	*it++ = '\0';
	slot = it;
	it += strcspn(it, "/:");
	if (!*it)
		return;
	if (*it == ':') {
		*it++ = '\0';
		it += strcspn(it, "/");
		if (!*it)
			return;
	}
	*it++ = '\0';
	asic = it;
	if (asic[0] != 'U')
		return;
	n->ch_anafanum = atoi_u8(asic + 1);
	if (slot[0] == 'L')
		n->ch_slot = CS_LINE;
	else if (slot[0] == 'S')
		n->ch_slot = CS_SPINE;
	else
		return;
	g->found[n->index] = 1;
	n->ch_slotnum = atoi_u8(slot + 1);
	/* one slot more than there are is let through, as libibnetdisc does */
	max = n->ch_slot == CS_LINE ? CH_LINES_MAX + 1 : CH_SPINES_MAX + 1;
	if (n->ch_slotnum > max) {
		n->ch_slotnum = 0;
		return;
	}
	snprintf(n->ch_type_str, sizeof(n->ch_type_str), "%s", type);
	/* line ports 1-18 are the front panel's 1-18 */
	if (n->ch_slot == CS_LINE)
		for (unsigned p = 1; p <= n->num_ports && p <= 18; p++)
			if (n->ports[p])
				n->ports[p]->ext_num = (uint8_t)p;
}

/* ---- Pass 2: Voltaire chassis ------------------------------------------------------------- */

static int line_index(const struct ibtopo_node *n)
{
	int i = board_of(n) == B_SLB4018 ? n->ch_slotnum : 3 * (n->ch_slotnum - 1) + n->ch_anafanum;

	return i >= 1 && i <= CH_LINES_MAX ? i : -1;
}

static int spine_index(const struct ibtopo_node *n)
{
	enum board b = board_of(n);
	int i;

	if (b == B_SFB12 || b == B_SFB2012)
		i = 3 * (n->ch_slotnum - 1) + n->ch_anafanum;
	else if (b == B_SFB4700 || b == B_SFB4700X2)
		i = 2 * (n->ch_slotnum - 1) + n->ch_anafanum;
	else
		i = n->ch_slotnum;
	return i >= 1 && i <= CH_SPINES_MAX ? i : -1;
}

/* Puts the node in slot `slot` unless that is taken: 0, -ENOMEM */
static int put_in_slot(struct grouping *g, unsigned ci, unsigned slot, struct ibtopo_node *n)
{
	struct ibtopo_node **slots = slots_of(g, ci);

	if (!slots)
		return -ENOMEM;
	if (slots[slot])
		return 0;
	slots[slot] = n;
	g->chassis_of[n->index] = (int)ci;
	return 0;
}

/* insert_line_router() / insert_spine(): -EPROTO for a node with no valid slot */
static int insert_line(struct grouping *g, unsigned ci, struct ibtopo_node *n)
{
	int i = line_index(n);

	return i < 0 ? -EPROTO : put_in_slot(g, ci, CH_SPINE_SLOTS + (unsigned)i, n);
}

static int insert_spine(struct grouping *g, unsigned ci, struct ibtopo_node *n)
{
	int i = spine_index(n);

	return i < 0 ? -EPROTO : put_in_slot(g, ci, (unsigned)i, n);
}

static int lines_catch_spines(struct grouping *g, unsigned ci)
{
	for (unsigned i = 1; i <= CH_LINES_MAX; i++) {
		struct ibtopo_node *n = g->ch[ci].slots[CH_SPINE_SLOTS + i];
		unsigned last;

		if (!n || !board_is_line(board_of(n)))
			continue;
		last = inner_ports(board_of(n));
		for (unsigned p = 1; p <= n->num_ports && p <= last; p++) {
			struct ibtopo_port *port = n->ports[p];
			int rc;

			if (!port || !port->remote || !g->found[port->remote->node->index])
				continue;
			rc = insert_spine(g, ci, port->remote->node);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int spines_catch_lines(struct grouping *g, unsigned ci)
{
	for (unsigned i = 1; i <= CH_SPINES_MAX; i++) {
		struct ibtopo_node *n = g->ch[ci].slots[i];
		unsigned last;

		if (!n)
			continue;
		last = board_of(n) == B_SFB4700X2 ? 18 : IBTOPO_MAX_PORTS;
		for (unsigned p = 1; p <= n->num_ports && p <= last; p++) {
			struct ibtopo_port *port = n->ports[p];
			int rc;

			if (!port || !port->remote || !g->found[port->remote->node->index])
				continue;
			rc = insert_line(g, ci, port->remote->node);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* build_chassis(): the chassis around a spine */
static int build_voltaire(struct grouping *g, unsigned ci, struct ibtopo_node *spine)
{
	unsigned last = board_of(spine) == B_SFB4700X2 ? 18 : IBTOPO_MAX_PORTS;
	int rc;

	rc = insert_spine(g, ci, spine);
	if (rc)
		return rc;
	for (unsigned p = 1; p <= spine->num_ports && p <= last; p++) {
		struct ibtopo_port *port = spine->ports[p];

		if (!port || !port->remote || !g->found[port->remote->node->index])
			continue;
		/* a node with no valid slot is passed over here (but not in the passes below) */
		if (insert_line(g, ci, port->remote->node) == -ENOMEM)
			return -ENOMEM;
	}
	/* twice each way: routers hang off spines only, and a line can lead to a spine that
	 * leads to a line not seen yet */
	if ((rc = lines_catch_spines(g, ci)) || (rc = spines_catch_lines(g, ci)) ||
	    (rc = lines_catch_spines(g, ci)) || (rc = spines_catch_lines(g, ci)))
		return rc;
	/* the chassis GUID is the first spine's GUID minus one (Voltaire's SM does so) */
	for (unsigned i = 1; i <= CH_SPINES_MAX; i++)
		if (g->ch[ci].slots[i]) {
			g->ch[ci].guid = g->ch[ci].slots[i]->guid - 1;
			break;
		}
	return 0;
}

/* ---- Passes 3 and 4: by system image GUID --------------------------------------------------- */

static bool xsigo_guid(uint64_t guid)
{
	return (guid & 0xffffff0000000000ULL) == 0x0013970000000000ULL;
}

static bool xsigo_hca(uint64_t guid)
{
	return (guid & 0xffffffff00000000ULL) == 0x0013970200000000ULL;
}

static bool xsigo_tca(uint64_t guid)
{
	return (guid & 0xffffffff00000000ULL) == 0x0013970300000000ULL;
}

static uint64_t xsigo_chassis_guid(const struct ibtopo_node *n)
{
	uint64_t sys = NI_SYS_GUID(n->info);
	const struct ibtopo_port *p1;
	uint64_t rsys;

	if (!xsigo_hca(sys) && !xsigo_tca(sys)) {
		/* a switch's system GUID carries its port type in byte 4 */
		if ((sys & 0xffffffff00000000ULL) == 0x0013970100000000ULL)
			return sys & 0xffffffff00ffffffULL;
		return sys;
	}
	p1 = port_of(n, 1);
	if (!p1)
		return 0;
	if (!p1->remote)
		return sys;
	/* an adapter behind leaf 1 belongs to that leaf's chassis */
	rsys = NI_SYS_GUID(p1->remote->node->info);
	if ((rsys & 0xffffffffff000000ULL) == 0x0013970102000000ULL)
		return rsys & 0xffffffff00ffffffULL;
	return sys;
}

static uint64_t chassis_guid_of(const struct ibtopo_node *n)
{
	uint32_t vendor = vendor_of(n);
	uint64_t sys = NI_SYS_GUID(n->info);

	if (vendor == VENDOR_TOPSPIN || vendor == VENDOR_INFINICON)
		return sys & 0xffffffff00ffffffULL; /* byte 4 is the slot */
	if (vendor == VENDOR_XSIGO || xsigo_guid(sys))
		return xsigo_chassis_guid(n);
	return sys;
}

static inline unsigned guid_slot(uint64_t guid, unsigned size)
{
	guid ^= guid >> 33;
	guid *= 0xff51afd7ed558ccdULL;
	guid ^= guid >> 33;
	return (unsigned)guid & (size - 1);
}

/* The first chassis of the list with this GUID, -1 */
static int hash_find(const struct grouping *g, uint64_t guid)
{
	unsigned mask = g->hash_size - 1;

	for (unsigned s = guid_slot(guid, g->hash_size); g->hash[s] >= 0; s = (s + 1) & mask)
		if (g->ch[g->hash[s]].guid == guid)
			return g->hash[s];
	return -1;
}

/* Enters a chassis unless an earlier one of the list has its GUID (the hash has room: it is
 * sized for every chassis there can be) */
static void hash_add(struct grouping *g, unsigned ci)
{
	uint64_t guid = g->ch[ci].guid;
	unsigned s;

	for (s = guid_slot(guid, g->hash_size); g->hash[s] >= 0; s = (s + 1) & (g->hash_size - 1))
		if (g->ch[g->hash[s]].guid == guid)
			return;
	g->hash[s] = (int)ci;
}

/* find_chassisguid(): libibnetdisc walks fabric->chassis, which is NULL until pass 3 makes
 * its first chassis (the Voltaire ones are on a list of their own until then) */
static int find_by_guid(const struct grouping *g, uint64_t guid)
{
	return g->list_visible ? hash_find(g, guid) : -1;
}

/* ---- Driver -------------------------------------------------------------------------------- */

static void grouping_free(struct grouping *g)
{
	for (unsigned i = 0; i < g->n_ch; i++)
		free(g->ch[i].slots);
	free(g->ch);
	free(g->found);
	free(g->chassis_of);
	free(g->chguid);
	free(g->hash);
	free(g->member_node);
	free(g->member_ch);
}

static int group(struct grouping *g)
{
	struct ibtopo *t = g->topo;
	const struct node_vec *sw = &t->by_type[IBTOPO_NODE_SWITCH];
	unsigned upper, n_candidates = 0;
	int rc;

	/* 1. every switch, in libibnetdisc's switch list order */
	for (unsigned i = 0; i < sw->n; i++) {
		struct ibtopo_node *n = list_node(sw, i);

		if (vendor_of(n) == VENDOR_VOLTAIRE)
			fill_voltaire(g, n);
		else if (vendor_of(n) == VENDOR_MELLANOX)
			fill_mellanox(g, n);
	}

	/* 2. a chassis around every Voltaire spine not in a numbered one yet */
	for (unsigned i = 0; i < sw->n; i++) {
		struct ibtopo_node *n = list_node(sw, i);
		int ci = g->chassis_of[n->index];

		if (vendor_of(n) != VENDOR_VOLTAIRE || !g->found[n->index] ||
		    (ci >= 0 && g->ch[ci].num) || !board_is_spine(board_of(n)))
			continue;
		if ((ci = new_chassis(g)) < 0)
			return ci;
		g->ch[ci].num = (uint8_t)++g->counter;
		if ((rc = build_voltaire(g, (unsigned)ci, n)))
			return rc;
	}

	/* the hash holds every chassis there can be at twice the room */
	for (unsigned i = 0; i < g->n; i++) {
		const struct ibtopo_node *n = t->all.v[i];

		if (vendor_of(n) != VENDOR_VOLTAIRE && NI_SYS_GUID(n->info))
			n_candidates++;
	}
	upper = g->n_ch + n_candidates;
	for (g->hash_size = 16; g->hash_size < 2 * upper; g->hash_size *= 2)
		;
	g->hash = malloc(g->hash_size * sizeof(*g->hash));
	g->member_node = malloc((n_candidates + 1) * sizeof(*g->member_node));
	g->member_ch = malloc((n_candidates + 1) * sizeof(*g->member_ch));
	if (!g->hash || !g->member_node || !g->member_ch)
		return -ENOMEM;
	memset(g->hash, 0xff, g->hash_size * sizeof(*g->hash));
	for (unsigned ci = 0; ci < g->n_ch; ci++)
		hash_add(g, ci);

	/* 3. count the nodes of every chassis GUID, in libibnetdisc's node list order */
	for (unsigned i = 0; i < g->n; i++) {
		struct ibtopo_node *n = list_node(&t->all, i);
		int ci;

		if (vendor_of(n) == VENDOR_VOLTAIRE || !NI_SYS_GUID(n->info))
			continue;
		g->chguid[n->index] = chassis_guid_of(n);
		ci = find_by_guid(g, g->chguid[n->index]);
		if (ci >= 0) {
			g->ch[ci].nodecount++;
			continue;
		}
		if ((ci = new_chassis(g)) < 0)
			return ci;
		g->ch[ci].guid = g->chguid[n->index];
		g->ch[ci].nodecount = 1;
		hash_add(g, (unsigned)ci);
		g->list_visible = true;
	}

	/* 4. the nodes of chassis of more than one node */
	for (unsigned i = 0; i < g->n; i++) {
		struct ibtopo_node *n = list_node(&t->all, i);
		struct ibtopo_chassis *c;
		int ci;

		if (vendor_of(n) == VENDOR_VOLTAIRE || !NI_SYS_GUID(n->info))
			continue;
		ci = find_by_guid(g, g->chguid[n->index]);
		if (ci < 0 || g->ch[ci].nodecount <= 1)
			continue;
		c = &g->ch[ci];
		if (!c->num)
			c->num = (uint8_t)++g->counter;
		if (!g->found[n->index]) {
			g->found[n->index] = 1;
			g->chassis_of[n->index] = ci;
			g->member_node[g->n_members] = n->index;
			g->member_ch[g->n_members++] = (unsigned)ci;
		} else if (vendor_of(n) == VENDOR_MELLANOX) {
			/* insert_mellanox_line_and_spine(): the slot its description names */
			unsigned slot = n->ch_slotnum;

			if (n->ch_slot == CS_LINE)
				slot += CH_SPINE_SLOTS;
			if (n->ch_slot == CS_LINE || n->ch_slot == CS_SPINE)
				rc = put_in_slot(g, (unsigned)ci, slot, n);
			else
				rc = 0;
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Moves the result into the topology: chassis objects, member lists, node pointers */
static int commit(struct grouping *g)
{
	struct ibtopo *t = g->topo;
	unsigned *fill;

	t->chassis_members = malloc((g->n_members + 1) * sizeof(*t->chassis_members));
	fill = calloc(g->n_ch + 1, sizeof(*fill));
	if (!t->chassis_members || !fill) {
		free(fill);
		return -ENOMEM;
	}
	/* lay out each chassis' members in one block, the last added first */
	for (unsigned m = 0; m < g->n_members; m++)
		g->ch[g->member_ch[m]].n_members++;
	for (unsigned ci = 0, off = 0; ci < g->n_ch; ci++) {
		g->ch[ci].members = t->chassis_members + off;
		off += g->ch[ci].n_members;
	}
	for (unsigned m = g->n_members; m-- > 0;) {
		struct ibtopo_chassis *c = &g->ch[g->member_ch[m]];

		c->members[fill[c->index]++] = t->all.v[g->member_node[m]];
	}
	free(fill);

	t->chassis = g->ch;
	t->n_chassis = g->n_ch;
	g->ch = NULL;
	g->n_ch = 0;
	for (unsigned i = 0; i < t->n_chassis; i++) {
		struct ibtopo_chassis *c = &t->chassis[i];

		if (!t->chassis_by_num[c->num])
			t->chassis_by_num[c->num] = c;
	}
	t->chassis_by_num[0] = NULL; /* number 0 is "no chassis" */
	for (unsigned i = 0; i < g->n; i++) {
		int ci = g->chassis_of[i];

		t->all.v[i]->chassis = ci >= 0 ? &t->chassis[ci] : NULL;
	}
	return 0;
}

void topo_chassis_free(struct ibtopo *topo)
{
	for (unsigned i = 0; i < topo->n_chassis; i++)
		free(topo->chassis[i].slots);
	free(topo->chassis);
	free(topo->chassis_members);
	topo->chassis = NULL;
	topo->chassis_members = NULL;
	topo->n_chassis = 0;
	memset(topo->chassis_by_num, 0, sizeof(topo->chassis_by_num));
}

IBTOPO_EXPORT int ibtopo_group_chassis(struct ibtopo *topo)
{
	struct grouping g;
	int rc;

	if (!topo)
		return -EINVAL;
	topo_chassis_free(topo);
	for (unsigned i = 0; i < topo->all.n; i++) {
		struct ibtopo_node *n = topo->all.v[i];

		n->chassis = NULL;
		n->ch_type = n->ch_anafanum = n->ch_slotnum = n->ch_slot = 0;
		memset(n->ch_type_str, 0, sizeof(n->ch_type_str));
	}

	memset(&g, 0, sizeof(g));
	g.topo = topo;
	g.n = topo->all.n;
	g.found = calloc(g.n + 1, 1);
	g.chassis_of = malloc((g.n + 1) * sizeof(*g.chassis_of));
	g.chguid = calloc(g.n + 1, sizeof(*g.chguid));
	if (!g.found || !g.chassis_of || !g.chguid) {
		rc = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < g.n; i++)
		g.chassis_of[i] = -1;

	rc = group(&g);
	if (rc == 0)
		rc = commit(&g);
	if (rc)
		topo_chassis_free(topo);
out:
	grouping_free(&g);
	return rc;
}

/* ---- Getters -------------------------------------------------------------------------------- */

IBTOPO_EXPORT unsigned ibtopo_chassis_count(const struct ibtopo *topo)
{
	return topo ? topo->n_chassis : 0;
}

IBTOPO_EXPORT struct ibtopo_chassis *ibtopo_chassis_get(const struct ibtopo *topo, unsigned index)
{
	if (!topo || index >= topo->n_chassis)
		return NULL;
	return &topo->chassis[index];
}

IBTOPO_EXPORT struct ibtopo_chassis *ibtopo_chassis_find_num(const struct ibtopo *topo,
							      unsigned num)
{
	if (!topo || num == 0 || num > 255)
		return NULL;
	return topo->chassis_by_num[num];
}

IBTOPO_EXPORT unsigned ibtopo_chassis_num(const struct ibtopo_chassis *ch)
{
	return ch ? ch->num : 0;
}

IBTOPO_EXPORT uint64_t ibtopo_chassis_guid(const struct ibtopo_chassis *ch)
{
	return ch ? ch->guid : 0;
}

IBTOPO_EXPORT struct ibtopo_node *ibtopo_chassis_spine(const struct ibtopo_chassis *ch,
						       unsigned slot)
{
	if (!ch || !ch->slots || slot < 1 || slot > CH_SPINES_MAX)
		return NULL;
	return ch->slots[slot];
}

IBTOPO_EXPORT struct ibtopo_node *ibtopo_chassis_line(const struct ibtopo_chassis *ch,
						      unsigned slot)
{
	if (!ch || !ch->slots || slot < 1 || slot > CH_LINES_MAX)
		return NULL;
	return ch->slots[CH_SPINE_SLOTS + slot];
}

IBTOPO_EXPORT unsigned ibtopo_chassis_node_count(const struct ibtopo_chassis *ch)
{
	return ch ? ch->n_members : 0;
}

IBTOPO_EXPORT struct ibtopo_node *ibtopo_chassis_node(const struct ibtopo_chassis *ch,
						      unsigned index)
{
	if (!ch || index >= ch->n_members)
		return NULL;
	return ch->members[index];
}

IBTOPO_EXPORT struct ibtopo_chassis *ibtopo_node_chassis(const struct ibtopo_node *node)
{
	return node ? node->chassis : NULL;
}

IBTOPO_EXPORT unsigned ibtopo_node_chassis_type(const struct ibtopo_node *node)
{
	return node ? node->ch_type : 0;
}

IBTOPO_EXPORT unsigned ibtopo_node_chassis_slot(const struct ibtopo_node *node)
{
	return node ? node->ch_slot : 0;
}

IBTOPO_EXPORT unsigned ibtopo_node_chassis_slotnum(const struct ibtopo_node *node)
{
	return node ? node->ch_slotnum : 0;
}

IBTOPO_EXPORT unsigned ibtopo_node_chassis_anafanum(const struct ibtopo_node *node)
{
	return node ? node->ch_anafanum : 0;
}

IBTOPO_EXPORT const char *ibtopo_chassis_type_str(const struct ibtopo_node *node)
{
	if (!node || !node->chassis)
		return NULL;
	switch (vendor_of(node)) {
	case VENDOR_VOLTAIRE:
		if (node->ch_type == CT_NONE || node->ch_type > CT_ISR4200)
			return NULL;
		return chassis_type_names[node->ch_type];
	case VENDOR_MELLANOX:
		return node->ch_type_str[0] ? node->ch_type_str : NULL;
	default:
		return NULL;
	}
}

IBTOPO_EXPORT const char *ibtopo_node_chassis_slot_str(const struct ibtopo_node *node, char *buf,
						       size_t len)
{
	uint32_t vendor;

	if (!node)
		return NULL;
	vendor = vendor_of(node);
	if (vendor != VENDOR_VOLTAIRE && vendor != VENDOR_MELLANOX)
		return NULL;
	if (!node->chassis || node->ch_slot == CS_NONE || node->ch_slot > CS_SRBD || !buf)
		return NULL;
	snprintf(buf, len, "%s %d Chip %d", slot_type_names[node->ch_slot], node->ch_slotnum,
		 node->ch_anafanum);
	return buf;
}

IBTOPO_EXPORT const char *ibtopo_port_ext_str(const struct ibtopo_port *port, char *buf, size_t len)
{
	if (!port || !port->ext_num || !buf)
		return NULL;
	snprintf(buf, len, "[ext %d]", port->ext_num);
	return buf;
}

IBTOPO_EXPORT bool ibtopo_is_xsigo_guid(uint64_t guid)
{
	return xsigo_guid(guid);
}

IBTOPO_EXPORT bool ibtopo_is_xsigo_hca(uint64_t guid)
{
	return xsigo_hca(guid);
}

IBTOPO_EXPORT bool ibtopo_is_xsigo_tca(uint64_t guid)
{
	return xsigo_tca(guid);
}
