// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The version macros agree with the version string and with the library
 * running, and both checks answer "at least major.minor".  TAP.
 */
#include <stdio.h>
#include <string.h>

#include "faultaround.h"

#if !FAULTAROUND_CHECK_VERSION(1, 1)
#error "FAULTAROUND_CHECK_VERSION(1, 1) is false in the headers of 1.1"
#endif
#if FAULTAROUND_CHECK_VERSION(FAULTAROUND_VERSION_MAJOR, FAULTAROUND_VERSION_MINOR + 1)
#error "FAULTAROUND_CHECK_VERSION is true for a later minor version"
#endif

static int n, failed;

static void check(int ok, const char *what)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++n, what);
	failed += !ok;
}

int main(void)
{
	const int M = FAULTAROUND_VERSION_MAJOR, m = FAULTAROUND_VERSION_MINOR;
	char s[32];

	printf("TAP version 13\n1..9\n");
	snprintf(s, sizeof(s), "%d.%d.", M, m);
	check(!strncmp(LIBFAULTAROUND_VERSION, s, strlen(s)),
	      "LIBFAULTAROUND_VERSION starts with MAJOR.MINOR.");
	check(faultaround_major_version() == M, "faultaround_major_version() is the headers'");
	check(faultaround_minor_version() == m, "faultaround_minor_version() is the headers'");
	check(faultaround_check_version(M, m) == 1, "check_version(this version) is 1");
	check(faultaround_check_version(1, 0) == 1, "check_version(1, 0) is 1");
	check(faultaround_check_version(M, m + 1) == 0, "check_version(a later minor) is 0");
	check(faultaround_check_version(M + 1, 0) == 0, "check_version(a later major) is 0");
	check(faultaround_check_version(0, 99) == 1, "check_version(0, 99) is 1");
	check(FAULTAROUND_CHECK_VERSION(M, m) && !FAULTAROUND_CHECK_VERSION(M + 1, 0) &&
	      FAULTAROUND_CHECK_VERSION(M - 1, 99),
	      "FAULTAROUND_CHECK_VERSION answers at least major.minor");
	printf("# %d tests, %d failed (library %d.%d, headers %s)\n", n, failed,
	       faultaround_major_version(), faultaround_minor_version(),
	       LIBFAULTAROUND_VERSION);
	return failed != 0;
}
