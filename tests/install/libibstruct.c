/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A program outside the tree that uses libibstruct alone.  tests/install-check.sh builds it
 * from the installed files only (flags from `pkg-config --cflags --libs libibstruct`), as
 * C99 and as C++, runs it and expects its last line to be "libibstruct <version>".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ibmgmt/ibstruct.h>

int main(void)
{
	static const unsigned char wire[IBSTRUCT_SMP_NODE_INFO_SIZE] = { 1, 1, 2, 8 };
	unsigned char back[IBSTRUCT_SMP_NODE_INFO_SIZE];
	struct ibstruct_smp_node_info ni;
	char text[1024];
	uint64_t guid = 0;

	if (ibstruct_smp_node_info_unpack(&ni, wire, sizeof(wire)) != 0 || ni.numPorts != 8)
		return 1;
	/* the errno convention holds across the library boundary */
	if (ibstruct_smp_node_info_unpack(&ni, wire, 8) != -EMSGSIZE)
		return 2;
	if (ibstruct_smp_node_info_pack(&ni, back, sizeof(back)) != 0 ||
	    memcmp(back, wire, sizeof(wire)) != 0)
		return 3;
	if (ibstruct_snprint_diags(text, sizeof(text), ibstruct_smp_node_info_desc(), &ni) < 0 ||
	    strncmp(text, "BaseVers:", 9) != 0)
		return 4;
	if (ibstruct_guid_parse("0002:c903:0000:1492", &guid) != 0 || guid != 0x0002c90300001492ull)
		return 5;
	fputs(text, stdout);
	printf("libibstruct %s\n", ibstruct_version());
	return 0;
}
