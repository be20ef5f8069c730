/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Forwarding table dumps shared by ibroute and dump_fts (not installed): the reference's
 * table layouts (unicast LFT with destination resolution, multicast MFT port masks), the
 * range rules, and a batch of SMP Gets run in parallel through the scheduler.
 */
#ifndef IBMGMT_UTILS_FDB_H
#define IBMGMT_UTILS_FDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibdiag.h"

#define FDB_LFT_BLOCK 64  /* LIDs per LinearForwardingTable block */
#define FDB_MFT_BLOCK 32  /* MLIDs per MulticastForwardingTable block */
#define FDB_MFT_CHUNKS 16 /* port positions (16 ports each) of an MFT block */
#define FDB_MIN_MLID 0xc000u
#define FDB_MAX_MLID 0xfffeu
#define FDB_MAX_UCAST_LID 0xbfffu

/* One SubnGet of a batch. */
struct fdb_query {
	struct ibpath_path *path; /* not owned */
	uint16_t attr_id;
	uint32_t attr_mod;
	int rc;                   /* out: 0 or a negative errno */
	uint16_t status;          /* out: the MAD status of an error reply (0 for a time-out) */
	uint8_t data[64];         /* out: the attribute (unchanged on failure) */
};

/* Runs every query of the batch, in parallel through the scheduler (with --sa one after
 * the other through the SA).  Each query gets its own result; nothing is printed. */
void fdb_query_run(struct ibdiag_port *p, struct fdb_query *q, size_t n);

/* What the tools print with (their options). */
struct fdb_print {
	bool brief;                       /* -n */
	bool all;                         /* -a */
	const struct ibdiag_nnmap *map;   /* --node-name-map */
	const char *unknown;              /* text for a LID that could not be resolved */
};

/* The options ibroute and dump_fts share: -a, -n, -M, --node-name-map. */
struct fdb_opts {
	struct fdb_print pr;
	bool multicast;
	char *map_file;  /* malloc'd */
};
/* Their option table (NULL-terminated) and handler (ctx: a struct fdb_opts). */
extern const struct ibdiag_opt fdb_opt_table[];
int fdb_process_opt(void *ctx, int letter, char *arg);

/* A batch entry: the SubnGet of attr/mod over path. */
void fdb_set_query(struct fdb_query *q, struct ibpath_path *path, uint16_t attr, uint32_t mod);

/* A destination LID's owner, as far as it is known. */
struct fdb_dest {
	bool known;
	uint8_t node_type;
	uint64_t node_guid;
	uint64_t port_guid;
	uint16_t base_lid;
	uint8_t lmc;
	const char *desc;        /* NodeDescription, NUL-terminated */
};

/* The walk state over one switch's LIDs (LMC ranges of the destination last resolved). */
struct fdb_lid_state {
	int last_port_lid;
	int base_port_lid;
	uint64_t port_guid;
};

/* The unicast range: endlid 0 or above the LinearFDBTop becomes the top, capped at 0xbfff
 * (with the reference's warning).  Returns the number of the block after the last one read
 * (the reference's ALIGN(endlid, 64) / 64, in its int arithmetic). */
int fdb_lft_range(int top, int *endlid);
/* The multicast range from MulticastFDBCap/Top (and -a), with the reference's warnings. */
void fdb_mft_range(const struct fdb_print *pr, unsigned cap, unsigned top, unsigned *startlid,
		   unsigned *endlid);

void fdb_lft_header(int startlid, int endlid, const char *portid, uint64_t guid,
		    const char *name);
void fdb_mft_header(const struct fdb_print *pr, unsigned startlid, unsigned endlid,
		    const char *portid, uint64_t guid, const char *name, unsigned nports,
		    unsigned cap, unsigned top);

/* Whether a LID's destination is needed to print it (valid, not in the last LMC range
 * seen): to know which LIDs to resolve before printing. Does not change the state. */
bool fdb_lid_needs_dest(const struct fdb_print *pr, const struct fdb_lid_state *st, int lid,
			bool valid);
/* One LFT line "0x%04x %03u <info>" (dest NULL or !known: the unknown text). */
void fdb_lid_line(const struct fdb_print *pr, struct fdb_lid_state *st, int lid,
		  unsigned outport, bool valid, const struct fdb_dest *dest);
/* One MFT line for `mlid` from the masks of its block (host order, [chunk][mlid % 32]);
 * returns whether it was printed (non-empty, or -a). */
bool fdb_mlid_line(const struct fdb_print *pr, unsigned mlid, unsigned nports,
		   const uint16_t (*masks)[FDB_MFT_BLOCK]);
/* The destination of a LID for fdb_lft_lines(): NULL when it is unknown. */
typedef const struct fdb_dest *(*fdb_dest_fn)(void *user, int lid);

/* The lines of LIDs startlid..endlid found in lft (the entries of LIDs first..first+len-1),
 * from a fresh walk state; returns how many were printed. */
int fdb_lft_lines(const struct fdb_print *pr, const uint8_t *lft, int first, int len,
		  int startlid, int endlid, unsigned nports, fdb_dest_fn dest, void *user);
/* MFT blocks: masks[block][chunk][mlid % 32], host order. */
typedef uint16_t fdb_mft_block_t[FDB_MFT_CHUNKS][FDB_MFT_BLOCK];
/* Decodes one chunk (16 ports) of an MFT block from an SMP's data. */
void fdb_mft_chunk(fdb_mft_block_t block, unsigned chunk, const uint8_t data[64]);
/* The lines of MLIDs startlid..endlid found in blocks (block `first` first, n of them);
 * returns how many were printed. */
int fdb_mft_lines(const struct fdb_print *pr, const fdb_mft_block_t *blocks, unsigned first,
		  unsigned n, unsigned startlid, unsigned endlid, unsigned nports);

/* "N valid lids dumped " / "N mlids dumped ". */
void fdb_footer(const struct fdb_print *pr, int n, bool multicast);

/* libibmad's mad_dump_val() of NodeInfo.NodeType. */
const char *fdb_node_type_str(unsigned type, char *buf, size_t len);
/* libibmad's xdump(): 16 bytes a line in 2-byte hex groups. */
void fdb_xdump(FILE *f, const char *msg, const uint8_t *p, int size);

#endif /* IBMGMT_UTILS_FDB_H */
