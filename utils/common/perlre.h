/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A small backtracking regular expression matcher with Perl's matching rules (leftmost
 * match, greedy quantifiers take the longest repetition that still lets the rest match,
 * lazy ones the shortest), for the tools that replace infiniband-diags' Perl scripts
 * (check_lft_balance, ibfindnodesusing, ibidsverify): they must pick out the same
 * sub-matches from the same text as the scripts' regular expressions do.
 *
 * Supported: literals and \-escaped characters, ., \d \s \w (and \D \S \W), [...] classes
 * with ranges, negation and the escapes above, ^ and $ (before an optional final newline),
 * capturing groups ( ), quantifiers * + ? (lazy *? +? ??) on any atom, ? on groups.
 * No alternation, no backreferences.  Subjects are NUL-terminated; '.' does not match '\n'.
 */
#ifndef IBMGMT_UTILS_PERLRE_H
#define IBMGMT_UTILS_PERLRE_H

#include <stdbool.h>
#include <stddef.h>

#define PERLRE_MAX_GROUPS 10

struct perlre;

/* NULL when the pattern is not in the supported subset (a programming error). */
struct perlre *perlre_compile(const char *pattern);
void perlre_free(struct perlre *re);

struct perlre_match {
	/* group 0 is the whole match; start -1 when the group did not take part */
	int start[PERLRE_MAX_GROUPS];
	int end[PERLRE_MAX_GROUPS];
};

/* Searches the subject as Perl's $subject =~ /pattern/ does. */
bool perlre_match(const struct perlre *re, const char *subject, struct perlre_match *m);
/* Group n of the last match, malloc'd ("" when it did not take part); NULL on ENOMEM. */
char *perlre_group(const char *subject, const struct perlre_match *m, unsigned n);

#ifdef PERLRE_TEST_HOOKS
/* The same search with plain backtracking, no memory of failures: exponential in the
 * number of unbounded quantifiers, for tests that compare it with perlre_match(). */
bool perlre_match_plain(const struct perlre *re, const char *subject, struct perlre_match *m);
#endif

#endif /* IBMGMT_UTILS_PERLRE_H */
