/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* faultaround(1): what its files share. */
#ifndef FA_CLI_H
#define FA_CLI_H

/* Exit status when faultaround itself fails (usage, a malformed value, the
 * kernel refusing a setting, shim not found), like env, nice and timeout;
 * 126 and 127 are left to "cannot execute" and "not found". */
#define CLI_EXIT_FAILURE	125

extern const char *cli_prog;

/* Prints "PROG: " fmt (with arg) and a pointer to --help on stderr;
 * returns CLI_EXIT_FAILURE. */
int cli_usage_error(const char *fmt, const char *arg);

/* --show [PID] and --info; return the exit status. */
int cli_show(const char *pidarg);
int cli_info(void);

#endif
