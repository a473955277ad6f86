// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One include order of the public headers (FA_ORDER, see headers_consts.h)
 * against one set of system headers (FA_MODE), reporting the constants in
 * force right after the first fault-around header (what code placed there
 * would use) and at the end.  test_headers.c compares them.
 */
#include "headers_consts.h"	/* includes nothing */

/* The constants just after the first fault-around header. */
#define FA_SNAPSHOT fa_early
#define FA_EARLY "headers_snapshot.h"

#if defined(FA_STUB)
/* An order that cannot be built against this header set: never called. */
#elif FA_ORDER == 0 || FA_ORDER == 6
/* Alone; 6 is built as strict ISO C11, without _GNU_SOURCE. */
#include <faultaround.h>
#include FA_EARLY
#elif FA_ORDER == 1
#include <sys/mman.h>
#include <sys/prctl.h>
#include <faultaround.h>
#include FA_EARLY
#elif FA_ORDER == 2
#include <linux/prctl.h>
#include <linux/mman.h>
#include <faultaround.h>
#include FA_EARLY
#elif FA_ORDER == 3
#include <faultaround.h>
#include FA_EARLY
#include <sys/mman.h>
#include <linux/mman.h>
#include <sys/prctl.h>
#include <linux/prctl.h>
#elif FA_ORDER == 4
/* The raw ABI header first: sound only while it spells every definition
 * as the kernel headers do (so not built against the foreign set). */
#include <faultaround/uapi.h>
#include <faultaround.h>
#include FA_EARLY
#elif FA_ORDER == 5
#include <faultaround.h>
#include FA_EARLY
#include <faultaround/uapi.h>
#elif FA_ORDER == FA_REF_SYSTEM
#include <linux/mman.h>
#include <linux/prctl.h>
#include FA_EARLY
#elif FA_ORDER == FA_REF_UAPI
#include <faultaround/uapi.h>
#include FA_EARLY
#else
#error "FA_ORDER out of range"
#endif

#ifndef FA_TEST_SERIES_PRCTL
#define FA_TEST_SERIES_PRCTL 0
#endif
#ifndef FA_TEST_SERIES_MMAN
#define FA_TEST_SERIES_MMAN 0
#endif

#undef FA_SNAPSHOT
#define FA_SNAPSHOT fa_final
#ifndef FA_STUB
#include "headers_snapshot.h"
#endif

#define FN2(m, n) FA_CONSTS_FN(m, n)
void FN2(FA_MODE, FA_ORDER)(struct fa_consts *c);

void FN2(FA_MODE, FA_ORDER)(struct fa_consts *c)
{
	static const char *const names[FA_UNITS] = {
		"<faultaround.h> alone",
		"<sys/mman.h> <sys/prctl.h> first",
		"<linux/prctl.h> <linux/mman.h> first",
		"<faultaround.h> first, then the system headers",
		"<faultaround/uapi.h> first",
		"<faultaround/uapi.h> after <faultaround.h>",
		"<faultaround.h> alone, ISO C11",
		"the kernel headers alone",
		"<faultaround/uapi.h> alone",
	};
	int i;

	c->what = names[FA_ORDER];
#ifdef FA_STUB
	(void)i;
#else
#if FA_ORDER == 0
	/* <faultaround.h> declares what using its numbers takes. */
	int (*use_madvise)(void *, size_t, int) = madvise;
	int (*use_prctl)(int, ...) = prctl;

	(void)use_madvise;
	(void)use_prctl;
#endif
	for (i = 0; i < FA_NCONSTS; i++) {
		c->early[i] = fa_early[i];
		c->v[i] = fa_final[i];
	}
#endif
	c->series_defs = FA_TEST_SERIES_PRCTL + FA_TEST_SERIES_MMAN;
}
