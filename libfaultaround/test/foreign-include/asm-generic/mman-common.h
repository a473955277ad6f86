/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_headers: <asm-generic/mman-common.h> (reached from <linux/mman.h>)
 * of a kernel whose fault-around numbers are not ours; see linux/prctl.h.
 * The definitions are the series' in name and form.
 */
#ifndef FA_TEST_FOREIGN_MMAN_COMMON_H
#define FA_TEST_FOREIGN_MMAN_COMMON_H
#include_next <asm-generic/mman-common.h>
#define MADV_FAULTAROUND		1026
#define MADV_FAULTAROUND_SHIFT		12
#define MADV_FAULTAROUND_MASK		0x7f
#define MADV_FAULTAROUND_ORDER(order)	\
	(MADV_FAULTAROUND | ((order) << MADV_FAULTAROUND_SHIFT))
#define MADV_FAULTAROUND_AUTO		MADV_FAULTAROUND_ORDER(126)
#define MADV_FAULTAROUND_UNSET		MADV_FAULTAROUND_ORDER(127)
#define FA_TEST_SERIES_MMAN		6
#endif
