// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfaultaround core: probing, madvise/prctl wrappers, sysfs and smaps.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "faultaround.h"
#include "internal.h"

static pthread_once_t fa_probe_once = PTHREAD_ONCE_INIT;
static int fa_max;		/* max order, or -1 when unsupported */
static int fa_disabled;		/* unsupported because of LIBFAULTAROUND_DISABLE */
static size_t fa_page;

/* Read one file of the sysfs directory (see fa_read_file()). */
static int fa_sysfs_read(const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", fa_kernel_sysfs_dir(), name);
	return fa_read_file(path, buf, size);
}

static int parse_uint(const char *s, unsigned long long *val)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*val = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	return 0;
}

/*
 * Supported iff the sysfs directory reports a max order and prctl answers
 * PR_GET_FAULTAROUND with a plausible value.  The sysfs check comes first
 * so that we never issue the prctl on kernels without the series, where its
 * provisional number could one day mean something else.
 * LIBFAULTAROUND_DISABLE=1 forces "unsupported" (for tests of the ENOTSUP
 * path on a patched kernel).
 */
static void fa_probe(void)
{
	int saved = errno;
	const char *dis = secure_getenv("LIBFAULTAROUND_DISABLE");
	unsigned long long max;
	char buf[64];
	long r;

	fa_max = -1;
	fa_page = (size_t)sysconf(_SC_PAGESIZE);
	if (dis && *dis && strcmp(dis, "0")) {
		fa_disabled = 1;
		goto out;
	}
	if (fa_sysfs_read("max_order", buf, sizeof(buf)) < 0 ||
	    parse_uint(buf, &max) < 0 || max > FAULTAROUND_ORDER_LIMIT)
		goto out;
	r = fa_kernel_prctl(PR_GET_FAULTAROUND, 0);
	if (r < 0 || ((unsigned long)r > max && r != PR_FAULTAROUND_UNSET &&
		      r != PR_FAULTAROUND_AUTO))
		goto out;
	fa_max = (int)max;
out:
	errno = saved;
}

static int fa_check(void)
{
	pthread_once(&fa_probe_once, fa_probe);
	if (fa_max < 0) {
		errno = ENOTSUP;
		return -1;
	}
	return 0;
}

int faultaround_supported(void)
{
	pthread_once(&fa_probe_once, fa_probe);
	return fa_max >= 0;
}

const char *fa_unsupported_reason(void)
{
	if (faultaround_supported())
		return NULL;
	return fa_disabled ? "fault-around hints disabled by LIBFAULTAROUND_DISABLE" :
			     "kernel lacks fault-around hints";
}

size_t faultaround_page_size(void)
{
	pthread_once(&fa_probe_once, fa_probe);
	return fa_page;
}

int faultaround_max_order(void)
{
	if (fa_check() < 0)
		return -1;
	return fa_max;
}

int faultaround_bytes_to_order(size_t bytes, size_t page_size, int max_order)
{
	size_t pages;
	int order = 0;

	if (!page_size || (page_size & (page_size - 1)) || max_order < 0) {
		errno = EINVAL;
		return -1;
	}
	pages = bytes / page_size;
	while (pages > 1 && order < max_order) {
		pages >>= 1;
		order++;
	}
	return order;
}

/*
 * Any order the ABI can carry is valid: the kernel stores one above the
 * running MMU's maximum as that maximum, so a request made on one machine
 * works on every other.
 */
static int order_valid(int order)
{
	return order == FAULTAROUND_UNSET || order == FAULTAROUND_AUTO ||
	       (order >= 0 && order <= FAULTAROUND_ORDER_LIMIT);
}

/*
 * madvise(2)'s own EINVAL, checked before the probe like the other argument
 * errors: len rounded up to a page, or the end of the range, wraps past the
 * top of the address space.
 */
static int range_wraps(const void *addr, size_t len)
{
	size_t mask = faultaround_page_size() - 1;

	return len > SIZE_MAX - mask ||
	       ((len + mask) & ~mask) > UINTPTR_MAX - (uintptr_t)addr;
}

int faultaround_set(void *addr, size_t len, int order)
{
	int advice;

	if (!order_valid(order) || range_wraps(addr, len) ||
	    ((uintptr_t)addr & (faultaround_page_size() - 1))) {
		errno = EINVAL;
		return -1;
	}
	if (fa_check() < 0)
		return -1;
	if (order == FAULTAROUND_UNSET)
		advice = MADV_FAULTAROUND_UNSET;
	else if (order == FAULTAROUND_AUTO)
		advice = MADV_FAULTAROUND_AUTO;
	else
		advice = MADV_FAULTAROUND_ORDER(order);
	return fa_kernel_madvise(addr, len, advice);
}

int faultaround_set_bytes(void *addr, size_t len, size_t bytes)
{
	if (((uintptr_t)addr & (faultaround_page_size() - 1)) ||
	    range_wraps(addr, len)) {
		errno = EINVAL;
		return -1;
	}
	if (fa_check() < 0)
		return -1;
	return faultaround_set(addr, len,
			       faultaround_bytes_to_order(bytes, fa_page, fa_max));
}

int faultaround_set_default(int order)
{
	if (!order_valid(order)) {
		errno = EINVAL;
		return -1;
	}
	if (fa_check() < 0)
		return -1;
	return fa_kernel_prctl(PR_SET_FAULTAROUND, (unsigned long)order) < 0 ? -1 : 0;
}

int faultaround_set_default_bytes(size_t bytes)
{
	if (fa_check() < 0)
		return -1;
	return faultaround_set_default(faultaround_bytes_to_order(bytes, fa_page,
								  fa_max));
}

int faultaround_get_default(void)
{
	long r;

	if (fa_check() < 0)
		return -1;
	r = fa_kernel_prctl(PR_GET_FAULTAROUND, 0);
	if (r < 0)
		return -1;
	return (int)r;
}

int faultaround_get_default_bytes(size_t *bytes)
{
	int order;

	if (!bytes) {
		errno = EINVAL;
		return -1;
	}
	order = faultaround_get_default();
	if (order < 0)
		return -1;
	if (order == FAULTAROUND_UNSET)
		*bytes = 0;
	else if (order == FAULTAROUND_AUTO)
		*bytes = FAULTAROUND_AUTO_BYTES;
	else
		*bytes = fa_page << order;
	return 0;
}

int faultaround_get_system_default_bytes(size_t *bytes)
{
	unsigned long long val;
	char buf[64];

	if (!bytes) {
		errno = EINVAL;
		return -1;
	}
	if (fa_check() < 0)
		return -1;
	if (fa_sysfs_read("default_bytes", buf, sizeof(buf)) < 0)
		return -1;
	if (!strcmp(buf, "auto")) {
		*bytes = FAULTAROUND_AUTO_BYTES;
		return 0;
	}
	if (parse_uint(buf, &val) < 0 || val > SIZE_MAX) {
		errno = EIO;
		return -1;
	}
	*bytes = (size_t)val;
	return 0;
}

int faultaround_set_system_default_bytes(size_t bytes)
{
	char path[PATH_MAX];
	FILE *f;
	int ret = 0, saved;

	if (fa_check() < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/default_bytes", fa_kernel_sysfs_dir());
	f = fopen(path, "we");
	if (!f)
		return -1;
	setvbuf(f, NULL, _IONBF, 0);
	if (bytes == FAULTAROUND_AUTO_BYTES ? fputs("auto\n", f) < 0 :
	    fprintf(f, "%zu\n", bytes) < 0)
		ret = -1;
	saved = errno;
	if (fclose(f) != 0 && !ret)
		ret = -1;
	else
		errno = saved;
	return ret;
}

/* --- smaps ------------------------------------------------------------ */

struct vma_state {
	struct faultaround_vma vma;
	int have;
	char path[FA_LINE_MAX];
};

int faultaround_for_each_vma(pid_t pid,
			     int (*cb)(const struct faultaround_vma *vma, void *arg),
			     void *arg)
{
	static const char key[] = "FaultAroundOrder:";
	struct fa_lines *lr;
	struct vma_state *st;
	char file[64];
	char *line;
	int ret = 0, saved;

	if (pid < 0 || !cb) {
		errno = EINVAL;
		return -1;
	}
	if (fa_check() < 0)
		return -1;
	if (pid)
		snprintf(file, sizeof(file), "/proc/%d/smaps", (int)pid);
	else
		snprintf(file, sizeof(file), "/proc/self/smaps");
	lr = malloc(sizeof(*lr));
	st = malloc(sizeof(*st));
	if (!lr || !st) {
		free(lr);
		free(st);
		errno = ENOMEM;
		return -1;
	}
	st->have = 0;
	if (fa_lines_open(lr, file) < 0) {
		ret = -1;
		goto out;
	}
	errno = 0;
	while ((line = fa_lines_next(lr))) {
		unsigned long start, end;
		const char *path;
		char perms[5];

		if (!strncmp(line, key, sizeof(key) - 1)) {
			unsigned long long v;
			char *p = line + sizeof(key) - 1;

			while (*p == ' ' || *p == '\t')
				p++;
			if (st->have && !strncmp(p, "auto", 4))
				st->vma.order = FAULTAROUND_AUTO;
			else if (st->have && !parse_uint(p, &v) &&
				 v <= FAULTAROUND_ORDER_LIMIT)
				st->vma.order = (int)v;
			continue;
		}
		if (fa_parse_maps_line(line, &start, &end, perms, &path) < 0)
			continue;
		if (st->have && (ret = cb(&st->vma, arg)))
			goto out_close;
		st->vma.start = start;
		st->vma.end = end;
		memcpy(st->vma.perms, perms, sizeof(perms));
		snprintf(st->path, sizeof(st->path), "%s", path);
		st->vma.path = st->path;
		st->vma.order = fa_kernel_vma_order(start, end, path);
		st->have = 1;
		errno = 0;
	}
	if (errno) {
		ret = -1;
		goto out_close;
	}
	if (st->have)
		ret = cb(&st->vma, arg);
out_close:
	fa_lines_close(lr);
out:
	saved = errno;
	free(lr);
	free(st);
	errno = saved;
	return ret;
}

struct get_arg {
	uintptr_t addr;
	int order;
};

static int get_cb(const struct faultaround_vma *vma, void *arg)
{
	struct get_arg *ga = arg;

	if (ga->addr >= vma->start && ga->addr < vma->end) {
		ga->order = vma->order;
		return 1;
	}
	return 0;
}

int faultaround_get(const void *addr, int *order)
{
	struct get_arg ga = { (uintptr_t)addr, FAULTAROUND_UNSET };
	int r;

	if (!order) {
		errno = EINVAL;
		return -1;
	}
	r = faultaround_for_each_vma(0, get_cb, &ga);
	if (r < 0)
		return -1;
	if (r == 0) {
		errno = ENOMEM;
		return -1;
	}
	*order = ga.order;
	return 0;
}
