// SPDX-License-Identifier: GPL-2.0
/*
 * Fault-around that needs no numbers: MADV_RANDOM and MADV_SEQUENTIAL size
 * the window of a VMA without a hint, and the self-sizing window ("auto")
 * grows while faults walk through a file and keeps one page while they
 * scatter.  Page-table state comes from /proc/self/pagemap.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "vm_util.h"
#include "fa_util.h"

FIXTURE(advice)
{
	struct fa_table_map m;	/* 3 page tables */
	int max_order;
};

FIXTURE_VARIANT(advice)
{
	const char *fs;
	int map_flags;
};

FIXTURE_VARIANT_ADD(advice, tmpfs_shared) { .fs = "tmpfs", .map_flags = MAP_SHARED };
FIXTURE_VARIANT_ADD(advice, tmpfs_private) { .fs = "tmpfs", .map_flags = MAP_PRIVATE };
FIXTURE_VARIANT_ADD(advice, ext4_shared) { .fs = "ext4", .map_flags = MAP_SHARED };

FIXTURE_SETUP(advice)
{
	const char *why;
	int ret = fa_table_map_open(&self->m, variant->fs, variant->map_flags,
				    3, &why);

	if (ret > 0)
		SKIP(return, "%s (%s)", why, variant->fs);
	ASSERT_EQ(ret, 0) TH_LOG("%s on %s: %s", why, variant->fs, strerror(errno));
	self->max_order = fa_max_order();
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_UNSET, 0, 0, 0), 0);
}

FIXTURE_TEARDOWN(advice)
{
	fa_table_map_close(&self->m);
	prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_UNSET, 0, 0, 0);
}

/*
 * Pages 4k + 2, in an order that jumps about: never adjacent, never the
 * first page of the mapping.
 */
static bool sparse_lookups_map_one_page(uint8_t *map, unsigned long pages)
{
	unsigned long slots = pages / 4, i, step = 7;
	long mapped;

	while (slots % step == 0)
		step += 2;
	for (i = 0; i < slots; i++) {
		unsigned long idx = (i * step) % slots * 4 + 2;

		mapped = fa_fault_maps(map, pages, idx);
		if (mapped != 1) {
			ksft_print_msg("page %lu: %ld pages\n", idx, mapped);
			return false;
		}
	}
	return true;
}

TEST_F(advice, random_maps_only_the_fault)
{
	ASSERT_EQ(madvise(self->m.map, self->m.pages * fa_page_size, MADV_RANDOM), 0);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, self->m.table + 5), 1);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, self->m.table + 6), 1);
}

/*
 * What readahead brings in at a time, as a power of two, at most 512 pages
 * (FAULT_AROUND_SEQ_MAX_PAGES): never less than the system default, never
 * more than a page table.
 */
TEST_F(advice, sequential_maps_the_readahead_window)
{
	unsigned long ra = fa_readahead_pages(self->m.fd), want = 1;
	unsigned long nr = fa_system_default_pages();

	if (!nr)
		SKIP(return, "the system default is \"auto\"");
	while (want * 2 <= ra && want < 512)
		want *= 2;
	if (want < nr)
		want = nr;
	if (want > self->m.table)
		want = self->m.table;
	ASSERT_EQ(madvise(self->m.map, self->m.pages * fa_page_size,
			  MADV_SEQUENTIAL), 0);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, self->m.table + 5),
		  (long)want) TH_LOG("readahead %lu pages, default %lu bytes",
				     ra, nr * fa_page_size);
}

TEST_F(advice, hint_beats_advice)
{
	size_t len = self->m.pages * fa_page_size;

	ASSERT_EQ(madvise(self->m.map, len, MADV_RANDOM), 0);
	ASSERT_EQ(madvise(self->m.map, len, MADV_FAULTAROUND_ORDER(2)), 0);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, self->m.table + 5), 4);
	ASSERT_EQ(madvise(self->m.map, len, MADV_SEQUENTIAL), 0);
	ASSERT_EQ(madvise(self->m.map, len, MADV_FAULTAROUND_ORDER(0)), 0);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, 2 * self->m.table + 5), 1);
}

TEST_F(advice, advice_beats_process_default)
{
	size_t len = self->m.pages * fa_page_size;

	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, 2, 0, 0, 0), 0);
	ASSERT_EQ(madvise(self->m.map, len, MADV_RANDOM), 0);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, self->m.table + 5), 1);
	ASSERT_EQ(madvise(self->m.map, len, MADV_NORMAL), 0);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, 2 * self->m.table + 5), 4);
}

/*
 * The first page of a file is where scans start: its fault gets what
 * readahead reads at a time, or the fixed window where the file has no
 * readahead (tmpfs), at most a page table.
 */
TEST_F(advice, auto_first_page_gets_the_readahead_window)
{
	unsigned long nr = fa_readahead_pages(self->m.fd), bytes, first, count;

	if (!nr) {
		if (access(FA_DEBUGFS_BYTES, R_OK) ||
		    read_sysfs(FA_DEBUGFS_BYTES, &bytes))
			SKIP(return, "no readahead, and the fixed window is unreadable");
		nr = bytes / fa_page_size ?: 1;
	}
	nr = fa_rounddown_pow2(nr);
	if (nr > self->m.table)
		nr = self->m.table;
	ASSERT_EQ(madvise(self->m.map, self->m.pages * fa_page_size,
			  MADV_FAULTAROUND_AUTO), 0);
	ASSERT_EQ(fa_touch(self->m.map), fa_pattern(0));
	fa_expected_window(0, nr, 0, self->m.table, &first, &count);
	EXPECT_TRUE(fa_present_exactly(self->m.map, self->m.pages, first, count));
}

/*
 * A scan from the start of a mapping, aligned to a page table, maps a
 * whole table per fault from fault max_order + 2 on at the latest (the
 * window doubles from the system default, or from one page), and every
 * table after the first in one fault.
 */
TEST_F(advice, auto_scan_reaches_a_page_table)
{
	long faults, first_full;

	ASSERT_EQ(madvise(self->m.map, self->m.pages * fa_page_size,
			  MADV_FAULTAROUND_AUTO), 0);
	ASSERT_EQ(fa_smaps_order(self->m.map, NULL, NULL), FA_ORDER_AUTO);
	faults = fa_scan(self->m.map, self->m.pages, self->m.table, 0, 1,
			 &first_full);
	ASSERT_GT(faults, 0);
	EXPECT_GT(first_full, 0);
	EXPECT_LE(first_full, self->max_order + 2);
	EXPECT_LE(faults, first_full + 2)
		TH_LOG("%ld faults for 3 page tables", faults);
}

TEST_F(advice, auto_sparse_lookups_stay_at_one_page)
{
	ASSERT_EQ(madvise(self->m.map, self->m.pages * fa_page_size,
			  MADV_FAULTAROUND_AUTO), 0);
	EXPECT_TRUE(sparse_lookups_map_one_page(self->m.map, self->m.pages));
}

/*
 * A new VMA has no stream a fault could continue, wherever it sits: its
 * first two lookups, five pages apart, map one page each at every virtual
 * page index modulo the 4096 windows a stream's position tells apart.
 * Each placement is a new VMA of the file's first pages, mapped over a
 * reservation, which it cannot merge with, and then put back.
 */
TEST_F(advice, auto_new_vma_lookups_map_one_page)
{
	const unsigned long pages = 16, ring = 4096, a = 5, b = 10;
	size_t len = pages * fa_page_size, span = ring * fa_page_size;
	size_t resv_len = 2 * span + len;
	uint8_t *resv, *base, *map;
	unsigned long skew;
	long mapped;

	resv = mmap(NULL, resv_len, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ASSERT_NE(resv, MAP_FAILED);
	base = (uint8_t *)(((uintptr_t)resv + span - 1) &
			   ~(uintptr_t)(span - 1));
	for (skew = 0; skew < ring; skew++) {
		map = mmap(base + skew * fa_page_size, len, PROT_READ,
			   variant->map_flags | MAP_FIXED, self->m.fd, 0);
		ASSERT_NE(map, MAP_FAILED) TH_LOG("skew %lu: %s", skew,
						  strerror(errno));
		ASSERT_EQ(madvise(map, len, MADV_FAULTAROUND_AUTO), 0);
		ASSERT_EQ(fa_touch(map + a * fa_page_size),
			  fa_pattern(a * fa_page_size));
		ASSERT_EQ(fa_touch(map + b * fa_page_size),
			  fa_pattern(b * fa_page_size));
		/* Each fault maps its own page: 2 means nothing else. */
		mapped = fa_count_present(map, pages);
		ASSERT_EQ(mapped, 2) TH_LOG("lookups at %lu and %lu mod %lu",
					    (skew + a) % ring,
					    (skew + b) % ring, ring);
		ASSERT_NE(mmap(map, len, PROT_NONE, MAP_PRIVATE |
			       MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
			       -1, 0), MAP_FAILED);
	}
	munmap(resv, resv_len);
}

/* A scan after sparse lookups still ramps up: nothing is remembered. */
TEST_F(advice, auto_scan_after_lookups)
{
	long faults, first_full;

	ASSERT_EQ(madvise(self->m.map, self->m.pages * fa_page_size,
			  MADV_FAULTAROUND_AUTO), 0);
	ASSERT_TRUE(sparse_lookups_map_one_page(self->m.map, self->m.table));
	ASSERT_EQ(fa_zap(self->m.map, self->m.pages), 0);
	faults = fa_scan(self->m.map, self->m.pages, self->m.table,
			 self->m.table, 1, &first_full);
	EXPECT_GT(first_full, 0);
	EXPECT_LE(first_full, self->max_order + 2);
	EXPECT_LE(faults, first_full + 1);
}

/* The process default "auto" applies to mappings without a hint. */
TEST_F(advice, auto_process_default)
{
	long faults, first_full;

	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_AUTO, 0, 0, 0), 0);
	EXPECT_EQ(prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0), PR_FAULTAROUND_AUTO);
	EXPECT_EQ(fa_status_order(), FA_ORDER_AUTO);
	EXPECT_EQ(fa_smaps_order(self->m.map, NULL, NULL), -1);
	EXPECT_TRUE(sparse_lookups_map_one_page(self->m.map, self->m.table));
	faults = fa_scan(self->m.map, self->m.pages, self->m.table,
			 self->m.table, 1, &first_full);
	EXPECT_GT(first_full, 0);
	EXPECT_LE(first_full, self->max_order + 2);
	EXPECT_LE(faults, first_full + 1);
}

/* A scan from the end backwards ramps up the same way. */
TEST_F(advice, auto_backward_scan)
{
	long faults, first_full;

	ASSERT_EQ(madvise(self->m.map, self->m.pages * fa_page_size,
			  MADV_FAULTAROUND_AUTO), 0);
	faults = fa_scan(self->m.map, self->m.pages, self->m.table,
			 self->m.pages - 1, -1, &first_full);
	ASSERT_GE(faults, 0);
	EXPECT_GT(first_full, 0);
	EXPECT_LE(first_full, self->max_order + 2);
	EXPECT_LE(faults, first_full + 2);
}

TEST_HARNESS_MAIN
