// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ENOTSUP path.  On a kernel without the feature this is the real path;
 * on a patched kernel LIBFAULTAROUND_DISABLE=1 forces it (the probe reads
 * it once, before the first call of each test child).
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include "fa_test.h"
#include "kselftest_harness.h"

static int kernel_has_feature(void)
{
	return access("/sys/kernel/mm/faultaround/max_order", F_OK) == 0;
}

static int noop_cb(const struct faultaround_vma *vma, void *arg)
{
	(void)vma;
	(void)arg;
	return 0;
}

FIXTURE(enotsup)
{
	char *page;
	size_t psize;
};

FIXTURE_SETUP(enotsup)
{
	if (kernel_has_feature())
		ASSERT_EQ(0, setenv("LIBFAULTAROUND_DISABLE", "1", 1));
	self->psize = (size_t)sysconf(_SC_PAGESIZE);
	self->page = mmap(NULL, self->psize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	ASSERT_NE(MAP_FAILED, self->page);
}

FIXTURE_TEARDOWN(enotsup)
{
	munmap(self->page, self->psize);
}

#define EXPECT_ENOTSUP(call) do {		\
		errno = 0;			\
		EXPECT_EQ(-1, (call));		\
		EXPECT_EQ(ENOTSUP, errno);	\
	} while (0)

TEST_F(enotsup, every_call)
{
	struct faultaround_size sz = { FAULTAROUND_SIZE_BYTES, 65536 };
	size_t bytes = 12345;
	int order = 77;

	EXPECT_EQ(0, faultaround_supported());
	EXPECT_EQ(self->psize, faultaround_page_size());
	EXPECT_ENOTSUP(faultaround_max_order());
	EXPECT_ENOTSUP(faultaround_set(self->page, self->psize, 0));
	EXPECT_ENOTSUP(faultaround_set(self->page, self->psize, FAULTAROUND_UNSET));
	EXPECT_ENOTSUP(faultaround_set(self->page, self->psize, FAULTAROUND_ORDER_LIMIT));
	EXPECT_ENOTSUP(faultaround_set_bytes(self->page, self->psize, 65536));
	EXPECT_ENOTSUP(faultaround_get(self->page, &order));
	EXPECT_EQ(77, order);
	EXPECT_ENOTSUP(faultaround_set_default(0));
	EXPECT_ENOTSUP(faultaround_set_default(FAULTAROUND_UNSET));
	EXPECT_ENOTSUP(faultaround_set_default_bytes(65536));
	EXPECT_ENOTSUP(faultaround_get_default());
	EXPECT_ENOTSUP(faultaround_get_default_bytes(&bytes));
	EXPECT_ENOTSUP(faultaround_get_system_default_bytes(&bytes));
	EXPECT_ENOTSUP(faultaround_set_system_default_bytes(65536));
	EXPECT_EQ(12345, bytes);
	EXPECT_ENOTSUP(faultaround_for_each_vma(0, noop_cb, NULL));
	EXPECT_ENOTSUP(faultaround_size_to_order(&sz));
	/* pure helpers still work */
	sz.kind = FAULTAROUND_SIZE_ORDER;
	sz.value = 3;
	EXPECT_EQ(3, faultaround_size_to_order(&sz));
	EXPECT_EQ(4, faultaround_bytes_to_order(65536, 4096, 9));
}

/* Kernel-independent argument errors stay EINVAL, so callers can tell. */
TEST_F(enotsup, einval_first)
{
	errno = 0;
	EXPECT_EQ(-1, faultaround_set(self->page + 1, self->psize, 0));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, faultaround_set(self->page, self->psize, -5));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, faultaround_get(self->page, NULL));
	EXPECT_EQ(EINVAL, errno);
}

/* What the probe relies on: the raw calls fail with EINVAL. */
TEST_F(enotsup, raw_kernel_rejects)
{
	if (kernel_has_feature())
		SKIP(return, "kernel has the feature (ENOTSUP forced)");
	errno = 0;
	EXPECT_EQ(-1, madvise(self->page, self->psize, MADV_FAULTAROUND_ORDER(0)));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, madvise(self->page, self->psize, MADV_FAULTAROUND_UNSET));
	EXPECT_EQ(EINVAL, errno);
}

static void *probe_thread(void *arg)
{
	int *res = arg;

	res[0] = faultaround_supported();
	res[1] = faultaround_max_order();
	res[2] = errno;
	return NULL;
}

/* Many threads race into the first call: one probe, one answer. */
TEST_F(enotsup, threads)
{
	pthread_t th[16];
	int res[16][3];
	int i;

	for (i = 0; i < 16; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, probe_thread, res[i]));
	for (i = 0; i < 16; i++) {
		ASSERT_EQ(0, pthread_join(th[i], NULL));
		EXPECT_EQ(0, res[i][0]);
		EXPECT_EQ(-1, res[i][1]);
		EXPECT_EQ(ENOTSUP, res[i][2]);
	}
	FA_LEAK_CHECK();
}

TEST_HARNESS_MAIN
