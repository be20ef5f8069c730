// SPDX-License-Identifier: BSD-3-Clause
/*
 * sa-probe: a test client of libibsa for the fabric tests.  Prints in the formats of the
 * reference tools so scripts can compare.
 *
 *   sa-probe [-D|-G] [-K smkey] subn TARGET ATTR [MOD]
 *        ibsa_subn_get(): the 64 data bytes as smpdump prints them
 *   sa-probe [-G] path TARGET
 *        ibsa_resolve_path(): "DLID=.. SLID=.. SL=.. MTU=.. Rate=.. PktLife=.. PKey=0x.... GRH=0|1"
 *   sa-probe [-K smkey] get|table RECORD [field=value...]
 *        ibsa_query_text(): every record as saquery dumps it, then "N records[, truncated]"
 *   sa-probe [-K smkey] raw RECORD [field=value...]
 *        ibsa_query_text() Get: the record's wire bytes as one hex line
 *   sa-probe sweep sync|sched MAXLID [MAX_OUTSTANDING]
 *        NodeInfo and PortInfo (port 0 / the LID's port) of LIDs 1..MAXLID, one line each
 *        ("LID ATTR hex"), by ibsa_subn_get() or ibsa_subn_get_submit() on libibsched
 * Exit status: 0 ok, 1 a call failed (the error is printed with -v detail), 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ibmgmt/ibsa.h>

#include "probe-common.h"

static unsigned parse_flags;
static uint64_t smkey;

static int do_subn(struct ibsa *sa, int argc, char **argv)
{
	struct ibmadrpc_error *err;
	struct ibpath_path *p;
	uint8_t data[IBSA_SMP_DATA_SIZE];
	int rc;

	if (argc < 2)
		return 2;
	p = probe_target(argv[0], parse_flags);
	rc = ibsa_subn_get(sa, p, (uint16_t)strtoul(argv[1], NULL, 0),
			   argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 0, data, &err);
	ibpath_path_unref(p);
	if (rc)
		return probe_report(err, rc);
	probe_xdump(data);
	return 0;
}

static int do_path(struct ibsa *sa, int argc, char **argv)
{
	struct ibmadrpc_error *err;
	struct ibpath_path *p, *r, *back;
	int rc;

	if (argc < 1)
		return 2;
	p = probe_target(argv[0], parse_flags);
	rc = ibsa_resolve_path(sa, p, &r, &err);
	ibpath_path_unref(p);
	if (rc)
		return probe_report(err, rc);
	printf("DLID=%u SLID=%u SL=%u MTU=%u Rate=%u PktLife=%u PKey=0x%04x GRH=%d\n",
	       (unsigned)ibpath_path_get(r, IBPATH_DLID), (unsigned)ibpath_path_get(r, IBPATH_SLID),
	       (unsigned)ibpath_path_get(r, IBPATH_SL), (unsigned)ibpath_path_get(r, IBPATH_MTU),
	       (unsigned)ibpath_path_get(r, IBPATH_RATE), (unsigned)ibpath_path_get(r, IBPATH_PACKET_LIFE_TIME),
	       (unsigned)ibpath_path_get(r, IBPATH_PKEY), ibpath_path_has_grh(r));
	/* the path is reversible */
	if (ibpath_path_reverse(r, &back)) {
		fprintf(stderr, "the resolved path does not reverse\n");
		ibpath_path_unref(r);
		return 1;
	}
	ibpath_path_unref(back);
	ibpath_path_unref(r);
	return 0;
}

static int do_query(struct ibsa *sa, uint8_t method, bool raw, int argc, char **argv)
{
	const struct ibstruct_desc *d;
	struct ibmadrpc_error *err;
	struct ibsa_result *res;
	static char text[65536];
	size_t i;
	int rc;

	if (argc < 1)
		return 2;
	d = ibstruct_desc_by_name(argv[0]);
	if (!d) {
		fprintf(stderr, "unknown record %s\n", argv[0]);
		return 2;
	}
	rc = ibsa_query_text(sa, method, d, (const char *const *)argv + 1, (unsigned)argc - 1, &res, &err);
	if (rc)
		return probe_report(err, rc);
	if (raw) {
		for (i = 0; i < res->count * res->rec_size; i++)
			printf("%02x", res->wire[i]);
		printf("\n");
		ibsa_result_free(res);
		return 0;
	}
	for (i = 0; i < res->count; i++) {
		rc = ibstruct_snprint_saquery(text, sizeof(text), d, res->wire + i * res->rec_size, res->rec_size,
					      NULL, 0);
		if (rc < 0)
			rc = ibstruct_snprint_diags(text, sizeof(text), d, (uint8_t *)res->records +
									       i * ibstruct_desc_host_size(d));
		fputs(text, stdout);
	}
	printf("%zu records%s\n", res->count, res->truncated ? ", truncated" : "");
	ibsa_result_free(res);
	return 0;
}

/* ---- sweeps ----------------------------------------------------------------------------- */

#define MAXLID 4096

static uint8_t results[MAXLID + 1][2][IBSA_SMP_DATA_SIZE];
static bool have[MAXLID + 1][2];
static unsigned failures;

struct item {
	uint16_t lid;
	unsigned which; /* 0 NodeInfo, 1 PortInfo */
};

static int sweep_done(struct ibsa *sa, const uint8_t *data, const struct ibmadrpc_error *err, void *user)
{
	struct item *it = user;

	(void)sa;
	(void)err;
	if (data) {
		memcpy(results[it->lid][it->which], data, IBSA_SMP_DATA_SIZE);
		have[it->lid][it->which] = true;
	} else {
		failures++;
	}
	free(it);
	return IBSCHED_HANDLED;
}

static int do_sweep(struct ibsa *sa, struct ibmadrpc_port *port, int argc, char **argv)
{
	unsigned max, lid, w, k;
	bool sched_mode;
	struct ibsched *s = NULL;

	if (argc < 2)
		return 2;
	sched_mode = !strcmp(argv[0], "sched");
	max = (unsigned)strtoul(argv[1], NULL, 0);
	if (max > MAXLID)
		return 2;
	if (sched_mode) {
		if (ibsched_new(&s, port))
			return 1;
		if (argc > 2)
			ibsched_set_max_outstanding(s, (unsigned)strtoul(argv[2], NULL, 0));
		ibsa_set_sched(sa, s);
	}
	for (lid = 1; lid <= max; lid++) {
		for (w = 0; w < 2; w++) {
			uint16_t attr = w ? 0x15 : 0x11;
			struct ibpath_path *p;

			ibpath_path_new(&p, IBPATH_KIND_IB);
			ibpath_path_set(p, IBPATH_DLID, lid);
			if (sched_mode) {
				struct item *it = malloc(sizeof(*it));

				it->lid = (uint16_t)lid;
				it->which = w;
				if (ibsa_subn_get_submit(sa, NULL, p, attr, 0, sweep_done, it)) {
					free(it);
					failures++;
				}
			} else {
				struct ibmadrpc_error *err = NULL;

				if (!ibsa_subn_get(sa, p, attr, 0, results[lid][w], &err))
					have[lid][w] = true;
				else
					failures++;
				ibmadrpc_error_free(err);
			}
			ibpath_path_unref(p);
		}
	}
	if (s) {
		ibsched_run(s);
		ibsa_set_sched(sa, NULL);
		ibsched_free(s);
	}
	for (lid = 1; lid <= max; lid++)
		for (w = 0; w < 2; w++) {
			if (!have[lid][w])
				continue;
			printf("%u %s ", lid, w ? "PortInfo" : "NodeInfo");
			for (k = 0; k < IBSA_SMP_DATA_SIZE; k++)
				printf("%02x", results[lid][w][k]);
			printf("\n");
		}
	fprintf(stderr, "%u failed\n", failures);
	return 0;
}

int main(int argc, char **argv)
{
	struct ibmadrpc_port *port;
	struct ibmadrpc_error *err;
	struct ibsa *sa;
	int c, rc;

	while ((c = getopt(argc, argv, "+DGvK:")) != -1) {
		switch (c) {
		case 'D':
			parse_flags = IBPATH_PARSE_DR;
			break;
		case 'G':
			parse_flags = IBPATH_PARSE_GUID;
			break;
		case 'v':
			probe_verbose++;
			break;
		case 'K':
			smkey = strtoull(optarg, NULL, 0);
			break;
		default:
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		return 2;
	rc = ibmadrpc_port_open_name(&port, NULL, 0, &err);
	if (rc)
		return probe_report(err, rc);
	if (ibsa_new(&sa, port)) {
		ibmadrpc_port_close(port);
		return 1;
	}
	ibsa_set_smkey(sa, smkey);
	if (!strcmp(argv[0], "subn"))
		rc = do_subn(sa, argc - 1, argv + 1);
	else if (!strcmp(argv[0], "path"))
		rc = do_path(sa, argc - 1, argv + 1);
	else if (!strcmp(argv[0], "get"))
		rc = do_query(sa, IBSTRUCT_METHOD_GET, false, argc - 1, argv + 1);
	else if (!strcmp(argv[0], "raw"))
		rc = do_query(sa, IBSTRUCT_METHOD_GET, true, argc - 1, argv + 1);
	else if (!strcmp(argv[0], "table"))
		rc = do_query(sa, IBSTRUCT_METHOD_GET_TABLE, false, argc - 1, argv + 1);
	else if (!strcmp(argv[0], "sweep"))
		rc = do_sweep(sa, port, argc - 1, argv + 1);
	else
		rc = 2;
	ibsa_free(sa);
	ibmadrpc_port_close(port);
	return rc;
}
