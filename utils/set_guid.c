/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * set_guid: program an alias GUID of an end port through the SA (python-rdma's ibtool
 * set_guid): a SubnAdmSet of a GUIDInfoRecord.
 *
 *   set_guid [options] TARGET SLOT GUID
 *
 * TARGET is any target form (LID, GUID, DR path, GID); its port is read first (PortInfo)
 * for its LID and GUIDCap, so a target that does not answer, or a SLOT beyond its GUIDCap,
 * is refused before anything is changed.  SLOT 0 holds the port GUID itself and cannot be
 * set.  GUID 0 asks the SA to choose one.  The record sent carries LID, BlockNum = SLOT / 8
 * and the one GUID at SLOT % 8 (component mask LID, BlockNum, GUID<n>); the SM then writes
 * the port's GUIDInfo.  The record the SA answers (the whole block) is printed as saquery
 * prints a GUIDInfoRecord.
 *
 * Exit status: 0 set, 1 the SA answered without the GUID (e.g. it is a duplicate), 2 usage,
 * 255 error (bad argument, target or SA error).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibdiag.h"

/* file scope: what an IBEXIT() leaves is still referenced (leak checkers) */
static struct ibdiag_port *port;
static struct ibpath_path *path;
static struct ibsa_result *res;

static void cleanup(void)
{
	ibsa_result_free(res);
	ibpath_path_unref(path);
	ibdiag_close_port(port);
	res = NULL;
	path = NULL;
	port = NULL;
}

static _Noreturn void sa_failed(const char *what, int rc, struct ibmadrpc_error *err)
{
	char status[128] = "";

	if (err && ibmadrpc_error_status(err))
		ibstruct_snprint_mad_status(status, sizeof(status), IBSTRUCT_CLASS_SA,
					    ibmadrpc_error_status(err));
	ibdiag_show_error(err);
	ibmadrpc_error_free(err);
	IBEXIT("%s: %s", what, *status ? status : strerror(-rc));
}

int main(int argc, char **argv)
{
	static const char *const examples[] = {
		"4 1 0x0002c90300001234    # alias GUID in slot 1 of the port with LID 4",
		"-G 0x100004 9 0           # slot 9 (block 1), the SA chooses the GUID",
		NULL,
	};
	struct ibstruct_sa_guid_info_record rec = { 0 };
	struct ibstruct_smp_port_info pi;
	struct ibmadrpc_error *err = NULL;
	uint8_t data[64];
	uint64_t guid, got;
	unsigned long slot;
	char *end, *text;
	int first, rc, n;

	first = ibdiag_process_opts(argc, argv, NULL, "K", NULL, NULL, "TARGET SLOT GUID", examples);
	if (argc - first != 3)
		ibdiag_show_usage();
	errno = 0;
	slot = strtoul(argv[first + 1], &end, 0);
	if (errno || end == argv[first + 1] || *end || argv[first + 1][0] == '-' || slot > 255)
		IBEXIT("bad slot '%s' (0..255)", argv[first + 1]);
	if (slot == 0)
		IBEXIT("slot 0 holds the port GUID and cannot be set");
	if (ibstruct_guid_parse(argv[first + 2], &guid) < 0) {
		/* a plain number too (0: the SA chooses) */
		errno = 0;
		guid = strtoull(argv[first + 2], &end, 0);
		if (errno || end == argv[first + 2] || *end || argv[first + 2][0] == '-')
			IBEXIT("bad GUID '%s'", argv[first + 2]);
	}
	atexit(cleanup);

	port = ibdiag_open_port();
	if (ibdiag_resolve(port, argv[first], ibd.dest_type, &path) < 0)
		IBEXIT("can't resolve destination port %s", argv[first]);
	/* the target must answer: its LID and how many GUIDs it can hold */
	rc = ibdiag_smp_get(port, path, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, 0, data, &err);
	if (rc < 0) {
		ibdiag_show_error(err);
		ibmadrpc_error_free(err);
		IBEXIT("no answer from %s: %s", argv[first], strerror(-rc));
	}
	if (ibstruct_smp_port_info_unpack(&pi, data, sizeof(data)) < 0)
		IBEXIT("bad PortInfo from %s", argv[first]);
	if (!pi.LID)
		IBEXIT("%s has no LID: the SA cannot address it", argv[first]);
	if (slot >= pi.GUIDCap)
		IBEXIT("%s has %u GUID slots (GUIDCap): no slot %lu", argv[first], pi.GUIDCap, slot);

	rec.LID = pi.LID;
	rec.blockNum = (uint8_t)(slot / 8);
	rec.GUIDInfo.GUIDBlock[slot % 8] = guid;
	printf("Setting alias GUID slot %lu (block %lu, index %lu) of LID %u to 0x%016" PRIx64 "%s\n",
	       slot, slot / 8, slot % 8, pi.LID, guid, guid ? "" : " (the SA chooses)");
	fflush(stdout);
	rc = ibsa_query(ibdiag_sa(port), IBSTRUCT_METHOD_SET, ibstruct_sa_guid_info_record_desc(),
			&rec, IBSTRUCT_SA_GUID_INFO_RECORD_CM_LID | IBSTRUCT_SA_GUID_INFO_RECORD_CM_BLOCKNUM |
			(UINT64_C(1) << (4 + slot % 8)), &res, &err);
	if (rc < 0)
		sa_failed("SubnAdmSet(GUIDInfoRecord) failed", rc, err);
	if (!res->count)
		IBEXIT("the SA answered no record");
	n = ibstruct_snprint_saquery(NULL, 0, res->desc, res->wire, res->rec_size, NULL, 0);
	text = n > 0 ? malloc((size_t)n + 1) : NULL;
	if (text) {
		ibstruct_snprint_saquery(text, (size_t)n + 1, res->desc, res->wire, res->rec_size,
					 NULL, 0);
		fputs(text, stdout);
		free(text);
	}
	got = ((const struct ibstruct_sa_guid_info_record *)res->records)->GUIDInfo.GUIDBlock[slot % 8];
	if (!got || (guid && got != guid)) {
		printf("The SA did not set the GUID (in use elsewhere?): slot %lu holds 0x%016" PRIx64 "\n",
		       slot, got);
		return 1;
	}
	return 0;
}
