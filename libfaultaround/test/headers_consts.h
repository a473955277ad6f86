/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_headers: the constants one translation unit sees.  Includes no
 * system header, so that each headers_order.c object decides alone which
 * headers come first.
 */
#ifndef FA_HEADERS_CONSTS_H
#define FA_HEADERS_CONSTS_H

/* The kernel's numbers (FA_MADV to FA_PR_UNSET), then <faultaround.h>'s. */
enum {
	FA_MADV, FA_MADV_SHIFT, FA_MADV_MASK, FA_MADV_ORDER3,
	FA_MADV_AUTO, FA_MADV_UNSET,
	FA_PR_SET, FA_PR_GET, FA_PR_AUTO, FA_PR_UNSET,
	FA_AUTO, FA_UNSET, FA_ORDER_LIMIT,
	FA_NCONSTS
};

#define FA_CONST_NAMES { \
	"MADV_FAULTAROUND", "MADV_FAULTAROUND_SHIFT", "MADV_FAULTAROUND_MASK", \
	"MADV_FAULTAROUND_ORDER(3)", "MADV_FAULTAROUND_AUTO", \
	"MADV_FAULTAROUND_UNSET", "PR_SET_FAULTAROUND", "PR_GET_FAULTAROUND", \
	"PR_FAULTAROUND_AUTO", "PR_FAULTAROUND_UNSET", "FAULTAROUND_AUTO", \
	"FAULTAROUND_UNSET", "FAULTAROUND_ORDER_LIMIT" }

#define FA_UNDEFINED (-424242L)		/* the macro is not defined */

struct fa_consts {
	const char *what;		/* the include order */
	long v[FA_NCONSTS];		/* at the end of the unit */
	long early[FA_NCONSTS];		/* after the first fault-around header */
	long series_defs;		/* definitions the kernel-side headers of
					 * this header set added */
};

/*
 * Include orders 0..6 of headers_order.c, then two references: 7, the
 * kernel headers alone (what the system defines), and 8, <faultaround/uapi.h>
 * alone (our fallback).
 */
#define FA_ORDERS	7
#define FA_REF_SYSTEM	7
#define FA_REF_UAPI	8
#define FA_UNITS	9

#define FA_CONSTS_FN(m, n) fa_consts_##m##_##n
#define FA_CONSTS_DECL(m) \
	void FA_CONSTS_FN(m, 0)(struct fa_consts *); \
	void FA_CONSTS_FN(m, 1)(struct fa_consts *); \
	void FA_CONSTS_FN(m, 2)(struct fa_consts *); \
	void FA_CONSTS_FN(m, 3)(struct fa_consts *); \
	void FA_CONSTS_FN(m, 4)(struct fa_consts *); \
	void FA_CONSTS_FN(m, 5)(struct fa_consts *); \
	void FA_CONSTS_FN(m, 6)(struct fa_consts *); \
	void FA_CONSTS_FN(m, 7)(struct fa_consts *); \
	void FA_CONSTS_FN(m, 8)(struct fa_consts *)
#define FA_CONSTS_TABLE(m) { \
	FA_CONSTS_FN(m, 0), FA_CONSTS_FN(m, 1), FA_CONSTS_FN(m, 2), \
	FA_CONSTS_FN(m, 3), FA_CONSTS_FN(m, 4), FA_CONSTS_FN(m, 5), \
	FA_CONSTS_FN(m, 6), FA_CONSTS_FN(m, 7), FA_CONSTS_FN(m, 8) }

#endif
