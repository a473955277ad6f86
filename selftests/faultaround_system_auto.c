// SPDX-License-Identifier: GPL-2.0
/*
 * The self-sizing window as the system default: "auto" in
 * /sys/kernel/mm/faultaround/default_bytes.  It reads back as written; a
 * fault far from the last one maps its own page; a fault within twice the
 * window of the last one doubles the window; a fault elsewhere maps its
 * own page and leaves the scan its place; the first page of a file gets
 * the readahead window; and whatever a process asked for still wins.
 * Page-table state comes from /proc/self/pagemap.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "vm_util.h"
#include "fa_util.h"

/* The fixed window set before "auto": the first page of a tmpfs file's. */
#define SYSTEM_AUTO_BASE_BYTES	65536UL

FIXTURE(system_auto)
{
	struct fa_table_map m;		/* 3 page tables */
	unsigned long saved_bytes;	/* the default to put back */
	bool saved_auto;
	unsigned long base;		/* SYSTEM_AUTO_BASE_BYTES in pages */
	int max_order;
};

FIXTURE_VARIANT(system_auto)
{
	const char *fs;
	int map_flags;
};

FIXTURE_VARIANT_ADD(system_auto, tmpfs_shared) { .fs = "tmpfs", .map_flags = MAP_SHARED };
FIXTURE_VARIANT_ADD(system_auto, ext4_private) { .fs = "ext4", .map_flags = MAP_PRIVATE };

/*
 * The system default changes last, and is put back here if setting it
 * fails: the harness runs no teardown after a setup that did not finish.
 */
FIXTURE_SETUP(system_auto)
{
	const char *why;
	int ret;

	if (!fa_feature_present())
		SKIP(return, "no per-VMA fault-around in this kernel");
	if (!fa_may_change_system())
		SKIP(return, "changes the system default: guest only");
	ASSERT_EQ(fa_system_default(&self->saved_bytes, &self->saved_auto), 0);
	ret = fa_table_map_open(&self->m, variant->fs, variant->map_flags, 3,
				&why);
	if (ret > 0)
		SKIP(return, "%s (%s)", why, variant->fs);
	ASSERT_EQ(ret, 0) TH_LOG("%s on %s: %s", why, variant->fs, strerror(errno));
	self->base = SYSTEM_AUTO_BASE_BYTES / fa_page_size ?: 1;
	self->max_order = fa_max_order();
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_UNSET, 0, 0, 0), 0);
	if (fa_write_str(FA_SYSFS_DEFAULT_BYTES, "auto\n") && errno == EINVAL) {
		fa_table_map_close(&self->m);
		SKIP(return, "the kernel refuses \"auto\" as the system default");
	}
	if (fa_write_ulong(FA_SYSFS_DEFAULT_BYTES, SYSTEM_AUTO_BASE_BYTES) ||
	    fa_write_str(FA_SYSFS_DEFAULT_BYTES, "auto\n")) {
		ret = errno;
		fa_restore_system_default(self->saved_auto, self->saved_bytes);
		fa_table_map_close(&self->m);
		ASSERT_TRUE(false) TH_LOG("setting the default: %s", strerror(ret));
	}
}

FIXTURE_TEARDOWN(system_auto)
{
	fa_table_map_close(&self->m);
	EXPECT_EQ(fa_restore_system_default(self->saved_auto, self->saved_bytes), 0);
}

TEST_F(system_auto, reads_back_as_written)
{
	unsigned long bytes;
	bool is_auto;

	ASSERT_EQ(fa_system_default(&bytes, &is_auto), 0);
	EXPECT_TRUE(is_auto);
	EXPECT_EQ(fa_write_str(FA_SYSFS_DEFAULT_BYTES, "autox\n"), -1);
	EXPECT_EQ(errno, EINVAL);
	ASSERT_EQ(fa_system_default(&bytes, &is_auto), 0);
	EXPECT_TRUE(is_auto);
	ASSERT_EQ(fa_write_ulong(FA_SYSFS_DEFAULT_BYTES, 2 * fa_page_size), 0);
	ASSERT_EQ(fa_system_default(&bytes, &is_auto), 0);
	EXPECT_FALSE(is_auto);
	EXPECT_EQ(bytes, 2 * fa_page_size);
	ASSERT_EQ(fa_write_str(FA_SYSFS_DEFAULT_BYTES, "auto"), 0);
	ASSERT_EQ(fa_system_default(&bytes, &is_auto), 0);
	EXPECT_TRUE(is_auto);
}

/*
 * Faults more than two pages from the last one, none on the first page of
 * the file, map their own page.
 */
TEST_F(system_auto, lookups_map_their_own_page)
{
	unsigned long at = self->m.table + 8;

	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at), 1);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at + 5), 1);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at - 3), 1);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at + 9), 1);
	EXPECT_EQ(fa_count_present(self->m.map, self->m.pages), 4);
}

/*
 * A fault within twice the window of the last one doubles the window,
 * aligned to its size: 1, 2, 4, 8 pages from an aligned start.
 */
TEST_F(system_auto, a_scan_doubles_the_window)
{
	unsigned long at = self->m.table + 8, nr;

	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at), 1);
	for (nr = 2; nr <= 8; nr *= 2) {
		EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at + nr),
			  (long)nr);
		EXPECT_TRUE(fa_page_present(self->m.map + (at + 2 * nr - 1) *
					    fa_page_size));
	}
	/* 1 + 2 + 4 + 8: the page after the first was never in a window. */
	EXPECT_EQ(fa_count_present(self->m.map, self->m.pages), 15);
}

/* A scan from @at whose faults map 1, 2, 4 and 8 pages, as they should. */
static bool scan_to_eight_pages(struct fa_table_map *m, unsigned long at)
{
	unsigned long nr;

	if (fa_fault_maps(m->map, m->pages, at) != 1)
		return false;
	for (nr = 2; nr <= 8; nr *= 2)
		if (fa_fault_maps(m->map, m->pages, at + nr) != (long)nr)
			return false;
	return true;
}

/*
 * A fault away from a scan maps its own page and leaves the scan's window
 * alone: the scan's next faults double it on, 16 then 32 pages.
 */
TEST_F(system_auto, a_lookup_keeps_the_scans_window)
{
	/* far is in the table before the scan's, out of its reach. */
	unsigned long at = self->m.table + 8, far = 5;

	ASSERT_TRUE(scan_to_eight_pages(&self->m, at));
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, far), 1);
	/* 16 pages from at + 8, the first 8 of them mapped already. */
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at + 16), 8);
	if (self->max_order >= 5)
		EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at + 24),
			  32);
}

/*
 * Two faults in a row away from a scan halve its window, and the scan's
 * next fault doubles it again: 8 pages, then 16.
 */
TEST_F(system_auto, two_lookups_in_a_row_halve_the_scans_window)
{
	unsigned long at = self->m.table + 8, far = 5;

	ASSERT_TRUE(scan_to_eight_pages(&self->m, at));
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, far), 1);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, far + 10), 1);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at + 16), 8);
	if (self->max_order >= 4)
		EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at + 24),
			  16);
}

/*
 * Two scans of one mapping, interleaved fault by fault as two threads or
 * two cursors read it, each double their own window: 1, 2, 4, 8 pages.
 */
TEST_F(system_auto, two_interleaved_scans_both_grow)
{
	unsigned long a = self->m.table + 8, b = 2 * self->m.table + 8, nr;

	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, a), 1);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, b), 1);
	for (nr = 2; nr <= 8; nr *= 2) {
		EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, a + nr),
			  (long)nr);
		EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, b + nr),
			  (long)nr);
	}
}

/*
 * The first page of a file gets the window readahead reads at a time,
 * or the fixed window where the file has no readahead (tmpfs), at most a
 * page table: where scans and reads of small files start.
 */
TEST_F(system_auto, the_first_page_gets_the_readahead_window)
{
	unsigned long nr = fa_readahead_pages(self->m.fd), first, count;

	if (!nr)
		nr = self->base;
	nr = fa_rounddown_pow2(nr);
	if (nr > self->m.table)
		nr = self->m.table;
	ASSERT_EQ(fa_touch(self->m.map), fa_pattern(0));
	fa_expected_window(0, nr, 0, self->m.table, &first, &count);
	EXPECT_TRUE(fa_present_exactly(self->m.map, self->m.pages, first, count))
		TH_LOG("first page of the file, %lu pages expected", nr);
}

/*
 * A scan from the start maps a whole page table per fault after a few
 * faults, and each later table in one.
 */
TEST_F(system_auto, scan_reaches_a_page_table)
{
	long faults, first_full;

	faults = fa_scan(self->m.map, self->m.pages, self->m.table, 0, 1,
			 &first_full);
	ASSERT_GE(faults, 0);
	EXPECT_GT(first_full, 0);
	EXPECT_LE(first_full, self->max_order + 2);
	EXPECT_LE(faults, first_full + 2)
		TH_LOG("%ld faults for 3 page tables", faults);
}

/* A hint, advice or process default still decides for its mappings. */
TEST_F(system_auto, what_a_process_asks_for_wins)
{
	size_t len = self->m.table * fa_page_size;
	uint8_t *second = self->m.map + len, *third = second + len;

	ASSERT_EQ(fa_set_hint(self->m.map, self->m.table, 0), 0);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, 5), 1);
	ASSERT_EQ(madvise(second, len, MADV_RANDOM), 0);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, self->m.table + 5), 1);
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, 2, 0, 0, 0), 0);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, 2 * self->m.table + 5), 4);
	EXPECT_TRUE(fa_page_present(third + 4 * fa_page_size));
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_UNSET, 0, 0, 0), 0);
}

TEST_HARNESS_MAIN
