/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibprintrt: prints a router's lines of the `ibnetdiscover -g` topology, a drop-in
 * replacement for infiniband-diags' deprecated Perl script of the same name.
 *
 *   ibprintrt [-R -l] [-C <ca_name>] [-P <ca_port>] [-G <rt_guid> | <node_name>]
 *
 * The work is in utils/common/ibprint.c, shared with ibprintca and ibprintswitch.  Unlike
 * ibprintca, the script never prints the ports of the last router it matched.
 */
#include <stddef.h>

#include "ibprint.h"

int main(int argc, char **argv)
{
	static const struct ibprint_kind rt = {
		.instead = "ibrouters",
		.operand = "<rt_guid> | <node_name>",
		.what = "rt",
		.list_what = "rts",
		.header_re = "^Rt.*\\\"R-(.*)\\\"\\s+# (.*)",
		.leave_re = { "^Switch.*", "^Ca.*" },
		.flush_at_end = false,
		.not_found = "",
		.not_found_down = true,
		.several = "Router's",
	};

	return ibprint_main(argc, argv, &rt);
}
