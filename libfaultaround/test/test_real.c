// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Real effects on a patched kernel; every test SKIPs when the kernel lacks
 * the feature.  Effects are observed in the page table (/proc/self/pagemap
 * present bit) after one read fault on a memfd whose pages are all in the
 * page cache, mapped at an address aligned to the largest window.
 */
#include <limits.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "fa_test.h"
#include "kselftest_harness.h"

#ifndef __NR_mseal
#define __NR_mseal 462
#endif

static char *self_exe;

FIXTURE(real)
{
	size_t psize;
	int max;
	size_t window;		/* 2^max pages */
	size_t pages;		/* file size in pages */
	int fd;
};

FIXTURE_SETUP(real)
{
	self->fd = -1;
	if (!faultaround_supported())
		SKIP(return, "kernel lacks fault-around hints");
	self->psize = faultaround_page_size();
	self->max = faultaround_max_order();
	ASSERT_GE(self->max, 0);
	self->window = (size_t)1 << self->max;
	self->pages = 4 * self->window;
	self->fd = fa_test_file(self->pages);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(real)
{
	if (self->fd >= 0)
		close(self->fd);
}

static char *map_file(struct __test_metadata *_metadata, FIXTURE_DATA(real) *self)
{
	char *p = fa_test_map_aligned(self->fd, self->pages * self->psize,
				      self->window * self->psize);

	if (p == MAP_FAILED)
		TH_LOG("mmap: %s", strerror(errno));
	return p;
}

TEST_F(real, max_order_matches_sysfs)
{
	char buf[32] = "";
	FILE *f = fopen("/sys/kernel/mm/faultaround/max_order", "r");

	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(buf, sizeof(buf), f));
	fclose(f);
	EXPECT_EQ(atoi(buf), self->max);
	EXPECT_LE(self->max, FAULTAROUND_ORDER_LIMIT);
	TH_LOG("page size %zu, max order %d", self->psize, self->max);
}

TEST_F(real, set_get_roundtrip)
{
	char *p = map_file(_metadata, self);
	size_t len = self->pages * self->psize;
	int order = -7, k;

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, faultaround_get(p, &order));
	EXPECT_EQ(FAULTAROUND_UNSET, order);
	for (k = 0; k <= self->max; k++) {
		ASSERT_EQ(0, faultaround_set(p, len, k)) TH_LOG("order %d: %s", k,
								 strerror(errno));
		ASSERT_EQ(0, faultaround_get(p + len - 1, &order));
		EXPECT_EQ(k, order);
	}
	ASSERT_EQ(0, faultaround_set(p, len, FAULTAROUND_UNSET));
	ASSERT_EQ(0, faultaround_get(p, &order));
	EXPECT_EQ(FAULTAROUND_UNSET, order);
	/* bytes: 3 pages round down to 2 */
	ASSERT_EQ(0, faultaround_set_bytes(p, len, 3 * self->psize));
	ASSERT_EQ(0, faultaround_get(p, &order));
	EXPECT_EQ(1, order);
	ASSERT_EQ(0, faultaround_set_bytes(p, len, 0));
	ASSERT_EQ(0, faultaround_get(p, &order));
	EXPECT_EQ(0, order);
	munmap(p, len);
	errno = 0;
	EXPECT_EQ(-1, faultaround_get(p, &order));
	EXPECT_EQ(ENOMEM, errno);
}

TEST_F(real, anonymous_accepted)
{
	size_t len = 4 * self->psize;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int order;

	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, faultaround_set(p, len, 0));
	ASSERT_EQ(0, faultaround_get(p, &order));
	EXPECT_EQ(0, order);
	munmap(p, len);
}

TEST_F(real, kernel_errors)
{
	char *p = map_file(_metadata, self);
	size_t len = self->pages * self->psize;

	ASSERT_NE(MAP_FAILED, p);
	/* the raw ABI, bypassing the library's own checks: bits above the
	 * 8-bit field, and a negative advice */
	errno = 0;
	EXPECT_EQ(-1, madvise(p, len, MADV_FAULTAROUND | (1 << 16)));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, madvise(p, len, MADV_FAULTAROUND | INT_MIN));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, madvise(p + 1, len - self->psize, MADV_FAULTAROUND_ORDER(0)));
	EXPECT_EQ(EINVAL, errno);
	munmap(p, len);
}

/*
 * What the library builds on: the madvise field carries the value the
 * library and prctl take, so plain MADV_FAULTAROUND is order 0, and the
 * field's two highest values are the self-sizing window and unset.
 */
TEST_F(real, raw_field_is_the_value)
{
	char *p = map_file(_metadata, self);
	size_t len = self->pages * self->psize;
	int order = -7;

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, madvise(p, len, MADV_FAULTAROUND));
	ASSERT_EQ(0, faultaround_get(p, &order));
	EXPECT_EQ(0, order);
	ASSERT_EQ(0, madvise(p, len, MADV_FAULTAROUND_ORDER(FAULTAROUND_ORDER_LIMIT)));
	ASSERT_EQ(0, faultaround_get(p, &order));
	EXPECT_EQ(self->max, order);
	ASSERT_EQ(0, madvise(p, len, MADV_FAULTAROUND_ORDER(FAULTAROUND_AUTO)));
	ASSERT_EQ(0, faultaround_get(p, &order));
	EXPECT_EQ(FAULTAROUND_AUTO, order);
	ASSERT_EQ(0, madvise(p, len, MADV_FAULTAROUND_ORDER(FAULTAROUND_UNSET)));
	ASSERT_EQ(0, faultaround_get(p, &order));
	EXPECT_EQ(FAULTAROUND_UNSET, order);
	munmap(p, len);
}

/* A hole: ENOMEM, but the part before it was changed. */
TEST_F(real, hole_enomem)
{
	char *p = map_file(_metadata, self);
	size_t len = self->pages * self->psize;
	int order;

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p + self->psize, self->psize));
	errno = 0;
	EXPECT_EQ(-1, faultaround_set(p, 3 * self->psize, 0));
	EXPECT_EQ(ENOMEM, errno);
	ASSERT_EQ(0, faultaround_get(p, &order));
	EXPECT_EQ(0, order);
	munmap(p, len);
}

/* Sealed mappings take the hint: it changes no protection and no contents. */
TEST_F(real, mseal_accepts)
{
	size_t len = 2 * self->psize;
	char *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int order = -7;

	ASSERT_NE(MAP_FAILED, p);
	if (syscall(__NR_mseal, p, len, 0) != 0)
		SKIP(return, "mseal: %s", strerror(errno));
	EXPECT_EQ(0, faultaround_set(p, len, 0));
	ASSERT_EQ(0, faultaround_get(p, &order));
	EXPECT_EQ(0, order);
}

/* One read fault maps exactly the hinted window. */
TEST_F(real, window_is_mapped)
{
	int orders[] = { 0, 1, self->max < 3 ? self->max : 3, self->max };
	size_t len = self->pages * self->psize;
	unsigned i;

	for (i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		int k = orders[i];
		char *p = map_file(_metadata, self);
		long present;

		ASSERT_NE(MAP_FAILED, p);
		ASSERT_EQ(0, faultaround_set(p, len, k));
		ASSERT_EQ(0, fa_test_present(p, self->pages));
		/* fault in the middle of the second window */
		fa_test_touch(p + (self->window + self->window / 2) * self->psize);
		present = fa_test_present(p, self->pages);
		EXPECT_EQ((long)1 << k, present) TH_LOG("order %d", k);
		/* nothing outside the second window */
		EXPECT_EQ(0, fa_test_present(p, self->window));
		munmap(p, len);
	}
}

/* The process default applies to VMAs without a hint; a hint wins. */
TEST_F(real, process_default)
{
	size_t len = self->pages * self->psize;
	int k = self->max < 2 ? self->max : 2;
	char *p;

	ASSERT_EQ(0, faultaround_set_default(0));
	EXPECT_EQ(0, faultaround_get_default());
	p = map_file(_metadata, self);
	ASSERT_NE(MAP_FAILED, p);
	fa_test_touch(p);
	EXPECT_EQ(1, fa_test_present(p, self->pages));
	/* VMA hint overrides the default */
	ASSERT_EQ(0, faultaround_set(p, len, k));
	fa_test_touch(p + self->window * self->psize);
	EXPECT_EQ(1 + ((long)1 << k), fa_test_present(p, self->pages));
	munmap(p, len);
	ASSERT_EQ(0, faultaround_set_default(FAULTAROUND_UNSET));
	EXPECT_EQ(FAULTAROUND_UNSET, faultaround_get_default());
}

static int status_default(char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "FaultAroundOrder:\t", 18)) {
			snprintf(buf, size, "%.31s", line + 18);
			buf[strcspn(buf, "\n")] = '\0';
			found = 0;
		}
	}
	fclose(f);
	return found;
}

TEST_F(real, default_bytes_and_status)
{
	char buf[32];
	size_t bytes = 1;

	ASSERT_EQ(0, faultaround_set_default(FAULTAROUND_UNSET));
	ASSERT_EQ(0, status_default(buf, sizeof(buf)));
	EXPECT_STREQ("unset", buf);
	ASSERT_EQ(0, faultaround_get_default_bytes(&bytes));
	EXPECT_EQ(0, bytes);
	ASSERT_EQ(0, faultaround_set_default_bytes(5 * self->psize));
	EXPECT_EQ(self->max >= 2 ? 2 : self->max, faultaround_get_default());
	ASSERT_EQ(0, faultaround_get_default_bytes(&bytes));
	EXPECT_EQ(self->psize << (self->max >= 2 ? 2 : self->max), bytes);
	ASSERT_EQ(0, status_default(buf, sizeof(buf)));
	EXPECT_EQ(faultaround_get_default(), atoi(buf));
	ASSERT_EQ(0, faultaround_set_default_bytes(SIZE_MAX));
	EXPECT_EQ(self->max, faultaround_get_default());
	ASSERT_EQ(0, faultaround_get_system_default_bytes(&bytes));
	EXPECT_GE(bytes, 0);
}

static int child_default(const char *mode)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return -2;
	if (pid == 0) {
		if (mode) {
			execl(self_exe, self_exe, mode, (char *)NULL);
			_exit(101);
		}
		_exit(faultaround_get_default());
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -3;
	return WEXITSTATUS(st);
}

TEST_F(real, fork_and_exec_inherit)
{
	int k = self->max < 3 ? self->max : 3;

	ASSERT_EQ(0, faultaround_set_default(k));
	EXPECT_EQ(k, child_default(NULL));
	EXPECT_EQ(k, child_default("--print-default"));
	ASSERT_EQ(0, faultaround_set_default(FAULTAROUND_UNSET));
	EXPECT_EQ(FAULTAROUND_UNSET, child_default(NULL));
	EXPECT_EQ(FAULTAROUND_UNSET, child_default("--print-default"));
}

static int hinted_cb(const struct faultaround_vma *vma, void *arg)
{
	const struct faultaround_vma *want = arg;

	return vma->start == want->start && vma->end == want->end &&
	       vma->order == want->order && !strncmp(vma->path, "/memfd:fa_test", 14);
}

TEST_F(real, for_each_vma_sees_hint)
{
	size_t len = self->pages * self->psize;
	char *p = map_file(_metadata, self);
	struct faultaround_vma want;

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, faultaround_set(p, len, 1));
	want.start = (unsigned long)p;
	want.end = (unsigned long)p + len;
	want.order = 1;
	EXPECT_EQ(1, faultaround_for_each_vma(0, hinted_cb, &want));
	EXPECT_EQ(1, faultaround_for_each_vma(getpid(), hinted_cb, &want));
	munmap(p, len);
}

TEST_F(real, system_default_write)
{
	size_t old, now;

	if (geteuid() != 0)
		SKIP(return, "needs root");
	ASSERT_EQ(0, faultaround_get_system_default_bytes(&old));
	ASSERT_EQ(0, faultaround_set_system_default_bytes(self->psize * 2));
	ASSERT_EQ(0, faultaround_get_system_default_bytes(&now));
	EXPECT_EQ(self->psize * 2, now);
	ASSERT_EQ(0, faultaround_set_system_default_bytes(old));
}

int main(int argc, char **argv)
{
	self_exe = argv[0];
	if (argc > 1 && !strcmp(argv[1], "--print-default"))
		return faultaround_get_default();
	return test_harness_run(argc, argv);
}
