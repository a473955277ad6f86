/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libfaultaround: per-VMA and per-process fault-around hints.
 *
 * All calls that can fail return -1 and set errno, like libc.  On a kernel
 * without the feature every call that needs it fails with ENOTSUP; the
 * decision is taken once per process by a thread-safe probe.  Arguments that
 * are wrong whatever the kernel (NULL pointers, negative orders, unaligned
 * addresses) fail with EINVAL before the probe is consulted.
 *
 * See faultaround(7) and the per-call manual pages.
 */
#ifndef _FAULTAROUND_H
#define _FAULTAROUND_H

#include <stddef.h>
#include <sys/types.h>
/*
 * The system's definitions first: when the kernel headers carry the series,
 * theirs are the ones in force whatever the program includes next, and
 * <faultaround/uapi.h> (installed from the project's
 * include/uapi/linux/faultaround.h) only fills in what they lack.
 */
#include <sys/mman.h>		/* madvise() */
#include <sys/prctl.h>		/* prctl(), <linux/prctl.h>: PR_ numbers */
#include <linux/mman.h>		/* <asm-generic/mman-common.h>: MADV_ numbers */
#include <faultaround/uapi.h>	/* the kernel ABI for headers that lack it */

#ifdef __cplusplus
extern "C" {
#endif

/* The version of these headers.  FAULTAROUND_CHECK_VERSION(major, minor)
 * is true when they are major.minor or later, so that a program can use a
 * call only where its declaration is there (unlike liburing's
 * IO_URING_CHECK_VERSION, which is true when the headers are older).
 * The library a program runs with says its own version: see
 * faultaround_check_version() below. */
#define FAULTAROUND_VERSION_MAJOR	1
#define FAULTAROUND_VERSION_MINOR	1
#define LIBFAULTAROUND_VERSION		"1.1.0"
#define FAULTAROUND_CHECK_VERSION(major, minor)				\
	(FAULTAROUND_VERSION_MAJOR > (major) ||				\
	 (FAULTAROUND_VERSION_MAJOR == (major) &&			\
	  FAULTAROUND_VERSION_MINOR >= (minor)))

/* Order meaning "no hint": faultaround_set() clears the VMA hint,
 * faultaround_set_default() clears the process default, and the get calls
 * report it when nothing is set. */
#define FAULTAROUND_UNSET		PR_FAULTAROUND_UNSET

/* Order meaning "let the kernel size the window" (the self-sizing window:
 * each mapping sizes its window from its own faults): accepted by
 * faultaround_set() and faultaround_set_default(), and reported by the get
 * calls. */
#define FAULTAROUND_AUTO		PR_FAULTAROUND_AUTO
/* What faultaround_get_default_bytes() and
 * faultaround_get_system_default_bytes() report for the self-sizing window,
 * and what faultaround_set_system_default_bytes() takes to make it the
 * system default (it is not the system default from boot). */
#define FAULTAROUND_AUTO_BYTES		((size_t)-1)

/* Largest order the ABI carries (253: madvise and prctl take one 8-bit
 * value, whose two highest, 254 and 255, are FAULTAROUND_AUTO and
 * FAULTAROUND_UNSET).  Any order up to it is accepted; the kernel stores
 * one above faultaround_max_order(), the running MMU's limit, as that
 * limit, and faultaround_get() and faultaround_get_default() report the
 * order in effect. */
#define FAULTAROUND_ORDER_LIMIT		(MADV_FAULTAROUND_MASK - 2)

/* --- version of the library running (since 1.1) ------------------------ */
int faultaround_major_version(void);
int faultaround_minor_version(void);
/* 1 when the library running is major.minor or later, else 0. */
int faultaround_check_version(int major, int minor);

/* --- probing --------------------------------------------------------- */
int faultaround_supported(void);		/* 1 or 0, never fails */
size_t faultaround_page_size(void);		/* never fails */
int faultaround_max_order(void);		/* order, or -1 (ENOTSUP) */

/* Pure helper, no kernel needed: the order of the largest power-of-two
 * window of pages that fits in @bytes, i.e. floor(log2(bytes / page_size)),
 * 0 when bytes < page_size (including 0), clamped to @max_order.
 * -1/EINVAL if page_size is not a power of two or max_order is negative. */
int faultaround_bytes_to_order(size_t bytes, size_t page_size, int max_order);

/* --- per-VMA hints (madvise) --------------------------------------------- */
int faultaround_set(void *addr, size_t len, int order);
int faultaround_set_bytes(void *addr, size_t len, size_t bytes);
/* Stores the hint of the VMA containing addr, or FAULTAROUND_UNSET when that
 * VMA has none; -1/ENOMEM when addr is not mapped. */
int faultaround_get(const void *addr, int *order);

/* --- process default (prctl; inherited by fork, kept across execve) ---- */
int faultaround_set_default(int order);
int faultaround_set_default_bytes(size_t bytes);
/* Returns the order, FAULTAROUND_AUTO, FAULTAROUND_UNSET, or -1 on error. */
int faultaround_get_default(void);
/* Stores the window in bytes, or 0 when no process default is set. */
int faultaround_get_default_bytes(size_t *bytes);

/* --- system default (sysfs default_bytes) ------------------------------- */
int faultaround_get_system_default_bytes(size_t *bytes);
int faultaround_set_system_default_bytes(size_t bytes);	/* needs root */

/* --- walking the hints of a process (/proc/PID/smaps) ------------------ */
struct faultaround_vma {
	unsigned long start, end;	/* [start, end) */
	char perms[5];			/* "r-xp" */
	const char *path;		/* "" for anonymous mappings */
	int order;			/* hint, or FAULTAROUND_UNSET */
};
/* Calls cb for every VMA of pid (0: the calling process), hinted or not,
 * in address order.  A non-zero return from cb stops the walk and is
 * returned.  -1/errno on failure to read smaps. */
int faultaround_for_each_vma(pid_t pid,
			     int (*cb)(const struct faultaround_vma *vma, void *arg),
			     void *arg);

/* --- SIZE and RULES strings (shared by the preload shim and the CLI) ---- */
enum faultaround_size_kind {
	FAULTAROUND_SIZE_BYTES,		/* "0", "65536", "64K", "1M", "2G" */
	FAULTAROUND_SIZE_ORDER,		/* "order:N" */
	FAULTAROUND_SIZE_UNSET,		/* "unset" */
	FAULTAROUND_SIZE_AUTO,		/* "auto": the self-sizing window */
};
struct faultaround_size {
	enum faultaround_size_kind kind;
	unsigned long long value;	/* bytes, or order */
};
/* 0 on success; -1/EINVAL (or ERANGE on overflow) and a message in err. */
int faultaround_parse_size(const char *s, struct faultaround_size *size,
			   char *err, size_t errlen);
/* Order for a parsed size on the running kernel (page size, max order);
 * "unset" gives FAULTAROUND_UNSET, "auto" FAULTAROUND_AUTO.  order:N is returned as N; the kernel
 * clamps N above the maximum when it is applied.  Bytes need the kernel
 * (ENOTSUP). */
int faultaround_size_to_order(const struct faultaround_size *size);

struct faultaround_rules;
/* "GLOB=SIZE;GLOB=SIZE..." -> rules, or NULL/errno with a message in err. */
struct faultaround_rules *faultaround_rules_parse(const char *s, char *err,
						  size_t errlen);
/* The rules of a file, one or more a line in the syntax above; blank lines
 * and lines starting with '#' are skipped.  NULL/errno (EINVAL with
 * "PATH:LINE: ..." in err for a bad line, or what open/read said) on
 * failure.  Since 1.1. */
struct faultaround_rules *faultaround_rules_parse_file(const char *path,
						       char *err, size_t errlen);
/* First matching rule wins; NULL when none matches.  Does not allocate. */
const struct faultaround_size *
faultaround_rules_match(const struct faultaround_rules *rules, const char *path);
size_t faultaround_rules_count(const struct faultaround_rules *rules);
void faultaround_rules_free(struct faultaround_rules *rules);

#ifdef __cplusplus
}
#endif

#endif /* _FAULTAROUND_H */
