// SPDX-License-Identifier: BSD-3-Clause
/*
 * fuzz-perlre: the Perl-style matcher of the scripts' C rewrites (utils/common/perlre.c)
 * on the text they read: the lines of ibnetdiscover caches/topology files, dump_lfts and
 * iblinkinfo outputs (check_lft_balance, ibfindnodesusing, ibidsverify), split as
 * ibscript_next_line() splits them, each matched with the patterns those tools use, and on
 * patterns themselves (ibfindnodesusing and check_lft_balance put command-line text into a
 * pattern).  Checks: a match's groups lie inside the subject in order, group 0 contains the
 * others, and perlre_group() gives those bytes; and where plain backtracking is cheap
 * enough (pattern length x (subject length + 1)^(quantifiers + 1) within a budget: every
 * start position, every split of every quantifier, every node), the memoised match
 * (with its shortcut for unbounded runs) gives exactly the plain one's result and groups.
 * Input: byte 0 even: the rest is the text, matched line by line with the tools' patterns;
 * odd: the first line of the rest is a pattern, the lines after it the subjects.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibscript.h"
#include "perlre.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the tools' patterns (check_lft_balance.c, ibfindnodesusing.c, ibidsverify.c) */
static const char *const tool_patterns[] = {
	"0+(.+)",
	"[\\d]+[\\s]+[\\d]+\\[.+\\]  \\=\\=.+\\=\\=>[\\s]+[\\d]+[\\s]+[\\d]+\\[.+\\] \\\"(.+)\\\".+",
	"Unicast lids .+ of switch DR path slid .+ guid (.+) \\((.+)\\)",
	"Unicast lids .+ of switch Lid .+ guid (.+) \\((.+)\\)",
	".+ (.+) : \\(.+ portguid .+: '(.+)'\\)",
	".+ (.+) : \\(path #. out of .: portguid .+\\)",
	" 1\\[..\\] ==",
	"^Switch.*\\\"S-(.*)\\\"\\s+#.*\\\"(.*)\\\".* lid (\\d+).*",
	"^Ca.*",
	"^Rt.*",
	"^\\[(\\d+)\\]\\s+\\\"[HSR]-(.+)\\\"\\[(\\d+)\\](\\(.+\\))?\\s+#.*\\\"(.*)\\\"\\.* lid (\\d+).*",
	"^\\[(\\d+)\\]\\[ext (\\d+)\\]\\s+\\\"[HSR]-(.+)\\\"\\[(\\d+)\\](\\(.+\\))?\\s+#.*\\\"(.*)\\\"\\.* lid (\\d+).*",
	"^\\[(\\d+)\\]\\s+\\\"[HSR]-(.+)\\\"\\[(\\d+)\\]\\[ext (\\d+)\\](\\(.+\\))?\\s+#.*\\\"(.*)\\\"\\.* lid (\\d+).*",
	"^\\[(\\d+)\\]\\[ext (\\d+)\\]\\s+\\\"[HSR]-(.+)\\\"\\[(\\d+)\\]\\[ext (\\d+)\\](\\(.+\\))?\\s+#.*\\\"(.*)\\\"\\.* lid (\\d+).*",
	"\\w+\\s+(\\d+)\\s+:\\s+\\(Channel Adapter.*:\\s+'(.*)'\\)",
	"^Switch.*\\\"S-(.*)\\\"\\s+# (.*) port.*",
	".*0x0002c90300001492\\s+.*",
	"^caguid=(.*)",
	"^rtguid=(.*)",
	"^switchguid=(.*)",
	"^switchguid=(.*)\\((.*)\\)",
	"^Switch.*\\\"S-(.*)\\\"\\s+# (.*) port.* lid (\\d+) .*",
	"\"S-(.*)\\# lid (\\d+) .*",
	"^.*\"H-(.*)\\# lid (\\d+) .*",
	"^.*\"R-(.*)\\# lid (\\d+) .*",
	"^\\[(\\d+)\\]\\((.*)\\)",
};
#define NPATTERNS (sizeof(tool_patterns) / sizeof(tool_patterns[0]))

static struct perlre *compiled[NPATTERNS];
static int compiled_q[NPATTERNS];
static size_t compiled_len[NPATTERNS];

/* an upper bound of the unbounded quantifiers of a pattern ('\\*' counted too) */
static int quantifiers(const char *pattern)
{
	int q = 0;

	for (; *pattern; pattern++)
		q += *pattern == '*' || *pattern == '+';
	return q;
}

/* whether plain backtracking of a subject of len bytes stays within ~10^6 steps: the
 * search tries len + 1 start positions, each quantifier up to len + 1 lengths, and each
 * try walks up to plen nodes (a 139-byte pattern with 2 quantifiers on a 256-byte
 * subject took 11 s here when the start positions and nodes were not counted) */
static bool plain_is_cheap(size_t plen, int len, int q)
{
	double steps = (double)(plen + 1) * (len + 1);

	if (steps > 1e6)
		return false;
	while (q-- > 0)
		if ((steps *= len + 1) > 1e6)
			return false;
	return true;
}

static void match(const struct perlre *re, size_t plen, int q, const char *subject)
{
	struct perlre_match m, p;
	int len = (int)strlen(subject);
	bool found = perlre_match(re, subject, &m);

	if (plain_is_cheap(plen, len, q)) {
		if (perlre_match_plain(re, subject, &p) != found)
			abort();
		if (found && memcmp(&m, &p, sizeof(m)))
			abort();
	}
	if (!found)
		return;
	if (m.start[0] < 0 || m.start[0] > m.end[0] || m.end[0] > len)
		abort();
	for (unsigned g = 0; g < PERLRE_MAX_GROUPS; g++) {
		char *text = perlre_group(subject, &m, g);

		if (!text)
			abort();
		if (m.start[g] >= 0) {
			if (m.start[g] > m.end[g] || m.start[g] < m.start[0] || m.end[g] > m.end[0])
				abort();
			if (strlen(text) != (size_t)(m.end[g] - m.start[g]) ||
			    memcmp(text, subject + m.start[g], strlen(text)))
				abort();
		} else if (*text) {
			abort();
		}
		free(text);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perlre *own = NULL;
	int own_q = 0;
	size_t own_len = 0;
	const char *text;
	size_t pos = 0, len;
	char *line;

	if (size < 1)
		return 0;
	if (!compiled[0])
		for (size_t i = 0; i < NPATTERNS; i++) {
			if (!(compiled[i] = perlre_compile(tool_patterns[i])))
				abort(); /* the tools' own patterns are all supported */
			compiled_q[i] = quantifiers(tool_patterns[i]);
			compiled_len[i] = strlen(tool_patterns[i]);
		}
	text = (const char *)data + 1;
	len = size - 1;
	if (data[0] & 1) {
		char *pattern = ibscript_next_line(text, len, &pos);

		if (!pattern)
			return 0;
		pattern[strcspn(pattern, "\n")] = '\0';
		own = perlre_compile(pattern);
		own_q = quantifiers(pattern);
		own_len = strlen(pattern);
		free(pattern);
		if (!own)
			return 0;
	}
	while ((line = ibscript_next_line(text, len, &pos))) {
		if (own) {
			match(own, own_len, own_q, line);
		} else {
			for (size_t i = 0; i < NPATTERNS; i++)
				match(compiled[i], compiled_len[i], compiled_q[i], line);
		}
		free(line);
	}
	perlre_free(own);
	return 0;
}
