/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dump_fts: the forwarding tables of every switch of the fabric, a drop-in replacement for
 * infiniband-diags' dump_fts (ibroute's output for each switch a discovery finds, in
 * libibnetdisc's order, addressed by the directed route the discovery used).
 *
 *   dump_fts [options] [<startlid> [<endlid>]]
 *
 * Destinations are named from the discovery, not queried.  The tables of all switches are
 * read at once through the scheduler; the reference reads one block after the other.  A
 * block it cannot read leaves the previous block's contents in its buffer (for multicast,
 * even the previous switch's), which it prints again: so does this one.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fdb.h"
#include "common/ibdiag-topo.h"

/* One switch and the queries of its table. */
struct sw {
	struct ibtopo_node *node;
	struct ibpath_path *path;
	char portid[300];
	struct ibstruct_smp_switch_info si;
	unsigned nports;
	unsigned startlid, endlid;  /* the range printed */
	unsigned first_block;       /* LFT/MFT block of the first query */
	unsigned nblocks;
	unsigned chunks;            /* MFT: queries per block */
	struct fdb_query *q;        /* nblocks (* chunks) queries */
};

static void sw_init(struct sw *s, struct ibtopo_node *node)
{
	const struct ibtopo_dr_path *dr = ibtopo_node_dr_path(node);
	const uint8_t *si = ibtopo_node_switch_info(node);
	uint8_t zero[IBTOPO_SMP_DATA_SIZE] = { 0 };
	char hops[4 * (IBTOPO_MAX_HOPS + 1) + 1];

	s->node = node;
	s->nports = ibtopo_node_num_ports(node);
	ibstruct_smp_switch_info_unpack(&s->si, si ? si : zero, IBTOPO_SMP_DATA_SIZE);
	if (ibpath_path_new(&s->path, IBPATH_KIND_DR) < 0 ||
	    ibpath_path_set_dr_ports(s->path, dr->port, (unsigned)dr->hops + 1) < 0)
		IBPANIC("cannot make the directed route of a switch");
	/* libibnetdisc's path_portid: a directed route with DrSLID/DrDLID left 0 */
	ibtopo_dr_path_format(dr, hops, sizeof(hops));
	snprintf(s->portid, sizeof(s->portid), "DR path slid %u; dlid %u; %s", dr->drslid,
		 dr->drdlid, hops);
}

/* ---- Unicast ------------------------------------------------------------------------------- */

static void lft_queries(struct sw *s, int startlid, int endlid)
{
	int endblock = fdb_lft_range(s->si.linearFDBTop, &endlid);
	int startblock = startlid / FDB_LFT_BLOCK;

	s->startlid = (unsigned)startlid;
	s->endlid = (unsigned)endlid;
	s->first_block = (unsigned)startblock;
	s->nblocks = endblock > startblock ? (unsigned)(endblock - startblock) : 0;
	s->q = calloc((size_t)s->nblocks + 1, sizeof(*s->q));
	if (!s->q)
		IBPANIC("out of memory");
	for (unsigned b = 0; b < s->nblocks; b++)
		fdb_set_query(&s->q[b], s->path, IBSTRUCT_SMP_LINEAR_FORWARDING_TABLE_ATTR_ID,
			  s->first_block + b);
}

struct lookup {
	const struct ibtopo *topo;
	struct fdb_dest dest;
};

static const struct fdb_dest *dest_of(void *user, int lid)
{
	struct lookup *l = user;
	struct ibtopo_port *port;
	struct ibtopo_node *node;

	if (lid <= 0 || lid > 0xffff)
		return NULL;
	port = ibtopo_find_port_lid(l->topo, (uint16_t)lid);
	if (!port)
		return NULL;
	node = ibtopo_port_node(port);
	l->dest = (struct fdb_dest){
		.known = true,
		.node_type = (uint8_t)ibtopo_node_type(node),
		.node_guid = ibtopo_node_guid(node),
		.port_guid = ibtopo_port_guid(port),
		.base_lid = ibtopo_port_base_lid(port),
		.lmc = ibtopo_port_lmc(port),
		.desc = ibtopo_node_desc(node),
	};
	return &l->dest;
}

static void lft_print(const struct fdb_opts *o, const struct ibtopo *topo, struct sw *s,
		      const char *name)
{
	uint8_t *lft = calloc((size_t)s->nblocks + 1, FDB_LFT_BLOCK);
	struct lookup l = { .topo = topo };
	int n;

	if (!lft)
		IBPANIC("out of memory");
	fdb_lft_header((int)s->startlid, (int)s->endlid, s->portid, ibtopo_node_guid(s->node), name);
	for (unsigned b = 0; b < s->nblocks; b++) {
		uint8_t *dst = lft + (size_t)b * FDB_LFT_BLOCK;

		if (!s->q[b].rc) {
			memcpy(dst, s->q[b].data, FDB_LFT_BLOCK);
			continue;
		}
		fprintf(stderr, "SubnGet(LFT) failed on switch '%s' %s Node GUID 0x%" PRIx64
				" SMA LID %d; MAD status 0x%x AM 0x%x\n",
			name, s->portid, ibtopo_node_guid(s->node), ibtopo_node_sma_lid(s->node),
			s->q[b].status, s->first_block + b);
		/* the reference's buffer still holds the block before */
		if (b)
			memcpy(dst, dst - FDB_LFT_BLOCK, FDB_LFT_BLOCK);
	}
	n = fdb_lft_lines(&o->pr, lft, (int)s->first_block * FDB_LFT_BLOCK,
			  (int)s->nblocks * FDB_LFT_BLOCK, (int)s->startlid, (int)s->endlid,
			  s->nports, dest_of, &l);
	fdb_footer(&o->pr, n, false);
	free(lft);
}

/* ---- Multicast ----------------------------------------------------------------------------- */

static void mft_queries(const struct fdb_opts *o, struct sw *s, unsigned startlid,
			unsigned endlid)
{
	unsigned lastblock;

	fdb_mft_range(&o->pr, s->si.multicastFDBCap, s->si.multicastFDBTop, &startlid, &endlid);
	s->startlid = startlid;
	s->endlid = endlid;
	s->first_block = startlid / FDB_MFT_BLOCK;
	lastblock = endlid / FDB_MFT_BLOCK;
	s->nblocks = lastblock >= s->first_block ? lastblock - s->first_block + 1 : 0;
	s->chunks = (s->nports + 1 + 15) / 16;
	if (s->chunks > FDB_MFT_CHUNKS)
		s->chunks = FDB_MFT_CHUNKS;
	s->q = calloc((size_t)s->nblocks * s->chunks + 1, sizeof(*s->q));
	if (!s->q)
		IBPANIC("out of memory");
	for (unsigned b = 0; b < s->nblocks; b++)
		for (unsigned j = 0; j < s->chunks; j++)
			fdb_set_query(&s->q[b * s->chunks + j], s->path,
				  IBSTRUCT_SMP_MULTICAST_FORWARDING_TABLE_ATTR_ID,
				  (s->first_block + b - FDB_MIN_MLID / FDB_MFT_BLOCK) | (j << 28));
}

/* `last` is the reference's static MFT buffer: what the last block read left in it. */
static void mft_print(const struct fdb_opts *o, struct sw *s, const char *name,
		      fdb_mft_block_t last)
{
	fdb_mft_block_t *mft = calloc((size_t)s->nblocks + 1, sizeof(*mft));
	int n;

	if (!mft)
		IBPANIC("out of memory");
	fdb_mft_header(&o->pr, s->startlid, s->endlid, s->portid, ibtopo_node_guid(s->node), name,
		       s->nports, s->si.multicastFDBCap, s->si.multicastFDBTop);
	for (unsigned b = 0; b < s->nblocks; b++) {
		for (unsigned j = 0; j < s->chunks; j++) {
			const struct fdb_query *r = &s->q[b * s->chunks + j];

			if (!r->rc) {
				fdb_mft_chunk(last, j, r->data);
				continue;
			}
			fprintf(stderr, "SubnGet(MFT) failed on switch '%s' %s Node GUID 0x%" PRIx64
					" SMA LID %d; MAD status 0x%x AM 0x%x\n",
				name, s->portid, ibtopo_node_guid(s->node),
				ibtopo_node_sma_lid(s->node), r->status, r->attr_mod);
		}
		memcpy(mft[b], last, sizeof(mft[b]));
	}
	n = fdb_mft_lines(&o->pr, mft, s->first_block, s->nblocks, s->startlid, s->endlid,
			  s->nports);
	fdb_footer(&o->pr, n, true);
	free(mft);
}

/* Whether the port of -C/-P opens: the reference's discovery opens it first and fails
 * with its own messages, not with the common "Failed to open" exit. */
static bool port_opens(void)
{
	struct ibmadrpc_error *err = NULL;
	struct ibmadrpc_port *p = NULL;

	if (ibmadrpc_port_open_name(&p, ibd.ca, ibd.ca_port, &err) < 0) {
		ibdiag_show_error(err);
		ibmadrpc_error_free(err);
		return false;
	}
	ibmadrpc_port_close(p);
	return true;
}

int main(int argc, char **argv)
{
	static const char *const examples[] = {
		" -- Unicast examples:",
		"-a\t# same, but dump all lids, even with invalid out ports",
		"-n\t# simple dump format - no destination resolving",
		"10\t# dump lids starting from 10",
		"0x10 0x20\t# dump lid range",
		" -- Multicast examples:",
		"-M\t# dump all non empty mlids of switch with lid 4",
		"-M 0xc010 0xc020\t# same, but with range",
		"-M -n\t# simple dump format",
		NULL,
	};
	static fdb_mft_block_t mft_buffer;
	struct fdb_opts o = { .pr.unknown = ": (node info not available fabric scan)" };
	unsigned startlid = 0, endlid = 0, nsw, i, total = 0;
	struct ibdiag_nnmap *map;
	struct ibdiag_port *port;
	struct ibtopo *topo = NULL;
	struct fdb_query *all;
	struct sw *sws;
	int first;

	first = ibdiag_process_opts(argc, argv, &o, "KGDLs", fdb_opt_table, fdb_process_opt,
				    "[<dest dr_path|lid|guid> [<startlid> [<endlid>]]]", examples);
	argc -= first;
	argv += first;
	if (argc > 0)
		startlid = (unsigned)strtoul(argv[0], NULL, 0);
	if (argc > 1)
		endlid = (unsigned)strtoul(argv[1], NULL, 0);

	map = ibdiag_nnmap_open(o.map_file);
	o.pr.map = map;
	if (!port_opens()) {
		/* libibnetdisc's complaint, then dump_fts's own */
		fprintf(stderr, "./libibnetdisc/ibnetdisc.c:802; can't open MAD port (%s:%d)\n",
			ibd.ca ? ibd.ca : "(null)", (int)ibd.ca_port);
		fprintf(stderr, "Failed to discover fabric\n");
		ibdiag_nnmap_close(map);
		free(o.map_file);
		return 255;
	}
	port = ibdiag_open_port();
	ibdiag_topo_discover(port, NULL, &topo);
	ibdiag_topo_print_errors(topo);
	if (!topo) {
		fprintf(stderr, "Failed to discover fabric\n");
		ibdiag_topo_close(port);
		ibdiag_nnmap_close(map);
		free(o.map_file);
		return 255;
	}

	/* every switch's queries in one batch */
	nsw = ibtopo_node_count(topo, IBTOPO_NODE_SWITCH);
	sws = calloc((size_t)nsw + 1, sizeof(*sws));
	if (!sws)
		IBPANIC("out of memory");
	for (i = 0; i < nsw; i++) {
		sw_init(&sws[i], ibtopo_node_get(topo, IBTOPO_NODE_SWITCH, i));
		if (o.multicast)
			mft_queries(&o, &sws[i], startlid, endlid);
		else
			lft_queries(&sws[i], (int)startlid, (int)endlid);
		total += sws[i].nblocks * (o.multicast ? sws[i].chunks : 1);
	}
	all = calloc((size_t)total + 1, sizeof(*all));
	if (!all)
		IBPANIC("out of memory");
	total = 0;
	for (i = 0; i < nsw; i++) {
		unsigned nq = sws[i].nblocks * (o.multicast ? sws[i].chunks : 1);

		memcpy(all + total, sws[i].q, nq * sizeof(*all));
		free(sws[i].q);
		sws[i].q = all + total;
		total += nq;
	}
	fdb_query_run(port, all, total);

	for (i = 0; i < nsw; i++) {
		struct sw *s = &sws[i];
		char *name = ibdiag_nnmap_name(map, ibtopo_node_guid(s->node),
					       ibtopo_node_desc(s->node));

		if (o.multicast)
			mft_print(&o, s, name, mft_buffer);
		else
			lft_print(&o, topo, s, name);
		free(name);
		ibpath_path_unref(s->path);
	}
	free(all);
	free(sws);
	ibtopo_unref(topo);
	ibdiag_topo_close(port);
	ibdiag_nnmap_close(map);
	free(o.map_file);
	return 0;
}
