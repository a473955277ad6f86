// SPDX-License-Identifier: GPL-2.0
/*
 * Stock fault-around, observed exactly: what a read fault on a file page in
 * the page cache maps without any hint, under the system default and under
 * every value of debugfs fault_around_bytes.
 */

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "vm_util.h"
#include "fa_util.h"

#define STOCK_FAULT_AROUND_BYTES 65536UL

FIXTURE(stock)
{
	unsigned long table;	/* pages per page table */
	unsigned long pages;	/* file and mapping size, two page tables */
	unsigned long saved_bytes;
	bool saved;
	bool saved_auto;	/* default_bytes read "auto" */
	int fd;
	void *map;
};

FIXTURE_VARIANT(stock)
{
	int map_flags;
};

FIXTURE_VARIANT_ADD(stock, shared)
{
	.map_flags = MAP_SHARED,
};

FIXTURE_VARIANT_ADD(stock, private)
{
	.map_flags = MAP_PRIVATE,
};

FIXTURE_SETUP(stock)
{
	const char *dir = getenv("FA_TESTDIR") ?: "/tmp";
	unsigned long bytes;
	int order;

	/* The stock window is bounded by the page table, not by the hint cap. */
	if (!fa_table_pages())
		SKIP(return, "kernel without fault-around hints (max_order)");
	self->table = fa_pte_table_pages();
	if (!self->table)
		SKIP(return, "page table size unknown (no THP, max_order capped)");
	/*
	 * A process default (faultaround -a, PR_SET_FAULTAROUND) decides the
	 * window of every mapping without a hint, so no system window is
	 * observable here; the stock one is not what is promised then.
	 */
	order = prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0);
	if (order >= 0 && order != PR_FAULTAROUND_UNSET)
		SKIP(return, "a process default is set (order %d): not the stock window", order);
	self->pages = 2 * self->table;
	/* Quietly: read_sysfs() reports a file it cannot open. */
	self->saved = !access(FA_DEBUGFS_BYTES, R_OK) &&
		      !read_sysfs(FA_DEBUGFS_BYTES, &self->saved_bytes);
	/*
	 * Writing fault_around_bytes replaces "auto" as the system default,
	 * so the teardown must know to put "auto" back.
	 */
	if (fa_system_default(&bytes, &self->saved_auto))
		self->saved_auto = false;
	self->fd = fa_make_file(dir, self->pages);
	ASSERT_GE(self->fd, 0) TH_LOG("test file in %s: %s", dir, strerror(errno));
	self->map = fa_map_aligned(self->fd, self->pages, 0, variant->map_flags,
				   self->table, 0);
	ASSERT_NE(self->map, MAP_FAILED);
}

FIXTURE_TEARDOWN(stock)
{
	if (self->saved && fa_may_change_system())
		EXPECT_EQ(fa_restore_system_default(self->saved_auto, self->saved_bytes), 0)
			TH_LOG("restoring the system default: %s", strerror(errno));
	if (self->map && self->map != MAP_FAILED)
		munmap(self->map, self->pages * fa_page_size);
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * Whether a test may write fault_around_bytes: as root without
 * FA_KEEP_SYSTEM, and once it was read (@saved), so that the teardown puts
 * it back.
 */
static bool may_set_bytes(bool saved)
{
	return saved && fa_may_change_system();
}

/* The page we fault on: inside the second table, off any window boundary. */
static unsigned long probe_index(unsigned long table)
{
	return table + table / 2 + 3;
}

static void set_bytes(struct __test_metadata *_metadata, unsigned long bytes)
{
	ASSERT_EQ(fa_write_ulong(FA_DEBUGFS_BYTES, bytes), 0)
		TH_LOG("write %lu to fault_around_bytes: %s", bytes, strerror(errno));
}

/* @map: @pages pages, two page tables of @table pages each. */
static void expect_window(struct __test_metadata *_metadata, uint8_t *map,
			  unsigned long pages, unsigned long table,
			  unsigned long nr)
{
	unsigned long idx = probe_index(table), first, count;

	ASSERT_EQ(fa_zap(map, pages), 0);
	ASSERT_EQ(fa_count_present(map, pages), 0);
	ASSERT_EQ(fa_touch(map + idx * fa_page_size), fa_pattern(idx * fa_page_size));
	/* Clamped to the page table holding idx: [table, 2 * table). */
	fa_expected_window(idx, nr, table, 2 * table, &first, &count);
	EXPECT_TRUE(fa_present_exactly(map, pages, first, count))
		TH_LOG("window of %lu pages around page %lu", nr, idx);
}

static unsigned long pages_of(unsigned long bytes)
{
	unsigned long nr = 1;

	while (nr * 2 * fa_page_size <= bytes)
		nr *= 2;
	return nr;
}

/* Stock: 64K of window, so 16 pages on 4K pages and none at all on 64K. */
TEST_F(stock, default_window)
{
	unsigned long bytes;

	if (!self->saved)
		SKIP(return, "debugfs fault_around_bytes not readable");
	/*
	 * Auto may map the stock window on this pattern, but that is not
	 * what the stock window promises, so it is not asserted here.
	 */
	if (self->saved_auto)
		SKIP(return, "the system default is auto, not the stock window");
	if (self->saved_bytes != STOCK_FAULT_AROUND_BYTES)
		SKIP(return, "the system default is %lu bytes, not the stock %lu",
		     self->saved_bytes, STOCK_FAULT_AROUND_BYTES);
	bytes = STOCK_FAULT_AROUND_BYTES;
	expect_window(_metadata, self->map, self->pages, self->table, pages_of(bytes));
	if (fa_page_size == 65536)
		EXPECT_EQ(fa_count_present(self->map, self->pages), 1);
	if (fa_page_size == 4096)
		EXPECT_EQ(fa_count_present(self->map, self->pages), 16);
}

TEST_F(stock, every_system_window)
{
	unsigned long nr;

	if (!may_set_bytes(self->saved))
		SKIP(return, "changes the system default: guest only, with debugfs");
	for (nr = 1; nr <= self->table; nr *= 2) {
		set_bytes(_metadata, nr * fa_page_size);
		expect_window(_metadata, self->map, self->pages, self->table, nr);
	}
}

TEST_F(stock, rounds_down_to_power_of_two)
{
	if (!may_set_bytes(self->saved))
		SKIP(return, "changes the system default: guest only, with debugfs");
	set_bytes(_metadata, 5 * fa_page_size + 1);
	expect_window(_metadata, self->map, self->pages, self->table, 4);
}

TEST_F(stock, rejects_more_than_a_table)
{
	if (!may_set_bytes(self->saved))
		SKIP(return, "changes the system default: guest only, with debugfs");
	EXPECT_EQ(fa_write_ulong(FA_DEBUGFS_BYTES, 2 * self->table * fa_page_size), -1);
	EXPECT_EQ(errno, EINVAL);
}

/* A window never reaches below the VMA's start. */
TEST_F(stock, clamped_to_vma)
{
	unsigned long skew = 3, first, count, idx = skew + 1, pages;
	uint8_t *map;

	if (!may_set_bytes(self->saved))
		SKIP(return, "changes the system default: guest only, with debugfs");
	set_bytes(_metadata, self->table * fa_page_size);
	/* A VMA that starts 3 pages into a table and ends 3 pages short of it. */
	pages = self->table - 2 * skew;
	map = fa_map_aligned(self->fd, pages, 0, variant->map_flags, self->table, skew);
	ASSERT_NE(map, MAP_FAILED);
	EXPECT_EQ(fa_touch(map + (idx - skew) * fa_page_size),
		  fa_pattern((idx - skew) * fa_page_size));
	/* In table coordinates the VMA is [skew, table - skew). */
	fa_expected_window(idx, self->table, skew, self->table - skew, &first, &count);
	EXPECT_EQ(first, skew);
	EXPECT_TRUE(fa_present_exactly(map, pages, first - skew, count));
	munmap(map, pages * fa_page_size);
}

/* The largest window is exactly the page table holding the fault. */
TEST_F(stock, clamped_to_page_table)
{
	if (!may_set_bytes(self->saved))
		SKIP(return, "changes the system default: guest only, with debugfs");
	set_bytes(_metadata, self->table * fa_page_size);
	expect_window(_metadata, self->map, self->pages, self->table, self->table);
	EXPECT_EQ(fa_count_present(self->map, self->pages), (long)self->table);
}

/* Touching every page costs one minor fault per window. */
TEST_F(stock, minor_faults_per_window)
{
	unsigned long nr, i;
	long before, faults;
	uint8_t *p = self->map;
	unsigned int sum = 0;

	if (!may_set_bytes(self->saved))
		SKIP(return, "changes the system default: guest only, with debugfs");
	for (nr = 1; nr <= self->table; nr *= 2) {
		set_bytes(_metadata, nr * fa_page_size);
		ASSERT_EQ(fa_zap(self->map, self->pages), 0);
		before = fa_minor_faults();
		for (i = 0; i < self->pages; i++)
			sum += fa_touch(p + i * fa_page_size);
		faults = fa_minor_faults() - before;
		EXPECT_EQ(faults, (long)((self->pages + nr - 1) / nr))
			TH_LOG("window %lu pages", nr);
	}
	(void)sum;
}

TEST_HARNESS_MAIN
