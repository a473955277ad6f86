/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_headers: FA_SNAPSHOT[], the constants as defined at the point where
 * this file is included.  No include guard: headers_order.c includes it
 * right after the first fault-around header and again at its end.
 */
static const long FA_SNAPSHOT[FA_NCONSTS] = {
#ifdef MADV_FAULTAROUND
	[FA_MADV] = MADV_FAULTAROUND,
#else
	[FA_MADV] = FA_UNDEFINED,
#endif
#ifdef MADV_FAULTAROUND_SHIFT
	[FA_MADV_SHIFT] = MADV_FAULTAROUND_SHIFT,
#else
	[FA_MADV_SHIFT] = FA_UNDEFINED,
#endif
#ifdef MADV_FAULTAROUND_MASK
	[FA_MADV_MASK] = MADV_FAULTAROUND_MASK,
#else
	[FA_MADV_MASK] = FA_UNDEFINED,
#endif
#ifdef MADV_FAULTAROUND_ORDER
	[FA_MADV_ORDER3] = MADV_FAULTAROUND_ORDER(3),
#else
	[FA_MADV_ORDER3] = FA_UNDEFINED,
#endif
#ifdef PR_SET_FAULTAROUND
	[FA_PR_SET] = PR_SET_FAULTAROUND,
#else
	[FA_PR_SET] = FA_UNDEFINED,
#endif
#ifdef PR_GET_FAULTAROUND
	[FA_PR_GET] = PR_GET_FAULTAROUND,
#else
	[FA_PR_GET] = FA_UNDEFINED,
#endif
#ifdef PR_FAULTAROUND_UNSET
	[FA_PR_UNSET] = PR_FAULTAROUND_UNSET,
#else
	[FA_PR_UNSET] = FA_UNDEFINED,
#endif
#ifdef FAULTAROUND_UNSET
	[FA_UNSET] = FAULTAROUND_UNSET,
#else
	[FA_UNSET] = FA_UNDEFINED,
#endif
#ifdef FAULTAROUND_ORDER_LIMIT
	[FA_ORDER_LIMIT] = FAULTAROUND_ORDER_LIMIT,
#else
	[FA_ORDER_LIMIT] = FA_UNDEFINED,
#endif
};
