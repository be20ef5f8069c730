/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibroute: a switch's unicast (LFT) or multicast (MFT) forwarding table, a drop-in
 * replacement for infiniband-diags' ibroute.
 *
 *   ibroute [options] [<dest dr_path|lid|guid> [<startlid> [<endlid>]]]
 *
 * The reference reads the table one block at a time and resolves each destination LID
 * with three SMPs in a row; here the blocks, and then the destinations, go out together
 * through the scheduler, and the output is printed from the answers in the reference's
 * order, so it is the same.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fdb.h"
#include "common/ibdiag-topo.h"

/* The target switch as check_switch() of the reference finds it. */
struct target {
	struct ibpath_path *path;
	char portid[160];
	unsigned nports;
	uint64_t guid;
	char nd[65];
	struct ibstruct_smp_switch_info si;
};

/* NULL, or the reason the target cannot be dumped (the reference's texts). */
static const char *check_switch(struct ibdiag_port *port, struct target *t)
{
	uint8_t ni[64] = { 0 }, nd[64] = { 0 }, si[64] = { 0 };
	struct ibstruct_smp_node_info info;

	if (ibdiag_smp_get(port, t->path, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, ni, NULL) < 0) {
		memset(ni, 0, sizeof(ni));
		fdb_xdump(stderr, "nodeinfo\n", ni, sizeof(ni));
		return "node info failed: valid addr?";
	}
	if (ibdiag_smp_get(port, t->path, IBSTRUCT_SMP_NODE_DESCRIPTION_ATTR_ID, 0, nd, NULL) < 0)
		return "node desc failed";
	memcpy(t->nd, nd, sizeof(nd));
	t->nd[64] = '\0';
	ibstruct_smp_node_info_unpack(&info, ni, sizeof(ni));
	if (info.nodeType != 2)
		return "not a switch";
	t->nports = info.numPorts;
	t->guid = info.nodeGUID;
	if (ibdiag_smp_get(port, t->path, IBSTRUCT_SMP_SWITCH_INFO_ATTR_ID, 0, si, NULL) < 0)
		return "switch info failed: is a switch node?";
	ibstruct_smp_switch_info_unpack(&t->si, si, sizeof(si));
	return NULL;
}

/* The destinations of LIDs first..last that the table sends to a valid port: NodeDesc,
 * PortInfo and NodeInfo of each (100 ms each, as the reference), all at once. */
struct dests {
	int first;
	int count;
	struct fdb_dest *dest;
	char (*desc)[65];
};

static void resolve_dests(struct ibdiag_port *port, struct dests *d, const uint8_t *lft,
			  int first, int last, unsigned nports)
{
	struct ibpath_path **paths;
	struct fdb_query *q;
	int n = last >= first ? last - first + 1 : 0, i, nq = 0;

	d->first = first;
	d->count = n;
	d->dest = calloc((size_t)n + 1, sizeof(*d->dest));
	d->desc = calloc((size_t)n + 1, sizeof(*d->desc));
	paths = calloc((size_t)n + 1, sizeof(*paths));
	q = calloc(3 * (size_t)n + 1, sizeof(*q));
	if (!d->dest || !d->desc || !paths || !q)
		IBPANIC("out of memory");
	for (i = 0; i < n; i++) {
		int lid = first + i;

		/* LID 0 is never resolved (the reference's first LMC range covers it) */
		if (lid < 1 || lft[i] > nports)
			continue;
		if (ibpath_path_new(&paths[i], IBPATH_KIND_IB) < 0)
			IBPANIC("out of memory");
		ibpath_path_set(paths[i], IBPATH_DLID, (uint64_t)lid);
		ibpath_path_set(paths[i], IBPATH_TIMEOUT_MS, 100);
		fdb_set_query(&q[nq++], paths[i], IBSTRUCT_SMP_NODE_DESCRIPTION_ATTR_ID, 0);
		fdb_set_query(&q[nq++], paths[i], IBSTRUCT_SMP_PORT_INFO_ATTR_ID, 0);
		fdb_set_query(&q[nq++], paths[i], IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0);
	}
	fdb_query_run(port, q, (size_t)nq);
	for (i = 0, nq = 0; i < n; i++) {
		struct ibstruct_smp_node_info ni;
		struct ibstruct_smp_port_info pi;
		struct fdb_dest *e = &d->dest[i];

		if (!paths[i])
			continue;
		if (!q[nq].rc && !q[nq + 1].rc && !q[nq + 2].rc) {
			memcpy(d->desc[i], q[nq].data, 64);
			d->desc[i][64] = '\0';
			ibstruct_smp_port_info_unpack(&pi, q[nq + 1].data, 64);
			ibstruct_smp_node_info_unpack(&ni, q[nq + 2].data, 64);
			e->known = true;
			e->node_type = ni.nodeType;
			e->node_guid = ni.nodeGUID;
			e->port_guid = ni.portGUID;
			e->base_lid = pi.LID;
			e->lmc = pi.LMC;
			e->desc = d->desc[i];
		}
		nq += 3;
		ibpath_path_unref(paths[i]);
	}
	free(paths);
	free(q);
}

static const struct fdb_dest *dest_of(void *user, int lid)
{
	const struct dests *d = user;

	if (!d->dest || lid < d->first || lid >= d->first + d->count)
		return NULL;
	return &d->dest[lid - d->first];
}

static void dump_unicast(struct ibdiag_port *port, struct fdb_opts *o, struct target *t,
			 int startlid, int endlid)
{
	int top = t->si.linearFDBTop, startblock, endblock, nblocks, block, n, failed = -1;
	struct dests d = { 0 };
	struct fdb_query *q;
	uint8_t *lft;
	char *name;

	endblock = fdb_lft_range(top, &endlid);
	name = ibdiag_nnmap_name(o->pr.map, t->guid, t->nd);
	fdb_lft_header(startlid, endlid, t->portid, t->guid, name);
	free(name);

	startblock = startlid / FDB_LFT_BLOCK;
	nblocks = endblock > startblock ? endblock - startblock : 0;
	q = calloc((size_t)nblocks + 1, sizeof(*q));
	lft = calloc((size_t)nblocks + 1, FDB_LFT_BLOCK);
	if (!q || !lft)
		IBPANIC("out of memory");
	for (block = 0; block < nblocks; block++)
		fdb_set_query(&q[block], t->path, IBSTRUCT_SMP_LINEAR_FORWARDING_TABLE_ATTR_ID,
			  (uint32_t)(startblock + block));
	fdb_query_run(port, q, (size_t)nblocks);
	/* the reference stops at a block it cannot read, after the lines of those before */
	for (block = 0; block < nblocks; block++) {
		if (q[block].rc) {
			failed = block;
			break;
		}
		memcpy(lft + (size_t)block * FDB_LFT_BLOCK, q[block].data, FDB_LFT_BLOCK);
	}
	if (failed >= 0)
		nblocks = failed;

	/* every LID the table sends somewhere, resolved at once */
	if (!o->pr.brief && nblocks > 0) {
		int first = startblock * FDB_LFT_BLOCK;

		resolve_dests(port, &d, lft, first, first + nblocks * FDB_LFT_BLOCK - 1, t->nports);
	}
	n = fdb_lft_lines(&o->pr, lft, startblock * FDB_LFT_BLOCK, nblocks * FDB_LFT_BLOCK,
			  startlid, endlid, t->nports, dest_of, &d);
	if (failed >= 0)
		fprintf(stderr, "SubnGet() failed; MAD status 0x%x AM 0x%x\n", q[failed].status,
			startblock + failed);
	else
		fdb_footer(&o->pr, n, false);
	free(d.dest);
	free(d.desc);
	free(lft);
	free(q);
}

static void dump_multicast(struct ibdiag_port *port, struct fdb_opts *o, struct target *t,
			   unsigned startlid, unsigned endlid)
{
	unsigned cap = t->si.multicastFDBCap, top = t->si.multicastFDBTop;
	unsigned chunks = (t->nports + 1 + 15) / 16, startblock, lastblock, nblocks, b, j;
	fdb_mft_block_t *mft;
	struct fdb_query *q;
	char *name;
	int n;

	fdb_mft_range(&o->pr, cap, top, &startlid, &endlid);
	name = ibdiag_nnmap_name(o->pr.map, t->guid, t->nd);
	fdb_mft_header(&o->pr, startlid, endlid, t->portid, t->guid, name, t->nports, cap, top);
	free(name);

	startblock = startlid / FDB_MFT_BLOCK;
	lastblock = endlid / FDB_MFT_BLOCK;
	nblocks = lastblock >= startblock ? lastblock - startblock + 1 : 0;
	if (chunks > FDB_MFT_CHUNKS)
		chunks = FDB_MFT_CHUNKS;
	q = calloc((size_t)nblocks * chunks + 1, sizeof(*q));
	mft = calloc((size_t)nblocks + 1, sizeof(*mft));
	if (!q || !mft)
		IBPANIC("out of memory");
	for (b = 0; b < nblocks; b++)
		for (j = 0; j < chunks; j++)
			fdb_set_query(&q[b * chunks + j], t->path,
				  IBSTRUCT_SMP_MULTICAST_FORWARDING_TABLE_ATTR_ID,
				  (startblock + b - FDB_MIN_MLID / FDB_MFT_BLOCK) | (j << 28));
	fdb_query_run(port, q, (size_t)nblocks * chunks);

	for (b = 0; b < nblocks; b++) {
		for (j = 0; j < chunks; j++) {
			const struct fdb_query *r = &q[b * chunks + j];

			if (r->rc) {
				/* the reference stops here, without its last line */
				n = fdb_mft_lines(&o->pr, mft, startblock, b, startlid, endlid,
						  t->nports);
				fprintf(stderr, "SubnGet() failed; MAD status 0x%x AM 0x%x\n",
					r->status, r->attr_mod);
				goto out;
			}
			fdb_mft_chunk(mft[b], j, r->data);
		}
	}
	n = fdb_mft_lines(&o->pr, mft, startblock, nblocks, startlid, endlid, t->nports);
	fdb_footer(&o->pr, n, true);
out:
	free(mft);
	free(q);
}

int main(int argc, char **argv)
{
	static const char *const examples[] = {
		" -- Unicast examples:",
		"4\t# dump all lids with valid out ports of switch with lid 4",
		"-a 4\t# same, but dump all lids, even with invalid out ports",
		"-n 4\t# simple dump format - no destination resolving",
		"4 10\t# dump lids starting from 10",
		"4 0x10 0x20\t# dump lid range",
		"-G 0x08f1040023\t# resolve switch by GUID",
		"-D 0,1\t# resolve switch by direct path",
		" -- Multicast examples:",
		"-M 4\t# dump all non empty mlids of switch with lid 4",
		"-M 4 0xc010 0xc020\t# same, but with range",
		"-M -n 4\t# simple dump format",
		NULL,
	};
	struct fdb_opts o = { .pr.unknown = ": (unknown node and type)" };
	struct target t = { 0 };
	struct ibdiag_nnmap *map;
	struct ibdiag_port *port;
	unsigned startlid = 0, endlid = 0;
	const char *err;
	int first;

	first = ibdiag_process_opts(argc, argv, &o, "K", fdb_opt_table, fdb_process_opt,
				    "[<dest dr_path|lid|guid> [<startlid> [<endlid>]]]", examples);
	argc -= first;
	argv += first;
	if (!argc)
		ibdiag_show_usage();
	if (argc > 1)
		startlid = (unsigned)strtoul(argv[1], NULL, 0);
	if (argc > 2)
		endlid = (unsigned)strtoul(argv[2], NULL, 0);

	map = ibdiag_nnmap_open(o.map_file);
	o.pr.map = map;
	port = ibdiag_open_port();
	if (ibdiag_resolve(port, argv[0], ibd.dest_type, &t.path) < 0)
		IBEXIT("can't resolve destination port %s", argv[0]);
	ibdiag_portid_str(t.path, t.portid, sizeof(t.portid));

	err = check_switch(port, &t);
	if (!err) {
		if (o.multicast)
			dump_multicast(port, &o, &t, startlid, endlid);
		else
			dump_unicast(port, &o, &t, (int)startlid, (int)endlid);
	}
	ibpath_path_unref(t.path);
	ibdiag_topo_close(port);
	ibdiag_nnmap_close(map);
	free(o.map_file);
	if (err)
		IBEXIT("dump tables: %s", err);
	return 0;
}
