// SPDX-License-Identifier: GPL-2.0
/*
 * A large window on one mapping must not hide another mapping's random
 * access from readahead.  Both map one open file, whose struct file holds
 * the mmap_miss count that turns read-around off after enough misses: a
 * fault-around credits it at most once, for the faulting folio, however
 * many cached pages its window maps.  Page-cache residency comes from
 * mincore(); the file is on ext4 (FA_EXT4DIR), which has readahead.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "fa_util.h"

/* Random faults of the plain mapping; one scan fault per SCAN_EVERY. */
#define RANDOM_FAULTS	200
#define SCAN_EVERY	4
/* mm/filemap.c's MMAP_LOTSAMISS: misses after which read-around stops. */
#define LOTSAMISS	100
/* The last faults, all past LOTSAMISS net misses, must read one page. */
#define LAST_FAULTS	30
static_assert(RANDOM_FAULTS - LAST_FAULTS -
	      (RANDOM_FAULTS - LAST_FAULTS) / SCAN_EVERY - 1 > LOTSAMISS,
	      "the last faults come after LOTSAMISS net misses");

static long cached_pages(void *map, unsigned long pages, unsigned char *vec)
{
	unsigned long i;
	long n = 0;

	if (mincore(map, pages * fa_page_size, vec))
		return -1;
	for (i = 0; i < pages; i++)
		n += vec[i] & 1;
	return n;
}

TEST(large_window_does_not_hide_random_misses)
{
	const char *dir = fa_fs_dir("ext4");
	unsigned long ra, spacing, table, scan, pages, i, next = 0;
	unsigned char *vec;
	uint8_t *plain, *wide;
	long before, after;
	int fd, max_order;

	max_order = fa_max_order();
	if (max_order < 0)
		SKIP(return, "kernel without fault-around hints");
	if (!dir || !fa_dir_is(dir, "ext4"))
		SKIP(return, "no ext4 directory (FA_EXT4DIR)");
	table = 1UL << max_order;
	/* The plain mapping's faults: spaced beyond any read-around. */
	scan = 2 * table;
	fd = fa_make_file(dir, 1);
	ASSERT_GE(fd, 0);
	ra = fa_readahead_pages(fd);
	close(fd);
	if (ra < 2)
		SKIP(return, "the ext4 device reads ahead %lu pages", ra);
	spacing = 2 * ra + 2;
	pages = scan + RANDOM_FAULTS * spacing;
	/* In 1M writes: the plain part is dropped, the folios do not matter. */
	fd = fa_make_file_chunked(dir, pages, 1 << 20);
	ASSERT_GE(fd, 0) TH_LOG("%lu pages in %s: %s", pages, dir, strerror(errno));
	/* The wide mapping's pages stay cached: its faults are all hits. */
	ASSERT_EQ(fsync(fd), 0);
	ASSERT_EQ(posix_fadvise(fd, scan * fa_page_size, 0, POSIX_FADV_DONTNEED), 0);
	plain = mmap(NULL, pages * fa_page_size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(plain, MAP_FAILED);
	wide = fa_map_aligned(fd, scan, 0, MAP_SHARED, table, 0);
	ASSERT_NE(wide, MAP_FAILED);
	vec = malloc(pages);
	ASSERT_NE(vec, NULL);
	if (cached_pages(plain, pages, vec) > (long)scan)
		SKIP(goto out, "the page cache of the new file cannot be dropped");
	ASSERT_EQ(madvise(wide, scan * fa_page_size,
			  MADV_FAULTAROUND_ORDER(max_order)), 0);

	for (i = 0; i < RANDOM_FAULTS; i++) {
		uint8_t *slot = plain + (scan + i * spacing) * fa_page_size;
		unsigned long idx = scan + i * spacing + spacing / 2;

		/* A miss reads around it inside its own slot: count that. */
		before = cached_pages(slot, spacing, vec);
		ASSERT_EQ(fa_touch(plain + idx * fa_page_size),
			  fa_pattern(idx * fa_page_size));
		after = cached_pages(slot, spacing, vec);
		ASSERT_GE(before, 0);
		ASSERT_GE(after, 0);
		if (i == 0 && after - before < 2)
			SKIP(goto out, "a miss read %ld pages: no read-around here",
			     after - before);
		if (i >= RANDOM_FAULTS - LAST_FAULTS)
			EXPECT_EQ(after - before, 1)
				TH_LOG("miss %lu read %ld pages", i, after - before);
		if (i % SCAN_EVERY == 0) {
			/* One fault of the wide mapping: a whole window of hits. */
			ASSERT_EQ(fa_zap(wide, scan), 0);
			fa_touch(wide + next * fa_page_size);
			next = (next + 1) % scan;
		}
	}
out:
	free(vec);
	munmap(wide, scan * fa_page_size);
	munmap(plain, pages * fa_page_size);
	close(fd);
}

TEST_HARNESS_MAIN
