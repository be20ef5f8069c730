/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Backtracking matcher with Perl's rules (see perlre.h).  A pattern compiles to a sequence
 * of nodes; a group holds its own sequence.  Matching walks a sequence node by node and,
 * at the end of a group's sequence, goes on with the rest of the enclosing sequence through
 * a chain of continuations kept on the C stack, so that every repetition count of every
 * quantifier is tried in Perl's order and the first success is Perl's match.
 *
 * Whether the rest of the pattern matches from a node at a subject position depends on
 * nothing else (a group repeats at most once and there are no backreferences, so the
 * continuation of a node is always the same), so a failure there is remembered in a bitmap
 * of nodes x positions and never tried again: a match costs at most nodes x length^2 steps
 * instead of length^k for k unbounded quantifiers (fuzz-perlre found lines of a few hundred
 * bytes taking seconds).  An unbounded class run (.+ \s* ...) that failed at position p
 * also fails at p+1 when the byte at p is in its class (every end it could reach from p+1
 * it could reach from p), and so on along the run: those positions are marked at once.  The
 * other way round, when the run failed at a later position x of its stretch, a try from p
 * only needs the repetition counts that end before x + min (the others end where the ones
 * from x did, and fail the same way); the run is then scanned only up to x, and p..x-1 are
 * marked when it fails.  With both, the usual patterns (a few unbounded runs) cost about
 * nodes x length.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perlre.h"

enum node_kind { N_CLASS, N_GROUP, N_BOL, N_EOL };

struct seq;

struct node {
	enum node_kind kind;
	uint8_t set[32]; /* N_CLASS: the bytes it matches (also a single literal, '.') */
	int min, max;    /* repetition; max -1: unbounded */
	bool lazy;
	int group;       /* N_GROUP: capture number */
	struct seq *sub; /* N_GROUP */
};

struct seq {
	struct node *v;
	int n, cap;
	int base; /* the memo index of v[0]; v[i] (i <= n, n: the end) is base + i */
};

struct perlre {
	struct seq root;
	int groups;
	int slots; /* memo indexes in all sequences */
};

/* give every sequence position (its end included) a memo index */
static void number_seq(struct seq *q, int *next)
{
	q->base = *next;
	*next += q->n + 1;
	for (int i = 0; i < q->n; i++)
		if (q->v[i].sub)
			number_seq(q->v[i].sub, next);
}

static void set_add(uint8_t *set, unsigned c)
{
	set[c >> 3] |= (uint8_t)(1u << (c & 7));
}

static bool set_has(const uint8_t *set, unsigned c)
{
	return set[c >> 3] & (1u << (c & 7));
}

static void seq_free(struct seq *q)
{
	for (int i = 0; i < q->n; i++)
		if (q->v[i].sub) {
			seq_free(q->v[i].sub);
			free(q->v[i].sub);
		}
	free(q->v);
}

static struct node *seq_add(struct seq *q)
{
	if (q->n == q->cap) {
		int cap = q->cap ? 2 * q->cap : 8;
		struct node *v = realloc(q->v, (size_t)cap * sizeof(*v));

		if (!v)
			return NULL;
		q->v = v;
		q->cap = cap;
	}
	memset(&q->v[q->n], 0, sizeof(q->v[0]));
	q->v[q->n].min = q->v[q->n].max = 1;
	return &q->v[q->n++];
}

/* \d \s \w and their negations; false for any other letter */
static bool class_escape(uint8_t *set, char e)
{
	uint8_t tmp[32] = { 0 };
	bool neg = e == 'D' || e == 'S' || e == 'W';

	switch (e) {
	case 'd': case 'D':
		for (unsigned c = '0'; c <= '9'; c++)
			set_add(tmp, c);
		break;
	case 's': case 'S':
		for (const char *p = " \t\n\r\f\v"; *p; p++)
			set_add(tmp, (unsigned char)*p);
		break;
	case 'w': case 'W':
		for (unsigned c = 0; c < 256; c++)
			if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
				set_add(tmp, c);
		break;
	default:
		return false;
	}
	for (unsigned i = 0; i < 32; i++)
		set[i] |= neg ? (uint8_t)~tmp[i] : tmp[i];
	return true;
}

/* [...] starting after '['; returns the position after ']' or NULL */
static const char *parse_bracket(const char *p, uint8_t *set)
{
	uint8_t tmp[32] = { 0 };
	bool neg = false, first = true;

	if (*p == '^') {
		neg = true;
		p++;
	}
	while (*p && (*p != ']' || first)) {
		unsigned c = (unsigned char)*p++;

		first = false;
		if (c == '\\') {
			if (!*p)
				return NULL;
			if (class_escape(tmp, *p)) {
				p++;
				continue;
			}
			c = (unsigned char)*p++;
		}
		if (*p == '-' && p[1] && p[1] != ']') {
			unsigned hi = (unsigned char)p[1];

			p += 2;
			if (hi == '\\' ) {
				if (!*p)
					return NULL;
				hi = (unsigned char)*p++;
			}
			for (unsigned x = c; x <= hi; x++)
				set_add(tmp, x);
		} else {
			set_add(tmp, c);
		}
	}
	if (*p != ']')
		return NULL;
	for (unsigned i = 0; i < 32; i++)
		set[i] = neg ? (uint8_t)~tmp[i] : tmp[i];
	return p + 1;
}

static const char *parse_seq(struct perlre *re, const char *p, struct seq *q, bool in_group)
{
	while (*p && !(in_group && *p == ')')) {
		struct node *n;

		if (*p == '*' || *p == '+' || *p == '?') {
			if (!q->n)
				return NULL;
			n = &q->v[q->n - 1];
			if (n->kind == N_BOL || n->kind == N_EOL || n->min != 1 || n->max != 1)
				return NULL;
			n->min = *p == '+';
			n->max = *p == '?' ? 1 : -1;
			if (n->kind == N_GROUP && n->max != 1)
				return NULL; /* only ( )? is needed */
			p++;
			if (*p == '?') {
				n->lazy = true;
				p++;
			}
			continue;
		}
		n = seq_add(q);
		if (!n)
			return NULL;
		n->kind = N_CLASS;
		switch (*p) {
		case '^':
			n->kind = N_BOL;
			p++;
			break;
		case '$':
			n->kind = N_EOL;
			p++;
			break;
		case '.':
			memset(n->set, 0xff, sizeof(n->set));
			n->set['\n' >> 3] &= (uint8_t)~(1u << ('\n' & 7));
			p++;
			break;
		case '[':
			p = parse_bracket(p + 1, n->set);
			if (!p)
				return NULL;
			break;
		case '\\':
			if (!p[1])
				return NULL;
			if (!class_escape(n->set, p[1]))
				set_add(n->set, (unsigned char)p[1]);
			p += 2;
			break;
		case '(':
			n->kind = N_GROUP;
			n->group = ++re->groups;
			if (re->groups >= PERLRE_MAX_GROUPS)
				return NULL;
			n->sub = calloc(1, sizeof(*n->sub));
			if (!n->sub)
				return NULL;
			p = parse_seq(re, p + 1, n->sub, true);
			if (!p || *p != ')')
				return NULL;
			p++;
			break;
		case '|':
		case ')':
			return NULL;
		default:
			set_add(n->set, (unsigned char)*p);
			p++;
			break;
		}
	}
	return p;
}

struct perlre *perlre_compile(const char *pattern)
{
	struct perlre *re = calloc(1, sizeof(*re));
	const char *end;

	if (!re)
		return NULL;
	end = parse_seq(re, pattern, &re->root, false);
	if (!end || *end) {
		perlre_free(re);
		return NULL;
	}
	number_seq(&re->root, &re->slots);
	return re;
}

void perlre_free(struct perlre *re)
{
	if (!re)
		return;
	seq_free(&re->root);
	free(re);
}

/* ---- matching ------------------------------------------------------------------------------ */

struct mctx {
	const char *s;
	int len;
	struct perlre_match *m;
	uint8_t *failed; /* bit (base + i) * (len + 1) + pos: no match from there; NULL: no memo */
};

/* What follows the end of a group's sequence: close the group, go on at seq[i]. */
struct cont {
	const struct seq *q;
	int i;
	int group, gstart;
	const struct cont *next;
};

static bool match_seq(struct mctx *c, const struct seq *q, int i, int pos, const struct cont *k);

static bool match_rest(struct mctx *c, int pos, const struct cont *k)
{
	int os, oe;

	if (!k) {
		c->m->end[0] = pos;
		return true;
	}
	os = c->m->start[k->group];
	oe = c->m->end[k->group];
	c->m->start[k->group] = k->gstart;
	c->m->end[k->group] = pos;
	if (match_seq(c, k->q, k->i, pos, k->next))
		return true;
	c->m->start[k->group] = os;
	c->m->end[k->group] = oe;
	return false;
}

static bool match_node(struct mctx *c, const struct seq *q, int i, int pos, const struct cont *k);

static bool failed_at(const struct mctx *c, size_t bit)
{
	return c->failed && (c->failed[bit >> 3] & (1u << (bit & 7)));
}

static void set_failed(struct mctx *c, size_t bit)
{
	c->failed[bit >> 3] |= (uint8_t)(1u << (bit & 7));
}

static size_t memo_bit(const struct mctx *c, const struct seq *q, int i, int pos)
{
	return ((size_t)q->base + (size_t)i) * ((size_t)c->len + 1) + (size_t)pos;
}

static bool match_seq(struct mctx *c, const struct seq *q, int i, int pos, const struct cont *k)
{
	size_t bit = memo_bit(c, q, i, pos);
	const struct node *n = i < q->n ? &q->v[i] : NULL;

	if (failed_at(c, bit))
		return false;
	if (match_node(c, q, i, pos, k))
		return true;
	if (!c->failed)
		return false;
	set_failed(c, bit);
	/* an unbounded run fails as well from every later position its class reaches (a
	 * position marked already has had the rest of that stretch marked too) */
	if (n && n->kind == N_CLASS && n->max < 0)
		for (int p = pos + 1; p <= c->len && set_has(n->set, (unsigned char)c->s[p - 1]) &&
				      !failed_at(c, bit + (size_t)(p - pos));
		     p++)
			set_failed(c, bit + (size_t)(p - pos));
	return false;
}

static bool match_node(struct mctx *c, const struct seq *q, int i, int pos, const struct cont *k)
{
	const struct node *n;
	int run;

	if (i == q->n)
		return match_rest(c, pos, k);
	n = &q->v[i];
	switch (n->kind) {
	case N_BOL:
		return pos == 0 && match_seq(c, q, i + 1, pos, k);
	case N_EOL:
		return (pos == c->len || (pos == c->len - 1 && c->s[pos] == '\n')) &&
		       match_seq(c, q, i + 1, pos, k);
	case N_GROUP: {
		struct cont in = { q, i + 1, n->group, pos, k };

		if (n->lazy && n->min == 0 && match_seq(c, q, i + 1, pos, k))
			return true;
		if (match_seq(c, n->sub, 0, pos, &in))
			return true;
		return !n->lazy && n->min == 0 && match_seq(c, q, i + 1, pos, k);
	}
	case N_CLASS:
		break;
	}
	for (run = 0; pos + run < c->len && (n->max < 0 || run < n->max) &&
		      set_has(n->set, (unsigned char)c->s[pos + run]);
	     run++) {
		/* an unbounded run that failed from a later position x of this stretch: the
		 * counts that end at x + min or beyond end where one from x did, and fail */
		if (n->max < 0 && c->failed && failed_at(c, memo_bit(c, q, i, pos + run + 1))) {
			int cap = run + n->min; /* (x - pos - 1 + min) */

			for (run++; run < cap && pos + run < c->len &&
				    set_has(n->set, (unsigned char)c->s[pos + run]);
			     run++)
				;
			if (run > cap)
				run = cap;
			break;
		}
	}
	if (run < n->min)
		return false;
	if (n->lazy) {
		for (int r = n->min; r <= run; r++)
			if (match_seq(c, q, i + 1, pos + r, k))
				return true;
	} else {
		for (int r = run; r >= n->min; r--)
			if (match_seq(c, q, i + 1, pos + r, k))
				return true;
	}
	return false;
}

static bool search(const struct perlre *re, const char *subject, struct perlre_match *m, bool memo)
{
	struct mctx c = { subject, (int)strlen(subject), m, NULL };
	size_t bits = (size_t)re->slots * ((size_t)c.len + 1);
	/* (a pattern that starts with ^ can only match at 0) */
	int last = re->root.n > 0 && re->root.v[0].kind == N_BOL ? 0 : c.len;
	bool found = false;

	/* (without memory for the bitmap, the plain backtracking gives the same answer) */
	if (memo)
		c.failed = calloc(bits / 8 + 1, 1);
	for (int start = 0; start <= last && !found; start++) {
		for (int g = 0; g < PERLRE_MAX_GROUPS; g++)
			m->start[g] = m->end[g] = -1;
		m->start[0] = start;
		found = match_seq(&c, &re->root, 0, start, NULL);
	}
	free(c.failed);
	return found;
}

bool perlre_match(const struct perlre *re, const char *subject, struct perlre_match *m)
{
	return search(re, subject, m, true);
}

#ifdef PERLRE_TEST_HOOKS
bool perlre_match_plain(const struct perlre *re, const char *subject, struct perlre_match *m)
{
	return search(re, subject, m, false);
}
#endif

char *perlre_group(const char *subject, const struct perlre_match *m, unsigned n)
{
	if (n >= PERLRE_MAX_GROUPS || m->start[n] < 0)
		return strdup("");
	return strndup(subject + m->start[n], (size_t)(m->end[n] - m->start[n]));
}
