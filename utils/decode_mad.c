// SPDX-License-Identifier: BSD-3-Clause
/*
 * decode_mad: a MAD given as hex text on stdin, decoded (python-rdma's ibtool decode_mad).
 *
 * The input is hex digits with any blanks, newlines, ':' or ',' between them and an
 * optional 0x in front of each group ("01 01 01 81", "0x01010181", "01:01:01:81"), or a
 * quoted string with escapes ("\x01\x01...").  '#' starts a comment up to the end of the
 * line.  The bytes may start with a kernel umad header (--umad, 64 bytes) and/or the
 * packet headers (-l: LRH, GRH when the LRH says so, BTH, DETH for UD SEND-only); -o skips
 * bytes first.  Printed: the format's header words and the attribute (every record of an
 * SA answer) as libibstruct packet dumps.
 *
 * Exit status: 0 decoded, 1 the input cannot be decoded (bad hex, too short, unknown
 * class), 2 usage.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibstruct.h>

#define MAX_INPUT     (1 << 16) /* bytes; an RMPP transfer of a large SA table fits */
#define UMAD_HDR_SIZE 64
#define MAD_HDR_SIZE  24

static const char *prog = "decode_mad";

static _Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: %s [-v] [-o OFFSET] [-l] [--umad] < HEX\n"
	    "\n"
	    "Decode a MAD given in hex on standard input.  Blanks, newlines, ':' and ','\n"
	    "between the digits and 0x prefixes are ignored; a quoted string with \\x escapes\n"
	    "is accepted too.\n"
	    "\n"
	    "Options:\n"
	    "  -h, --help            show this help message and exit\n"
	    "  -v, --verbosity       also show the umad and packet headers (-vv: the input bytes)\n"
	    "  -o OFFSET, --offset=OFFSET\n"
	    "                        skip OFFSET bytes of the input before decoding\n"
	    "  -l, --lrh             the data starts at the LRH, not the MAD header\n"
	    "  --umad                the data starts with a kernel umad header (as read from\n"
	    "                        /dev/infiniband/umadX)\n",
	    prog);
}

/* ---- Input ---------------------------------------------------------------------------- */

static size_t read_all(char **out)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	size_t n;

	if (!buf)
		die("out of memory");
	while ((n = fread(buf + len, 1, cap - len - 1, stdin)) > 0) {
		len += n;
		if (len + 1 == cap) {
			char *p;

			if (cap > 8 * MAX_INPUT)
				die("input too long (more than %d bytes of text)", 8 * MAX_INPUT);
			cap *= 2;
			p = realloc(buf, cap);
			if (!p)
				die("out of memory");
			buf = p;
		}
	}
	if (ferror(stdin))
		die("cannot read standard input: %s", strerror(errno));
	buf[len] = 0;
	*out = buf;
	return len;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static void add_byte(uint8_t *bytes, size_t *n, unsigned v)
{
	if (*n >= MAX_INPUT)
		die("input too long (more than %d bytes)", MAX_INPUT);
	bytes[(*n)++] = (uint8_t)v;
}

/* A quoted string with C/Python escapes: "\x01\x01..." */
static size_t parse_quoted(const char *s, uint8_t *bytes)
{
	char quote = *s++;
	size_t n = 0;

	while (*s && *s != quote) {
		unsigned v;
		int k;

		if (*s != '\\') {
			add_byte(bytes, &n, (unsigned char)*s++);
			continue;
		}
		s++;
		switch (*s) {
		case 'x':
			if (hexval(s[1]) < 0 || hexval(s[2]) < 0)
				die("bad \\x escape in the quoted input");
			add_byte(bytes, &n, (unsigned)(hexval(s[1]) * 16 + hexval(s[2])));
			s += 3;
			continue;
		case 'n':
			v = '\n';
			break;
		case 't':
			v = '\t';
			break;
		case 'r':
			v = '\r';
			break;
		case 'a':
			v = '\a';
			break;
		case 'b':
			v = '\b';
			break;
		case 'f':
			v = '\f';
			break;
		case 'v':
			v = '\v';
			break;
		case '\\':
		case '\'':
		case '"':
			v = (unsigned char)*s;
			break;
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7':
			for (v = 0, k = 0; k < 3 && *s >= '0' && *s <= '7'; k++)
				v = v * 8 + (unsigned)(*s++ - '0');
			add_byte(bytes, &n, v & 0xff);
			continue;
		case 0:
			die("the quoted input ends in a backslash");
		default:
			add_byte(bytes, &n, '\\');
			v = (unsigned char)*s;
			break;
		}
		add_byte(bytes, &n, v);
		s++;
	}
	if (*s != quote)
		die("the quoted input has no closing %c", quote);
	for (s++; *s; s++)
		if (!isspace((unsigned char)*s))
			die("text after the closing quote");
	return n;
}

/* Hex digits separated by anything blank, ':' or ','; "0x" starts a group; '#' comments. */
static size_t parse_hex(const char *s, uint8_t *bytes)
{
	unsigned line = 1, col = 0, digits = 0;
	bool group_start = true;
	size_t n = 0;
	int hi = -1;

	for (; *s; s++, col++) {
		int c = (unsigned char)*s, v;

		if (c == '\n') {
			line++;
			col = 0;
			group_start = true;
			continue;
		}
		if (isspace(c) || c == ':' || c == ',') {
			group_start = true;
			continue;
		}
		if (c == '#') {
			while (s[1] && s[1] != '\n')
				s++;
			continue;
		}
		if (group_start && c == '0' && (s[1] == 'x' || s[1] == 'X')) {
			s++;
			col++;
			group_start = false;
			continue;
		}
		group_start = false;
		v = hexval(c);
		if (v < 0) {
			if (isprint(c))
				die("invalid character '%c' in the hex input (line %u, column %u)",
				    c, line, col + 1);
			die("invalid byte 0x%02x in the hex input (line %u, column %u)", c, line,
			    col + 1);
		}
		digits++;
		if (hi < 0) {
			hi = v;
		} else {
			add_byte(bytes, &n, (unsigned)(hi << 4 | v));
			hi = -1;
		}
	}
	if (hi >= 0)
		die("odd number of hex digits (%u): every byte needs two", digits);
	return n;
}

static size_t parse_input(const char *text, uint8_t *bytes)
{
	const char *s = text;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '"' || *s == '\'')
		return parse_quoted(s, bytes);
	return parse_hex(s, bytes);
}

/* ---- Printing ------------------------------------------------------------------------- */

/* Prints a libibstruct dump with its offsets counted from the start of the MAD (`base`).
 * The printer's own title line is replaced by `title`; a trailing note about missing bytes
 * is kept unless `whole` says the caller cut the input on purpose. */
static void print_dump(const char *title, const struct ibstruct_desc *d, const uint8_t *wire,
		       size_t len, size_t base, bool whole)
{
	char *text, *line, *save = NULL;
	int need;

	need = ibstruct_snprint_dump_at(NULL, 0, d, wire, len, 0, base);
	if (need < 0)
		die("cannot decode %s: %s", ibstruct_desc_name(d), strerror(-need));
	text = malloc((size_t)need + 1);
	if (!text)
		die("out of memory");
	ibstruct_snprint_dump_at(text, (size_t)need + 1, d, wire, len, 0, base);
	printf("%s\n", title);
	line = strtok_r(text, "\n", &save);
	if (line) /* the printer's title: "SMPFormat (256 bytes)" */
		line = strtok_r(NULL, "\n", &save);
	for (; line; line = strtok_r(NULL, "\n", &save))
		if (!whole || strncmp(line, "(short:", 7))
			printf("%s\n", line);
	free(text);
}

static void print_hex(const char *title, const uint8_t *data, size_t len)
{
	char *text;
	int need = ibstruct_snprint_hex(NULL, 0, data, len, 2);

	if (need < 0)
		die("cannot print the bytes: %s", strerror(-need));
	text = malloc((size_t)need + 1);
	if (!text)
		die("out of memory");
	ibstruct_snprint_hex(text, (size_t)need + 1, data, len, 2);
	printf("%s\n%s", title, text);
	if (need && text[need - 1] != '\n')
		putchar('\n');
	free(text);
}

static uint32_t host32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* struct ib_user_mad: the first fields in host order, the address in network order. */
static void print_umad(const uint8_t *u)
{
	ibstruct_gid_t gid;
	char gidtext[64];
	uint16_t pkey_index;

	memcpy(&gid, u + 40, 16);
	ibstruct_gid_format(gidtext, sizeof(gidtext), &gid);
	memcpy(&pkey_index, u + 60, 2);
	printf("umad header (64 bytes)\n");
	printf("  agent_id=%" PRIu32 " status=%" PRIu32 " timeout_ms=%" PRIu32 " retries=%" PRIu32
	       " length=%" PRIu32 "\n",
	       host32(u), host32(u + 4), host32(u + 8), host32(u + 12), host32(u + 16));
	printf("  qpn=%" PRIu32 " qkey=0x%08" PRIx32 " lid=%u sl=%u path_bits=%u\n", be32(u + 20),
	       be32(u + 24), (unsigned)(u[28] << 8 | u[29]), u[30], u[31]);
	printf("  grh_present=%u gid_index=%u hop_limit=%u traffic_class=%u gid=%s\n", u[32], u[33],
	       u[34], u[35], gidtext);
	printf("  flow_label=0x%05" PRIx32 " pkey_index=%u\n", be32(u + 56), pkey_index);
}

/* The packet headers in front of the MAD (-l).  Returns their length. */
static size_t decode_link(const uint8_t *p, size_t len, int verbose)
{
	struct ibstruct_hdr_lrh lrh;
	struct ibstruct_hdr_bth bth;
	size_t off = 0;

	if (ibstruct_hdr_lrh_unpack(&lrh, p, len))
		die("input too short for the LRH (%zu bytes, 8 needed)", len);
	if (verbose)
		print_dump("LRH", ibstruct_hdr_lrh_desc(), p, IBSTRUCT_HDR_LRH_SIZE, 0, false);
	off += IBSTRUCT_HDR_LRH_SIZE;
	if (lrh.LNH == 3) { /* IBA global: a GRH follows */
		if (len - off < IBSTRUCT_HDR_GRH_SIZE)
			die("input too short for the GRH the LRH announces (%zu bytes left, 40 "
			    "needed)",
			    len - off);
		if (verbose)
			print_dump("GRH", ibstruct_hdr_grh_desc(), p + off, IBSTRUCT_HDR_GRH_SIZE,
				   off, false);
		off += IBSTRUCT_HDR_GRH_SIZE;
	} else if (lrh.LNH != 2) {
		die("the LRH's LNH is %u: not an IBA transport packet", lrh.LNH);
	}
	if (ibstruct_hdr_bth_unpack(&bth, p + off, len - off))
		die("input too short for the BTH (%zu bytes left, 12 needed)", len - off);
	if (verbose)
		print_dump("BTH", ibstruct_hdr_bth_desc(), p + off, IBSTRUCT_HDR_BTH_SIZE, off,
			   false);
	off += IBSTRUCT_HDR_BTH_SIZE;
	if (bth.service == 3 && bth.function == 4) { /* UD SEND only */
		if (len - off < IBSTRUCT_HDR_DETH_SIZE)
			die("input too short for the DETH (%zu bytes left, 8 needed)", len - off);
		if (verbose)
			print_dump("DETH", ibstruct_hdr_deth_desc(), p + off,
				   IBSTRUCT_HDR_DETH_SIZE, off, false);
		off += IBSTRUCT_HDR_DETH_SIZE;
	}
	return off;
}

/* The MAD format of a management class, by libibstruct's names. */
static const char *format_name(unsigned mgmt_class)
{
	switch (mgmt_class) {
	case 0x01:
		return "SMPFormat";
	case 0x81:
		return "SMPFormatDirected";
	case 0x03:
		return "SAFormat";
	case 0x04:
		return "PMFormat";
	case 0x05:
		return "BMFormat";
	case 0x06:
		return "DMFormat";
	case 0x07:
		return "CMFormat";
	case 0x08:
		return "SNMPFormat";
	case 0x21:
		return "CCFormat";
	}
	if (mgmt_class >= 0x09 && mgmt_class <= 0x0f)
		return "VendFormat";
	if (mgmt_class >= 0x30 && mgmt_class <= 0x4f)
		return "VendOUIFormat";
	return NULL;
}

static void decode_mad(const uint8_t *mad, size_t len)
{
	const struct ibstruct_desc *fmt, *attr;
	struct ibstruct_field_ref ref;
	struct ibstruct_mad_header h;
	const char *fname, *mname, *aname;
	char title[256], status[128];
	size_t data_off, i;
	int attr_class;

	if (ibstruct_mad_header_unpack(&h, mad, len))
		die("input too short: %zu bytes, a MAD header needs %d", len, MAD_HDR_SIZE);
	fname = format_name(h.mgmtClass);
	fmt = fname ? ibstruct_desc_by_name(fname) : NULL;
	if (!fmt || ibstruct_field_lookup(fmt, "data", &ref)) {
		print_dump("MADHeader", ibstruct_mad_header_desc(), mad, MAD_HDR_SIZE, 0, true);
		die("unknown management class 0x%02x (class version %u)", h.mgmtClass,
		    h.classVersion);
	}
	data_off = ref.bit_offset / 8;
	/* SMP attributes are described once for both SMP classes; vendor classes by OUI */
	attr_class = h.mgmtClass == 0x81 ? 0x01 : h.mgmtClass;
	attr = ibstruct_desc_by_attr(attr_class, h.attributeID);
	mname = ibstruct_rpc_name(h.mgmtClass, h.method);
	if (!mname)
		mname = ibstruct_method_name(h.method);
	aname = attr ? ibstruct_desc_name(attr) : NULL;
	ibstruct_snprint_mad_status(status, sizeof(status), h.mgmtClass, h.status);
	snprintf(title, sizeof(title),
		 "%s %s(0x%02x) %s(0x%04x) attributeModifier=0x%x status=0x%04x%s%s%s", fname,
		 mname ? mname : "Method", h.method, aname ? aname : "Attribute", h.attributeID,
		 h.attributeModifier, h.status, h.status ? " (" : "", h.status ? status : "",
		 h.status ? ")" : "");
	print_dump(title, fmt, mad, len < data_off ? len : data_off, 0, len >= data_off);
	if (len < data_off) {
		printf("(the MAD ends in its header: %zu of %zu bytes)\n", len, data_off);
		return;
	}
	if (!attr) {
		print_hex("data (attribute not known to libibstruct)", mad + data_off,
			  len - data_off);
		return;
	}
	if (h.mgmtClass == 0x03) {
		/* an SA answer holds records AttributeOffset * 8 bytes apart */
		struct ibstruct_sa_header sa;
		size_t stride, count;

		if (ibstruct_sa_header_unpack(&sa, mad, len) == 0 && sa.attributeOffset &&
		    (h.method & 0x80)) {
			stride = (size_t)sa.attributeOffset * 8;
			count = (len - data_off) / stride;
			if (count > 1 ||
			    (count == 1 && h.method == IBSTRUCT_METHOD_GET_TABLE_RESP)) {
				for (i = 0; i < count; i++) {
					char rt[128];

					snprintf(rt, sizeof(rt), "%s record %zu of %zu",
						 ibstruct_desc_name(attr), i + 1, count);
					print_dump(rt, attr, mad + data_off + i * stride,
						   stride < ibstruct_desc_size(attr)
						       ? stride
						       : ibstruct_desc_size(attr),
						   data_off + i * stride, false);
				}
				if ((len - data_off) % stride)
					printf("(%zu more bytes: the start of a record continued "
					       "in the "
					       "next RMPP segment)\n",
					       (len - data_off) % stride);
				return;
			}
		}
	}
	print_dump(ibstruct_desc_name(attr), attr, mad + data_off,
		   len - data_off < ibstruct_desc_size(attr) ? len - data_off
							     : ibstruct_desc_size(attr),
		   data_off, false);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"verbosity", no_argument, NULL, 'v'},
	    {"verbose", no_argument, NULL, 'v'},
	    {"offset", required_argument, NULL, 'o'},
	    {"lrh", no_argument, NULL, 'l'},
	    {"umad", no_argument, NULL, 'u'},
	    {0},
	};
	unsigned long offset = 0;
	bool lrh = false, umad = false;
	int verbose = 0, c;
	uint8_t *bytes;
	char *text, *end;
	size_t n, pos;

	if (argv[0] && *argv[0])
		prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	while ((c = getopt_long(argc, argv, "hvo:l", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case 'v':
			verbose++;
			break;
		case 'o':
			errno = 0;
			offset = strtoul(optarg, &end, 0);
			if (errno || end == optarg || *end || optarg[0] == '-') {
				fprintf(stderr, "%s: invalid offset '%s'\n", prog, optarg);
				return 2;
			}
			break;
		case 'l':
			lrh = true;
			break;
		case 'u':
			umad = true;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s' (the MAD is read from stdin)\n", prog,
			argv[optind]);
		usage(stderr);
		return 2;
	}

	read_all(&text);
	bytes = malloc(MAX_INPUT);
	if (!bytes)
		die("out of memory");
	n = parse_input(text, bytes);
	free(text);
	if (!n)
		die("no input: give the MAD as hex digits on standard input");
	if (verbose >= 2)
		print_hex("input bytes", bytes, n);
	if (offset > n)
		die("offset %lu is beyond the end of the input (%zu bytes)", offset, n);
	pos = offset;
	if (umad) {
		if (n - pos < UMAD_HDR_SIZE)
			die("input too short for a umad header (%zu bytes, 64 needed)", n - pos);
		if (verbose)
			print_umad(bytes + pos);
		pos += UMAD_HDR_SIZE;
	}
	if (lrh)
		pos += decode_link(bytes + pos, n - pos, verbose);
	decode_mad(bytes + pos, n - pos);
	free(bytes);
	return 0;
}
