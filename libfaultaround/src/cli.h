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

/* cli_check.c: each prints what is wrong and returns -1, or returns 0.
 * SIZE of option what; -o's ORDER; with the feature, whether the kernel
 * takes size's order; RULES (or, is_file, the rules file s) and, with the
 * feature, each rule's order. */
struct faultaround_size;
int cli_parse_size(const char *what, const char *s, struct faultaround_size *size);
int cli_parse_order(const char *s, struct faultaround_size *size);
int cli_check_order(const char *what, const struct faultaround_size *size);
int cli_check_rules(const char *what, const char *s, int is_file, int supported);

/* --show [PID] and --info; return the exit status. */
int cli_show(const char *pidarg);
int cli_info(void);

#endif
