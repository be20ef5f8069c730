/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mcjoin: joins the local port to a multicast group through the SA (SubnAdmSet of an
 * MCMemberRecord with JoinState FullMember), as an IPoIB driver joins its broadcast group.
 * Test-only: on the simulator nothing else joins, so OpenSM never programs a multicast
 * forwarding table; after a few joins it does, and ibroute -M, dump_mfts and ibtracert -m
 * have real entries to show.
 *
 *   mcjoin [MGID]      (default ff12:401b:ffff::ffff:ffff, IPv4 broadcast, P_Key 0xffff)
 *
 * Prints the MLID the SA gave; exit 0, or 1 with the reason on stderr.
 */
#include <stdio.h>
#include <string.h>

#include <ibmgmt/ibmadrpc.h>
#include <ibmgmt/ibsa.h>
#include <ibmgmt/ibstruct.h>

int main(int argc, char **argv)
{
	const char *mgid = argc > 1 ? argv[1] : "ff12:401b:ffff::ffff:ffff";
	struct ibmadrpc_port *port = NULL;
	struct ibmadrpc_error *err = NULL;
	struct ibsa_result *res = NULL;
	const struct ibstruct_desc *rec = ibstruct_desc_by_name("SAMCMemberRecord");
	struct ibsa *sa = NULL;
	ibstruct_gid_t gid;
	char gidtext[64], a_mgid[96], a_port[96];
	int rc, status = 1;

	if (!rec) {
		fprintf(stderr, "mcjoin: no SAMCMemberRecord in libibstruct\n");
		return 1;
	}
	rc = ibmadrpc_port_open_name(&port, NULL, 0, &err);
	if (rc < 0) {
		fprintf(stderr, "mcjoin: cannot open the port: %s\n", strerror(-rc));
		goto out;
	}
	ibmadrpc_port_gid(port, &gid);
	ibstruct_gid_format(gidtext, sizeof(gidtext), &gid);
	snprintf(a_mgid, sizeof(a_mgid), "MGID=%s", mgid);
	snprintf(a_port, sizeof(a_port), "portGID=%s", gidtext);
	{
		/* what OpenSM needs to create a group (and checks when joining one) */
		const char *const set[] = {
			a_mgid, a_port, "joinState=1", "QKey=0x0b1b", "PKey=0xffff", "TClass=0",
			"flowLabel=0", "SL=0", "MTUSelector=2", "MTU=4", "rateSelector=2", "rate=3",
		};

		if (ibsa_new(&sa, port) < 0) {
			fprintf(stderr, "mcjoin: cannot create the SA client\n");
			goto out;
		}
		rc = ibsa_query_text(sa, IBSTRUCT_METHOD_SET, rec, set, sizeof(set) / sizeof(set[0]),
				     &res, &err);
	}
	if (rc < 0) {
		fprintf(stderr, "mcjoin: SubnAdmSet(MCMemberRecord) from %s failed: %s\n", gidtext,
			strerror(-rc));
		goto out;
	}
	if (res && res->count > 0) {
		uint64_t mlid = 0;

		ibstruct_get_uint(rec, res->records, "MLID", &mlid);
		printf("%s joined %s: MLID 0x%x\n", gidtext, mgid, (unsigned)mlid);
	}
	status = 0;
out:
	ibsa_result_free(res);
	ibmadrpc_error_free(err);
	ibsa_free(sa);
	ibmadrpc_port_close(port);
	return status;
}
