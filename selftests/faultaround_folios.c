// SPDX-License-Identifier: GPL-2.0
/*
 * Fault-around when the page cache holds large folios: a fault maps every
 * folio that meets its window whole (within the VMA and the page table),
 * so the window is a floor, and order 0 or MADV_RANDOM map the faulting
 * page's own folio and no neighbour.  The files are written in one go, so
 * that ext4 caches them in large folios, or live on a tmpfs mounted with
 * huge=always; the folio of each page comes from /proc/kpageflags.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "vm_util.h"
#include "fa_util.h"

FIXTURE(folios)
{
	unsigned long table, pages;
	unsigned long *head;	/* index of the first page of each page's folio */
	char tmpfs[32];		/* our own tmpfs mount, or "" */
	int fd;
	uint8_t *map;
};

FIXTURE_VARIANT(folios)
{
	const char *fs;
	unsigned long chunk_pages;	/* pages per write; 0: the file at once */
};

FIXTURE_VARIANT_ADD(folios, ext4) { .fs = "ext4" };
/* Written 16 pages at a time: folios of 16 pages, where ext4 makes them. */
FIXTURE_VARIANT_ADD(folios, ext4_16_page_writes) { .fs = "ext4", .chunk_pages = 16 };
FIXTURE_VARIANT_ADD(folios, tmpfs_huge_always) { .fs = "tmpfs huge=always" };

/*
 * Fill @head from the PFNs of a populated mapping of the file and their
 * kpageflags: a compound tail belongs to the folio of the page before it.
 * Returns how many pages are tails of large folios, or -1.
 */
static long folio_heads(int fd, unsigned long pages, unsigned long *head)
{
	size_t len = pages * fa_page_size;
	unsigned long i, pfn;
	int pm = -1, kpf = -1;
	long large = -1;
	uint64_t flags;
	char *probe;

	probe = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (probe == MAP_FAILED || madvise(probe, len, MADV_POPULATE_READ))
		goto out;
	pm = open("/proc/self/pagemap", O_RDONLY);
	kpf = open("/proc/kpageflags", O_RDONLY);
	if (pm < 0 || kpf < 0)
		goto out;
	large = 0;
	for (i = 0; i < pages; i++) {
		/* -1: not present; 0: the PFN is hidden (not root). */
		pfn = pagemap_get_pfn(pm, probe + i * fa_page_size);
		if (pfn == -1UL || !pfn || pageflags_get(pfn, kpf, &flags)) {
			large = -1;
			goto out;
		}
		head[i] = i && (flags & KPF_COMPOUND_TAIL) ? head[i - 1] : i;
		if (head[i] != i)
			large++;
	}
out:
	if (pm >= 0)
		close(pm);
	if (kpf >= 0)
		close(kpf);
	if (probe != MAP_FAILED)
		munmap(probe, len);
	return large;
}

FIXTURE_SETUP(folios)
{
	const char *dir = NULL;
	long large;

	self->fd = -1;
	self->map = MAP_FAILED;
	self->head = NULL;
	self->tmpfs[0] = '\0';
	self->table = fa_table_pages();
	if (!self->table)
		SKIP(return, "kernel without fault-around hints");
	if (geteuid())
		SKIP(return, "needs root for the PFNs in pagemap and kpageflags");
	if (!strcmp(variant->fs, "ext4")) {
		dir = fa_fs_dir("ext4");
		if (!dir || !fa_dir_is(dir, "ext4"))
			SKIP(return, "no ext4 directory (FA_EXT4DIR)");
	} else {
		if (!fa_may_change_system())
			SKIP(return, "mounts a tmpfs: FA_KEEP_SYSTEM is set");
		strcpy(self->tmpfs, "/tmp/fa_folios.XXXXXX");
		if (!mkdtemp(self->tmpfs)) {
			self->tmpfs[0] = '\0';
			ASSERT_TRUE(false) TH_LOG("mkdtemp: %s", strerror(errno));
		}
		if (mount("tmpfs", self->tmpfs, "tmpfs", 0, "huge=always")) {
			rmdir(self->tmpfs);
			self->tmpfs[0] = '\0';
			SKIP(return, "tmpfs refuses huge=always: %s", strerror(errno));
		}
		dir = self->tmpfs;
	}
	self->pages = 2 * self->table;
	self->head = calloc(self->pages, sizeof(*self->head));
	ASSERT_NE(self->head, NULL);
	self->fd = fa_make_file_chunked(dir, self->pages,
					(variant->chunk_pages ?: self->pages) * fa_page_size);
	ASSERT_GE(self->fd, 0) TH_LOG("test file in %s: %s", dir, strerror(errno));
	large = folio_heads(self->fd, self->pages, self->head);
	ASSERT_GE(large, 0) TH_LOG("reading the folios from kpageflags failed");
	if (!large)
		SKIP(return, "the page cache of %s holds no large folio", variant->fs);
	/* Aligned to a PMD table's span: the mapping crosses no PMD table. */
	self->map = fa_map_aligned(self->fd, self->pages, 0, MAP_SHARED,
				   512 * self->table, 0);
	ASSERT_NE(self->map, MAP_FAILED);
}

FIXTURE_TEARDOWN(folios)
{
	if (self->map != MAP_FAILED)
		munmap(self->map, self->pages * fa_page_size);
	if (self->fd >= 0)
		close(self->fd);
	free(self->head);
	if (self->tmpfs[0]) {
		umount(self->tmpfs);
		rmdir(self->tmpfs);
	}
}

/*
 * The first page of the second page table that is not the first of its
 * folio, in a folio of at least @min pages; 0 when there is none.
 */
static unsigned long inside_a_large_folio(const unsigned long *head,
					  unsigned long table, unsigned long min)
{
	unsigned long i, n;

	for (i = table; i < 2 * table; i++) {
		if (head[i] == i)
			continue;
		for (n = 0; head[i] + n < 2 * table && head[head[i] + n] == head[i]; n++)
			;
		if (n >= min)
			return i;
	}
	return 0;
}

/*
 * Fault page @idx with a window of @nr pages; check that exactly the
 * folios meeting the window are mapped, each whole.
 */
static void expect_whole_folios(struct __test_metadata *_metadata,
				const unsigned long *head, uint8_t *map,
				unsigned long pages, unsigned long table,
				unsigned long idx, unsigned long nr)
{
	unsigned long lo = idx / table * table, first, count, i;
	bool *present = calloc(pages, sizeof(*present));
	bool *want = calloc(pages, sizeof(*want));

	ASSERT_TRUE(present && want);
	fa_expected_window(idx, nr, lo, lo + table, &first, &count);
	for (i = 0; i < pages; i++)
		want[i] = head[i] >= head[first] &&
			  head[i] <= head[first + count - 1];
	ASSERT_EQ(fa_touch(map + idx * fa_page_size),
		  fa_pattern(idx * fa_page_size));
	ASSERT_EQ(fa_present(map, pages, present), 0);
	for (i = 0; i < pages; i++)
		EXPECT_EQ(present[i], want[i])
			TH_LOG("page %lu (folio at %lu), fault on %lu, window %lu+%lu",
			       i, head[i], idx, first, count);
	free(present);
	free(want);
}

TEST_F(folios, order0_maps_the_faulting_folio_whole)
{
	unsigned long idx = inside_a_large_folio(self->head, self->table, 2);

	if (!idx)
		SKIP(return, "no large folio in the second page table");
	ASSERT_EQ(madvise(self->map, self->pages * fa_page_size,
			  MADV_FAULTAROUND_ORDER(0)), 0);
	expect_whole_folios(_metadata, self->head, self->map, self->pages,
			    self->table, idx, 1);
}

TEST_F(folios, random_maps_the_faulting_folio_whole)
{
	unsigned long idx = inside_a_large_folio(self->head, self->table, 2);

	if (!idx)
		SKIP(return, "no large folio in the second page table");
	ASSERT_EQ(madvise(self->map, self->pages * fa_page_size, MADV_RANDOM), 0);
	expect_whole_folios(_metadata, self->head, self->map, self->pages,
			    self->table, idx, 1);
}

/* A two-page window inside a larger folio maps all of the folio. */
TEST_F(folios, window_is_a_floor)
{
	unsigned long idx = inside_a_large_folio(self->head, self->table, 4);

	if (!idx)
		SKIP(return, "no folio of 4 pages or more in the second page table");
	ASSERT_EQ(madvise(self->map, self->pages * fa_page_size,
			  MADV_FAULTAROUND_ORDER(1)), 0);
	expect_whole_folios(_metadata, self->head, self->map, self->pages,
			    self->table, idx, 2);
}

/*
 * The first page of a folio that follows a folio of at least @min pages in
 * the same page table, with at least one more folio after it in that
 * table; 0 when there is none.
 */
static unsigned long after_a_large_folio(const unsigned long *head,
					 unsigned long table, unsigned long min)
{
	unsigned long i, end;

	for (i = 1; i + 1 < 2 * table; i++) {
		if (head[i] != i || !head[i - 1] || i - head[i - 1] < min ||
		    head[i - 1] / table != i / table)
			continue;
		for (end = i; end < 2 * table && head[end] == i; end++)
			;
		if (end < 2 * table && end / table == i / table)
			return i;
	}
	return 0;
}

/*
 * A fault maps its whole folio, and the next fault of a scan is on the
 * page after it: the self-sizing window takes that for the scan's next
 * window and doubles it from the folio's size, so the second fault maps
 * the aligned window of twice the folio around it, and nothing else.
 */
TEST_F(folios, auto_scan_reaches_past_a_large_folio)
{
	unsigned long idx = after_a_large_folio(self->head, self->table, 4), i;
	unsigned long prev, size, from;
	bool *present = calloc(self->pages, sizeof(*present));

	ASSERT_NE(present, NULL);
	if (!idx) {
		free(present);
		SKIP(return, "no folio of 4 pages or more followed by two others");
	}
	prev = self->head[idx - 1];
	size = idx - prev;
	from = idx & ~(2 * size - 1);
	ASSERT_EQ(madvise(self->map, self->pages * fa_page_size,
			  MADV_FAULTAROUND_AUTO), 0);
	ASSERT_EQ(fa_touch(self->map + prev * fa_page_size),
		  fa_pattern(prev * fa_page_size));
	ASSERT_EQ(fa_touch(self->map + idx * fa_page_size),
		  fa_pattern(idx * fa_page_size));
	ASSERT_EQ(fa_present(self->map, self->pages, present), 0);
	for (i = 0; i < self->pages; i++)
		EXPECT_EQ(present[i], self->head[i] == prev ||
			  (i >= from && i < from + 2 * size))
			TH_LOG("page %lu (folio at %lu), faults on %lu and %lu, folio of %lu",
			       i, self->head[i], prev, idx, size);
	free(present);
}

TEST_HARNESS_MAIN
