/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibsysstat: ask a remote node's system status over the OpenIB vendor class 0x33 (OUI
 * 0x001405), a drop-in replacement for infiniband-diags' ibsysstat.
 *
 *   ibsysstat [options] <dest lid|guid> [ping|host|cpu]    client: one Get, no retries
 *   ibsysstat -S [options]                                 server
 *
 * Attributes: 0x10 ping (empty answer), 0x11 host ("<hostname>.<domainname>"), 0x12 cpu
 * (one "cpu N: model <model name> MHZ <cpu MHz>" line per processor of /proc/cpuinfo).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ibdiag.h"
#include "responder.h"

#define SYSSTAT_CLASS 0x33
#define MAX_CPUS 256
/* the longest answer: the reference's 64 KiB buffer less the umad and class headers */
#define MAX_ANSWER (2048 * 32 - 64 - 40)

enum { ATTR_PING = 0x10, ATTR_HOST = 0x11, ATTR_CPU = 0x12 };

struct sysstat_opts {
	int server;
	uint32_t oui;
};

struct cpu {
	char *model;
	char *mhz;
};

struct cpu_table {
	struct cpu cpus[MAX_CPUS];
	int n;
};

static int process_opt(void *ctx, int letter, char *arg)
{
	struct sysstat_opts *o = ctx;

	switch (letter) {
	case 'o':
		o->oui = (uint32_t)strtoul(arg, NULL, 0);
		break;
	case 'S':
		o->server++;
		break;
	default:
		return -1;
	}
	return 0;
}

static int match_attr(const char *s)
{
	if (!strcmp(s, "ping"))
		return ATTR_PING;
	if (!strcmp(s, "host"))
		return ATTR_HOST;
	if (!strcmp(s, "cpu"))
		return ATTR_CPU;
	return -1;
}

/* ---- server ------------------------------------------------------------------------------ */

/* The processors of /proc/cpuinfo: a "processor" line opens one, its "model name" and
 * "cpu MHz" values (the text after the colon) are kept. */
static void read_cpuinfo(struct cpu_table *t)
{
	char line[1024], *colon, *nl;
	FILE *f = fopen("/proc/cpuinfo", "r");

	t->n = 0;
	if (!f) {
		IBWARN("couldn't open /proc/cpuinfo");
		return;
	}
	while (fgets(line, sizeof(line) - 1, f)) {
		if (!strncmp(line, "processor\t", 10)) {
			if (t->n == MAX_CPUS)
				break;
			t->n++;
			continue;
		}
		if (!t->n || !(colon = strchr(line, ':')))
			continue;
		nl = strchr(colon, '\n');
		if (nl)
			*nl = '\0';
		if (!strncmp(line, "model name\t", 11)) {
			free(t->cpus[t->n - 1].model);
			t->cpus[t->n - 1].model = strdup(colon + 1);
		} else if (!strncmp(line, "cpu MHz\t", 8)) {
			free(t->cpus[t->n - 1].mhz);
			t->cpus[t->n - 1].mhz = strdup(colon + 1);
		}
	}
	fclose(f);
	if (ibd.debug)
		IBWARN("ncpu %d", t->n);
}

/* The answer's data and its length as the reference counts it (the host text without its
 * terminating NUL, the cpu text with it). */
static size_t make_answer(const struct cpu_table *t, int attr, char *s, size_t size)
{
	size_t len = 0;
	int i, n;

	memset(s, 0, size);
	switch (attr) {
	case ATTR_HOST:
		len = responder_host_and_domain(s, size);
		break;
	case ATTR_CPU:
		for (i = 0; i < t->n && len < size; i++) {
			n = snprintf(s + len, size - len, "cpu %d: model %s MHZ %s\n", i,
				     t->cpus[i].model ? t->cpus[i].model : "(null)",
				     t->cpus[i].mhz ? t->cpus[i].mhz : "(null)");
			if (n < 0 || (size_t)n >= size - len) {
				IBWARN("cpuinfo truncated");
				len = size;
				break;
			}
			len += (size_t)n;
		}
		if (len < size)
			len++;
		break;
	default: /* ping, and attributes we do not know: an empty answer */
		break;
	}
	return len;
}

static void answer(struct ibmadrpc_port *port, const struct ibmadrpc_request_in *in, void *user)
{
	const struct cpu_table *t = user;
	int attr = in->mad[16] << 8 | in->mad[17];
	char *text = malloc(MAX_ANSWER);
	size_t len;
	int rc;

	if (!text)
		return;
	len = make_answer(t, attr, text, MAX_ANSWER);
	if (ibd.debug)
		IBWARN("got packet: attr 0x%x, answering %zu bytes", attr, len);
	if (len <= RESPONDER_VENDOR2_DATA)
		rc = ibmadrpc_respond(port, in, 0, text, RESPONDER_VENDOR2_DATA);
	else /* more than one MAD holds: an RMPP transfer */
		rc = ibmadrpc_respond_table(port, in, text, len, 1);
	if (rc < 0 && ibd.debug)
		IBWARN("respond failed");
	free(text);
}

static _Noreturn void serve(struct ibdiag_port *port, uint32_t oui)
{
	static struct cpu_table cpus;

	if (responder_register(port, SYSSTAT_CLASS, 1, oui) < 0)
		IBEXIT("can't serve class %d", SYSSTAT_CLASS);
	read_cpuinfo(&cpus);
	responder_loop(port, answer, &cpus);
}

/* ---- client ------------------------------------------------------------------------------ */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* One Get of attr, one attempt (the reference sends it by hand), and its answer printed.
 * Named as the reference's function, which its panic message shows. */
static void ibsystat(struct ibdiag_port *port, const struct ibpath_path *path, int attr, uint32_t oui)
{
	struct ibmadrpc_reply reply;
	struct ibmadrpc_request req = {
		.path = path,
		.mgmt_class = SYSSTAT_CLASS,
		.method = IBSTRUCT_METHOD_GET,
		.attr_id = (uint16_t)attr,
		.oui = oui,
		.flags = IBMADRPC_F_RMPP,
	};
	struct ibmadrpc_error *err = NULL;
	const uint8_t *mad, *data;
	unsigned timeout;
	size_t len;
	uint64_t t0;
	char where[160];
	char *text;
	int rc;

	timeout = ibd.timeout_ms ? ibd.timeout_ms : 1000;
	ibmadrpc_port_set_default_timeout(port->port, timeout, 0);
	t0 = now_ms();
	rc = ibdiag_call(port, &req, &reply, &err);
	if (rc == -ETIMEDOUT && now_ms() - t0 >= timeout) {
		/* nothing came back at all: the reference's receive timed out */
		errno = ETIMEDOUT;
		IBPANIC("umad_recv failed.");
	}
	if (rc == -EREMOTEIO && (mad = ibmadrpc_error_reply(err, &len)) != NULL) {
		/* the reference does not look at the MAD status: it prints what came */
		data = mad + 40;
		len = len > 40 ? len - 40 : 0;
	} else if (rc < 0) {
		/* the reference exits from its main() */
		ibdiag_exit("main", "ibsystat to %s: %s", ibdiag_portid_str(path, where, sizeof(where)),
			    strerror(-rc));
	} else {
		data = reply.mad + reply.data_offset;
		len = reply.len > reply.data_offset ? reply.len - reply.data_offset : 0;
	}

	if (attr == ATTR_PING) {
		printf("sysstat ping succeeded\n");
	} else {
		text = calloc(1, len + 1);
		if (!text)
			IBPANIC("out of memory");
		if (len)
			memcpy(text, data, len);
		puts(text);
		free(text);
	}
	ibmadrpc_error_free(err);
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{ "oui", 'o', 1, NULL, "use specified OUI number" },
		{ "Server", 'S', 0, NULL, "start in server mode" },
		{ NULL, 0, 0, NULL, NULL },
	};
	struct sysstat_opts o = { .oui = RESPONDER_OPENIB_OUI };
	struct ibpath_path *path = NULL;
	struct ibdiag_port *port;
	int attr = ATTR_PING, first;

	first = ibdiag_process_opts(argc, argv, &o, "DKy", opts, process_opt,
				    "<dest lid|guid> [<op>]", NULL);
	argc -= first;
	argv += first;
	if (!argc && !o.server)
		ibdiag_show_usage();
	if (argc > 1 && (attr = match_attr(argv[1])) < 0)
		ibdiag_show_usage();

	port = ibdiag_open_port();
	if (o.server)
		serve(port, o.oui);

	if (ibdiag_resolve(port, argv[0], ibd.dest_type, &path) < 0)
		IBEXIT("can't resolve destination port %s", argv[0]);

	ibsystat(port, path, attr, o.oui);
	ibpath_path_unref(path);
	ibdiag_close_port(port);
	return 0;
}
