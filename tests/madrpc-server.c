// SPDX-License-Identifier: BSD-3-Clause
/*
 * madrpc-server: a test MAD server built on libibmadrpc, for the fabric tests.
 *
 *   madrpc-server RECORDS [SECONDS]
 *
 * Opens the default end port and its issm device (under the simulator only an issm
 * client receives the GMP requests ibsim does not answer itself), then serves class SA:
 *   GetTable NodeRecord  -> RECORDS synthetic NodeRecords as one RMPP transfer
 *   Get NodeRecord       -> one record (LID from the request)
 *   any other attribute  -> status 0x000c (method/attribute combination not supported)
 *   any other method     -> status 0x0008 (method not supported)
 * and class DevMgt: Get IOUnitInfo -> changeID 0x1234, 3 controllers, diag 1, option ROM 0,
 * controller list 0x1f 0x00 ... (other DevMgt attributes: status 0x000c),
 * and drops everything else it receives (OpenSM probes the new IsSM port with SMPs).
 * Prints "ready" on stdout once it serves; exits after SECONDS (default 60).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ibmgmt/ibmadrpc.h>

#define NR_REC 112 /* NodeRecord (108 bytes) padded to 8-byte AttributeOffset units */

static size_t nrecords;
static unsigned served;

void test_fill_record(uint8_t *rec, size_t i);

static void serve(struct ibmadrpc_port *port, const struct ibmadrpc_request_in *in, void *user)
{
	uint8_t method = in->mad[3];
	uint16_t attr = (uint16_t)(in->mad[16] << 8 | in->mad[17]);

	(void)user;
	if (in->mad[1] == 0x32) {
		/* vendor range 2 (OFA ping class): echo a fixed text after the OUI header */
		static const char host[] = "madrpc-server";

		served++;
		ibmadrpc_respond(port, in, 0, host, sizeof(host));
		return;
	}
	if (in->mad[1] == 0x06) {
		/* DevMgt: a fixed IOUnitInfo */
		uint8_t iou[IBSTRUCT_DM_IO_UNIT_INFO_SIZE] = { 0x12, 0x34, 3, 0x02, 0x1f };

		served++;
		if (method == IBSTRUCT_METHOD_GET && attr == IBSTRUCT_DM_IO_UNIT_INFO_ATTR_ID)
			ibmadrpc_respond(port, in, 0, iou, sizeof(iou));
		else
			ibmadrpc_respond(port, in, 0x000c, NULL, 0);
		return;
	}
	if (in->mad[1] != 0x03)
		return; /* SMPs and others: not ours */
	served++;
	if (attr != IBSTRUCT_SA_NODE_RECORD_ATTR_ID) {
		ibmadrpc_respond(port, in, 0x000c, NULL, 0);
		return;
	}
	if (method == IBSTRUCT_METHOD_GET_TABLE) {
		uint8_t *recs = calloc(nrecords ? nrecords : 1, NR_REC);
		size_t i;

		if (!recs)
			return;
		for (i = 0; i < nrecords; i++)
			test_fill_record(recs + i * NR_REC, i);
		ibmadrpc_respond_table(port, in, recs, NR_REC, nrecords);
		free(recs);
	} else if (method == IBSTRUCT_METHOD_GET) {
		uint8_t rec[NR_REC];
		uint16_t lid = (uint16_t)(in->mad[56] << 8 | in->mad[57]);

		test_fill_record(rec, lid ? lid - 1u : 0);
		ibmadrpc_respond(port, in, 0, rec, sizeof(rec));
	} else {
		ibmadrpc_respond(port, in, 0x0008, NULL, 0);
	}
}

int main(int argc, char **argv)
{
	struct ibpath_devlist *list;
	const struct ibpath_port *ep;
	struct ibmadrpc_port *port;
	struct ibmadrpc_error *err;
	char path[128], e[256];
	time_t end;
	int issm;

	if (argc < 2)
		return 2;
	nrecords = (size_t)strtoul(argv[1], NULL, 0);
	end = time(NULL) + (argc > 2 ? atoi(argv[2]) : 60);
	if (ibpath_devlist_open(&list, NULL, 0) || ibpath_devlist_select(list, NULL, &ep, e, sizeof(e))) {
		fprintf(stderr, "no end port\n");
		return 1;
	}
	snprintf(path, sizeof(path), "/dev/infiniband/%s", ibpath_port_issm_name(ep) ? ibpath_port_issm_name(ep) : "issm0");
	if (ibmadrpc_port_open(&port, ep, &err)) {
		fprintf(stderr, "cannot open the port\n");
		return 1;
	}
	ibmadrpc_port_set_server(port, serve, NULL);
	/* every class this port may be sent: umad2sim kills a process that gets a class it has
	 * no agent for */
	if (ibmadrpc_port_serve(port, 0x03, 2, 0xfffffffeu, 0) || ibmadrpc_port_serve(port, 0x01, 1, 0xfffffffeu, 0) ||
	    ibmadrpc_port_serve(port, 0x81, 1, 0xfffffffeu, 0) || ibmadrpc_port_serve(port, 0x04, 1, 0xfffffffeu, 0) ||
	    ibmadrpc_port_serve(port, 0x32, 1, 0xfffffffeu, 0x001405) ||
	    ibmadrpc_port_serve(port, 0x06, 1, 0xfffffffeu, 0)) {
		fprintf(stderr, "cannot register the server agents\n");
		return 1;
	}
	/* only now become the SM client: requests start arriving at once */
	issm = open(path, O_RDWR);
	if (issm < 0) {
		perror(path);
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	while (time(NULL) < end)
		ibmadrpc_dispatch(port, 200);
	ibmadrpc_port_close(port);
	close(issm);
	ibpath_devlist_close(list);
	return 0;
}
