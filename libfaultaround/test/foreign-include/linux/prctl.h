/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_headers: <linux/prctl.h> of a kernel whose fault-around numbers are
 * not ours.  The values mean nothing; they differ from the project's so that
 * the test sees whose definitions a program ends up with.  The definitions
 * are the series' in name and form.
 */
#ifndef FA_TEST_FOREIGN_PRCTL_H
#define FA_TEST_FOREIGN_PRCTL_H
#include_next <linux/prctl.h>
#define PR_SET_FAULTAROUND		1074
#define PR_GET_FAULTAROUND		1075
#define PR_FAULTAROUND_AUTO		126
#define PR_FAULTAROUND_UNSET		127
#define FA_TEST_SERIES_PRCTL		4
#endif
