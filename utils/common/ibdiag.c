/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The common layer of the tools: infiniband-diags' option engine, config file, usage text,
 * error exits and target handling, on the ibmgmt libraries.  The texts, orders and exit
 * codes follow infiniband-diags 44 byte for byte (doc/ and tests/fabric/cases/ show them);
 * the code is our own.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conffile.h"
#include "ibdiag.h"

/* infiniband-diags' file, whatever our prefix: the tools are its drop-in replacements and
 * print this path in their usage text. */
#define IBDIAG_CONFIG_PATH "/etc/infiniband-diags/ibdiag.conf"
#define IBDIAG_NODE_NAME_MAP "/etc/rdma/ib-node-name-map"
/* PortInfo bits that say whether PortInfoExtended exists */
#define PORT_CAP_HAS_CAP_MASK2	(1u << 15)
#define PORT_CAP2_PORT_INFO_EXT (1u << 1)

struct ibdiag_common ibd = {
	.mlx_epi = true,
};

/* ---- Messages ------------------------------------------------------------------------- */

_Noreturn void ibdiag_exit(const char *fn, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ibd.debug)
		printf("%s: iberror: [pid %d] %s: failed: %s\n", ibd.prog ? ibd.prog : "", (int)getpid(),
		       fn, msg);
	else
		printf("%s: iberror: failed: %s\n", ibd.prog ? ibd.prog : "", msg);
	exit(255);
}

void ibdiag_warn(const char *fn, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "ibwarn: [%d] %s: ", (int)getpid(), fn);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

_Noreturn void ibdiag_panic(const char *fn, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "ibpanic: [%d] %s: ", (int)getpid(), fn);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(saved));
	exit(255);
}

void ibdiag_show_error(const struct ibmadrpc_error *err)
{
	char *buf;
	size_t len = 65536;
	int level;

	if (!err || ibd.verbose < 2)
		return;
	level = ibd.verbose >= 3 ? 2 : 1;
	buf = malloc(len);
	if (!buf)
		return;
	if (ibmadrpc_error_format(err, level, buf, len) >= 0) {
		fflush(stdout);
		fputs(buf, stderr);
		if (buf[0] && buf[strlen(buf) - 1] != '\n')
			fputc('\n', stderr);
	}
	free(buf);
}

/* ---- Config file ----------------------------------------------------------------------- */

/* The keys it gives replace the defaults (conffile.c reads it). */
static void read_config(const char *file)
{
	struct ibdiag_config c = { 0 };
	FILE *f = fopen(file, "r");

	if (!f)
		return;
	ibdiag_config_read(f, &c);
	fclose(f);
	if (c.set & IBDIAG_CONF_CA) {
		free(ibd.ca);
		ibd.ca = c.ca;
		c.ca = NULL;
	}
	if (c.set & IBDIAG_CONF_PORT)
		ibd.ca_port = c.port;
	if (c.set & IBDIAG_CONF_TIMEOUT)
		ibd.timeout_ms = c.timeout_ms;
	if (c.set & IBDIAG_CONF_MLX_EPI)
		ibd.mlx_epi = c.mlx_epi;
	if (c.set & IBDIAG_CONF_MKEY)
		ibd.mkey = c.mkey;
	if (c.set & IBDIAG_CONF_SAKEY)
		ibd.sakey = c.sakey;
	if (c.set & IBDIAG_CONF_ND_FORMAT) {
		free(ibd.nd_format);
		ibd.nd_format = c.nd_format;
		c.nd_format = NULL;
	}
	ibdiag_config_clear(&c);
}

/* ---- Options ------------------------------------------------------------------------------ */

/* Hidden extras: long options only, values above any letter, not in the usage text. */
enum {
	OPT_SA = 0x100,
};

static const struct ibdiag_opt common_opts[] = {
	{ "config", 'z', 1, "<config>", "use config file, default: " IBDIAG_CONFIG_PATH },
	{ "Ca", 'C', 1, "<ca>", "Ca name to use" },
	{ "Port", 'P', 1, "<port>", "Ca port number to use" },
	{ "Direct", 'D', 0, NULL, "use Direct address argument" },
	{ "Lid", 'L', 0, NULL, "use LID address argument" },
	{ "Guid", 'G', 0, NULL, "use GUID address argument" },
	{ "timeout", 't', 1, "<ms>", "timeout in ms" },
	{ "sm_port", 's', 1, "<lid>", "SM port lid" },
	{ "show_keys", 'K', 0, NULL, "display security keys in output" },
	{ "m_key", 'y', 1, "<key>", "M_Key to use in request" },
	{ "errors", 'e', 0, NULL, "show send and receive errors" },
	{ "verbose", 'v', 0, NULL, "increase verbosity level" },
	{ "debug", 'd', 0, NULL, "raise debug level" },
	{ "help", 'h', 0, NULL, "help message" },
	{ "version", 'V', 0, NULL, "show version" },
	{ NULL, 0, 0, NULL, NULL },
};

/* The options of this run in usage order (custom first), and the usage texts. */
static const struct ibdiag_opt **usage_opts;
static size_t n_usage_opts;
static const char *usage_args_text;
static const char *const *usage_examples;

/* Writes `str` from column `start`, breaking lines at spaces so that a line holds fewer
 * than width - start characters where it can; a word longer than that stays whole.  Each
 * broken line keeps its trailing space, and the next one is indented to `start`. */
static void print_wrapped(int start, int width, const char *str)
{
	int room = width - start;

	for (;;) {
		const char *brk = NULL, *sp;

		while (isspace((unsigned char)*str))
			str++;
		/* the last space within room, looking from the second character on */
		for (sp = strchr(str + 1, ' '); sp && sp - str < room; sp = strchr(sp + 1, ' '))
			brk = sp;
		if (!sp) {
			fputs(str, stderr);
			return;
		}
		if (!brk)
			fprintf(stderr, "%.*s\n%*s", (int)(sp - str), str, start, "");
		else
			fprintf(stderr, "%.*s\n%*s", (int)(brk + 1 - str), str, start, "");
		str = brk ? brk + 1 : sp;
	}
}

_Noreturn void ibdiag_show_usage(void)
{
	size_t i;

	fflush(stdout);
	fprintf(stderr, "\nUsage: %s [options] %s\n\n", ibd.prog, usage_args_text ? usage_args_text : "");
	if (n_usage_opts)
		fprintf(stderr, "Options:\n");
	for (i = 0; i < n_usage_opts; i++) {
		const struct ibdiag_opt *o = usage_opts[i];
		int n = fprintf(stderr, "  --%s", o->name);

		if (isprint(o->letter))
			n += fprintf(stderr, ", -%c", o->letter);
		if (o->has_arg)
			n += fprintf(stderr, " %s", o->arg_tmpl ? o->arg_tmpl : "<val>");
		if (o->description && *o->description) {
			n += fprintf(stderr, "%*s  ", 24 - n > 0 ? 24 - n : 0, "");
			print_wrapped(n, 74, o->description);
		}
		fputc('\n', stderr);
	}
	if (usage_examples) {
		const char *const *e;

		fprintf(stderr, "\nExamples:\n");
		for (e = usage_examples; *e && **e; e++)
			fprintf(stderr, "  %s %s\n", ibd.prog, *e);
	}
	fputc('\n', stderr);
	exit(2);
}

/* strtol() base 0 as a LID: 1..0xbfff (trailing text ignored, as the reference does). */
static int diags_lid(const char *text, uint16_t *lid)
{
	long v = strtol(text, NULL, 0);

	if (v <= 0 || v >= 0xc000)
		return -1;
	*lid = (uint16_t)v;
	return 0;
}

static void common_option(int ch, char *arg)
{
	char *end;
	long t;

	switch (ch) {
	case 'z':
		read_config(arg);
		break;
	case 'C':
		ibd.ca = arg;
		break;
	case 'P':
		ibd.ca_port = (unsigned)strtoul(arg, NULL, 0);
		break;
	case 'D':
		ibd.dest_type = IBDIAG_DEST_DR;
		break;
	case 'L':
		ibd.dest_type = IBDIAG_DEST_LID;
		break;
	case 'G':
		ibd.dest_type = IBDIAG_DEST_GUID;
		break;
	case 't':
		errno = 0;
		t = strtol(arg, &end, 0);
		if (errno || *end != '\0' || t <= 0 || t > INT_MAX)
			IBEXIT("Invalid timeout \"%s\".  Timeout requires a positive integer value < %d.",
			       arg, INT_MAX);
		ibd.timeout_ms = (unsigned)t;
		ibd.timeout_set = true;
		break;
	case 's':
		if (diags_lid(arg, &ibd.sm_lid) < 0)
			IBEXIT("cannot resolve SM destination port %s", arg);
		ibd.sm_given = true;
		break;
	case 'K':
		ibd.show_keys = true;
		break;
	case 'y':
		errno = 0;
		ibd.mkey = strtoull(arg, &end, 0);
		if (errno || *end != '\0') {
			/* not a number: ask for it, as the reference does.  Its errno check also
			 * sees what getpass() left there: without a terminal (no /dev/tty to open)
			 * the answer is always a "Bad M_Key" */
			char *typed;

			errno = 0;
			typed = getpass("M_Key: ");
			ibd.mkey = typed ? strtoull(typed, &end, 0) : 0;
			if (!typed || errno || *end != '\0')
				IBEXIT("Bad M_Key");
		}
		break;
	case 'e':
		ibd.show_errors = true;
		break;
	case 'v':
		ibd.verbose++;
		break;
	case 'd':
		ibd.debug++;
		break;
	case 'V':
		fflush(stdout);
		fprintf(stderr, "%s BUILD VERSION: %s\n", ibd.prog, IBDIAG_VERSION);
		exit(0);
	case OPT_SA:
		ibd.sa = true;
		break;
	default: /* 'h' and anything unexpected */
		ibdiag_show_usage();
	}
}

int ibdiag_process_opts(int argc, char **argv, void *ctx, const char *exclude,
			const struct ibdiag_opt *custom, ibdiag_handler_fn handler,
			const char *usage_args, const char *const *examples)
{
	size_t n_custom = 0, n_common = 0, i, n = 0;
	const struct ibdiag_opt *o;
	/* static: an option's handler may exit (IBEXIT on a bad -t) while they are in use */
	static struct option *longopts;
	static char *shortopts;
	bool is_custom[0x200] = { false };
	size_t s = 0;

	ibd.prog = argv[0];
	usage_args_text = usage_args;
	usage_examples = examples;
	read_config(IBDIAG_CONFIG_PATH);

	for (o = custom; o && o->name; o++)
		n_custom++;
	for (o = common_opts; o->name; o++)
		n_common++;
	usage_opts = calloc(n_custom + n_common, sizeof(*usage_opts));
	longopts = calloc(n_custom + n_common + 2, sizeof(*longopts));
	shortopts = calloc(3 * (n_custom + n_common) + 2, 1);
	if (!usage_opts || !longopts || !shortopts)
		IBPANIC("out of memory");
	for (o = custom; o && o->name; o++) {
		if (o->letter > 0 && o->letter < 0x200)
			is_custom[o->letter] = true;
		/* a tool's hidden extras (values 0x100 and up) are not in the usage text */
		if (o->letter < 0x100)
			usage_opts[n++] = o;
	}
	for (o = common_opts; o->name; o++) {
		if (exclude && strchr(exclude, o->letter))
			continue;
		if (is_custom[o->letter]) /* the tool's own letter hides the common one */
			continue;
		usage_opts[n++] = o;
	}
	n_usage_opts = n;
	for (i = 0; i < n; i++) {
		o = usage_opts[i];
		longopts[i].name = o->name;
		longopts[i].has_arg = o->has_arg;
		longopts[i].val = o->letter;
		if (isprint(o->letter)) {
			shortopts[s++] = (char)o->letter;
			if (o->has_arg)
				shortopts[s++] = ':';
			if (o->has_arg == 2)
				shortopts[s++] = ':';
		}
	}
	for (o = custom; o && o->name; o++) {
		if (o->letter < 0x100)
			continue;
		longopts[i].name = o->name;
		longopts[i].has_arg = o->has_arg;
		longopts[i++].val = o->letter;
	}
	longopts[i].name = "sa";
	longopts[i].val = OPT_SA;

	for (;;) {
		int ch = getopt_long(argc, argv, shortopts, longopts, NULL);

		if (ch == -1)
			break;
		if (ch == '?')
			ibdiag_show_usage();
		if (ch >= 0 && ch < 0x200 && is_custom[ch]) {
			if (handler && handler(ctx, ch, optarg) != 0)
				ibdiag_show_usage();
			continue;
		}
		common_option(ch, optarg);
	}
	free(longopts);
	free(shortopts);
	longopts = NULL;
	shortopts = NULL;
	return optind;
}

/* ---- The port -------------------------------------------------------------------------- */

static void trace_line(void *user, const char *text)
{
	const char *p = text;
	int pid = (int)getpid();

	(void)user;
	fflush(stdout);
	/* our debug output wears libibmad's debug prefix, one line at a time */
	while (*p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		fprintf(stderr, "ibwarn: [%d] mad_rpc: %.*s\n", pid, len, p);
		p += len + (nl ? 1 : 0);
	}
}

struct ibdiag_port *ibdiag_open_port(void)
{
	struct ibdiag_port *p = ibdiag_try_open_port();

	if (!p)
		IBEXIT("Failed to open '%s' port '%d'", ibd.ca ? ibd.ca : "(null)", (int)ibd.ca_port);
	return p;
}

struct ibdiag_port *ibdiag_try_open_port(void)
{
	struct ibdiag_port *p = calloc(1, sizeof(*p));
	struct ibmadrpc_error *err = NULL;

	if (!p)
		IBPANIC("out of memory");
	if (ibmadrpc_port_open_name(&p->port, ibd.ca, ibd.ca_port, &err) < 0) {
		ibdiag_show_error(err);
		ibmadrpc_error_free(err);
		free(p);
		return NULL;
	}
	/* libibmad's MAD_DEF_RETRIES 3 counts attempts: the first send and 2 retries */
	ibmadrpc_port_set_default_timeout(p->port, ibd.timeout_ms ? ibd.timeout_ms : 1000, 2);
	if (ibd.debug)
		ibmadrpc_port_set_trace(p->port, ibd.debug >= 2 ? 2 : 1, trace_line, NULL);
	ibmadrpc_port_gid(p->port, &p->gid);
	p->lid = ibmadrpc_port_lid(p->port);
	return p;
}

void ibdiag_close_port(struct ibdiag_port *p)
{
	if (!p)
		return;
	ibsa_free(p->sa);
	ibmadrpc_port_close(p->port);
	free(p);
}

int ibdiag_self(const struct ibdiag_port *p, uint16_t *lid, uint16_t *sm_lid, uint8_t *sm_sl)
{
	const char *name = ibmadrpc_port_name(p->port);
	const char *slash = name ? strchr(name, '/') : NULL;
	const struct ibpath_device *dev;
	const struct ibpath_port *end = NULL;
	struct ibpath_devlist *list;
	char ca[64];

	if (!slash || (size_t)(slash - name) >= sizeof(ca) ||
	    ibpath_devlist_open(&list, NULL, 0) < 0)
		return -1;
	snprintf(ca, sizeof(ca), "%.*s", (int)(slash - name), name);
	dev = ibpath_devlist_find(list, ca);
	if (dev && (uint8_t)ibd.ca_port)
		end = ibpath_device_port_by_num(dev, (uint8_t)ibd.ca_port);
	else if (dev)
		ibpath_devlist_select_ca_port(list, ca, 0, &end, NULL, 0);
	if (end) {
		if (lid)
			*lid = ibpath_port_lid(end);
		if (sm_lid)
			*sm_lid = ibpath_port_sm_lid(end);
		if (sm_sl)
			*sm_sl = ibpath_port_sm_sl(end);
	}
	ibpath_devlist_close(list);
	return end ? 0 : -1;
}

struct ibsa *ibdiag_sa(struct ibdiag_port *p)
{
	if (p->sa)
		return p->sa;
	if (ibsa_new(&p->sa, p->port) < 0)
		IBPANIC("cannot create the SA client");
	/* OpenSM answers P_KeyTableRecords only to its SM_Key, 1 unless configured: use that when
	 * the config file gives no sa_key (the reference's saquery itself sends the config's) */
	ibsa_set_smkey(p->sa, ibd.sakey ? ibd.sakey : 1);
	if (ibd.sm_given) {
		struct ibpath_path *sm;

		if (ibpath_path_new(&sm, IBPATH_KIND_IB) == 0) {
			ibpath_path_set(sm, IBPATH_DLID, ibd.sm_lid);
			ibpath_path_set(sm, IBPATH_DQPN, 1);
			ibpath_path_set(sm, IBPATH_QKEY, 0x80010000);
			ibsa_set_sa_path(p->sa, sm);
			ibpath_path_unref(sm);
		}
	}
	return p->sa;
}

/* ---- Targets ----------------------------------------------------------------------------- */

static int lid_path(uint16_t lid, struct ibpath_path **out)
{
	struct ibpath_path *path;

	if (ibpath_path_new(&path, IBPATH_KIND_IB) < 0)
		return -1;
	ibpath_path_set(path, IBPATH_DLID, lid);
	*out = path;
	return 0;
}

/* A path that names its target by GUID/GID: the SA's PathRecord gives the LID. */
static int resolve_by_sa(struct ibdiag_port *p, struct ibpath_path *target, struct ibpath_path **out)
{
	struct ibmadrpc_error *err = NULL;
	int rc = ibsa_resolve_path(ibdiag_sa(p), target, out, &err);

	if (rc < 0) {
		ibdiag_show_error(err);
		ibmadrpc_error_free(err);
		return -1;
	}
	return 0;
}

/* Any other form libibpath knows (the ibmgmt extra). */
static int resolve_other(struct ibdiag_port *p, const char *text, struct ibpath_path **out)
{
	struct ibpath_path *path = NULL;
	char msg[128];
	int rc;

	if (ibpath_parse(text, 0, &path, msg, sizeof(msg)) < 0)
		return -1;
	if (ibpath_path_kind(path) == IBPATH_KIND_IB && !ibpath_path_needs_resolution(path)) {
		/* a plain LID is the reference's business: it was rejected there */
		uint64_t lid = ibpath_path_get(path, IBPATH_DLID);

		if (!ibpath_path_has_grh(path) && !strchr(text, '(') && (lid == 0 || lid >= 0xc000)) {
			ibpath_path_unref(path);
			return -1;
		}
	}
	if (ibpath_path_needs_resolution(path)) {
		rc = resolve_by_sa(p, path, out);
		ibpath_path_unref(path);
		return rc;
	}
	*out = path;
	return 0;
}

static bool looks_other(const char *text)
{
	return strchr(text, ':') || strchr(text, '(') || strchr(text, '%');
}

int ibdiag_resolve(struct ibdiag_port *p, const char *text, enum ibdiag_dest type,
		   struct ibpath_path **out)
{
	struct ibpath_path *path = NULL;
	char msg[128];
	uint16_t lid;

	if (!text || !*text)
		return -1;
	switch (type) {
	case IBDIAG_DEST_LID:
		if (diags_lid(text, &lid) == 0 && !looks_other(text) && !strchr(text, ','))
			return lid_path(lid, out);
		return resolve_other(p, text, out);
	case IBDIAG_DEST_DR:
		if (looks_other(text))
			return resolve_other(p, text, out);
		if (ibpath_parse(text, IBPATH_PARSE_DR | IBPATH_PARSE_DR_ATOI, &path, msg, sizeof(msg)) < 0)
			return -1;
		*out = path;
		return 0;
	case IBDIAG_DEST_GUID: {
		uint64_t guid;

		if (looks_other(text))
			return resolve_other(p, text, out);
		guid = strtoull(text, NULL, 0);
		/* the reference looks up the local port (its SM and GID) first */
		if (!guid || ibdiag_self(p, NULL, NULL, NULL) < 0)
			return -1;
		{
			ibstruct_gid_t dgid;
			uint64_t prefix = ibstruct_gid_prefix(&p->gid);
			int rc;

			if (ibpath_path_new(&path, IBPATH_KIND_IB) < 0)
				return -1;
			ibstruct_gid_make(&dgid, prefix ? prefix : 0xfe80000000000000ULL, guid);
			ibpath_path_set_dgid(path, &dgid);
			rc = resolve_by_sa(p, path, out);
			ibpath_path_unref(path);
			if (rc == 0) {
				/* the reference keeps only DLID and SL: no GRH */
				ibpath_path_clear_grh(*out);
			}
			return rc;
		}
	}
	case IBDIAG_DEST_DRSLID: {
		/* "<lid> <dr path>": LID-routed to the first node, directed from there */
		const char *sp = strchr(text, ' ');
		long l = strtol(text, NULL, 0);

		if (!sp || l <= 0 || l >= 0xc000 || ibdiag_self(p, NULL, NULL, NULL) < 0)
			return -1;
		if (ibpath_parse(sp + 1, IBPATH_PARSE_DR | IBPATH_PARSE_DR_ATOI, &path, msg, sizeof(msg)) < 0)
			return -1;
		ibpath_path_set(path, IBPATH_DLID, (uint64_t)l);
		ibpath_path_set(path, IBPATH_DR_SLID, p->lid);
		*out = path;
		return 0;
	}
	case IBDIAG_DEST_GID:
		/* (without -s, the reference looks up the local port's SM first) */
		if (ibpath_parse(text, IBPATH_PARSE_GID, &path, msg, sizeof(msg)) < 0 ||
		    (!ibd.sm_given && ibdiag_self(p, NULL, NULL, NULL) < 0)) {
			ibpath_path_unref(path);
			return -1;
		}
		{
			int rc = resolve_by_sa(p, path, out);

			ibpath_path_unref(path);
			return rc;
		}
	}
	return -1;
}

const char *ibdiag_portid_str(const struct ibpath_path *path, char *buf, size_t len)
{
	size_t n = 0;
	uint64_t lid = ibpath_path_get(path, IBPATH_DLID);
	const uint8_t *ports;
	unsigned count = 0, i;

	if (ibpath_path_kind(path) == IBPATH_KIND_DR)
		count = ibpath_path_dr_ports(path, &ports);
	buf[0] = '\0';
	if (lid > 0 && (ibpath_path_kind(path) == IBPATH_KIND_IB ||
			ibpath_path_get(path, IBPATH_DR_SLID) != 0xffff)) {
		n += (size_t)snprintf(buf + n, len - n, "Lid %u", (unsigned)lid);
		if (ibpath_path_has_grh(path) && n < len) {
			ibstruct_gid_t gid;
			char text[64];

			ibpath_path_dgid(path, &gid);
			if (ibstruct_gid_format(text, sizeof(text), &gid) >= 0)
				n += (size_t)snprintf(buf + n, len - n, " Gid %s", text);
		}
		if (count <= 1 || n >= len)
			return buf;
		n += (size_t)snprintf(buf + n, len - n, " ");
	}
	if (n >= len)
		return buf;
	n += (size_t)snprintf(buf + n, len - n, "DR path slid %u; dlid %u; %d",
			      (unsigned)ibpath_path_get(path, IBPATH_DR_SLID),
			      (unsigned)ibpath_path_get(path, IBPATH_DR_DLID), count ? ports[0] : 0);
	for (i = 1; i < count && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, ",%d", ports[i]);
	return buf;
}

/* ---- MADs ------------------------------------------------------------------------------- */

/* A failed call's error: shown (-v), then handed to the caller or freed. */
static int pass_error(int rc, struct ibmadrpc_error *e, struct ibmadrpc_error **err)
{
	if (rc < 0) {
		ibdiag_show_error(e);
		if (err)
			*err = e;
		else
			ibmadrpc_error_free(e);
	}
	return rc;
}

int ibdiag_call(struct ibdiag_port *p, const struct ibmadrpc_request *req,
		struct ibmadrpc_reply *reply, struct ibmadrpc_error **err)
{
	struct ibmadrpc_error *e = NULL;
	int rc = ibmadrpc_call(p->port, req, reply, &e);

	return pass_error(rc, e, err);
}

void ibdiag_reply_data(const struct ibmadrpc_reply *reply, void *out, size_t size)
{
	size_t n;

	memset(out, 0, size);
	if (reply->len > reply->data_offset) {
		n = reply->len - reply->data_offset;
		memcpy(out, reply->mad + reply->data_offset, n < size ? n : size);
	}
}

static int smp_rpc(struct ibdiag_port *p, const struct ibpath_path *path, uint8_t method,
		   uint16_t attr_id, uint32_t attr_mod, const uint8_t *in, uint8_t out[64],
		   struct ibmadrpc_error **err)
{
	struct ibmadrpc_request req = {
		.path = path,
		.mgmt_class = IBSTRUCT_CLASS_SMP,
		.method = method,
		.attr_id = attr_id,
		.attr_mod = attr_mod,
		.data = in,
		.data_len = in ? 64 : 0,
		.key = ibd.mkey,
	};
	struct ibmadrpc_reply reply;
	int rc = ibdiag_call(p, &req, &reply, err);

	if (rc < 0)
		return rc;
	ibdiag_reply_data(&reply, out, 64);
	return 0;
}

int ibdiag_smp_get(struct ibdiag_port *p, const struct ibpath_path *path, uint16_t attr_id,
		   uint32_t attr_mod, uint8_t data[64], struct ibmadrpc_error **err)
{
	if (ibd.sa) {
		struct ibmadrpc_error *e = NULL;
		int rc = ibsa_subn_get(ibdiag_sa(p), path, attr_id, attr_mod, data, &e);

		return pass_error(rc, e, err);
	}
	return smp_rpc(p, path, IBSTRUCT_METHOD_GET, attr_id, attr_mod, NULL, data, err);
}

int ibdiag_smp_set(struct ibdiag_port *p, const struct ibpath_path *path, uint16_t attr_id,
		   uint32_t attr_mod, const uint8_t in[64], uint8_t out[64],
		   struct ibmadrpc_error **err)
{
	return smp_rpc(p, path, IBSTRUCT_METHOD_SET, attr_id, attr_mod, in, out, err);
}

/* The reference's is_port_info_extended_supported() (its ibdiag_common.c). */
bool ibdiag_port_info_ext_supported(struct ibdiag_port *p, const struct ibpath_path *path,
				    int portnum)
{
	static const char fn[] = "is_port_info_extended_supported";
	struct ibstruct_smp_node_info ni;
	struct ibstruct_smp_port_info pi;
	uint8_t data[64];

	if (ibdiag_smp_get(p, path, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, data, NULL) < 0)
		ibdiag_exit(fn, "node info query failed");
	ibstruct_smp_node_info_unpack(&ni, data, sizeof(data));
	if (ni.nodeType == 2) /* a switch answers for its management port 0 */
		portnum = 0;
	if (ibdiag_smp_get(p, path, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, (uint32_t)portnum, data, NULL) <
	    0)
		ibdiag_exit(fn, "port info query failed");
	ibstruct_smp_port_info_unpack(&pi, data, sizeof(data));
	if (!(pi.capabilityMask & PORT_CAP_HAS_CAP_MASK2)) {
		ibdiag_warn(fn, "port info capability mask2 not supported");
		return false;
	}
	if (!(pi.capabilityMask2 & PORT_CAP2_PORT_INFO_EXT)) {
		ibdiag_warn(fn,
			    "port info capability mask2 = 0x%x doesn't indicate PortInfoExtended "
			    "support",
			    pi.capabilityMask2);
		return false;
	}
	return true;
}

/* ---- Node names ---------------------------------------------------------------------------- */

/* (the reader, ibdiag_nnmap_close() and ibdiag_nnmap_name() are in conffile.c) */
struct ibdiag_nnmap *ibdiag_nnmap_open(const char *file)
{
	struct ibdiag_nnmap *map;
	FILE *f;

	if (!file) {
		if (access(IBDIAG_NODE_NAME_MAP, R_OK) != 0)
			return NULL;
		file = IBDIAG_NODE_NAME_MAP;
	}
	f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "WARNING failed to open node name map \"%s\" (%s)\n", file, strerror(errno));
		return NULL;
	}
	map = ibdiag_nnmap_read(f, file);
	fclose(f);
	return map;
}

/* ibdiag_signals_hold(): the signals held, and the one that came meanwhile (a handler's
 * flag: the one piece of global state a signal needs) */
static const int held_signals[IBDIAG_HELD_SIGNALS] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM };
static volatile sig_atomic_t held_signal;

static void note_signal(int sig)
{
	held_signal = sig;
}

void ibdiag_signals_hold(const char *path, int fd, struct ibdiag_sighold *h)
{
	struct sigaction sa = { .sa_handler = note_signal, .sa_flags = SA_RESTART };
	struct stat st;

	h->on = false;
	if (fd >= 0 ? fstat(fd, &st) || !S_ISREG(st.st_mode)
		    : !path || (!stat(path, &st) && !S_ISREG(st.st_mode)))
		return;
	sigemptyset(&sa.sa_mask);
	for (unsigned i = 0; i < IBDIAG_HELD_SIGNALS; i++)
		sigaddset(&sa.sa_mask, held_signals[i]);
	held_signal = 0;
	for (unsigned i = 0; i < IBDIAG_HELD_SIGNALS; i++) {
		sigaction(held_signals[i], NULL, &h->old[i]);
		if (h->old[i].sa_handler != SIG_IGN)
			sigaction(held_signals[i], &sa, NULL);
	}
	h->on = true;
}

void ibdiag_signals_release(struct ibdiag_sighold *h)
{
	if (!h->on)
		return;
	for (unsigned i = 0; i < IBDIAG_HELD_SIGNALS; i++)
		sigaction(held_signals[i], &h->old[i], NULL);
	h->on = false;
	if (held_signal)
		raise(held_signal);
}
