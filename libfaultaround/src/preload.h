/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by the preload shim's files: preload.c (the entry points),
 * preload_objects.c (the loaded objects) and preload_log.c (the log). */
#ifndef FA_PRELOAD_H
#define FA_PRELOAD_H

#include <stdbool.h>
#include <stddef.h>

#define PFX "libfaultaround-preload: "

extern int fa_debug;		/* FAULTAROUND_DEBUG: log every decision */

/* Where the log goes: a copy of stderr as the program started with it, or
 * nowhere (preload_log.c).  Called once, at load, when fa_debug is set. */
void fa_log_open(void);
void fa_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Give [addr, addr + len), a mapping of path, the first matching rule. */
void fa_apply(void *addr, size_t len, const char *path, const char *why);

/*
 * Apply the rules to the objects loaded since the last call, once each.
 * Never blocks: when another thread is at it, that thread does this call's
 * work too; returns false then (and in a forked child that inherited a
 * busy scan), true when the shim's view is up to date.
 */
bool fa_objects_sync(void);
/* Whether glibc resolves dlopen(file) called from caller to the same files,
 * in the same namespace, when the shim calls it instead. */
bool fa_dlopen_caller_neutral(const char *file, const void *caller);

#endif
