// SPDX-License-Identifier: BSD-3-Clause
/*
 * json-check: reads a topology exported as JSON (ibnetdiscover --json), imports it with
 * ibtopo_import_json() and exports it again: the two texts must be equal.  Prints the node
 * counts (switches, CAs, routers) and the link count of what it read.
 *
 *   json-check FILE
 *
 * Exit: 0 equal, 1 not equal or not importable, 2 usage or read error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibtopo.h>

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 > cap) {
			char *nb = realloc(buf, cap = n + 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	struct ibtopo *t = NULL;
	char err[256] = "";
	char *in, *out = NULL;
	size_t in_len, out_len = 0;
	unsigned links = 0;
	FILE *mem;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: json-check FILE\n");
		return 2;
	}
	in = slurp(argv[1], &in_len);
	if (!in) {
		perror(argv[1]);
		return 2;
	}
	rc = ibtopo_import_json(in, in_len, &t, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "json-check: %s: import failed (%d): %s\n", argv[1], rc, err);
		free(in);
		return 1;
	}
	mem = open_memstream(&out, &out_len);
	if (!mem || ibtopo_export_json(t, mem) < 0 || fclose(mem)) {
		fprintf(stderr, "json-check: export failed\n");
		return 1;
	}
	for (unsigned i = 0; i < ibtopo_node_count(t, IBTOPO_NODE_ANY); i++) {
		const struct ibtopo_node *n = ibtopo_node_get(t, IBTOPO_NODE_ANY, i);

		for (unsigned p = 1; p <= ibtopo_node_num_ports(n); p++)
			if (ibtopo_node_port(n, p) && ibtopo_port_remote(ibtopo_node_port(n, p)))
				links++;
	}
	printf("switches %u cas %u routers %u links %u\n", ibtopo_node_count(t, IBTOPO_NODE_SWITCH),
	       ibtopo_node_count(t, IBTOPO_NODE_CA), ibtopo_node_count(t, IBTOPO_NODE_ROUTER), links / 2);
	rc = out_len == in_len && !memcmp(in, out, in_len) ? 0 : 1;
	if (rc)
		fprintf(stderr, "json-check: %s: exported again, the text differs\n", argv[1]);
	ibtopo_unref(t);
	free(in);
	free(out);
	return rc;
}
