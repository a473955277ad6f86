// SPDX-License-Identifier: LGPL-2.1-or-later
/* Argument checking: kernel-independent errors come before the probe. */
#include <limits.h>
#include "fa_test.h"
#include "kselftest_harness.h"

static int noop_cb(const struct faultaround_vma *vma, void *arg)
{
	(void)vma;
	(void)arg;
	return 0;
}

FIXTURE(args)
{
	char *page;
	size_t psize;
};

FIXTURE_SETUP(args)
{
	self->psize = faultaround_page_size();
	self->page = mmap(NULL, 2 * self->psize, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->page);
}

FIXTURE_TEARDOWN(args)
{
	munmap(self->page, 2 * self->psize);
}

#define EXPECT_ERR(err, call) do {		\
		errno = 0;			\
		EXPECT_EQ(-1, (call));		\
		EXPECT_EQ(err, errno);		\
	} while (0)

TEST_F(args, bad_orders)
{
	EXPECT_ERR(EINVAL, faultaround_set(self->page, self->psize, -1));
	EXPECT_ERR(EINVAL, faultaround_set(self->page, self->psize, -2));
	EXPECT_ERR(EINVAL, faultaround_set(self->page, self->psize, 256));
	EXPECT_ERR(EINVAL, faultaround_set(self->page, self->psize, INT_MAX));
	EXPECT_ERR(EINVAL, faultaround_set(self->page, self->psize, INT_MIN));
	EXPECT_ERR(EINVAL, faultaround_set_default(-1));
	EXPECT_ERR(EINVAL, faultaround_set_default(256));
	EXPECT_ERR(EINVAL, faultaround_set_default(INT_MAX));
}

TEST_F(args, unaligned_address)
{
	EXPECT_ERR(EINVAL, faultaround_set(self->page + 1, self->psize, 0));
	EXPECT_ERR(EINVAL, faultaround_set(self->page + self->psize / 2, 1,
					   FAULTAROUND_UNSET));
	EXPECT_ERR(EINVAL, faultaround_set_bytes(self->page + 1, self->psize, 4096));
}

/* A range whose end, rounded up to a page, wraps past the top of the
 * address space: EINVAL, as the kernel says, whatever the kernel. */
TEST_F(args, wrapping_range)
{
	EXPECT_ERR(EINVAL, faultaround_set(self->page, SIZE_MAX, 0));
	EXPECT_ERR(EINVAL, faultaround_set(self->page, SIZE_MAX - self->psize / 2,
					   FAULTAROUND_UNSET));
	EXPECT_ERR(EINVAL, faultaround_set(self->page,
					   SIZE_MAX - (size_t)self->page + 1, 0));
	EXPECT_ERR(EINVAL, faultaround_set_bytes(self->page, SIZE_MAX, 4096));
}

TEST_F(args, null_pointers)
{
	EXPECT_ERR(EINVAL, faultaround_get(self->page, NULL));
	EXPECT_ERR(EINVAL, faultaround_get_default_bytes(NULL));
	EXPECT_ERR(EINVAL, faultaround_get_system_default_bytes(NULL));
	EXPECT_ERR(EINVAL, faultaround_for_each_vma(0, NULL, NULL));
	EXPECT_ERR(EINVAL, faultaround_for_each_vma(-1, noop_cb, NULL));
}

/* Orders above the kernel's maximum are accepted and clamped by it. */
TEST_F(args, above_max_order)
{
	int max = faultaround_max_order(), order = -7;

	if (max < 0)
		SKIP(return, "kernel lacks fault-around hints");
	EXPECT_EQ(0, faultaround_set(self->page, self->psize, max + 1));
	EXPECT_EQ(0, faultaround_get(self->page, &order));
	EXPECT_EQ(max, order);
	EXPECT_EQ(0, faultaround_set(self->page, self->psize, FAULTAROUND_ORDER_LIMIT));
	EXPECT_EQ(0, faultaround_set_default(FAULTAROUND_ORDER_LIMIT));
	EXPECT_EQ(max, faultaround_get_default());
	EXPECT_EQ(0, faultaround_set_default(FAULTAROUND_UNSET));
	/* LIMIT + 1 is FAULTAROUND_AUTO and LIMIT + 2 FAULTAROUND_UNSET */
	EXPECT_ERR(EINVAL, faultaround_set(self->page, self->psize,
					   FAULTAROUND_ORDER_LIMIT + 3));
	EXPECT_ERR(EINVAL, faultaround_set_default(FAULTAROUND_ORDER_LIMIT + 3));
	/* bytes are clamped, never rejected */
	EXPECT_EQ(0, faultaround_set_bytes(self->page, self->psize, SIZE_MAX));
	EXPECT_EQ(0, faultaround_set(self->page, self->psize, FAULTAROUND_UNSET));
}

/* The self-sizing window: set, reported as FAULTAROUND_AUTO, cleared. */
TEST_F(args, auto_order)
{
	int order = -7;
	size_t bytes = 0;

	if (faultaround_max_order() < 0)
		SKIP(return, "kernel lacks fault-around hints");
	EXPECT_EQ(0, faultaround_set(self->page, self->psize, FAULTAROUND_AUTO));
	EXPECT_EQ(0, faultaround_get(self->page, &order));
	EXPECT_EQ(FAULTAROUND_AUTO, order);
	EXPECT_EQ(0, faultaround_set_default(FAULTAROUND_AUTO));
	EXPECT_EQ(FAULTAROUND_AUTO, faultaround_get_default());
	EXPECT_EQ(0, faultaround_get_default_bytes(&bytes));
	EXPECT_EQ(FAULTAROUND_AUTO_BYTES, bytes);
	EXPECT_EQ(0, faultaround_set_default(FAULTAROUND_UNSET));
	EXPECT_EQ(0, faultaround_set(self->page, self->psize, FAULTAROUND_UNSET));
}

TEST(page_size)
{
	EXPECT_EQ((size_t)sysconf(_SC_PAGESIZE), faultaround_page_size());
}

TEST(probe_keeps_errno_and_is_stable)
{
	int s;

	errno = 4321;
	s = faultaround_supported();
	EXPECT_EQ(4321, errno);
	EXPECT_TRUE(s == 0 || s == 1);
	EXPECT_EQ(s, faultaround_supported());
	if (s)
		EXPECT_EQ(0, access("/sys/kernel/mm/faultaround/max_order", R_OK));
}

TEST(unset_is_the_prctl_value)
{
	EXPECT_EQ(PR_FAULTAROUND_UNSET, FAULTAROUND_UNSET);
	EXPECT_EQ(253, FAULTAROUND_ORDER_LIMIT);
	EXPECT_EQ(PR_FAULTAROUND_AUTO, FAULTAROUND_AUTO);
	FA_LEAK_CHECK();
}

TEST_HARNESS_MAIN
