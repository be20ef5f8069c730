// SPDX-License-Identifier: BSD-3-Clause
/*
 * ibstatus: the status of the local InfiniBand ports, straight from sysfs.
 *
 * infiniband-diags ships ibstatus as a /bin/sh script that cats files under
 * /sys/class/infiniband.  Scripts parse its output, so this C version reproduces what the
 * script prints when run by dash (Debian's /bin/sh), quirks included:
 *   - every line goes through dash's echo, which interprets backslash escapes (\t, \n,
 *     \0NNN, \c = stop all output) in file contents and device names alike;
 *   - file contents and arguments are split into words on blanks and newlines and rejoined
 *     with single spaces (unquoted expansions);
 *   - "dev:port" is cut with sed: the device is the text before the first ':', the port
 *     the text after the last one; "dev:" shows nothing, "-h" is only an option as the
 *     first argument, and the argument list ends at the first empty argument;
 *   - unquoted expansions go through pathname expansion ('*' of an empty ports directory
 *     lists the current directory, which is class/infiniband when all devices are shown);
 *   - errors are "Fatal error:  ..." on stdout with exit status 255, as is the usage.
 * Not reproduced: pathname expansion of file contents and of the "[ -r ]" paths.
 *
 * Files are read with plain open()/read() and directories with opendir(), so under the
 * simulator's umad2sim preload this version sees the simulated device (the script, whose
 * cat and cd bypass the preload, sees the real /sys).
 *
 * Extra: IBMGMT_SYSFS_ROOT=<dir> reads <dir>/class/infiniband instead of /sys.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <locale.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

/* ---- Growing strings and word lists ---------------------------------------------------- */

struct buf {
	char *s;
	size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->s, cap);
		if (!p) {
			fputs("ibstatus: out of memory\n", stderr);
			exit(255);
		}
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void buf_fmt(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_fmt(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fputs("ibstatus: out of memory\n", stderr);
		exit(255);
	}
	buf_add(b, s, (size_t)n);
	free(s);
}

static void buf_free(struct buf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

static const char *buf_cstr(const struct buf *b)
{
	return b->s ? b->s : "";
}

struct words {
	char **w;
	size_t n, cap;
};

static void words_add(struct words *w, const char *s, size_t len)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 8;
		char **p = realloc(w->w, cap * sizeof(*p));

		if (!p) {
			fputs("ibstatus: out of memory\n", stderr);
			exit(255);
		}
		w->w = p;
		w->cap = cap;
	}
	w->w[w->n] = strndup(s, len);
	if (!w->w[w->n]) {
		fputs("ibstatus: out of memory\n", stderr);
		exit(255);
	}
	w->n++;
}

static void words_free(struct words *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->w[i]);
	free(w->w);
	memset(w, 0, sizeof(*w));
}

static bool is_ifs(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Field splitting of an unquoted expansion with the default IFS. */
static void split_words(struct words *w, const char *s)
{
	while (*s) {
		const char *start;

		while (*s && is_ifs(*s))
			s++;
		if (!*s)
			break;
		start = s;
		while (*s && !is_ifs(*s))
			s++;
		words_add(w, start, (size_t)(s - start));
	}
}

/* The shell's directory for relative patterns: the script has done "cd
 * /sys/class/infiniband" when it lists all devices, else it is the caller's. */
static const char *glob_cwd = ".";

/* Pathname expansion of unquoted words: a word with *, ? or [ becomes the sorted names it
 * matches (relative to glob_cwd), or stays as it is when it matches nothing. */
static void expand_words(struct words *w)
{
	struct words out = {0};
	size_t i, j;

	for (i = 0; i < w->n; i++) {
		const char *word = w->w[i];
		size_t skip = 0;
		glob_t g;
		char *pat = NULL;

		if (!strpbrk(word, "*?[")) {
			words_add(&out, word, strlen(word));
			continue;
		}
		if (word[0] != '/' && strcmp(glob_cwd, ".")) {
			if (asprintf(&pat, "%s/%s", glob_cwd, word) < 0)
				pat = NULL;
			skip = strlen(glob_cwd) + 1;
		}
		memset(&g, 0, sizeof(g));
		if (glob(pat ? pat : word, 0, NULL, &g) == 0 && g.gl_pathc) {
			for (j = 0; j < g.gl_pathc; j++)
				words_add(&out,
					  g.gl_pathv[j] +
					      (strlen(g.gl_pathv[j]) >= skip ? skip : 0),
					  strlen(g.gl_pathv[j]) -
					      (strlen(g.gl_pathv[j]) >= skip ? skip : 0));
		} else {
			words_add(&out, word, strlen(word));
		}
		globfree(&g);
		free(pat);
	}
	words_free(w);
	*w = out;
}

/* Field splitting and pathname expansion: what an unquoted $var becomes. */
static void split_expand(struct words *w, const char *s)
{
	struct words tmp = {0};
	size_t i;

	split_words(&tmp, s);
	expand_words(&tmp);
	for (i = 0; i < tmp.n; i++)
		words_add(w, tmp.w[i], strlen(tmp.w[i]));
	words_free(&tmp);
}

/* ---- dash's echo ---------------------------------------------------------------------- */

/* What dash's echo builtin writes for these arguments: "-n" as the first argument drops
 * the newline; the arguments are joined with spaces; \a \b \e \f \n \r \t \v \\, \0NNN and
 * \NNN (octal) are interpreted, \c ends all output, other backslashes stay as they are. */
static void echo_to(struct buf *out, char *const *argv, size_t argc)
{
	bool newline = true;
	size_t i = 0;

	if (argc && !strcmp(argv[0], "-n")) {
		newline = false;
		i = 1;
	}
	for (; i < argc; i++) {
		const char *p = argv[i];

		while (*p) {
			char c = *p++;
			unsigned v, k, max;

			if (c != '\\') {
				buf_add(out, &c, 1);
				continue;
			}
			switch (*p) {
			case 'a':
				c = '\a';
				break;
			case 'b':
				c = '\b';
				break;
			case 'e':
				c = '\033';
				break;
			case 'f':
				c = '\f';
				break;
			case 'n':
				c = '\n';
				break;
			case 'r':
				c = '\r';
				break;
			case 't':
				c = '\t';
				break;
			case 'v':
				c = '\v';
				break;
			case '\\':
				c = '\\';
				break;
			case 'c':
				return; /* no further output at all, not even the newline */
			case '0':
			case '1':
			case '2':
			case '3':
			case '4':
			case '5':
			case '6':
			case '7':
				/* \0 takes up to three more digits, \1..\7 up to two more */
				max = *p == '0' ? 4 : 3;
				for (v = 0, k = 0; k < max && *p >= '0' && *p <= '7'; k++)
					v = v * 8 + (unsigned)(*p++ - '0');
				c = (char)(v & 0xff);
				buf_add(out, &c, 1);
				continue;
			default:
				buf_add(out, &c, 1); /* the backslash itself */
				continue;
			}
			p++;
			buf_add(out, &c, 1);
		}
		if (i + 1 < argc)
			buf_add(out, " ", 1);
	}
	if (newline)
		buf_add(out, "\n", 1);
}

/* echo FIRST $REST: FIRST as one argument, then the words of REST. */
static void echo_line(const char *first, const char *rest)
{
	struct words w = {0};
	struct buf out = {0};

	words_add(&w, first, strlen(first));
	if (rest)
		split_words(&w, rest);
	echo_to(&out, w.w, w.n);
	fwrite(out.s, 1, out.len, stdout);
	buf_free(&out);
	words_free(&w);
}

/* ---- The script ------------------------------------------------------------------------ */

static char base[4096]; /* /sys/class/infiniband */
static const char *prog;

/* fatal(): echo "Fatal error: " $* and exit 255. */
static _Noreturn void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void fatal(const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	echo_line("Fatal error: ", msg ? msg : "");
	free(msg);
	exit(255);
}

/* echo "Usage: " $prog " [-h] [devname[:portnum]]" and the example lines, exit 255. */
static _Noreturn void usage(void)
{
	struct words w = {0};
	struct buf out = {0}, line = {0};

	words_add(&w, "Usage: ", 7);
	split_words(&w, prog);
	words_add(&w, " [-h] [devname[:portnum]]", 25);
	echo_to(&out, w.w, w.n);
	words_free(&w);
	fwrite(out.s, 1, out.len, stdout);
	buf_free(&out);
	echo_line("\t-h:\tthis help screen", NULL);
	echo_line("\tExamples:", NULL);
	buf_fmt(&line, "\t\t%s mthca1\t\t# shows status of all ports of 'mthca1'", prog);
	echo_line(buf_cstr(&line), NULL);
	buf_free(&line);
	buf_fmt(&line, "\t\t%s mthca0:2\t# shows status port number 2 of 'mthca0'", prog);
	echo_line(buf_cstr(&line), NULL);
	buf_free(&line);
	buf_fmt(&line, "\t\t%s\t\t# default: shows status of all 'mthca0' ports", prog);
	echo_line(buf_cstr(&line), NULL);
	buf_free(&line);
	exit(255);
}

/* Is path a directory (the script's [ -d ... ])? */
static bool is_dir(const char *path)
{
	DIR *d = opendir(path);

	if (!d)
		return false;
	closedir(d);
	return true;
}

static int by_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The shell's "*" in a directory: the names not starting with '.', sorted; the literal
 * "*" when there are none.  -1 if the directory cannot be opened. */
static int glob_dir(const char *dir, struct words *w)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			words_add(w, de->d_name, strlen(de->d_name));
	closedir(d);
	if (!w->n)
		words_add(w, "*", 1);
	else
		qsort(w->w, w->n, sizeof(w->w[0]), by_strcmp);
	return 0;
}

/* `[ -r file ] && cat file || echo DEFAULT`: 1 and the contents (trailing newlines
 * removed, as command substitution does), 0 when the file cannot be opened or read (the
 * script then prints the default; for a directory cat also complains on stderr). */
static int cat_file(const char *path, struct buf *text)
{
	char chunk[4096];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "cat: %s: %s\n", path, strerror(errno));
			close(fd);
			text->len = 0;
			return 0;
		}
		/* the shell drops NUL bytes from a command substitution */
		for (ssize_t i = 0; i < n; i++)
			if (chunk[i])
				buf_add(text, &chunk[i], 1);
	}
	close(fd);
	while (text->len && text->s[text->len - 1] == '\n')
		text->s[--text->len] = 0;
	return 1;
}

static void port_status(const char *dev, const char *port)
{
	static const struct {
		const char *label, *file, *dflt;
	} lines[] = {
	    {"\tdefault gid:\t", "gids/0", "unknown"},	  {"\tbase lid:\t", "lid", "unknown"},
	    {"\tsm lid:\t\t", "sm_lid", "unknown"},	  {"\tstate:\t\t", "state", "unknown"},
	    {"\tphys state:\t", "phys_state", "unknown"}, {"\trate:\t\t", "rate", "unknown"},
	    {"\tlink_layer:\t", "link_layer", "IB"},
	};
	struct buf head = {0};
	size_t i;

	buf_fmt(&head, "Infiniband device '%s' port %s status:", dev, port);
	echo_line(buf_cstr(&head), NULL);
	buf_free(&head);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct buf path = {0}, text = {0};

		buf_fmt(&path, "%s/%s/ports/%s/%s", base, dev, port, lines[i].file);
		if (cat_file(buf_cstr(&path), &text))
			echo_line(lines[i].label, buf_cstr(&text));
		else
			echo_line(lines[i].label, lines[i].dflt);
		buf_free(&path);
		buf_free(&text);
	}
	echo_line("", NULL);
}

/* ib_status $1 $2: all ports of device $1 ($2 "+") or the ports named in $2. */
static void ib_status(const char *dev, const char *ports)
{
	struct buf dir = {0};
	struct words list = {0};
	size_t i;

	buf_fmt(&dir, "%s/%s/ports", base, dev);
	if (!is_dir(buf_cstr(&dir)))
		fatal("device '%s': sys files not found (%s)", dev, buf_cstr(&dir));
	if (!strcmp(ports, "+")) {
		struct words names = {0};
		struct buf out = {0};

		/* ports=`(cd $dir || fatal No devices; echo *)`: the subshell's output, which
		 * is echo's rendering of the names, becomes the list */
		if (glob_dir(buf_cstr(&dir), &names) < 0) {
			char *msg[] = {"Fatal error: ", "No", "devices"};

			echo_to(&out, msg, 3);
		} else {
			echo_to(&out, names.w, names.n);
		}
		while (out.len && out.s[out.len - 1] == '\n')
			out.s[--out.len] = 0;
		split_expand(&list, buf_cstr(&out));
		buf_free(&out);
		words_free(&names);
	} else {
		split_expand(&list, ports);
	}
	for (i = 0; i < list.n; i++)
		port_status(dev, list.w[i]);
	words_free(&list);
	buf_free(&dir);
}

/* Calls ib_status with the words of an unquoted "$dev $port" as its $1 and $2. */
static void ib_status_words(const char *dev, const char *port)
{
	struct words w = {0};

	split_expand(&w, dev);
	split_expand(&w, port);
	ib_status(w.n > 0 ? w.w[0] : "", w.n > 1 ? w.w[1] : "");
	words_free(&w);
}

/* Where sed's '.' stops matching in a line: in a multibyte locale (C.UTF-8 ...) it matches
 * no byte of an invalid sequence.  *first: the start of the first invalid byte (len if
 * none), *last: the start of the last one (-1 if none). */
static void invalid_span(const char *line, size_t len, size_t *first, long *last)
{
	mbstate_t st;
	size_t j = 0, n;

	*first = len;
	*last = -1;
	if (MB_CUR_MAX == 1)
		return;
	memset(&st, 0, sizeof(st));
	while (j < len) {
		n = mbrtowc(NULL, line + j, len - j, &st);
		if (n == (size_t)-1 || n == (size_t)-2) {
			if (*first == len)
				*first = j;
			*last = (long)j;
			memset(&st, 0, sizeof(st));
			n = 1;
		} else if (n == 0) {
			n = 1;
		}
		j += n;
	}
}

/* `echo $arg | sed EXPR` for the two cuts the script makes; the result of the command
 * substitution (trailing newlines removed).  As sed matches them, the device ends at the
 * first ':' that only valid characters follow, the port starts after the last ':' that
 * only valid characters precede (the same ':' in valid text). */
static void cut_arg(const char *arg, bool want_port, struct buf *res)
{
	struct words w = {0};
	struct buf echoed = {0};
	const char *line;

	split_expand(&w, arg);
	echo_to(&echoed, w.w, w.n);
	words_free(&w);
	line = buf_cstr(&echoed);
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *colon_first = NULL, *colon_last = NULL;
		size_t j, bad_first;
		long bad_last;

		invalid_span(line, len, &bad_first, &bad_last);
		for (j = 0; j < len; j++) {
			if (line[j] != ':')
				continue;
			if (!colon_first && (long)j > bad_last)
				colon_first = line + j;
			if (j <= bad_first)
				colon_last = line + j;
		}
		if (!want_port) /* s/:.*$// */
			buf_add(res, line, colon_first ? (size_t)(colon_first - line) : len);
		else if (colon_last) /* s/^.*:// */
			buf_add(res, colon_last + 1, len - (size_t)(colon_last + 1 - line));
		else
			buf_add(res, line, len);
		if (nl)
			buf_add(res, "\n", 1);
		line += len + (nl ? 1 : 0);
	}
	buf_free(&echoed);
	while (res->len && res->s[res->len - 1] == '\n')
		res->s[--res->len] = 0;
}

int main(int argc, char **argv)
{
	const char *root = getenv("IBMGMT_SYSFS_ROOT");
	int i;

	/* the script's sed cuts its arguments in the user's locale */
	setlocale(LC_CTYPE, "");
	prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	snprintf(base, sizeof(base), "%s/class/infiniband", root && *root ? root : "/sys");

	if (argc > 1 && !strcmp(argv[1], "-h"))
		usage();

	if (argc < 2 || !argv[1][0]) {
		struct words devs = {0};
		size_t d;

		if (glob_dir(base, &devs) < 0)
			fatal("No devices");
		glob_cwd = base;
		for (d = 0; d < devs.n; d++)
			ib_status_words(devs.w[d], "+");
		words_free(&devs);
		return 0;
	}

	for (i = 1; i < argc && argv[i][0]; i++) {
		struct buf dev = {0}, port = {0};

		cut_arg(argv[i], false, &dev);
		cut_arg(argv[i], true, &port);
		if (!strcmp(buf_cstr(&port), buf_cstr(&dev)))
			ib_status_words(buf_cstr(&dev), "+");
		else
			ib_status_words(buf_cstr(&dev), buf_cstr(&port));
		buf_free(&dev);
		buf_free(&port);
	}
	return 0;
}
