/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal helpers shared by the library, the preload shim and the CLI. */
#ifndef FA_INTERNAL_H
#define FA_INTERNAL_H

#include <stddef.h>
#include <sys/types.h>

#define FA_SYSFS_DIR		"/sys/kernel/mm/faultaround"
#define FA_LINE_MAX		8192

/* A malloc-free line reader over a file descriptor (for /proc files).
 * Lines longer than FA_LINE_MAX - 1 are truncated. */
struct fa_lines {
	int fd;
	size_t len, pos;
	int eof;
	char buf[FA_LINE_MAX];
	char line[FA_LINE_MAX];
};
int fa_lines_open(struct fa_lines *lr, const char *path);
/* Returns a NUL-terminated line without '\n', NULL at EOF or error. */
char *fa_lines_next(struct fa_lines *lr);
void fa_lines_close(struct fa_lines *lr);

/* Parse a /proc/PID/maps or smaps header line.  Returns 0 and fills the
 * fields (path points into line, "" if none), -1 if line is not a header. */
int fa_parse_maps_line(char *line, unsigned long *start, unsigned long *end,
		       char perms[5], const char **path);

/* Read a small sysfs/proc file into buf (NUL-terminated, trailing newline
 * stripped).  -1/errno on failure. */
int fa_read_file(const char *path, char *buf, size_t size);

/* "4K", "64K", "2M", or plain bytes if not a multiple of 1K. */
void fa_format_bytes(unsigned long long bytes, char *buf, size_t size);

/* Rule i's size (and its pattern in *glob if glob is not NULL), NULL past
 * the last rule.  Not exported: the CLI checks every rule's order. */
struct faultaround_rules;
struct faultaround_size;
const struct faultaround_size *fa_rules_size(const struct faultaround_rules *rules,
					     size_t i, const char **glob);

#endif
