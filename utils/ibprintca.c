/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibprintca: prints a channel adapter's lines of the `ibnetdiscover -g` topology, a drop-in
 * replacement for infiniband-diags' deprecated Perl script of the same name.
 *
 *   ibprintca [-R -l] [-C <ca_name>] [-P <ca_port>] [-G <ca_guid> | <node_name>]
 *
 * The work is in utils/common/ibprint.c, shared with ibprintrt and ibprintswitch.
 */
#include <stddef.h>

#include "ibprint.h"

int main(int argc, char **argv)
{
	static const struct ibprint_kind ca = {
		.instead = "ibhosts",
		.operand = "<ca_guid> | <node_name>",
		.what = "ca",
		.list_what = "cas",
		.header_re = "^Ca.*\\\"H-(.*)\\\"\\s+# (.*)",
		.leave_re = { "^Switch.*", "^Rt.*" },
		.flush_at_end = true,
		.not_found = "",
		.not_found_down = true,
		.several = "CA's",
	};

	return ibprint_main(argc, argv, &ca);
}
