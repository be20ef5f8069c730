/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Forwarding table dumps shared by ibroute and dump_fts: table layouts, range rules and
 * a parallel batch of SMP Gets.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibsched.h>

#include "fdb.h"
#include "ibdiag-topo.h"

/* ---- Options --------------------------------------------------------------------------------- */

const struct ibdiag_opt fdb_opt_table[] = {
	{ "all", 'a', 0, NULL, "show all lids, even invalid entries" },
	{ "no_dests", 'n', 0, NULL, "do not try to resolve destinations" },
	{ "Multicast", 'M', 0, NULL, "show multicast forwarding tables" },
	{ "node-name-map", 1, 1, "<file>", "node name map file" },
	{ NULL, 0, 0, NULL, NULL },
};

int fdb_process_opt(void *ctx, int letter, char *arg)
{
	struct fdb_opts *o = ctx;

	switch (letter) {
	case 'a':
		o->pr.all = true;
		break;
	case 'M':
		o->multicast = true;
		break;
	case 'n':
		o->pr.brief = true;
		break;
	case 1:
		free(o->map_file);
		o->map_file = strdup(arg);
		if (!o->map_file)
			IBEXIT("out of memory, strdup for node_name_map_file name failed");
		break;
	default:
		return -1;
	}
	return 0;
}

void fdb_set_query(struct fdb_query *q, struct ibpath_path *path, uint16_t attr, uint32_t mod)
{
	memset(q, 0, sizeof(*q));
	q->path = path;
	q->attr_id = attr;
	q->attr_mod = mod;
}

/* ---- Batches of SubnGet ------------------------------------------------------------------ */

static void query_fail(struct fdb_query *q, int rc, const struct ibmadrpc_error *err)
{
	q->rc = rc < 0 ? rc : -EIO;
	q->status = err ? ibmadrpc_error_status(err) : 0;
	/* libibmad reports the status without the direction bit */
	q->status &= 0x7fff;
}

static int query_done(struct ibsched *sched, struct ibsched_work *work,
		      const struct ibmadrpc_reply *reply, const struct ibmadrpc_error *err,
		      void *user)
{
	struct fdb_query *q = user;

	(void)sched;
	(void)work;
	if (err) {
		ibdiag_show_error(err);
		query_fail(q, ibmadrpc_error_errno(err), err);
		return IBSCHED_HANDLED;
	}
	q->rc = 0;
	ibdiag_reply_data(reply, q->data, sizeof(q->data));
	return IBSCHED_HANDLED;
}

void fdb_query_run(struct ibdiag_port *p, struct fdb_query *q, size_t n)
{
	struct ibsched *sched;

	if (ibd.sa) {
		for (size_t i = 0; i < n; i++) {
			struct ibmadrpc_error *err = NULL;
			uint8_t data[64];
			int rc = ibdiag_smp_get(p, q[i].path, q[i].attr_id, q[i].attr_mod, data, &err);

			if (rc < 0) {
				query_fail(&q[i], rc, err);
			} else {
				q[i].rc = 0;
				memcpy(q[i].data, data, sizeof(data));
			}
			ibmadrpc_error_free(err);
		}
		return;
	}
	sched = ibdiag_sched(p);
	for (size_t i = 0; i < n; i++) {
		struct ibmadrpc_request req = {
			.path = q[i].path,
			.mgmt_class = IBSTRUCT_CLASS_SMP,
			.method = IBSTRUCT_METHOD_GET,
			.attr_id = q[i].attr_id,
			.attr_mod = q[i].attr_mod,
			.key = ibd.mkey,
		};
		int rc = ibsched_submit(sched, NULL, &req, query_done, &q[i], NULL);

		if (rc < 0)
			query_fail(&q[i], rc, NULL);
		else
			q[i].rc = 1; /* pending */
	}
	if (ibsched_run(sched) < 0)
		for (size_t i = 0; i < n; i++)
			if (q[i].rc > 0)
				query_fail(&q[i], -EIO, NULL);
}

/* ---- Ranges -------------------------------------------------------------------------------- */

int fdb_lft_range(int top, int *endlid)
{
	if (!*endlid || *endlid > top)
		*endlid = top;
	if (*endlid > (int)FDB_MAX_UCAST_LID) {
		ibdiag_warn("dump_unicast_tables", "illegal lft top %d, truncate to %d", *endlid,
			    (int)FDB_MAX_UCAST_LID);
		*endlid = FDB_MAX_UCAST_LID;
	}
	/* the block holding endlid is read only when endlid is not a multiple of 64 */
	return (*endlid + FDB_LFT_BLOCK - 1) / FDB_LFT_BLOCK * FDB_LFT_BLOCK / FDB_LFT_BLOCK;
}

void fdb_mft_range(const struct fdb_print *pr, unsigned cap, unsigned top, unsigned *startlid,
		   unsigned *endlid)
{
	static const char fn[] = "dump_multicast_tables";
	unsigned last = FDB_MIN_MLID + cap - 1;

	if (!*endlid || *endlid > last)
		*endlid = last;
	if (!pr->all && top && top < *endlid) {
		if (top < FDB_MIN_MLID - 1)
			ibdiag_warn(fn, "illegal top mlid %x", top);
		else
			*endlid = top;
	}
	if (!*startlid) {
		*startlid = FDB_MIN_MLID;
	} else if (*startlid < FDB_MIN_MLID) {
		ibdiag_warn(fn, "illegal start mlid %x, set to %x", *startlid, FDB_MIN_MLID);
		*startlid = FDB_MIN_MLID;
	}
	if (*endlid > FDB_MAX_MLID) {
		ibdiag_warn(fn, "illegal end mlid %x, truncate to %x", *endlid, FDB_MAX_MLID);
		*endlid = FDB_MAX_MLID;
	}
}

/* ---- Printing ------------------------------------------------------------------------------ */

const char *fdb_node_type_str(unsigned type, char *buf, size_t len)
{
	switch (type) {
	case 1:
		snprintf(buf, len, "Channel Adapter");
		break;
	case 2:
		snprintf(buf, len, "Switch");
		break;
	case 3:
		snprintf(buf, len, "Router");
		break;
	default:
		snprintf(buf, len, "?(%d)?", (int)type);
		break;
	}
	return buf;
}

void fdb_xdump(FILE *f, const char *msg, const uint8_t *p, int size)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	if (msg)
		fputs(msg, f);
	for (i = 0; i < size; i++) {
		fputc(hex[p[i] >> 4], f);
		fputc(hex[p[i] & 0xf], f);
		/* a separator after every second byte but the last: newline after each 16 */
		if (i % 2 == 1 && i + 1 < size)
			fputc((i + 1) % 16 ? ' ' : '\n', f);
	}
	if (size % 16)
		fputc('\n', f);
}

void fdb_lft_header(int startlid, int endlid, const char *portid, uint64_t guid,
		    const char *name)
{
	printf("Unicast lids [0x%x-0x%x] of switch %s guid 0x%016" PRIx64 " (%s):\n",
	       (unsigned)startlid, (unsigned)endlid, portid, guid, name);
	printf("  Lid  Out   Destination\n");
	printf("       Port     Info \n");
}

void fdb_mft_header(const struct fdb_print *pr, unsigned startlid, unsigned endlid,
		    const char *portid, uint64_t guid, const char *name, unsigned nports,
		    unsigned cap, unsigned top)
{
	printf("Multicast mlids [0x%x-0x%x] of switch %s guid 0x%016" PRIx64 " (%s):\n",
	       startlid, endlid, portid, guid, name);
	if (pr->brief) {
		printf(" MLid       Port Mask\n");
	} else {
		unsigned i;

		if (nports > 9) {
			printf("            ");
			for (i = 0; i <= nports; i++)
				printf("%c ", i % 10 ? ' ' : (char)('0' + i / 10));
			printf("\n");
		}
		printf("     Ports: ");
		for (i = 0; i <= nports; i++)
			printf("%u ", i % 10);
		printf("\n");
		printf(" MLid\n");
	}
	if (ibd.verbose)
		printf("Switch multicast mlid capability is %u top is 0x%x\n", cap, top);
}

bool fdb_lid_needs_dest(const struct fdb_print *pr, const struct fdb_lid_state *st, int lid,
			bool valid)
{
	return !pr->brief && valid && lid > st->last_port_lid;
}

void fdb_lid_line(const struct fdb_print *pr, struct fdb_lid_state *st, int lid,
		  unsigned outport, bool valid, const struct fdb_dest *dest)
{
	char type[50];
	char *name;

	printf("0x%04x %03u ", (unsigned)lid, outport & 0xff);
	if (pr->brief) {
		printf("\n");
		return;
	}
	if (lid <= st->last_port_lid) {
		/* an LMC range of the destination resolved last */
		int count = st->last_port_lid - st->base_port_lid + 1;

		if (!valid)
			printf(": (path #%d - illegal port)\n", lid - st->base_port_lid);
		else if (!st->port_guid)
			printf(": (path #%d out of %d)\n", lid - st->base_port_lid + 1, count);
		else
			printf(": (path #%d out of %d: portguid 0x%016" PRIx64 ")\n",
			       lid - st->base_port_lid + 1, count, st->port_guid);
		return;
	}
	if (!valid) {
		printf(": (illegal port)\n");
		return;
	}
	st->port_guid = 0;
	if (!dest || !dest->known) {
		printf("%s\n", pr->unknown);
		return;
	}
	st->port_guid = dest->port_guid;
	if (dest->lmc > 0) {
		st->base_port_lid = dest->base_lid;
		st->last_port_lid = dest->base_lid + (1 << dest->lmc) - 1;
	}
	name = ibdiag_nnmap_name(pr->map, dest->node_guid, dest->desc);
	printf(": (%s portguid 0x%016" PRIx64 ": '%s')\n",
	       fdb_node_type_str(dest->node_type, type, sizeof(type)), dest->port_guid,
	       name ? name : "");
	free(name);
}

bool fdb_mlid_line(const struct fdb_print *pr, unsigned mlid, unsigned nports,
		   const uint16_t (*masks)[FDB_MFT_BLOCK])
{
	unsigned chunks = (nports + 1 + 15) / 16, i, nonzero = 0;
	unsigned pos = mlid % FDB_MFT_BLOCK;
	char str[2 * (IBTOPO_MAX_PORTS + 2) + 1];

	if (chunks > FDB_MFT_CHUNKS)
		chunks = FDB_MFT_CHUNKS;
	if (pr->brief) {
		size_t n = 0;

		for (i = 0; i < chunks; i++) {
			if (masks[i][pos])
				nonzero++;
			n += (size_t)snprintf(str + n, sizeof(str) - n, "%04hx", masks[i][pos]);
		}
	} else {
		/* the reference counts non-zero chunks once per port; only zero or not matters */
		for (i = 0; i <= nports && i < 16 * FDB_MFT_CHUNKS; i++) {
			uint16_t m = masks[i / 16][pos];

			if (m)
				nonzero++;
			str[2 * i] = m & (1u << (i % 16)) ? 'x' : ' ';
			str[2 * i + 1] = ' ';
		}
		str[2 * i] = '\0';
	}
	if (!nonzero && !pr->all)
		return false;
	printf("0x%04x      %s\n", mlid, str);
	return true;
}

int fdb_lft_lines(const struct fdb_print *pr, const uint8_t *lft, int first, int len,
		  int startlid, int endlid, unsigned nports, fdb_dest_fn dest, void *user)
{
	struct fdb_lid_state st = { 0 };
	int i = startlid > first ? startlid : first;
	int e = endlid < first + len - 1 ? endlid : first + len - 1;
	int n = 0;

	for (; i <= e; i++) {
		unsigned outport = lft[i - first];
		bool valid = outport <= nports;

		if (!valid && !pr->all)
			continue;
		fdb_lid_line(pr, &st, i, outport, valid,
			     fdb_lid_needs_dest(pr, &st, i, valid) ? dest(user, i) : NULL);
		n++;
	}
	return n;
}

void fdb_mft_chunk(fdb_mft_block_t block, unsigned chunk, const uint8_t data[64])
{
	for (unsigned i = 0; i < FDB_MFT_BLOCK; i++)
		block[chunk][i] = (uint16_t)(data[2 * i] << 8 | data[2 * i + 1]);
}

int fdb_mft_lines(const struct fdb_print *pr, const fdb_mft_block_t *blocks, unsigned first,
		  unsigned n, unsigned startlid, unsigned endlid, unsigned nports)
{
	unsigned i = first * FDB_MFT_BLOCK, e = (first + n) * FDB_MFT_BLOCK;
	int printed = 0;

	if (i < startlid)
		i = startlid;
	if (e > endlid + 1)
		e = endlid + 1;
	for (; i < e; i++)
		if (fdb_mlid_line(pr, i, nports, blocks[i / FDB_MFT_BLOCK - first]))
			printed++;
	return printed;
}

void fdb_footer(const struct fdb_print *pr, int n, bool multicast)
{
	printf("%d %s%s dumped \n", n, pr->all ? "" : "valid ", multicast ? "mlids" : "lids");
}
