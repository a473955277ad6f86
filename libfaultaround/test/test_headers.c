// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Include order does not decide which definitions win.  headers_order.c is
 * built in every include order (headers_consts.h) against three sets of
 * system headers:
 *   sys      this system's headers as they are
 *   series   kernel headers carrying the kernel series (generated from
 *            kernel/patches by series-headers.sh)
 *   foreign  kernel headers with other numbers (foreign-include/)
 * In every order a number must be the kernel headers' when they define it,
 * else <faultaround/uapi.h>'s.  TAP on stdout; no kernel feature needed.
 */
#include <stdio.h>
#include <string.h>

#include "headers_consts.h"

FA_CONSTS_DECL(sys);
FA_CONSTS_DECL(series);
FA_CONSTS_DECL(foreign);

typedef void (*fa_consts_fn)(struct fa_consts *);

static const char *const const_names[FA_NCONSTS] = FA_CONST_NAMES;
static int test_no, failed;

static void result(int ok, const char *mode, const char *what, const char *skip)
{
	if (skip) {
		printf("ok %d %s: %s # SKIP %s\n", ++test_no, mode, what, skip);
		return;
	}
	printf("%sok %d %s: %s\n", ok ? "" : "not ", ++test_no, mode, what);
	failed += !ok;
}

static void print_value(const char *label, long v)
{
	if (v == FA_UNDEFINED)
		printf("#   %s: undefined\n", label);
	else
		printf("#   %s: %ld\n", label, v);
}

/* The kernel headers' definition where they have one, else ours. */
static void expected_values(const struct fa_consts *sys, const struct fa_consts *uapi,
			    long want[FA_NCONSTS])
{
	int i;

	for (i = 0; i < FA_NCONSTS; i++)
		want[i] = sys->v[i] != FA_UNDEFINED ? sys->v[i] : uapi->v[i];
	want[FA_AUTO] = want[FA_PR_AUTO];
	want[FA_UNSET] = want[FA_PR_UNSET];
	/* The field's two highest values are the self-sizing window and
	 * unset. */
	want[FA_ORDER_LIMIT] = want[FA_MADV_MASK] - 2;
}

static int same(const char *mode, const struct fa_consts *c, const long want[FA_NCONSTS],
		int first, int last)
{
	int i, ok = 1;

	for (i = first; i <= last; i++) {
		if (c->v[i] == want[i] && c->early[i] == want[i] &&
		    want[i] != FA_UNDEFINED)
			continue;
		if (ok)
			printf("# %s: %s:\n", mode, c->what);
		printf("#  %s\n", const_names[i]);
		print_value("after the first fault-around header", c->early[i]);
		print_value("at the end", c->v[i]);
		print_value("want", want[i]);
		ok = 0;
	}
	return ok;
}

/*
 * madvise and prctl take one value: the advice carries in its field what
 * PR_SET_FAULTAROUND takes, the order itself, PR_FAULTAROUND_AUTO or
 * PR_FAULTAROUND_UNSET.
 */
static int one_encoding(const char *mode, const long v[FA_NCONSTS])
{
	long madv = v[FA_MADV], shift = v[FA_MADV_SHIFT];
	int i, ok;

	for (i = 0; i <= FA_PR_UNSET; i++) {
		if (v[i] == FA_UNDEFINED) {
			printf("# %s: %s undefined\n", mode, const_names[i]);
			return 0;
		}
	}
	ok = v[FA_MADV_ORDER3] == (madv | 3L << shift) &&
	     v[FA_MADV_AUTO] == (madv | v[FA_PR_AUTO] << shift) &&
	     v[FA_MADV_UNSET] == (madv | v[FA_PR_UNSET] << shift) &&
	     v[FA_PR_AUTO] == v[FA_MADV_MASK] - 1 &&
	     v[FA_PR_UNSET] == v[FA_MADV_MASK];

	if (!ok)
		printf("# %s: MADV_FAULTAROUND_ORDER(3) %#lx, _AUTO %#lx, _UNSET %#lx;"
		       " PR_FAULTAROUND_AUTO %ld, _UNSET %ld; field mask %#lx\n",
		       mode, v[FA_MADV_ORDER3], v[FA_MADV_AUTO], v[FA_MADV_UNSET],
		       v[FA_PR_AUTO], v[FA_PR_UNSET], v[FA_MADV_MASK]);
	return ok;
}

static void check_mode(const char *mode, const fa_consts_fn fn[FA_UNITS], int skip_order)
{
	struct fa_consts c[FA_UNITS];
	long want[FA_NCONSTS];
	int n;

	for (n = 0; n < FA_UNITS; n++)
		if (n != skip_order)
			fn[n](&c[n]);
	expected_values(&c[FA_REF_SYSTEM], &c[FA_REF_UAPI], want);
	result(one_encoding(mode, want), mode,
	       "the madvise field carries the prctl value", NULL);
	if (strcmp(mode, "sys")) {
		const char *skip = c[FA_REF_SYSTEM].series_defs ? NULL :
			"no kernel series headers (kernel/patches)";
		long uapi[FA_NCONSTS];

		/* The series and our fallback agree; the foreign set must not. */
		expected_values(&c[FA_REF_UAPI], &c[FA_REF_UAPI], uapi);
		if (!strcmp(mode, "series")) {
			result(skip || same(mode, &c[FA_REF_SYSTEM], uapi, 0, FA_PR_UNSET),
			       mode, "<faultaround/uapi.h> has the series' numbers", skip);
			if (skip) {
				for (n = 0; n < FA_ORDERS; n++)
					result(1, mode, c[n].what, skip);
				return;
			}
		} else {
			result(c[FA_REF_SYSTEM].series_defs &&
			       c[FA_REF_SYSTEM].v[FA_PR_SET] != uapi[FA_PR_SET],
			       mode, "the foreign headers are in use", NULL);
		}
	}
	for (n = 0; n < FA_ORDERS; n++) {
		if (n == skip_order)
			continue;
		result(same(mode, &c[n], want, 0, FA_NCONSTS - 1), mode, c[n].what, NULL);
	}
}

int main(void)
{
	static const fa_consts_fn sys[FA_UNITS] = FA_CONSTS_TABLE(sys);
	static const fa_consts_fn series[FA_UNITS] = FA_CONSTS_TABLE(series);
	static const fa_consts_fn foreign[FA_UNITS] = FA_CONSTS_TABLE(foreign);

	printf("TAP version 13\n1..%d\n", 3 * FA_ORDERS + 4);
	check_mode("sys", sys, -1);
	check_mode("series", series, -1);
	/* <faultaround/uapi.h> before kernel headers with other numbers is a
	 * redefinition the compiler rejects: not built. */
	check_mode("foreign", foreign, 4);
	printf("# %d tests, %d failed\n", test_no, failed);
	return failed ? 1 : 0;
}
