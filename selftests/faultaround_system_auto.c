// SPDX-License-Identifier: GPL-2.0
/*
 * The adaptive order as the system default: "auto" in
 * /sys/kernel/mm/faultaround/default_bytes.  It reads back as written, it
 * never maps less than the window it replaces, a scan still ramps up to a
 * page table per fault, and whatever a process asked for still wins.
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

/* The window "auto" starts from: 64K, the generic stock default. */
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
 * Faults with no run of mapped neighbours map the window "auto" replaced,
 * also next to earlier such windows, on either side: never less than
 * before, and no more.  Two windows of one page in a row are a run; of
 * more pages, a run takes half a page table.
 */
TEST_F(system_auto, lookups_map_the_stock_window)
{
	unsigned long b = self->base, at = self->m.table + 8 * b, at2 = at + 16 * b;

	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at), (long)b);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at + b), (long)b);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at2), (long)b);
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at2 - 1), (long)b);
	EXPECT_EQ(fa_count_present(self->m.map, self->m.pages), (long)(4 * b));
	EXPECT_TRUE(fa_page_present(self->m.map + (at2 - b) * fa_page_size));
	/* Behind at + 2b: [at, at + 2b), two windows. */
	EXPECT_EQ(fa_fault_maps(self->m.map, self->m.pages, at + 2 * b), b > 1 ? (long)b : 6L);
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
