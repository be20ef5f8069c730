// SPDX-License-Identifier: BSD-3-Clause
/*
 * Chassis grouping: one topology per vendor rule, built with the internal builders, and the
 * values libibnetdisc's group_nodes() (rdma-core libibnetdisc/chassis.c) gives for it, worked
 * out by hand from its code and tables (cited as "table[index]").  libibnetdisc processes
 * its lists most recently created node first, so every test states that order.
 * tests/topo/chassis-diff.sh compares with libibnetdisc itself on random fabrics.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-ibtopo.h"
#include "ibtopo-private.h"

#define VTR 0x0008f1
#define MLX 0x0002c9
#define SW IBTOPO_NODE_SWITCH
#define CA IBTOPO_NODE_CA

enum { SFB4 = 0x5a0b, SFB12 = 0x5a08, SFB2012 = 0x5a37, SLB2024 = 0x5a38, SFB4700 = 0x5a5c,
       SFB4700X2 = 0x5a5d, SFB4200 = 0x5a60, SLB24 = 0x5a09, SLB8 = 0x5a0d, SLB4018 = 0x5a5b,
       IS4 = 0xbd36 };

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* A node with every port present (port 0 too for a switch) */
static struct ibtopo_node *mk(struct ibtopo *t, uint8_t type, uint8_t nports, uint64_t guid,
			      uint64_t sysguid, uint32_t vendor, uint16_t devid, const char *desc)
{
	uint8_t ni[IBTOPO_SMP_DATA_SIZE] = { 1, 1, type, nports };
	uint8_t nd[IBTOPO_SMP_DATA_SIZE] = { 0 };
	struct ibtopo_node *n;

	put64(ni + 4, sysguid);
	put64(ni + 12, guid);
	put64(ni + 20, type == SW ? guid : guid + 1);
	ni[30] = (uint8_t)(devid >> 8);
	ni[31] = (uint8_t)devid;
	ni[37] = (uint8_t)(vendor >> 16);
	ni[38] = (uint8_t)(vendor >> 8);
	ni[39] = (uint8_t)vendor;
	n = topo_node_create(t, ni, NULL);
	ck_assert_ptr_nonnull(n);
	if (desc) {
		memcpy(nd, desc, strlen(desc) < sizeof(nd) ? strlen(desc) : sizeof(nd));
		topo_node_set_desc(n, nd);
	}
	for (unsigned p = type == SW ? 0 : 1; p <= nports; p++) {
		struct ibtopo_port *pt = topo_port_get(n, p);

		ck_assert_ptr_nonnull(pt);
		pt->guid = type == SW ? guid : guid + p;
	}
	return n;
}

static void wire(struct ibtopo_node *a, unsigned pa, struct ibtopo_node *b, unsigned pb)
{
	topo_link(a->ports[pa], b->ports[pb]);
}

static unsigned ext(const struct ibtopo_node *n, unsigned p)
{
	return ibtopo_port_ext_num(ibtopo_node_port(n, p));
}

static void ck_pos(const struct ibtopo_node *n, unsigned type, unsigned slot, unsigned slotnum,
		   unsigned anafa)
{
	ck_assert_uint_eq(ibtopo_node_chassis_type(n), type);
	ck_assert_uint_eq(ibtopo_node_chassis_slot(n), slot);
	ck_assert_uint_eq(ibtopo_node_chassis_slotnum(n), slotnum);
	ck_assert_uint_eq(ibtopo_node_chassis_anafanum(n), anafa);
}

static const char *slot_str(const struct ibtopo_node *n)
{
	static char buf[64];

	return ibtopo_node_chassis_slot_str(n, buf, sizeof(buf));
}

/* ISR9096: sFB-4 spines, sLB-24 lines, a router module on a spine */
START_TEST(test_isr9096)
{
	struct ibtopo *t;
	struct ibtopo_node *l1, *l2, *s1, *s2, *r;
	struct ibtopo_chassis *ch;
	static const unsigned l1_ext[] = { 6, 5, 4, 18, 17, 16, 1, 2, 3, 13, 14, 15 };
	char buf[32];

	ck_assert_int_eq(ibtopo_new(&t), 0);
	l1 = mk(t, SW, 24, 0x10, 0x10, VTR, SLB24, NULL);
	l2 = mk(t, SW, 24, 0x20, 0x20, VTR, SLB24, NULL);
	s1 = mk(t, SW, 24, 0x31, 0x31, VTR, SFB4, NULL);
	s2 = mk(t, SW, 24, 0x41, 0x41, VTR, SFB4, NULL);
	r = mk(t, CA, 1, 0x50, 0x50, VTR, 0x5a00, NULL);
	wire(s1, 1, l1, 1);
	wire(s1, 10, l2, 2);
	wire(s2, 4, l1, 4);
	wire(s2, 12, l2, 5);
	wire(s1, 24, r, 1);
	/* an external link: no effect */
	wire(l1, 13, l2, 13);
	ck_assert_int_eq(ibtopo_group_chassis(t), 0);

	/* switches in order s2, s1, l2, l1.  s2: first switch neighbour on line port 4:
	 * spine4_slot_2_slb[4] = 2, anafa 1; s1: line port 1: slot 1.  r hangs off s1's port 24:
	 * line_slot_2_sfb4[24] = 4, ipr_slot_2_sfb4_port[24] = 1.  l2 reaches s1's port 10:
	 * line_slot_2_sfb4[10] = 2, anafa_line_slot_2_sfb4[10] = 2. */
	ck_pos(s2, 2, 2, 2, 1);
	ck_pos(s1, 2, 2, 1, 1);
	ck_pos(r, 2, 3, 4, 1);
	ck_pos(l2, 2, 1, 2, 2);
	ck_pos(l1, 2, 1, 1, 1);

	ck_assert_uint_eq(ibtopo_chassis_count(t), 1);
	ch = ibtopo_chassis_get(t, 0);
	ck_assert_uint_eq(ibtopo_chassis_num(ch), 1);
	/* the first spine slot's GUID minus one */
	ck_assert_uint_eq(ibtopo_chassis_guid(ch), 0x30);
	ck_assert_ptr_eq(ibtopo_chassis_find_num(t, 1), ch);
	ck_assert_ptr_null(ibtopo_chassis_find_num(t, 2));
	ck_assert_ptr_null(ibtopo_chassis_find_num(t, 0));
	ck_assert_ptr_eq(ibtopo_chassis_spine(ch, 1), s1);
	ck_assert_ptr_eq(ibtopo_chassis_spine(ch, 2), s2);
	ck_assert_ptr_null(ibtopo_chassis_spine(ch, 3));
	/* line index 3 * (slot - 1) + anafa: l1 1, l2 5, r 10 */
	ck_assert_ptr_eq(ibtopo_chassis_line(ch, 1), l1);
	ck_assert_ptr_eq(ibtopo_chassis_line(ch, 5), l2);
	ck_assert_ptr_eq(ibtopo_chassis_line(ch, 10), r);
	for (unsigned i = 1; i <= IBTOPO_CHASSIS_LINES; i++)
		if (i != 1 && i != 5 && i != 10)
			ck_assert_ptr_null(ibtopo_chassis_line(ch, i));
	ck_assert_ptr_null(ibtopo_chassis_line(ch, 0));
	ck_assert_ptr_null(ibtopo_chassis_line(ch, 37));
	ck_assert_uint_eq(ibtopo_chassis_node_count(ch), 0);
	ck_assert_ptr_null(ibtopo_chassis_node(ch, 0));
	for (unsigned i = 0; i < 5; i++)
		ck_assert_ptr_eq(ibtopo_node_chassis((struct ibtopo_node *[]){ l1, l2, s1, s2, r }[i]), ch);

	/* external ports: sLB-24 ASIC 1 and 2 (int2ext_map_slb24), none on spines */
	for (unsigned p = 1; p <= 24; p++) {
		ck_assert_uint_eq(ext(l1, p), p >= 13 ? l1_ext[p - 13] : 0);
		ck_assert_uint_eq(ext(l2, p), p >= 13 ? l1_ext[p - 13] + 6 : 0);
		ck_assert_uint_eq(ext(s1, p), 0);
	}
	ck_assert_uint_eq(ext(r, 1), 0);
	ck_assert_str_eq(ibtopo_port_ext_str(ibtopo_node_port(l1, 13), buf, sizeof(buf)), "[ext 6]");
	ck_assert_ptr_null(ibtopo_port_ext_str(ibtopo_node_port(l1, 1), buf, sizeof(buf)));

	ck_assert_str_eq(ibtopo_chassis_type_str(s1), "ISR9096");
	ck_assert_str_eq(ibtopo_chassis_type_str(r), "ISR9096");
	ck_assert_str_eq(slot_str(s1), "Spine 1 Chip 1");
	ck_assert_str_eq(slot_str(l2), "Line 2 Chip 2");
	ck_assert_str_eq(slot_str(r), "SRBD 4 Chip 1");
	ck_assert_ptr_null(ibtopo_node_chassis_slot_str(s1, NULL, 0));

	/* grouping again gives the same */
	ck_assert_int_eq(ibtopo_group_chassis(t), 0);
	ck_assert_uint_eq(ibtopo_chassis_count(t), 1);
	ch = ibtopo_chassis_get(t, 0);
	ck_assert_ptr_eq(ibtopo_chassis_line(ch, 10), r);
	ck_assert_ptr_eq(ibtopo_node_chassis(l1), ch);
	ck_assert_uint_eq(ext(l2, 13), 12);
	ibtopo_unref(t);
}
END_TEST

/* ISR9288: sFB-12 spines (3 ASICs a slot), router modules placed by a guess from GUID % 4 */
START_TEST(test_isr9288)
{
	struct ibtopo *t;
	struct ibtopo_node *l, *s, *x, *l2, *s2, *y;
	struct ibtopo_chassis *c1, *c2;

	ck_assert_int_eq(ibtopo_new(&t), 0);
	l = mk(t, SW, 24, 0x100, 0, VTR, SLB24, NULL);
	s = mk(t, SW, 24, 0x203, 0, VTR, SFB12, NULL);    /* GUID % 4 == 3 */
	x = mk(t, CA, 1, 0x300, 0, VTR, 0, NULL);
	l2 = mk(t, SW, 24, 0x400, 0, VTR, SLB24, NULL);
	s2 = mk(t, SW, 24, 0x501, 0, VTR, SFB12, NULL);   /* GUID % 4 == 1 */
	y = mk(t, CA, 1, 0x600, 0, VTR, 0, NULL);
	wire(s, 7, l, 3);
	wire(s, 20, x, 1);
	wire(s2, 1, y, 1);
	wire(s2, 2, l2, 1);
	ck_assert_int_eq(ibtopo_group_chassis(t), 0);

	/* s: line port 3: spine12_slot_2_slb[3] = 1, anafa_spine12_slot_2_slb[3] = 3;
	 * x on s's port 20: line_slot_2_sfb12[20] = 10, guess 3 -> ASIC 1;
	 * l on s's port 7: line_slot_2_sfb12[7] = 4, anafa_line_slot_2_sfb12[7] = 1 */
	ck_pos(s, 1, 2, 1, 3);
	ck_pos(x, 1, 3, 10, 1);
	ck_pos(l, 1, 1, 4, 1);
	/* s2: y first (port 1: slot 1, guess 1 -> ASIC 3), then l2 on line port 1 */
	ck_pos(s2, 1, 2, 1, 1);
	ck_pos(y, 1, 3, 1, 3);
	ck_pos(l2, 1, 1, 1, 2);

	/* switch order: s2, l2, s, l: s2's chassis first */
	ck_assert_uint_eq(ibtopo_chassis_count(t), 2);
	c1 = ibtopo_chassis_get(t, 0);
	c2 = ibtopo_chassis_get(t, 1);
	ck_assert_uint_eq(ibtopo_chassis_num(c1), 1);
	ck_assert_uint_eq(ibtopo_chassis_num(c2), 2);
	ck_assert_uint_eq(ibtopo_chassis_guid(c1), 0x500);
	ck_assert_uint_eq(ibtopo_chassis_guid(c2), 0x202);
	/* spine index 3 * (slot - 1) + anafa */
	ck_assert_ptr_eq(ibtopo_chassis_spine(c1, 1), s2);
	ck_assert_ptr_eq(ibtopo_chassis_line(c1, 2), l2);
	ck_assert_ptr_eq(ibtopo_chassis_line(c1, 3), y);
	ck_assert_ptr_eq(ibtopo_chassis_spine(c2, 3), s);
	ck_assert_ptr_eq(ibtopo_chassis_line(c2, 10), l);
	ck_assert_ptr_eq(ibtopo_chassis_line(c2, 28), x);
	ck_assert_str_eq(ibtopo_chassis_type_str(x), "ISR9288");
	ck_assert_str_eq(slot_str(y), "SRBD 1 Chip 3");
	ibtopo_unref(t);
}
END_TEST

/* ISR2012 (sLB-2024 lines: external = internal on ASIC 1, minus 12 on ASIC 2) */
START_TEST(test_isr2012)
{
	struct ibtopo *t;
	struct ibtopo_node *l, *l2, *s;
	struct ibtopo_chassis *ch;

	ck_assert_int_eq(ibtopo_new(&t), 0);
	l = mk(t, SW, 24, 0x10, 0, VTR, SLB2024, NULL);
	l2 = mk(t, SW, 24, 0x20, 0, VTR, SLB2024, NULL);
	s = mk(t, SW, 24, 0x30, 0, VTR, SFB2012, NULL);
	wire(s, 5, l, 1);
	wire(s, 6, l2, 1);
	ck_assert_int_eq(ibtopo_group_chassis(t), 0);
	ck_pos(s, 3, 2, 1, 1);
	ck_pos(l, 3, 1, 3, 1);  /* line_slot_2_sfb12[5] = 3, anafa 1 */
	ck_pos(l2, 3, 1, 3, 2); /* [6]: 3, anafa 2 */
	for (unsigned p = 13; p <= 24; p++) {
		ck_assert_uint_eq(ext(l, p), p);
		ck_assert_uint_eq(ext(l2, p), p - 12);
	}
	ck_assert_uint_eq(ext(l, 12), 0);
	ch = ibtopo_chassis_get(t, 0);
	ck_assert_ptr_eq(ibtopo_chassis_spine(ch, 1), s);
	ck_assert_ptr_eq(ibtopo_chassis_line(ch, 7), l);
	ck_assert_ptr_eq(ibtopo_chassis_line(ch, 8), l2);
	ck_assert_str_eq(ibtopo_chassis_type_str(l), "ISR2012");
	ibtopo_unref(t);
}
END_TEST

/* ISR4700: sFB-4700 and the double-density sFB-4700X2, sLB-4018 lines */
START_TEST(test_isr4700)
{
	struct ibtopo *t;
	struct ibtopo_node *l, *s, *s2, *z;
	struct ibtopo_chassis *ch;

	ck_assert_int_eq(ibtopo_new(&t), 0);
	l = mk(t, SW, 36, 0x10, 0, VTR, SLB4018, NULL);
	s = mk(t, SW, 36, 0x21, 0, VTR, SFB4700, NULL);
	s2 = mk(t, SW, 36, 0x31, 0, VTR, SFB4700X2, NULL);
	z = mk(t, CA, 1, 0x40, 0, VTR, 0, NULL);
	wire(s, 3, l, 2);
	wire(s2, 5, l, 4);
	wire(s2, 20, z, 1); /* an X2's external port: not a router slot */
	ck_assert_int_eq(ibtopo_group_chassis(t), 0);
	/* s2: spine18_slot_2_slb[4] = 2, anafa_spine18x2_slot_2_slb[4] = 1;
	 * s: [2] = 1, anafa 1; l: first inner port 2 -> s's port 3:
	 * line_slot_2_sfb18[3] = 2, anafa 1 */
	ck_pos(s2, 5, 2, 2, 1);
	ck_pos(s, 5, 2, 1, 1);
	ck_pos(l, 5, 1, 2, 1);
	ck_pos(z, 0, 0, 0, 0);
	ck_assert_ptr_null(ibtopo_node_chassis(z));
	/* sLB-4018: 19-36 -> 1-18; sFB-4700X2 ASIC 1: three ports a 12X connector, 7-12 */
	for (unsigned p = 1; p <= 36; p++) {
		ck_assert_uint_eq(ext(l, p), p >= 19 ? p - 18 : 0);
		ck_assert_uint_eq(ext(s2, p), p >= 19 ? (p - 19) / 3 + 7 : 0);
		ck_assert_uint_eq(ext(s, p), 0);
	}
	ck_assert_uint_eq(ibtopo_chassis_count(t), 1);
	ch = ibtopo_chassis_get(t, 0);
	/* spine index 2 * (slot - 1) + anafa; the line's is its slot */
	ck_assert_ptr_eq(ibtopo_chassis_spine(ch, 3), s2);
	ck_assert_ptr_eq(ibtopo_chassis_spine(ch, 1), s);
	ck_assert_ptr_eq(ibtopo_chassis_line(ch, 2), l);
	ck_assert_uint_eq(ibtopo_chassis_guid(ch), 0x20);
	ck_assert_str_eq(ibtopo_chassis_type_str(s2), "ISR4700");
	ibtopo_unref(t);
}
END_TEST

/* ISR4200 spine, sLB-8 line numbering, and the give-up case */
START_TEST(test_isr4200_slb8)
{
	struct ibtopo *t;
	struct ibtopo_node *l, *s, *l8, *s4;
	static const unsigned slb8_a2[] = { 4, 4, 4, 8, 8, 8, 3, 3, 3, 7, 7, 7 };

	ck_assert_int_eq(ibtopo_new(&t), 0);
	l = mk(t, SW, 24, 0x10, 0, VTR, SLB24, NULL);
	s = mk(t, SW, 36, 0x20, 0, VTR, SFB4200, NULL);
	l8 = mk(t, SW, 24, 0x30, 0, VTR, SLB8, NULL);
	s4 = mk(t, SW, 24, 0x40, 0, VTR, SFB4, NULL);
	wire(s, 9, l, 7);
	wire(s4, 4, l8, 1);
	ck_assert_int_eq(ibtopo_group_chassis(t), 0);
	/* s: sfb4200_slot_2_slb[7] = 2; l: line_slot_2_sfb4200[9] = 3 */
	ck_pos(s, 6, 2, 2, 1);
	ck_pos(l, 6, 1, 3, 1);
	ck_assert_str_eq(ibtopo_chassis_type_str(s), "ISR4200");
	/* l8 on s4's port 4: line_slot_2_sfb4[4] = 1, anafa_line_slot_2_sfb4[4] = 2 */
	ck_pos(l8, 2, 1, 1, 2);
	for (unsigned p = 13; p <= 24; p++)
		ck_assert_uint_eq(ext(l8, p), slb8_a2[p - 13]);
	ck_assert_uint_eq(ibtopo_chassis_count(t), 2);
	ck_assert_ptr_eq(ibtopo_chassis_spine(ibtopo_chassis_get(t, 1), 2), s);
	ck_assert_ptr_eq(ibtopo_chassis_line(ibtopo_chassis_get(t, 1), 7), l);
	ibtopo_unref(t);

	/* an sFB-4200 whose line comes in on line port 5 gets slot 0 (sfb4200_slot_2_slb[5]):
	 * libibnetdisc's insert_spine() fails and so does the whole grouping */
	ck_assert_int_eq(ibtopo_new(&t), 0);
	l = mk(t, SW, 24, 0x10, 0x77, VTR, SLB24, NULL);
	s = mk(t, SW, 36, 0x20, 0x77, VTR, SFB4200, NULL);
	mk(t, SW, 8, 0x50, 0x99, MLX, 0, NULL);
	mk(t, SW, 8, 0x60, 0x99, MLX, 0, NULL);
	wire(s, 9, l, 5);
	ck_assert_int_eq(ibtopo_group_chassis(t), -EPROTO);
	ck_pos(s, 6, 2, 0, 1);
	ck_assert_uint_eq(ibtopo_chassis_count(t), 0);
	ck_assert_ptr_null(ibtopo_chassis_get(t, 0));
	for (unsigned i = 0; i < ibtopo_node_count(t, IBTOPO_NODE_ANY); i++)
		ck_assert_ptr_null(ibtopo_node_chassis(ibtopo_node_get(t, IBTOPO_NODE_ANY, i)));
	ck_assert_int_eq(ibtopo_group_chassis(t), -EPROTO);
	ibtopo_unref(t);

	/* a Mellanox "L13/U1" on a spine: line index 3 * 12 + 1 = 37 is no slot; the spine's
	 * own pass skips it, the passes after it give up */
	ck_assert_int_eq(ibtopo_new(&t), 0);
	l = mk(t, SW, 24, 0x10, 0, VTR, SLB24, NULL);
	s = mk(t, SW, 24, 0x20, 0, VTR, SFB4, NULL);
	l8 = mk(t, SW, 36, 0x30, 0, MLX, IS4, "MF0;m:T/L13/U1");
	wire(s, 1, l, 1);
	wire(s, 2, l8, 1);
	ck_assert_int_eq(ibtopo_group_chassis(t), -EPROTO);
	ibtopo_unref(t);
	/* "L12/U3" is line 36, the last */
	ck_assert_int_eq(ibtopo_new(&t), 0);
	l = mk(t, SW, 24, 0x10, 0, VTR, SLB24, NULL);
	s = mk(t, SW, 24, 0x20, 0, VTR, SFB4, NULL);
	l8 = mk(t, SW, 36, 0x30, 0, MLX, IS4, "MF0;m:T/L12/U3");
	wire(s, 1, l, 1);
	wire(s, 2, l8, 1);
	ck_assert_int_eq(ibtopo_group_chassis(t), 0);
	ck_assert_ptr_eq(ibtopo_chassis_line(ibtopo_chassis_get(t, 0), 36), l8);
	ibtopo_unref(t);
}
END_TEST

/* Mellanox IS4: "MF0;<system>:<type>/<slot>[:<board>]/U<asic>" */
START_TEST(test_mellanox)
{
	struct ibtopo *t;
	struct ibtopo_node *a, *b, *c, *d, *e, *f, *g;
	struct ibtopo_chassis *ch;
	char buf[8];

	ck_assert_int_eq(ibtopo_new(&t), 0);
	a = mk(t, SW, 36, 0x10, 0xabc, MLX, IS4, "MF0;spine-sys:IS5600/S02/U1");
	b = mk(t, SW, 36, 0x20, 0xabc, MLX, IS4, "MF0;s:ABCDEFGHIJKLMNOPQRSTUVWXY/L05/U1");
	c = mk(t, SW, 36, 0x30, 0xabc, MLX, IS4, "MF0;s:IS5600/L07:board/U3");
	d = mk(t, CA, 2, 0x40, 0xabc, MLX, 0x1003, "host");
	e = mk(t, SW, 36, 0x50, 0xabc, MLX, IS4, "MF0;s:IS5600/Q01/U1");  /* no such slot kind */
	f = mk(t, SW, 36, 0x60, 0xabc, MLX, IS4, "MF0;s:IS5600/L40/U1");  /* slot out of range */
	g = mk(t, SW, 36, 0x70, 0x123, MLX, 0x1234, "MF0;s:IS5600/L01/U1"); /* not an IS4 */
	ck_assert_int_eq(ibtopo_group_chassis(t), 0);

	ck_pos(a, 0, 2, 2, 1);
	ck_pos(b, 0, 1, 5, 1);
	ck_pos(c, 0, 1, 7, 3);
	ck_pos(e, 0, 0, 0, 1); /* the ASIC number is read before the slot kind is refused */
	ck_pos(f, 0, 1, 0, 1);
	ck_pos(g, 0, 0, 0, 0);
	/* one group of 6 by system image GUID (g is alone with its own) */
	ck_assert_uint_eq(ibtopo_chassis_count(t), 2);
	ch = ibtopo_chassis_get(t, 0);
	ck_assert_uint_eq(ibtopo_chassis_guid(ch), 0x123); /* g comes first in libibnetdisc's list */
	ck_assert_uint_eq(ibtopo_chassis_num(ch), 0);
	ch = ibtopo_chassis_get(t, 1);
	ck_assert_uint_eq(ibtopo_chassis_guid(ch), 0xabc);
	ck_assert_uint_eq(ibtopo_chassis_num(ch), 1);
	ck_assert_ptr_eq(ibtopo_chassis_spine(ch, 2), a);
	ck_assert_ptr_eq(ibtopo_chassis_line(ch, 5), b);
	ck_assert_ptr_eq(ibtopo_chassis_line(ch, 7), c);
	/* the nodes no description placed: in libibnetdisc's order e, d, pushed in front */
	ck_assert_uint_eq(ibtopo_chassis_node_count(ch), 2);
	ck_assert_ptr_eq(ibtopo_chassis_node(ch, 0), d);
	ck_assert_ptr_eq(ibtopo_chassis_node(ch, 1), e);
	ck_assert_ptr_null(ibtopo_chassis_node(ch, 2));
	/* f went to line slot 0, which no one prints, but it is in the chassis */
	ck_assert_ptr_eq(ibtopo_node_chassis(f), ch);
	ck_assert_ptr_null(ibtopo_node_chassis(g));

	ck_assert_str_eq(ibtopo_chassis_type_str(a), "IS5600");
	ck_assert_str_eq(ibtopo_chassis_type_str(b), "ABCDEFGHIJKLMNOPQRS"); /* 19 characters */
	ck_assert_ptr_null(ibtopo_chassis_type_str(f));
	ck_assert_ptr_null(ibtopo_chassis_type_str(d));
	ck_assert_str_eq(slot_str(a), "Spine 2 Chip 1");
	ck_assert_str_eq(slot_str(c), "Line 7 Chip 3");
	ck_assert_str_eq(slot_str(f), "Line 0 Chip 1");
	ck_assert_ptr_null(slot_str(e));
	ck_assert_ptr_null(slot_str(g));
	/* truncated as snprintf does */
	ck_assert_str_eq(ibtopo_node_chassis_slot_str(c, buf, sizeof(buf)), "Line 7 ");

	/* line ports 1-18 are external 1-18 */
	for (unsigned p = 1; p <= 36; p++) {
		ck_assert_uint_eq(ext(b, p), p <= 18 ? p : 0);
		ck_assert_uint_eq(ext(c, p), p <= 18 ? p : 0);
		ck_assert_uint_eq(ext(a, p), 0);
		ck_assert_uint_eq(ext(f, p), 0);
	}
	ibtopo_unref(t);
}
END_TEST

/* libibnetdisc's spinenode[19] is its linenode[0]: an "S19" takes "L00"'s place */
START_TEST(test_mellanox_slot_overlap)
{
	struct ibtopo *t;
	struct ibtopo_node *h, *g, *k;
	struct ibtopo_chassis *ch;

	ck_assert_int_eq(ibtopo_new(&t), 0);
	h = mk(t, SW, 36, 0x10, 0xdef, MLX, IS4, "MF0;a:T/L00/U1");
	g = mk(t, SW, 36, 0x20, 0xdef, MLX, IS4, "MF0;a:T/S19/U1");
	k = mk(t, SW, 36, 0x30, 0xdef, MLX, IS4, "MF0;a:T/S+7/U-254"); /* atoi(): 7 and 2 */
	ck_assert_int_eq(ibtopo_group_chassis(t), 0);
	ch = ibtopo_chassis_get(t, 0);
	ck_assert_ptr_eq(ibtopo_node_chassis(g), ch);
	ck_assert_ptr_null(ibtopo_node_chassis(h));
	ck_assert_ptr_null(ibtopo_chassis_spine(ch, 19));
	ck_assert_ptr_null(ibtopo_chassis_line(ch, 0));
	ck_pos(k, 0, 2, 7, 2);
	ck_assert_ptr_eq(ibtopo_chassis_spine(ch, 7), k);
	ibtopo_unref(t);
}
END_TEST

/* System image GUIDs: generic, Topspin/InfiniCon, Xsigo, groups of one */
START_TEST(test_system_guid)
{
	struct ibtopo *t;
	struct ibtopo_node *g1, *g2, *g3, *one, *none, *ts1, *ts2, *ic, *xl, *xh, *xs, *xt, *x0a, *x0b, *v;
	struct ibtopo_chassis *ch;

	ck_assert_int_eq(ibtopo_new(&t), 0);
	g1 = mk(t, SW, 8, 0x10, 0x5000, 0x1234, 1, NULL);
	g2 = mk(t, SW, 8, 0x20, 0x5000, 0x1234, 1, NULL);
	g3 = mk(t, CA, 2, 0x30, 0x5000, 0x1234, 1, NULL);
	one = mk(t, CA, 1, 0x40, 0x6000, 0x1234, 1, NULL);
	none = mk(t, CA, 1, 0x50, 0, 0x1234, 1, NULL);
	/* Topspin and InfiniCon: byte 4 of the system GUID is the slot */
	ts1 = mk(t, SW, 8, 0x60, 0x0005ad0003123456ULL, 0x0005ad, 1, NULL);
	ts2 = mk(t, SW, 8, 0x70, 0x0005ad0007123456ULL, 0x0005ad, 1, NULL);
	ic = mk(t, SW, 8, 0x80, 0x0005ad00ff123456ULL, 0x00066a, 1, NULL);
	/* Xsigo: a leaf-one switch, an HCA behind it, another switch of the box, a lone TCA,
	 * two adapters without a port 1: chassis GUID 0 (libibnetdisc reads ports[1] past the
	 * end of their arrays, and gets 0 when the memory there is) */
	xl = mk(t, SW, 8, 0x90, 0x0013970102001234ULL, 0x001397, 1, NULL);
	xh = mk(t, CA, 1, 0xa0, 0x0013970200005678ULL, 0x001397, 1, NULL);
	xs = mk(t, SW, 8, 0xb0, 0x0013970105001234ULL, 0x000001, 1, NULL);
	xt = mk(t, CA, 1, 0xc0, 0x0013970300009999ULL, 0x001397, 1, NULL);
	x0a = mk(t, CA, 0, 0xd0, 0x0013970200000001ULL, 0x001397, 1, NULL);
	x0b = mk(t, CA, 0, 0xe0, 0x0013970300000002ULL, 0x001397, 1, NULL);
	/* a Voltaire node is never grouped by GUID */
	v = mk(t, CA, 1, 0xf0, 0x5000, VTR, 1, NULL);
	wire(xh, 1, xl, 3);
	/* a port number set before (a cache file's) stays where grouping sets none */
	g1->ports[2]->ext_num = 9;
	ck_assert_int_eq(ibtopo_group_chassis(t), 0);

	/* in libibnetdisc's node order (creation reversed) a chassis GUID's first node makes its
	 * chassis: x0b (GUID 0, no port 1), xt, xs (Xsigo box), ic (Topspin), one, g3 */
	ck_assert_uint_eq(ibtopo_chassis_count(t), 6);
	ch = ibtopo_chassis_get(t, 0);
	ck_assert_uint_eq(ibtopo_chassis_guid(ch), 0);
	ck_assert_uint_eq(ibtopo_chassis_num(ch), 1);
	ck_assert_uint_eq(ibtopo_chassis_node_count(ch), 2);
	ck_assert_ptr_eq(ibtopo_chassis_node(ch, 0), x0a);
	ck_assert_ptr_eq(ibtopo_chassis_node(ch, 1), x0b);
	ch = ibtopo_chassis_get(t, 1);
	ck_assert_uint_eq(ibtopo_chassis_guid(ch), 0x0013970300009999ULL);
	ck_assert_uint_eq(ibtopo_chassis_num(ch), 0);
	ck_assert_ptr_null(ibtopo_node_chassis(xt));
	ch = ibtopo_chassis_get(t, 2);
	ck_assert_uint_eq(ibtopo_chassis_guid(ch), 0x0013970100001234ULL);
	ck_assert_uint_eq(ibtopo_chassis_num(ch), 2);
	ck_assert_uint_eq(ibtopo_chassis_node_count(ch), 3);
	ck_assert_ptr_eq(ibtopo_chassis_node(ch, 0), xl);
	ck_assert_ptr_eq(ibtopo_chassis_node(ch, 1), xh);
	ck_assert_ptr_eq(ibtopo_chassis_node(ch, 2), xs);
	ch = ibtopo_chassis_get(t, 3);
	ck_assert_uint_eq(ibtopo_chassis_guid(ch), 0x0005ad0000123456ULL);
	ck_assert_uint_eq(ibtopo_chassis_num(ch), 3);
	ck_assert_uint_eq(ibtopo_chassis_node_count(ch), 3);
	ck_assert_ptr_eq(ibtopo_chassis_node(ch, 0), ts1);
	ck_assert_ptr_eq(ibtopo_chassis_node(ch, 2), ic);
	ch = ibtopo_chassis_get(t, 4);
	ck_assert_uint_eq(ibtopo_chassis_guid(ch), 0x6000);
	ck_assert_uint_eq(ibtopo_chassis_num(ch), 0);
	ck_assert_ptr_null(ibtopo_node_chassis(one));
	ch = ibtopo_chassis_get(t, 5);
	ck_assert_uint_eq(ibtopo_chassis_guid(ch), 0x5000);
	ck_assert_uint_eq(ibtopo_chassis_num(ch), 4);
	ck_assert_ptr_eq(ibtopo_chassis_node(ch, 0), g1);
	ck_assert_ptr_eq(ibtopo_chassis_node(ch, 1), g2);
	ck_assert_ptr_eq(ibtopo_chassis_node(ch, 2), g3);
	ck_assert_ptr_eq(ibtopo_node_chassis(g3), ch);
	ck_assert_ptr_eq(ibtopo_chassis_find_num(t, 4), ch);
	ck_assert_ptr_null(ibtopo_node_chassis(none));
	ck_assert_ptr_null(ibtopo_node_chassis(v));
	ck_assert_ptr_eq(ibtopo_node_chassis(ts2), ibtopo_chassis_get(t, 3));
	ck_assert_ptr_eq(ibtopo_node_chassis(xh), ibtopo_chassis_get(t, 2));
	ck_assert_uint_eq(ext(g1, 2), 9);
	ck_assert_ptr_null(ibtopo_chassis_type_str(g1));
	ck_assert_ptr_null(slot_str(g1));
	ck_assert(ibtopo_is_xsigo_guid(0x0013970102001234ULL));
	ck_assert(!ibtopo_is_xsigo_guid(0x0013980102001234ULL));
	ck_assert(ibtopo_is_xsigo_hca(0x0013970200005678ULL));
	ck_assert(!ibtopo_is_xsigo_hca(0x0013970300005678ULL));
	ck_assert(ibtopo_is_xsigo_tca(0x0013970300005678ULL));
	ibtopo_unref(t);
}
END_TEST

/* Chassis numbers and node counts are unsigned chars in libibnetdisc */
START_TEST(test_wrap)
{
	struct ibtopo *t;
	struct ibtopo_chassis *ch;

	/* 300 pairs: the 256th pair's chassis gets 0 from its first node, so its second takes
	 * the next number, 1; the 257th gets 2 */
	ck_assert_int_eq(ibtopo_new(&t), 0);
	for (unsigned i = 300; i-- > 0;) {
		mk(t, CA, 1, 0x100000 + 2 * i, 0x900000 + i, 0x1234, 1, NULL);
		mk(t, CA, 1, 0x100001 + 2 * i, 0x900000 + i, 0x1234, 1, NULL);
	}
	ck_assert_int_eq(ibtopo_group_chassis(t), 0);
	ck_assert_uint_eq(ibtopo_chassis_count(t), 300);
	for (unsigned i = 0; i < 300; i++) {
		ch = ibtopo_chassis_get(t, i);
		ck_assert_uint_eq(ibtopo_chassis_guid(ch), 0x900000 + i);
		ck_assert_uint_eq(ibtopo_chassis_num(ch), i < 255 ? i + 1 : (i - 254) & 0xff);
		ck_assert_uint_eq(ibtopo_chassis_node_count(ch), 2);
	}
	/* the first chassis with a number is what ibnetdiscover prints the GUID of */
	ck_assert_uint_eq(ibtopo_chassis_guid(ibtopo_chassis_find_num(t, 1)), 0x900000);
	ck_assert_uint_eq(ibtopo_chassis_guid(ibtopo_chassis_find_num(t, 255)), 0x900000 + 254);
	ibtopo_unref(t);

	/* 256 nodes of one system count 0 (no chassis), 258 count 2 */
	for (unsigned total = 256; total <= 258; total += 2) {
		ck_assert_int_eq(ibtopo_new(&t), 0);
		for (unsigned i = 0; i < total; i++)
			mk(t, CA, 1, 0x1000 + 2 * i, 0x777, 0x1234, 1, NULL);
		ck_assert_int_eq(ibtopo_group_chassis(t), 0);
		ck_assert_uint_eq(ibtopo_chassis_count(t), 1);
		ch = ibtopo_chassis_get(t, 0);
		ck_assert_uint_eq(ibtopo_chassis_num(ch), total == 256 ? 0 : 1);
		ck_assert_uint_eq(ibtopo_chassis_node_count(ch), total == 256 ? 0 : 258);
		ibtopo_unref(t);
	}
}
END_TEST

/* Non-Voltaire nodes find a Voltaire chassis by its GUID, except the first one */
START_TEST(test_voltaire_guid_shared)
{
	for (unsigned extra = 2; extra <= 3; extra++) {
		struct ibtopo *t;
		struct ibtopo_node *l, *s, *m, *o[3];
		struct ibtopo_chassis *v, *c;

		ck_assert_int_eq(ibtopo_new(&t), 0);
		l = mk(t, SW, 24, 0x10, 0, VTR, SLB24, NULL);
		s = mk(t, SW, 24, 0x31, 0, VTR, SFB4, NULL);
		/* a Mellanox IS4 wired to the spine takes a line slot of the Voltaire chassis */
		m = mk(t, SW, 36, 0x40, 0x4444, MLX, IS4, "MF0;m:T/L02/U2");
		wire(s, 1, l, 1);
		wire(s, 2, m, 1);
		for (unsigned i = 0; i < extra; i++)
			o[i] = mk(t, CA, 1, 0x100 + 2 * i, 0x30, 0x1234, 1, NULL);
		ck_assert_int_eq(ibtopo_group_chassis(t), 0);
		v = ibtopo_chassis_get(t, 0);
		ck_assert_uint_eq(ibtopo_chassis_guid(v), 0x30);
		ck_assert_ptr_eq(ibtopo_chassis_line(v, 1), l);
		/* 3 * (2 - 1) + 2 */
		ck_assert_ptr_eq(ibtopo_chassis_line(v, 5), m);
		ck_assert_ptr_eq(ibtopo_node_chassis(m), v);
		ck_assert_str_eq(ibtopo_chassis_type_str(m), "T");
		for (unsigned p = 1; p <= 18; p++)
			ck_assert_uint_eq(ext(m, p), p);
		/* the last created extra node makes a chassis of its own (0x30 too) */
		ck_assert_uint_eq(ibtopo_chassis_count(t), 3);
		c = ibtopo_chassis_get(t, 1);
		ck_assert_uint_eq(ibtopo_chassis_guid(c), 0x30);
		ck_assert_uint_eq(ibtopo_chassis_num(c), 0);
		ck_assert_uint_eq(ibtopo_chassis_guid(ibtopo_chassis_get(t, 2)), 0x4444);
		if (extra == 2) {
			/* the other one counts 1 in the Voltaire chassis: nobody joins */
			ck_assert_uint_eq(ibtopo_chassis_node_count(v), 0);
			ck_assert_ptr_null(ibtopo_node_chassis(o[0]));
			ck_assert_ptr_null(ibtopo_node_chassis(o[1]));
		} else {
			/* the other two count 2: all three join the Voltaire chassis */
			ck_assert_uint_eq(ibtopo_chassis_node_count(v), 3);
			ck_assert_ptr_eq(ibtopo_chassis_node(v, 0), o[0]);
			ck_assert_ptr_eq(ibtopo_chassis_node(v, 2), o[2]);
			ck_assert_ptr_eq(ibtopo_node_chassis(o[2]), v);
		}
		ibtopo_unref(t);
	}
}
END_TEST

START_TEST(test_null_and_empty)
{
	struct ibtopo *t;
	char buf[16];

	ck_assert_int_eq(ibtopo_group_chassis(NULL), -EINVAL);
	ck_assert_uint_eq(ibtopo_chassis_count(NULL), 0);
	ck_assert_ptr_null(ibtopo_chassis_get(NULL, 0));
	ck_assert_ptr_null(ibtopo_chassis_find_num(NULL, 1));
	ck_assert_uint_eq(ibtopo_chassis_num(NULL), 0);
	ck_assert_uint_eq(ibtopo_chassis_guid(NULL), 0);
	ck_assert_ptr_null(ibtopo_chassis_spine(NULL, 1));
	ck_assert_ptr_null(ibtopo_chassis_line(NULL, 1));
	ck_assert_uint_eq(ibtopo_chassis_node_count(NULL), 0);
	ck_assert_ptr_null(ibtopo_chassis_node(NULL, 0));
	ck_assert_ptr_null(ibtopo_node_chassis(NULL));
	ck_assert_uint_eq(ibtopo_node_chassis_type(NULL) + ibtopo_node_chassis_slot(NULL) +
			  ibtopo_node_chassis_slotnum(NULL) + ibtopo_node_chassis_anafanum(NULL), 0);
	ck_assert_ptr_null(ibtopo_chassis_type_str(NULL));
	ck_assert_ptr_null(ibtopo_node_chassis_slot_str(NULL, buf, sizeof(buf)));
	ck_assert_ptr_null(ibtopo_port_ext_str(NULL, buf, sizeof(buf)));
	ck_assert_int_eq(ibtopo_new(&t), 0);
	ck_assert_int_eq(ibtopo_group_chassis(t), 0);
	ck_assert_uint_eq(ibtopo_chassis_count(t), 0);
	ck_assert_ptr_null(ibtopo_chassis_find_num(t, 256));
	ibtopo_unref(t);
}
END_TEST

Suite *make_chassis_suite(void)
{
	Suite *s = suite_create("chassis");
	TCase *tc = tcase_create("chassis");

	tcase_add_test(tc, test_isr9096);
	tcase_add_test(tc, test_isr9288);
	tcase_add_test(tc, test_isr2012);
	tcase_add_test(tc, test_isr4700);
	tcase_add_test(tc, test_isr4200_slb8);
	tcase_add_test(tc, test_mellanox);
	tcase_add_test(tc, test_mellanox_slot_overlap);
	tcase_add_test(tc, test_system_guid);
	tcase_add_test(tc, test_wrap);
	tcase_add_test(tc, test_voltaire_guid_shared);
	tcase_add_test(tc, test_null_and_empty);
	suite_add_tcase(s, tc);
	return s;
}
