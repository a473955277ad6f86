/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the libfaultaround tests. */
#ifndef FA_TEST_H
#define FA_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "faultaround.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
/* Children of the harness _exit(), so ask LSan explicitly. */
#define FA_LEAK_CHECK() ASSERT_EQ(0, __lsan_do_recoverable_leak_check())
#else
#define FA_LEAK_CHECK() do { } while (0)
#endif

/* A memfd of @pages pages filled with data, all in the page cache. */
static inline int fa_test_file(size_t pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), i;
	char *buf;
	int fd = memfd_create("fa_test", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	buf = calloc(1, page);
	if (!buf) {
		close(fd);
		return -1;
	}
	for (i = 0; i < pages; i++) {
		memset(buf, (int)(i & 0xff) | 1, page);
		if (pwrite(fd, buf, page, (off_t)(i * page)) != (ssize_t)page) {
			free(buf);
			close(fd);
			return -1;
		}
	}
	free(buf);
	return fd;
}

/* Map @len bytes of @fd read-only at an address aligned to @align bytes. */
static inline void *fa_test_map_aligned(int fd, size_t len, size_t align)
{
	char *res, *want;
	size_t slack = align + len;

	res = mmap(NULL, slack, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		return MAP_FAILED;
	want = (char *)(((uintptr_t)res + align - 1) & ~(uintptr_t)(align - 1));
	if (mmap(want, len, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
		munmap(res, slack);
		return MAP_FAILED;
	}
	if (want > res)
		munmap(res, (size_t)(want - res));
	if (res + slack > want + len)
		munmap(want + len, (size_t)(res + slack - (want + len)));
	return want;
}

/* Pages of [addr, addr + pages * page) present in the page table
 * (/proc/self/pagemap bit 63), or -1. */
static inline long fa_test_present(const void *addr, size_t pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), i;
	uint64_t ent;
	long n = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	for (i = 0; i < pages; i++) {
		off_t off = (off_t)(((uintptr_t)addr / page + i) * sizeof(ent));

		if (pread(fd, &ent, sizeof(ent), off) != sizeof(ent)) {
			close(fd);
			return -1;
		}
		n += (ent >> 63) & 1;
	}
	close(fd);
	return n;
}

static inline void fa_test_touch(const void *addr)
{
	(void)*(volatile const char *)addr;
}

#endif
