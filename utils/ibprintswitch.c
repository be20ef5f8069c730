/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibprintswitch: prints a switch's lines of the `ibnetdiscover -g` topology, a drop-in
 * replacement for infiniband-diags' deprecated Perl script of the same name.
 *
 *   ibprintswitch [-R -l] [-C <ca_name>] [-P <ca_port>] [-G <switch_guid> | <switch_name>]
 *
 * The work is in utils/common/ibprint.c, shared with ibprintca and ibprintrt.  As the
 * script, a switch's ports are printed only when the next switch line comes before any
 * channel adapter line: the last switch of the topology shows its line alone.
 */
#include <stddef.h>

#include "ibprint.h"

int main(int argc, char **argv)
{
	static const struct ibprint_kind sw = {
		.instead = "ibswitches",
		.operand = "<switch_guid> | <switch_name>",
		.what = "switch",
		.list_what = "switches",
		.header_re = "^Switch.*\\\"S-(.*)\\\"\\s+# (.*) port.*",
		.leave_re = { "^Ca.*", NULL },
		.flush_at_end = false,
		.not_found = "Switch ",
		.not_found_down = false,
		.several = "switches",
	};

	return ibprint_main(argc, argv, &sw);
}
