// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A stand-in for the kernel's fault-around interface, so that the host's
 * tests run the shim's real paths (rules, dlopen, fork) on a kernel without
 * the feature.  Linked only into the test builds of the library and the
 * shim (O/test/fake/, built with FA_FAKE_KERNEL; see internal.h), never into
 * the installed ones.
 *
 * FAULTAROUND_TEST_SYSFS=DIR turns it on:
 *  - the library reads DIR/max_order and DIR/default_bytes instead of
 *    /sys/kernel/mm/faultaround (the test writes them);
 *  - madvise(MADV_FAULTAROUND...) and prctl(PR_{SET,GET}_FAULTAROUND) do not
 *    reach the kernel: they are checked as the kernel checks them (one
 *    value for both: orders 0 to 253, an order above DIR/max_order stored
 *    as that maximum, the self-sizing window 254, unset 255; an unaligned
 *    start, a length that wraps or bits above the madvise field are
 *    EINVAL, a range with a hole ENOMEM) and appended to DIR/calls, one
 *    line per call that succeeded:
 *        PID IMAGE madvise START END ORDER PATH
 *        PID IMAGE prctl ORDER
 *    IMAGE tells apart the images one PID runs across execve(), PATH is
 *    what /proc/self/maps names the mapping at START;
 *  - queries answer from that log: the hint of a VMA is that of the last
 *    madvise of this process image that overlapped it while the same file
 *    was mapped there, the process default that of the last prctl of this
 *    PID (kept across execve()).
 * Without the variable every call goes to the kernel.
 *
 * Unlike the kernel, hints are not copied to a forked child, do not split
 * VMAs, and outlive munmap() (a file mapped again at the same place
 * without a hint shows the old one): tests ask only about mappings they
 * made in the process that asks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "faultaround.h"
#include "internal.h"

static const char *fake_dir(void)
{
	const char *d = secure_getenv("FAULTAROUND_TEST_SYSFS");

	return d && *d ? d : NULL;
}

const char *fa_kernel_sysfs_dir(void)
{
	const char *d = fake_dir();

	return d ? d : FA_SYSFS_DIR;
}

/* The 16 random bytes the kernel gives each new image (AT_RANDOM). */
static unsigned long long fake_image(void)
{
	const void *r = (const void *)getauxval(AT_RANDOM);
	unsigned long long v = 0;

	if (r)
		memcpy(&v, r, sizeof(v));
	return v;
}

static int fake_max_order(void)
{
	char path[4096], buf[32];

	snprintf(path, sizeof(path), "%s/max_order", fake_dir());
	if (fa_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return atoi(buf);
}

/*
 * Whether [addr, addr + len) is mapped without a hole, as madvise() asks,
 * and what /proc/self/maps names the mapping at addr ("" if none).  The
 * maps file, not msync(), tells: valgrind rightly flags a system call on
 * unmapped memory.  The line buffer is on the stack: a thread forked away
 * in the middle of a malloc()ed one would leave it lost in the child.
 */
static int fake_mapped(unsigned long addr, unsigned long len, char *path_buf,
		       size_t size)
{
	struct fa_lines lr;
	unsigned long want = addr, last = addr + len;
	char *line;

	path_buf[0] = '\0';
	if (fa_lines_open(&lr, "/proc/self/maps") < 0)
		return -1;
	while (want < last && (line = fa_lines_next(&lr))) {
		unsigned long start, end;
		const char *path;
		char perms[5];

		if (fa_parse_maps_line(line, &start, &end, perms, &path) < 0 ||
		    end <= want)
			continue;
		if (start > want)
			break;
		if (want == addr)
			snprintf(path_buf, size, "%s", path);
		want = end;
	}
	fa_lines_close(&lr);
	return want >= last ? 0 : -1;
}

/* Append one line to DIR/calls; a single write() of an O_APPEND file. */
static int fake_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fake_log(const char *fmt, ...)
{
	char path[4096], line[4400];
	va_list ap;
	int fd, n, m;

	n = snprintf(line, sizeof(line), "%d %llx ", (int)getpid(), fake_image());
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/calls", fake_dir());
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, line, (size_t)(n + m)) != n + m) {
		close(fd);
		errno = EIO;
		return -1;
	}
	return close(fd);
}

/*
 * A value as the kernel takes it, from prctl() or from the madvise field
 * (the same value: field 254, MADV_FAULTAROUND_AUTO, is PR_FAULTAROUND_AUTO
 * and field 255, MADV_FAULTAROUND_UNSET, PR_FAULTAROUND_UNSET): 0 to 253
 * clamped to the maximum, the self-sizing window, unset; -1 for anything
 * else.
 */
static int fake_order(unsigned long order)
{
	int max = fake_max_order();

	if (order == PR_FAULTAROUND_UNSET)
		return FAULTAROUND_UNSET;
	if (order == PR_FAULTAROUND_AUTO)
		return FAULTAROUND_AUTO;
	if (max < 0 || order > FAULTAROUND_ORDER_LIMIT)
		return -1;
	return order > (unsigned long)max ? max : (int)order;
}

int fa_kernel_madvise(void *addr, size_t len, int advice)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char path[4096];
	unsigned int field = ((unsigned int)advice >> MADV_FAULTAROUND_SHIFT);
	int saved = errno, order;

	if (!fake_dir() || (advice & 0xff) != MADV_FAULTAROUND)
		return madvise(addr, len, advice);
	/* Bits above the field (a negative advice among them) are EINVAL. */
	order = field > MADV_FAULTAROUND_MASK ? -1 : fake_order(field);
	if (order == -1 ||
	    ((uintptr_t)addr & (page - 1))) {
		errno = EINVAL;
		return -1;
	}
	/* A length that wraps is EINVAL, like madvise(). */
	if (len > SIZE_MAX - (page - 1) ||
	    (uintptr_t)addr > UINTPTR_MAX - ((len + page - 1) & ~(page - 1))) {
		errno = EINVAL;
		return -1;
	}
	len = (len + page - 1) & ~(page - 1);
	if (!len)
		return 0;
	/* ENOMEM for a range with a hole, like madvise(); changes nothing. */
	if (fake_mapped((unsigned long)addr, len, path, sizeof(path)) < 0) {
		errno = ENOMEM;
		return -1;
	}
	if (fake_log("madvise %lx %lx %d %s\n", (unsigned long)addr,
		     (unsigned long)addr + len, order, path) < 0)
		return -1;
	errno = saved;
	return 0;
}

/*
 * Last record of this process matching the request: the order of the last
 * prctl (path NULL), or of the last madvise of this image that overlapped
 * [start, end) of path.
 */
static int fake_lookup(unsigned long start, unsigned long end, const char *path)
{
	unsigned long long image = fake_image();
	struct fa_lines lr;	/* on the stack: see fake_mapped() */
	char file[4096], *line;
	int pid = (int)getpid(), order = FAULTAROUND_UNSET;

	snprintf(file, sizeof(file), "%s/calls", fake_dir());
	if (fa_lines_open(&lr, file) < 0)
		return order;
	while ((line = fa_lines_next(&lr))) {
		unsigned long long img;
		unsigned long s, e;
		int p, o, n = 0;

		if (!path) {
			if (sscanf(line, "%d %llx prctl %d", &p, &img, &o) == 3 &&
			    p == pid)
				order = o;
		} else if (sscanf(line, "%d %llx madvise %lx %lx %d %n", &p, &img,
				  &s, &e, &o, &n) == 5 && n && p == pid &&
			   img == image && s < end && e > start &&
			   !strcmp(line + n, path)) {
			order = o;
		}
	}
	fa_lines_close(&lr);
	return order;
}

int fa_kernel_vma_order(unsigned long start, unsigned long end,
			const char *path)
{
	return fake_dir() ? fake_lookup(start, end, path) : FAULTAROUND_UNSET;
}

int fa_kernel_prctl(int option, unsigned long arg)
{
	int order;

	if (!fake_dir())
		return prctl(option, arg, 0, 0, 0);
	if (option == PR_GET_FAULTAROUND)
		return fake_lookup(0, 0, NULL);
	if (option != PR_SET_FAULTAROUND)
		return prctl(option, arg, 0, 0, 0);
	order = fake_order(arg);
	if (order == -1) {
		errno = EINVAL;
		return -1;
	}
	return fake_log("prctl %d\n", order);
}
