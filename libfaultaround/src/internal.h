/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal helpers shared by the library, the preload shim and the CLI. */
#ifndef FA_INTERNAL_H
#define FA_INTERNAL_H

#include <stddef.h>
#include <sys/types.h>

#define FA_SYSFS_DIR		"/sys/kernel/mm/faultaround"
#define FA_LINE_MAX		8192

/*
 * The kernel interface, in one place.  Test builds (FA_FAKE_KERNEL) route it
 * to the stand-in in test/fake_kernel.c, which FAULTAROUND_TEST_SYSFS turns
 * on; the installed library and shim call the kernel directly and contain
 * no trace of it.
 */
#ifdef FA_FAKE_KERNEL
const char *fa_kernel_sysfs_dir(void);
int fa_kernel_madvise(void *addr, size_t len, int advice);
int fa_kernel_prctl(int option, unsigned long arg);
/* The hint smaps would show for the VMA [start, end) of path. */
int fa_kernel_vma_order(unsigned long start, unsigned long end,
			const char *path);
#else
#define fa_kernel_sysfs_dir()		FA_SYSFS_DIR
#define fa_kernel_madvise(addr, len, advice)	madvise((addr), (len), (advice))
#define fa_kernel_prctl(option, arg)	prctl((option), (arg), 0, 0, 0)
#define fa_kernel_vma_order(start, end, path)	FAULTAROUND_UNSET
#endif

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

/* @s with each ASCII control character written as \xNN, so that a value
 * echoed in a message cannot drive the terminal; truncated to fit @size.
 * Returns buf. */
const char *fa_quote(const char *s, char *buf, size_t size);

/* Why faultaround_supported() says no: LIBFAULTAROUND_DISABLE or the
 * kernel.  For messages; NULL while the feature is there. */
const char *fa_unsupported_reason(void);

/* Rule i's size (and its pattern in *glob if glob is not NULL), NULL past
 * the last rule.  Not exported: the CLI checks every rule's order. */
struct faultaround_rules;
struct faultaround_size;
const struct faultaround_size *fa_rules_size(const struct faultaround_rules *rules,
					     size_t i, const char **glob);

#endif
