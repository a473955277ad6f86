/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared bits of the examples: a cached file and page-table inspection. */
#ifndef EXAMPLE_H
#define EXAMPLE_H

/* memfd_create() and MFD_CLOEXEC are GNU: an example builds with a bare cc
 * when this header comes before any system header, which it must. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <faultaround.h>

static inline int example_supported(void)
{
	const char *dis = getenv("LIBFAULTAROUND_DISABLE");

	if (faultaround_supported())
		return 1;
	/* The library's test switch (see faultaround_supported(3)). */
	if (dis && *dis && strcmp(dis, "0"))
		printf("fault-around hints disabled by LIBFAULTAROUND_DISABLE; nothing to show\n");
	else
		printf("kernel lacks fault-around hints (%s); nothing to show\n",
		       "no /sys/kernel/mm/faultaround");
	return 0;
}

/* A file of @pages pages, written so that all of them are in the page cache. */
static inline int example_file(size_t pages)
{
	size_t page = faultaround_page_size(), i;
	char *buf = malloc(page);
	int fd = memfd_create("faultaround-example", MFD_CLOEXEC);

	if (fd < 0 || !buf) {
		perror("memfd_create");
		exit(1);
	}
	for (i = 0; i < pages; i++) {
		memset(buf, 'a' + (int)(i % 26), page);
		if (pwrite(fd, buf, page, (off_t)(i * page)) != (ssize_t)page) {
			perror("pwrite");
			exit(1);
		}
	}
	free(buf);
	return fd;
}

/* Map @len bytes of @fd read-only at an address aligned to @align. */
static inline char *example_map(int fd, size_t len, size_t align)
{
	char *res = mmap(NULL, len + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *want;

	if (res == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	want = (char *)(((uintptr_t)res + align - 1) & ~(uintptr_t)(align - 1));
	if (mmap(want, len, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	if (want > res)
		munmap(res, (size_t)(want - res));
	munmap(want + len, (size_t)(res + align - want));
	return want;
}

/* Read one byte at @addr, so that its page is faulted in; the volatile
 * access cannot be optimised away. */
static inline void example_touch(const char *addr)
{
	(void)*(const volatile char *)addr;
}

/* How many of @pages pages at @addr have a page-table entry. */
static inline long example_present(const void *addr, size_t pages)
{
	size_t page = faultaround_page_size(), i;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	uint64_t e;
	long n = 0;

	if (fd < 0)
		return -1;
	for (i = 0; i < pages; i++) {
		if (pread(fd, &e, sizeof(e),
			  (off_t)(((uintptr_t)addr / page + i) * sizeof(e))) != sizeof(e))
			break;
		n += (long)(e >> 63);
	}
	close(fd);
	return n;
}

#endif
