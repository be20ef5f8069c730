/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The infiniband-diags common layer of the ibmgmt tools (not installed): the option engine
 * (common options, config file, usage text), error exits, target resolution, the port
 * and the SMP/SA helpers every tool uses, plus the extras every tool accepts (--sa, -dd
 * packet decodes, stacked error messages).
 */
#ifndef IBMGMT_UTILS_IBDIAG_H
#define IBMGMT_UTILS_IBDIAG_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ibmgmt/ibmadrpc.h>
#include <ibmgmt/ibpath.h>
#include <ibmgmt/ibsa.h>
#include <ibmgmt/ibstruct.h>

#define IBDIAG_VERSION "44.0" /* what -V prints, as infiniband-diags 44 */

enum ibdiag_dest {
	IBDIAG_DEST_LID = 0, /* -L (default) */
	IBDIAG_DEST_DR,      /* -D */
	IBDIAG_DEST_GUID,    /* -G */
	IBDIAG_DEST_DRSLID,  /* smpquery -c: "<lid> <dr path>" */
	IBDIAG_DEST_GID,
};

/* The common settings, filled by the config file and ibdiag_process_opts(). */
struct ibdiag_common {
	const char *prog;          /* argv[0], as the reference prints it */
	char *ca;                  /* -C or config CA (NULL: default) */
	unsigned ca_port;          /* -P or config Port (0: default) */
	enum ibdiag_dest dest_type;
	unsigned timeout_ms;       /* -t or config timeout (0: library default 1000) */
	bool timeout_set;          /* -t given (the reference then also sets the RPC timeout) */
	bool sm_given;             /* -s given */
	uint16_t sm_lid;           /* -s <lid> */
	bool show_keys;            /* -K */
	uint64_t mkey;             /* -y or config m_key */
	uint64_t sakey;            /* config sa_key */
	bool show_errors;          /* -e */
	int verbose;               /* -v count */
	int debug;                 /* -d count (2: -dd packet decodes) */
	bool mlx_epi;              /* config MLX_EPI (default true) */
	char *nd_format;           /* config nd_format */
	/* extras (not in the reference's --help) */
	bool sa;                   /* --sa: SMP queries answered from SA records */
};
extern struct ibdiag_common ibd;

/* One tool-specific option.  letter: the short option, or a value 1..31 for long-only
 * options (then passed to the handler as that value), or IBDIAG_OPT_EXTRA..0x1ff for a
 * hidden extra (long only, not in the usage text, like the common --sa). */
#define IBDIAG_OPT_EXTRA 0x140 /* 0x100..0x13f: the common hidden extras */
struct ibdiag_opt {
	const char *name;
	int letter;
	int has_arg;               /* 0, 1 (required), 2 (optional) */
	const char *arg_tmpl;      /* "<file>"; NULL prints "<val>" */
	const char *description;
};

/* Returns 0, or -1 to print the usage (exit 2). */
typedef int (*ibdiag_handler_fn)(void *ctx, int letter, char *optarg);

/* infiniband-diags' ibdiag_process_opts(): reads the config file, then argv (GNU
 * permutation) with the custom options first and the common ones not in `exclude`;
 * handles -h (usage, exit 2), -V (version, exit 0), unknown options (getopt's message and
 * the usage, exit 2), -t/-s/-y checks (IBEXIT).  Returns the index of the first operand
 * in the permuted argv.  usage_args may span several lines; examples is NULL-terminated. */
int ibdiag_process_opts(int argc, char **argv, void *ctx, const char *exclude,
			const struct ibdiag_opt *custom, ibdiag_handler_fn handler,
			const char *usage_args, const char *const *examples);
/* The usage text on stderr, exit 2. */
_Noreturn void ibdiag_show_usage(void);

/* ---- Messages and exits (as infiniband-diags prints them) ----------------------------- */

/* IBEXIT: stdout "<prog>: iberror: failed: <msg>\n" (with -d:
 * "<prog>: iberror: [pid N] <fn>: failed: <msg>\n"), exit 255. */
_Noreturn void ibdiag_exit(const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define IBEXIT(...) ibdiag_exit(__func__, __VA_ARGS__)
/* IBWARN: stderr "ibwarn: [pid] <fn>: <msg>\n". */
void ibdiag_warn(const char *fn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define IBWARN(...) ibdiag_warn(__func__, __VA_ARGS__)
/* IBPANIC: stderr "ibpanic: [pid] <fn>: <msg>: <strerror(errno)>\n", exit 255. */
_Noreturn void ibdiag_panic(const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define IBPANIC(...) ibdiag_panic(__func__, __VA_ARGS__)
/* Extra: the stacked messages (and packet dumps) of an error on stderr, when -v was given
 * twice (messages) or three times (+ packets); nothing otherwise. */
void ibdiag_show_error(const struct ibmadrpc_error *err);

/* ---- The port ------------------------------------------------------------------------- */

struct ibdiag_port {
	struct ibmadrpc_port *port;
	struct ibsa *sa;           /* created on first use (GUID targets, --sa) */
	ibstruct_gid_t gid;        /* the local port's GID 0 */
	uint16_t lid;
};

/* Opens the umad port chosen by -C/-P (default rules of libibumad), applies -t, installs
 * the -d/-dd trace hook.  Failure: IBEXIT("Failed to open '%s' port '%d'", ca, port). */
struct ibdiag_port *ibdiag_open_port(void);
/* The same, NULL instead of the exit when the port cannot be opened. */
struct ibdiag_port *ibdiag_try_open_port(void);
void ibdiag_close_port(struct ibdiag_port *p);
/* infiniband-diags' resolve_self() and resolve_sm_portid(): libibumad's umad_get_port() on
 * the opened device with the -P port cut to 8 bits (their parameter is a uint8_t): port 0
 * is the device's best port, another number must be one of its ports (-P -1 asks for port
 * 255 and fails, -P -255 is port 1).  0 and that port's LID, SM LID and SL (each pointer
 * may be NULL), or -1. */
int ibdiag_self(const struct ibdiag_port *p, uint16_t *lid, uint16_t *sm_lid, uint8_t *sm_sl);
/* The SA client of the port (-s and sa_key applied); IBEXIT on failure. */
struct ibsa *ibdiag_sa(struct ibdiag_port *p);

/* ---- Targets -------------------------------------------------------------------------- */

/* resolve_portid_str(): the target text read as `type` (LID: strtol base 0, 1..0xbfff; DR:
 * atoi per element; GUID: strtoull base 0 then an SA PathRecord; DRSLID: "<lid> <path>"),
 * and, when that form does not apply, any other form libibpath parses (GID, scoped GID,
 * canonical GUID, "IBPath(...)").  0 and a new path, or -1 (nothing printed). */
int ibdiag_resolve(struct ibdiag_port *p, const char *text, enum ibdiag_dest type,
		   struct ibpath_path **out);
/* The reference's portid2str(): "Lid 4", "DR path slid 65535; dlid 65535; 0,1,3",
 * "Lid 3 DR path slid ...", with " Gid <gid>" when the path has a GRH.  Returns buf. */
const char *ibdiag_portid_str(const struct ibpath_path *path, char *buf, size_t len);

/* ---- MADs ------------------------------------------------------------------------------- */

/* SubnGet / SubnSet of an SMP attribute (64 data bytes in wire format, M_Key from -y);
 * with --sa a Get is answered from SA records (ibsa_subn_get).  0 or a negative errno and
 * *err (may be NULL; the caller frees it). */
int ibdiag_smp_get(struct ibdiag_port *p, const struct ibpath_path *path, uint16_t attr_id,
		   uint32_t attr_mod, uint8_t data[64], struct ibmadrpc_error **err);
int ibdiag_smp_set(struct ibdiag_port *p, const struct ibpath_path *path, uint16_t attr_id,
		   uint32_t attr_mod, const uint8_t in[64], uint8_t out[64],
		   struct ibmadrpc_error **err);
/* Any request through the port (trace and -v error details handled). */
int ibdiag_call(struct ibdiag_port *p, const struct ibmadrpc_request *req,
		struct ibmadrpc_reply *reply, struct ibmadrpc_error **err);
/* The reply's data (behind the class header) into out: size bytes, zero padded behind a
 * shorter reply. */
void ibdiag_reply_data(const struct ibmadrpc_reply *reply, void *out, size_t size);

/* is_port_info_extended_supported(): whether the port (a switch: its port 0) reports
 * PortInfoExtended in its CapabilityMask2; IBWARN when not, IBEXIT when a query fails. */
bool ibdiag_port_info_ext_supported(struct ibdiag_port *p, const struct ibpath_path *path,
				    int portnum);

/* ---- Node names -------------------------------------------------------------------------- */

struct ibdiag_nnmap;
/* --node-name-map: file NULL opens /etc/rdma/ib-node-name-map if it exists.  Parse errors
 * print the reference's WARNING lines and give an empty map. */
struct ibdiag_nnmap *ibdiag_nnmap_open(const char *file);
void ibdiag_nnmap_close(struct ibdiag_nnmap *map);
/* remap_node_name(): the map's name for the node GUID, else clean_nodedesc(desc).  The
 * result is malloc'd. */
char *ibdiag_nnmap_name(const struct ibdiag_nnmap *map, uint64_t node_guid, const char *desc);
/* clean_nodedesc(): non-printable characters become spaces, at most 64 characters. */
char *ibdiag_clean_nodedesc(char *desc);

/* ---- Files the tools write ------------------------------------------------------------ */

/* Holds SIGHUP, SIGINT, SIGQUIT and SIGTERM while a tool writes a file, so that one sent
 * meanwhile ends the tool only once the write is complete, or has failed and cleaned up: no
 * partial or temporary file stays.  A handler notes the signal (whatever thread gets it:
 * blocking it in the main thread would not do where a library or a preload, such as the
 * simulator's umad2sim, runs a thread of its own); ibdiag_signals_release() puts the old
 * actions back and raises the noted signal, which then ends the tool as it would have.
 * A signal that was ignored stays ignored.  Only for a regular file (the open `fd` if
 * >= 0, else `path`, or where nothing exists yet; neither given: nothing held): a FIFO's
 * reader could keep a Ctrl-C out for ever. */
#define IBDIAG_HELD_SIGNALS 4
struct ibdiag_sighold {
	bool on;
	struct sigaction old[IBDIAG_HELD_SIGNALS];
};
void ibdiag_signals_hold(const char *path, int fd, struct ibdiag_sighold *h);
void ibdiag_signals_release(struct ibdiag_sighold *h);

#endif /* IBMGMT_UTILS_IBDIAG_H */
