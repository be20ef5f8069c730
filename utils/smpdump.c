/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * smpdump: one raw SubnGet, its 64 data bytes dumped in hex (or as text), a drop-in
 * replacement for infiniband-diags' smpdump.
 *
 *   smpdump [options] <dlid|dr_path> <attr> [mod]
 *
 * The reference builds the SMP itself and sends it once (no retries) with a 1000 ms
 * timeout; it checks no status: an unanswered request prints its own zeroed data and the
 * tool still exits 0, and an error status is printed after the data.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibdiag.h"

#define SMP_DATA 64
#define SMP_DATA_OFFSET 64
#define DEFAULT_TIMEOUT_MS 1000

static bool dump_string;

static int process_opt(void *ctx, int letter, char *arg)
{
	(void)ctx;
	(void)arg;
	if (letter != 's')
		return -1;
	dump_string = true;
	return 0;
}

/* str2DRPath(): atoi() of each comma-separated element, element 0 included as given. */
static int parse_dr(const char *text, uint8_t ports[IBPATH_MAX_HOPS], unsigned *count)
{
	unsigned n = 0;

	while (*text) {
		const char *comma = strchr(text, ',');

		/* the reference overflows its 64-byte path here; we refuse instead */
		if (n >= IBPATH_MAX_HOPS)
			return -1;
		ports[n++] = (uint8_t)atoi(text);
		if (!comma)
			break;
		text = comma + 1;
	}
	*count = n;
	return n ? 0 : -1;
}

/* Whether -C/-P name an end port; errno ENOENT when not (what libibumad leaves). */
static bool umad_port_exists(void)
{
	struct ibpath_devlist *list = NULL;
	const struct ibpath_port *end_port = NULL;
	bool found;

	if (ibpath_devlist_open(&list, NULL, 0) < 0) {
		errno = ENOENT;
		return false;
	}
	found = ibpath_devlist_select_ca_port(list, ibd.ca, ibd.ca_port, &end_port, NULL, 0) == 0;
	ibpath_devlist_close(list);
	if (!found)
		errno = ENOENT;
	return found;
}

/* libibmad's xdump(): 16-bit groups in hex, 8 to a line. */
static void hex_dump(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += 2)
		printf("%02x%02x%c", p[i], p[i + 1], (i + 2) % 16 && i + 2 < len ? ' ' : '\n');
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{ "string", 's', 0, NULL, "" },
		{ NULL, 0, 0, NULL, NULL },
	};
	static const char *const examples[] = {
		" -- DR routed examples:",
		"-D 0,1,2,3,5 16\t# NODE DESC",
		"-D 0,1,2 0x15 2\t# PORT INFO, port 2",
		" -- LID routed examples:",
		"3 0x15 2\t# PORT INFO, lid 3 port 2",
		"0xa0 0x11\t# NODE INFO, lid 0xa0",
		NULL,
	};
	struct ibmadrpc_request req = { 0 };
	struct ibmadrpc_reply reply;
	struct ibmadrpc_error *err = NULL;
	struct ibdiag_port *port;
	struct ibpath_path *path = NULL;
	uint8_t data[SMP_DATA] = { 0 };
	uint16_t status = 0;
	unsigned timeout;
	int first, rc, i;

	first = ibdiag_process_opts(argc, argv, NULL, "GKs", opts, process_opt,
				    "<dlid|dr_path> <attr> [mod]", examples);
	argc -= first;
	argv += first;
	if (argc < 2)
		ibdiag_show_usage();

	if (ibd.dest_type == IBDIAG_DEST_DR) {
		uint8_t ports[IBPATH_MAX_HOPS];
		unsigned count;

		errno = 0;
		if (parse_dr(argv[0], ports, &count) < 0)
			IBPANIC("bad path str '%s'", argv[0]);
		if (ibpath_path_new(&path, IBPATH_KIND_DR) < 0 ||
		    ibpath_path_set_dr_ports(path, ports, count) < 0)
			IBPANIC("bad path str '%s'", argv[0]);
	} else {
		/* any number: the reference puts its low 16 bits in the DLID unchecked */
		if (ibpath_path_new(&path, IBPATH_KIND_IB) < 0)
			IBPANIC("out of memory");
		ibpath_path_set(path, IBPATH_DLID, strtoul(argv[0], NULL, 0) & 0xffff);
	}
	req.path = path;
	req.mgmt_class = IBSTRUCT_CLASS_SMP;
	req.method = IBSTRUCT_METHOD_GET;
	req.attr_id = (uint16_t)strtoul(argv[1], NULL, 0);
	if (argc > 2)
		req.attr_mod = (uint32_t)strtoul(argv[2], NULL, 0);
	req.key = ibd.mkey;

	/* the reference opens the umad port itself and panics where the others exit */
	if (!umad_port_exists())
		IBPANIC("can't open UMAD port (%s:%d)", ibd.ca ? ibd.ca : "(null)",
			(int)ibd.ca_port);
	port = ibdiag_open_port();
	/* one try, -t or 1000 ms */
	timeout = ibd.timeout_ms ? ibd.timeout_ms : DEFAULT_TIMEOUT_MS;
	ibmadrpc_port_set_default_timeout(port->port, timeout, 0);

	if (ibd.sa) {
		/* the ibmgmt extra: the attribute from the SA's records */
		ibdiag_smp_get(port, path, req.attr_id, req.attr_mod, data, NULL);
	} else {
		rc = ibdiag_call(port, &req, &reply, &err);
		if (rc == 0) {
			/* a reply cut short leaves the rest of the data zero */
			if (reply.len > SMP_DATA_OFFSET)
				memcpy(data, reply.mad + SMP_DATA_OFFSET,
				       reply.len - SMP_DATA_OFFSET < SMP_DATA ?
					       reply.len - SMP_DATA_OFFSET : SMP_DATA);
			status = (uint16_t)(reply.mad[4] << 8 | reply.mad[5]);
		} else {
			/* an error status still brings the reply; a time-out leaves the request's
			 * zeroed data and status 0 */
			size_t len = 0;
			const uint8_t *mad = ibmadrpc_error_reply(err, &len);

			if (mad && len >= SMP_DATA_OFFSET + SMP_DATA) {
				memcpy(data, mad + SMP_DATA_OFFSET, SMP_DATA);
				status = (uint16_t)(mad[4] << 8 | mad[5]);
			}
			ibmadrpc_error_free(err);
		}
	}
	if (ibd.debug)
		fprintf(stderr, "%d bytes received\n", IBMADRPC_MAD_SIZE);

	if (!dump_string) {
		hex_dump(data, SMP_DATA);
	} else {
		for (i = 0; i < SMP_DATA && data[i]; i++)
			putchar(data[i]);
		putchar('\n');
	}
	/* the whole status word: a directed-route reply shows its D bit (0x8000) */
	if (status)
		printf("SMP status: 0x%x\n", status);

	ibpath_path_unref(path);
	ibdiag_close_port(port);
	return 0;
}
