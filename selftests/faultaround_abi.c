// SPDX-License-Identifier: GPL-2.0
/*
 * MADV_FAULTAROUND calls that need no page-cache window: the published
 * maximum, which VMAs accept the hint (anonymous, sealed), what a failed
 * call leaves changed, and process_madvise().
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "vm_util.h"
#include "fa_util.h"

#ifndef __NR_mseal
#define __NR_mseal 462
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_process_madvise
#define __NR_process_madvise 440
#endif

/* @pages read-only anonymous pages, or MAP_FAILED. */
static uint8_t *map_pages(unsigned long pages)
{
	return mmap(NULL, pages * fa_page_size, PROT_READ,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/*
 * The published maximum is one page table, at most 512 pages: 1 << max_order
 * pages are what a PMD entry maps, THP's hpage_pmd_size, or 512 pages where
 * that is more.  Without THP (the pseries hash guest has none) the stock
 * fault_around_bytes says it: it takes at most PTRS_PER_PTE pages.
 */
#define FA_MAX_ORDER_CAP	9

TEST(max_order_is_one_page_table_at_most_512_pages)
{
	int max = fa_max_order();
	unsigned long table, saved;
	uint64_t pmd;

	if (max < 0)
		SKIP(return, "kernel without MADV_FAULTAROUND");
	ASSERT_LE(max, FA_MAX_ORDER_CAP);
	table = 1UL << max;
	pmd = read_pmd_pagesize();
	if (pmd) {
		unsigned long pmd_pages = pmd / fa_page_size;

		EXPECT_EQ(table, pmd_pages < (1UL << FA_MAX_ORDER_CAP) ?
			  pmd_pages : 1UL << FA_MAX_ORDER_CAP)
			TH_LOG("max_order %d, hpage_pmd_size %llu, page size %zu",
			       max, (unsigned long long)pmd, fa_page_size);
		return;
	}
	if (!fa_may_change_system() || access(FA_DEBUGFS_BYTES, W_OK) ||
	    read_sysfs(FA_DEBUGFS_BYTES, &saved))
		SKIP(return, "no hpage_pmd_size (THP) and no fault_around_bytes to write");
	/* A window written replaces "auto", which this would not put back. */
	if (!fa_system_default_pages())
		SKIP(return, "the system default is \"auto\"");
	EXPECT_EQ(fa_write_ulong(FA_DEBUGFS_BYTES, table * fa_page_size), 0)
		TH_LOG("max_order %d, page size %zu", max, fa_page_size);
	/* Below the cap, max_order is the table: twice it must be refused. */
	if (max < FA_MAX_ORDER_CAP) {
		EXPECT_EQ(fa_write_ulong(FA_DEBUGFS_BYTES,
					 2 * table * fa_page_size), -1)
			TH_LOG("max_order %d, page size %zu", max, fa_page_size);
		EXPECT_EQ(errno, EINVAL);
	}
	ASSERT_EQ(fa_write_ulong(FA_DEBUGFS_BYTES, saved), 0);
}

/* Anonymous memory takes the hint, like MADV_SEQUENTIAL, and ignores it. */
TEST(anonymous_accepts_and_ignores)
{
	uint8_t *p;

	if (!fa_feature_present())
		SKIP(return, "kernel without MADV_FAULTAROUND");
	p = mmap(NULL, 8 * fa_page_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(p, MAP_FAILED);
	EXPECT_EQ(fa_set_hint(p, 8, 2), 0);
	EXPECT_EQ(fa_smaps_order(p, NULL, NULL), 2);
	p[0] = 1;
	EXPECT_EQ(fa_count_present(p, 8), 1);
	munmap(p, 8 * fa_page_size);
}

/* A hole: ENOMEM, and every mapped part of the range has the hint. */
TEST(hole_is_enomem_after_the_mapped_parts_changed)
{
	uint8_t *p;

	if (!fa_feature_present())
		SKIP(return, "kernel without MADV_FAULTAROUND");
	p = map_pages(3);
	ASSERT_NE(p, MAP_FAILED);
	ASSERT_EQ(munmap(p + fa_page_size, fa_page_size), 0);
	EXPECT_EQ(fa_set_hint(p, 3, 1), -1);
	EXPECT_EQ(errno, ENOMEM);
	EXPECT_EQ(fa_smaps_order(p, NULL, NULL), 1);
	EXPECT_EQ(fa_smaps_order(p + 2 * fa_page_size, NULL, NULL), 1);
	munmap(p, 3 * fa_page_size);
}

/* EINVAL is found before any VMA changes, even across several VMAs. */
TEST(einval_changes_no_vma)
{
	uint8_t *p;

	if (!fa_feature_present())
		SKIP(return, "kernel without MADV_FAULTAROUND");
	p = map_pages(3);
	ASSERT_NE(p, MAP_FAILED);
	ASSERT_EQ(fa_set_hint(p + fa_page_size, 1, 4), 0);
	EXPECT_EQ(madvise(p, 3 * fa_page_size, MADV_FAULTAROUND | (1 << 16)), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(fa_smaps_order(p, NULL, NULL), -1);
	EXPECT_EQ(fa_smaps_order(p + fa_page_size, NULL, NULL), 4);
	EXPECT_EQ(fa_smaps_order(p + 2 * fa_page_size, NULL, NULL), -1);
	munmap(p, 3 * fa_page_size);
}

/*
 * A sealed VMA takes the hint, as it takes MADV_SEQUENTIAL: the hint changes
 * neither protection nor contents.  Setting it on part of the VMA splits it,
 * clearing it lets the parts merge again, and the seal still holds.
 */
TEST(sealed_vma_accepts_the_hint)
{
	unsigned long s, e;
	uint8_t *p;

	if (!fa_feature_present())
		SKIP(return, "kernel without MADV_FAULTAROUND");
	p = map_pages(4);
	ASSERT_NE(p, MAP_FAILED);
	/* A kernel without mseal(2) has nothing to test here. */
	if (syscall(__NR_mseal, p, 4 * fa_page_size, 0))
		SKIP(return, "mseal(2): %s", strerror(errno));
	EXPECT_EQ(fa_set_hint(p, 4, 3), 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(fa_smaps_order(p, &s, &e), 3);
	EXPECT_EQ(e - s, 4 * fa_page_size);
	EXPECT_EQ(fa_set_hint(p + fa_page_size, 1, 1), 0);
	EXPECT_EQ(fa_smaps_order(p + fa_page_size, &s, &e), 1);
	EXPECT_EQ(e - s, fa_page_size);
	EXPECT_EQ(fa_set_hint(p, 4, -1), 0);
	EXPECT_EQ(fa_smaps_order(p, &s, &e), -1);
	EXPECT_EQ(e - s, 4 * fa_page_size);
	/* Still sealed: munmap is refused. */
	EXPECT_EQ(munmap(p, 4 * fa_page_size), -1);
	EXPECT_EQ(errno, EPERM);
}

/* On the calling process, process_madvise() takes the advice as madvise(). */
TEST(process_madvise_on_itself_sets_the_hint)
{
	struct iovec iov;
	int pidfd;

	if (!fa_feature_present())
		SKIP(return, "kernel without MADV_FAULTAROUND");
	iov.iov_len = 2 * fa_page_size;
	iov.iov_base = map_pages(2);
	ASSERT_NE(iov.iov_base, MAP_FAILED);
	pidfd = syscall(__NR_pidfd_open, getpid(), 0);
	if (pidfd < 0)
		SKIP(return, "pidfd_open: %s", strerror(errno));
	EXPECT_EQ(syscall(__NR_process_madvise, pidfd, &iov, 1,
			  MADV_FAULTAROUND_ORDER(1), 0), (long)iov.iov_len);
	EXPECT_EQ(fa_smaps_order(iov.iov_base, NULL, NULL), 1);
	close(pidfd);
	munmap(iov.iov_base, iov.iov_len);
}

/* Another process's VMAs are its own: the advice is refused for them. */
TEST(process_madvise_on_another_process_is_refused)
{
	struct iovec iov;
	int pidfd, status;
	pid_t child;

	if (!fa_feature_present())
		SKIP(return, "kernel without MADV_FAULTAROUND");
	iov.iov_len = 2 * fa_page_size;
	iov.iov_base = map_pages(2);
	ASSERT_NE(iov.iov_base, MAP_FAILED);
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		/* The same mapping at the same address; gone with the test. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pause();
		_exit(0);
	}
	pidfd = syscall(__NR_pidfd_open, child, 0);
	if (pidfd >= 0) {
		EXPECT_EQ(syscall(__NR_process_madvise, pidfd, &iov, 1,
				  MADV_FAULTAROUND_ORDER(1), 0), -1);
		EXPECT_EQ(errno, EINVAL);
		close(pidfd);
	}
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	munmap(iov.iov_base, iov.iov_len);
	if (pidfd < 0)
		SKIP(return, "pidfd_open: %s", strerror(errno));
}

TEST_HARNESS_MAIN
