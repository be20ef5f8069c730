// SPDX-License-Identifier: BSD-3-Clause
/*
 * nodemap-tool: libibtopo's side of the node-name-map differential (tests/topo/nodemap-diff.sh),
 * where rdma-core's own parser (inside infiniband-diags' ibnetdiscover) is the reference.
 *
 *   nodemap-tool gen SEED CACHE MAP   writes a random map for the nodes of a cache file: their
 *                                     GUIDs in every form strtoull() takes, names in every form
 *                                     the reader knows, comments, long lines, duplicates, and
 *                                     now and then a line rdma-core refuses
 *   nodemap-tool list CACHE MAP       prints `ibnetdiscover --load-cache CACHE
 *                                     --node-name-map MAP -l` as ours would: ibtopo_cache_load()
 *                                     and ibtopo_nodemap_open()/ibtopo_nodemap_name(); the number
 *                                     of refused lines goes to stderr ("refused N")
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibtopo.h>

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static struct ibtopo *load(const char *cache)
{
	struct ibtopo *t = NULL;
	char err[256];

	if (ibtopo_cache_load(cache, &t, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", cache, err);
		exit(1);
	}
	return t;
}

/* One GUID as text strtoull(.., 0) reads back to it */
static void guid_text(char *buf, size_t len, uint64_t g)
{
	switch (below(8)) {
	case 0: snprintf(buf, len, "0x%016" PRIx64, g); break;
	case 1: snprintf(buf, len, "0X%" PRIX64, g); break;
	case 2: snprintf(buf, len, "%" PRIu64, g); break;
	case 3: snprintf(buf, len, "0%" PRIo64, g); break;
	case 4: snprintf(buf, len, "-%" PRIu64, (uint64_t)0 - g); break;
	case 5: snprintf(buf, len, "+0x%" PRIx64, g); break;
	case 6: snprintf(buf, len, "0x%" PRIx64, g); break;
	default: snprintf(buf, len, "0x00%016" PRIx64, g); break;
	}
}

static int gen(const char *cache, const char *path)
{
	static const char *const lead[] = { "", "", "", " ", "\t", "  \t " };
	static const char *const sep[] = { " ", " ", "\t", "#", " \v ", "   " };
	struct ibtopo *t = load(cache);
	unsigned n = ibtopo_node_count(t, IBTOPO_NODE_ANY);
	FILE *o = fopen(path, "w");
	bool refuse = below(5) == 0;

	if (!o) {
		perror(path);
		return 1;
	}
	fprintf(o, "# node name map, seed-generated\n\n");
	for (unsigned i = 0; i < n; i++) {
		uint64_t g = ibtopo_node_guid(ibtopo_node_get(t, IBTOPO_NODE_ANY, i));
		char gt[64], prefix[96], long_name[256];

		memset(long_name, 'n', 250);
		long_name[250] = '\0';

		if (below(4) == 0)
			continue; /* not mapped: the description is printed */
		guid_text(gt, sizeof(gt), g);
		snprintf(prefix, sizeof(prefix), "%s%s%s", lead[below(6)], gt, sep[below(6)]);
		fputs(prefix, o);
		switch (below(12)) {
		case 0: fprintf(o, "\"node %u\"\n", i); break;
		case 1: fprintf(o, "plain name %u  \n", i); break;
		case 2: fprintf(o, "\"a#b %u\"\n", i); break;
		case 3: fprintf(o, "#hash %u\n", i); break;
		case 4: fprintf(o, "\"\"\n"); break; /* no name */
		case 5: fprintf(o, "\n"); break;      /* no name */
		case 6: fprintf(o, "\"quoted %u\" trailing text\n", i); break;
		case 7: fprintf(o, "crlf %u\r\n", i); break;
		case 8: fprintf(o, "\"tab\there %u\"\n", i); break;
		case 9:
			/* 255 characters, then a comment: fgets() gives the comment as a piece of its
			 * own and the name runs to the end of the first piece */
			fprintf(o, "\"%s#tail of the line, read as a comment\n",
				long_name + (strlen(prefix) + 1 + strlen(long_name) - 255));
			break;
		case 10: fprintf(o, "\"%u\" \"second\"\n", i); break;
		default: fprintf(o, "\"dup %u\"\n%s \"later name ignored\"\n", i, gt); break;
		}
		if (below(10) == 0)
			fprintf(o, "%s# a comment\n", lead[below(6)]);
	}
	if (refuse)
		fprintf(o, "%s\n", (const char *[]){ "not-a-guid \"x\"", "0x12z \"y\"", "08 \"octal 8\"",
						     "\"0x1\" \"quoted\"" }[below(4)]);
	ibtopo_unref(t);
	return fclose(o) != 0;
}

static void count_refused(void *user, unsigned line, const char *what)
{
	(void)line;
	if (strstr(what, "not a GUID"))
		++*(unsigned *)user;
}

static int list(const char *cache, const char *path)
{
	static const enum ibtopo_node_type types[] = { IBTOPO_NODE_CA, IBTOPO_NODE_SWITCH, IBTOPO_NODE_ROUTER };
	static const char *const names[] = { "Ca", "Switch", "Router" };
	struct ibtopo *t = load(cache);
	struct ibtopo_nodemap *m;
	unsigned refused = 0;
	int rc;

	rc = ibtopo_nodemap_open(&m, path, count_refused, &refused);
	if (rc) {
		fprintf(stderr, "%s: %s\n", path, strerror(-rc));
		return 1;
	}
	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < ibtopo_node_count(t, types[k]); i++) {
			const struct ibtopo_node *n = ibtopo_node_get(t, types[k], i);
			const uint8_t *ni = ibtopo_node_info(n);
			char name[512];

			ibtopo_nodemap_name(m, ibtopo_node_guid(n), ibtopo_node_desc(n), name, sizeof(name));
			printf("%s\t : 0x%016" PRIx64 " ports %u devid 0x%x vendid 0x%x \"%s\"\n", names[k],
			       ibtopo_node_guid(n), ibtopo_node_num_ports(n), (unsigned)(ni[30] << 8 | ni[31]),
			       (unsigned)(ni[37] << 16 | ni[38] << 8 | ni[39]), name);
		}
	fprintf(stderr, "refused %u\n", refused);
	ibtopo_nodemap_free(m);
	ibtopo_unref(t);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "gen")) {
		rng = strtoull(argv[2], NULL, 0) * 0x2545f4914f6cdd1dULL;
		return gen(argv[3], argv[4]);
	}
	if (argc == 4 && !strcmp(argv[1], "list"))
		return list(argv[2], argv[3]);
	fprintf(stderr, "usage: nodemap-tool gen SEED CACHE MAP | list CACHE MAP\n");
	return 2;
}
