/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Congestion Control (class 0x21) part shared by ibccquery and ibccconfig: their main
 * flow and usage text as infiniband-diags 44 has them, and the CC Get/Set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cc.h"

#define CC_CLASS	 0x21
#define CC_LOG_ATTR	 0x0013 /* CongestionLog: its data starts at MAD byte 32 */
#define CC_LOG_OFFSET	 32
#define NODE_TYPE_SWITCH 2

struct cc_tool cc;

static int process_opt(void *ctx, int letter, char *arg)
{
	(void)ctx;
	if (letter != 'c')
		return -1;
	cc.cckey = strtoull(arg, NULL, 0);
	return 0;
}

static cc_op_fn find_op(const struct cc_op *ops, const char *name)
{
	for (; ops->name; ops++)
		if (!strcasecmp(ops->name, name) || !strcasecmp(ops->alias, name))
			return ops->fn;
	return NULL;
}

_Noreturn void cc_main(int argc, char **argv, const struct cc_op *ops, bool config,
		       const char *const *examples)
{
	static const struct ibdiag_opt opts[] = {
		{ "cckey", 'c', 1, "<key>", "CC key" },
		{ NULL, 0, 0, NULL, NULL },
	};
	struct ibpath_path *dest = NULL;
	const struct cc_op *o;
	char usage[1024];
	const char *err;
	size_t n;
	cc_op_fn fn;
	int first;

	n = (size_t)snprintf(usage, sizeof(usage), "[-c key] <op> <lid|guid>\n%s"
			     "\nSupported ops (and aliases, case insensitive):\n",
			     config ? "\nWARNING -- You should understand what you are doing "
				      "before using this tool.  Misuse of this tool could result "
				      "in a broken fabric.\n" : "");
	for (o = ops; o->name && n < sizeof(usage); o++) {
		if (config)
			n += (size_t)snprintf(usage + n, sizeof(usage) - n,
					      "  %s (%s) <lid|guid>%s%s%s\n", o->name, o->alias,
					      o->portnum ? " <portnum>" : "", o->extra ? " " : "",
					      o->extra ? o->extra : "");
		else
			n += (size_t)snprintf(usage + n, sizeof(usage) - n,
					      "  %s (%s) <lid|guid>%s\n", o->name, o->alias,
					      o->portnum ? " [<portnum>]" : "");
	}

	first = ibdiag_process_opts(argc, argv, NULL, "DK", opts, process_opt, usage, examples);
	argc -= first;
	argv += first;
	if (argc < 2)
		ibdiag_show_usage();
	fn = find_op(ops, argv[0]);
	if (!fn)
		ibdiag_exit("main", "operation '%s' not supported", argv[0]);

	cc.port = ibdiag_open_port();
	if (ibdiag_resolve(cc.port, argv[1], ibd.dest_type, &dest) < 0)
		ibdiag_exit("main", "can't resolve destination %s", argv[1]);
	err = fn(dest, argv + 2, argc - 2);
	if (err)
		ibdiag_exit("main", "operation %s: %s", argv[0], err);
	ibpath_path_unref(dest);
	ibdiag_close_port(cc.port);
	exit(0);
}

static int cc_rpc(const struct ibpath_path *dest, uint8_t method, uint16_t attr, uint32_t mod,
		  const uint8_t *in, uint8_t *out)
{
	struct ibmadrpc_request r = {
		.path = dest,
		.mgmt_class = CC_CLASS,
		.method = method,
		.attr_id = attr,
		.attr_mod = mod,
		.data = in,
		.data_len = in ? CC_DATA_SIZE : 0,
		.key = cc.cckey,
	};
	struct ibmadrpc_reply reply;
	size_t size = attr == CC_LOG_ATTR ? CC_LOG_SIZE : CC_DATA_SIZE;

	if (ibdiag_call(cc.port, &r, &reply, NULL) < 0)
		return -1;
	if (!out)
		return 0;
	memset(out, 0, size);
	if (attr == CC_LOG_ATTR) {
		if (reply.len > CC_LOG_OFFSET)
			memcpy(out, reply.mad + CC_LOG_OFFSET,
			       reply.len - CC_LOG_OFFSET < size ? reply.len - CC_LOG_OFFSET : size);
	} else {
		ibdiag_reply_data(&reply, out, size);
	}
	return 0;
}

int cc_get(const struct ibpath_path *dest, uint16_t attr, uint32_t mod, uint8_t *data)
{
	return cc_rpc(dest, IBSTRUCT_METHOD_GET, attr, mod, NULL, data);
}

int cc_set(const struct ibpath_path *dest, uint16_t attr, uint32_t mod,
	   const uint8_t in[CC_DATA_SIZE], uint8_t *out)
{
	return cc_rpc(dest, IBSTRUCT_METHOD_SET, attr, mod, in, out);
}

const char *cc_switch_ports(const struct ibpath_path *dest, const char *failed, int *numports)
{
	uint8_t ni[64];

	if (ibdiag_smp_get(cc.port, dest, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, ni, NULL) < 0)
		return failed;
	if (ni[2] != NODE_TYPE_SWITCH)
		return "destination not a switch";
	*numports = ni[3];
	return NULL;
}
