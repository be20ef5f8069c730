// SPDX-License-Identifier: BSD-3-Clause
/* The synthetic SA records madrpc-server sends and madrpc-probe checks. */
#include <stdio.h>
#include <string.h>

#include <ibmgmt/ibstruct.h>

#define NR_REC 112

/* Record i: LID i + 1, NodeGUID 0x1000 + i, description "node-<i>". */
void test_fill_record(uint8_t *rec, size_t i);

void test_fill_record(uint8_t *rec, size_t i)
{
	struct ibstruct_sa_node_record nr;

	memset(&nr, 0, sizeof(nr));
	nr.LID = (uint16_t)(i + 1);
	nr.nodeInfo.baseVersion = 1;
	nr.nodeInfo.classVersion = 1;
	nr.nodeInfo.nodeType = 1;
	nr.nodeInfo.numPorts = 1;
	nr.nodeInfo.nodeGUID = 0x1000 + i;
	nr.nodeInfo.portGUID = 0x1000 + i;
	snprintf(nr.nodeDescription.nodeString, sizeof(nr.nodeDescription.nodeString), "node-%zu", i);
	memset(rec, 0, NR_REC);
	ibstruct_sa_node_record_pack(&nr, rec, NR_REC);
}

