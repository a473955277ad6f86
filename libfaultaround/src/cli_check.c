// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * faultaround(1): checking what is set and passed on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "faultaround.h"
#include "internal.h"
#include "cli.h"

/*
 * Every SIZE the launcher takes or passes on (-s, -o, each rule of -r or
 * FAULTAROUND_RULES, FAULTAROUND) goes through the library's parser, and
 * on a kernel with the feature its order through the library's and the
 * kernel's own check, the one faultaround_set() and faultaround_set_default()
 * share: -o is applied for real, the others on a scratch mapping.  So a
 * value the shim would drop (silently, as it must) is refused here.
 */
int cli_check_order(const char *what, const struct faultaround_size *size)
{
	size_t page = faultaround_page_size();
	int order = faultaround_size_to_order(size), r, err;
	void *scratch;

	if (order == FAULTAROUND_UNSET)
		return 0;
	scratch = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (scratch == MAP_FAILED) {
		fprintf(stderr, "%s: %s\n", cli_prog, strerror(errno));
		return -1;
	}
	r = order < 0 ? -1 : faultaround_set(scratch, page, order);
	err = errno;
	munmap(scratch, page);
	if (r < 0) {
		fprintf(stderr, "%s: %s: order %d: %s\n", cli_prog, what, order,
			err != EINVAL ? strerror(err) :
			order == FAULTAROUND_AUTO ? "this kernel has no self-sizing window" :
			"above this kernel's maximum");
		return -1;
	}
	return 0;
}

int cli_parse_size(const char *what, const char *s, struct faultaround_size *size)
{
	char err[256];

	if (faultaround_parse_size(s, size, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "%s: %s: %s\n", cli_prog, what, err);
	return -1;
}

/* -o ORDER is -s order:ORDER, checked by the library's parser; the
 * message quotes what the user gave. */
int cli_parse_order(const char *s, struct faultaround_size *size)
{
	char *as_size, q[256];
	int r;

	if (!strcmp(s, "unset") || !strcmp(s, "auto"))
		return cli_parse_size("-o", s, size);
	if (asprintf(&as_size, "order:%s", s) < 0) {
		fprintf(stderr, "%s: %s\n", cli_prog, strerror(errno));
		return -1;
	}
	r = faultaround_parse_size(as_size, size, NULL, 0);
	free(as_size);
	if (r < 0)
		fprintf(stderr, "%s: -o: bad order '%s': expected a number from 0 to %d, 'auto' or 'unset'\n",
			cli_prog, fa_quote(s, q, sizeof(q)), FAULTAROUND_ORDER_LIMIT);
	return r;
}

/* Parse RULES (or the rules file s) and, with the feature, check each
 * rule's order. */
int cli_check_rules(const char *what, const char *s, int is_file, int supported)
{
	struct faultaround_rules *rules;
	const struct faultaround_size *size;
	const char *glob;
	char err[512], rule[320], q[128];
	size_t i;
	int r = 0;

	rules = is_file ? faultaround_rules_parse_file(s, err, sizeof(err)) :
			  faultaround_rules_parse(s, err, sizeof(err));
	if (!rules) {
		fprintf(stderr, "%s: %s: %s\n", cli_prog, what, err);
		return -1;
	}
	for (i = 0; supported && !r && (size = fa_rules_size(rules, i, &glob)); i++) {
		snprintf(rule, sizeof(rule), "%s: rule %zu ('%s')", what, i + 1,
			 fa_quote(glob, q, sizeof(q)));
		r = cli_check_order(rule, size);
	}
	faultaround_rules_free(rules);
	return r;
}
