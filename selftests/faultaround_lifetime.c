// SPDX-License-Identifier: GPL-2.0
/*
 * MADV_FAULTAROUND: the per-VMA fault-around order's lifetime with its VMA,
 * split by mprotect and by a partial madvise, merged, moved and grown by
 * mremap, cut by munmap and copied by fork, on tmpfs and on ext4,
 * MAP_SHARED and MAP_PRIVATE.  The order's window is faultaround_hints'.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "fa_util.h"

FIXTURE(hint)
{
	struct fa_table_map m;	/* 2 page tables */
};

FIXTURE_VARIANT(hint)
{
	const char *fs;
	int map_flags;
};

FIXTURE_VARIANT_ADD(hint, tmpfs_shared) { .fs = "tmpfs", .map_flags = MAP_SHARED };
FIXTURE_VARIANT_ADD(hint, tmpfs_private) { .fs = "tmpfs", .map_flags = MAP_PRIVATE };
FIXTURE_VARIANT_ADD(hint, ext4_shared) { .fs = "ext4", .map_flags = MAP_SHARED };
FIXTURE_VARIANT_ADD(hint, ext4_private) { .fs = "ext4", .map_flags = MAP_PRIVATE };

FIXTURE_SETUP(hint)
{
	const char *why;
	int ret = fa_table_map_open(&self->m, variant->fs, variant->map_flags,
				    2, &why);

	if (ret > 0)
		SKIP(return, "%s (%s)", why, variant->fs);
	ASSERT_EQ(ret, 0) TH_LOG("%s on %s: %s", why, variant->fs, strerror(errno));
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_UNSET, 0, 0, 0), 0);
}

FIXTURE_TEARDOWN(hint)
{
	fa_table_map_close(&self->m);
}

/* mprotect of the middle splits the VMA in three; every part keeps it. */
TEST_F(hint, split_by_mprotect_keeps_the_hint)
{
	uint8_t *mid = self->m.map + (self->m.table / 2) * fa_page_size;
	unsigned long s, e;

	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, 3), 0);
	ASSERT_EQ(mprotect(mid, self->m.table * fa_page_size, PROT_READ | PROT_WRITE), 0);
	EXPECT_EQ(fa_smaps_order(self->m.map, &s, &e), 3);
	EXPECT_EQ(e, (unsigned long)mid);
	EXPECT_EQ(fa_smaps_order(mid, &s, &e), 3);
	EXPECT_EQ(s, (unsigned long)mid);
	EXPECT_EQ(fa_smaps_order(self->m.map + (self->m.pages - 1) * fa_page_size, NULL, NULL), 3);
	EXPECT_TRUE(fa_window_is(&self->m, fa_probe(&self->m), 8));
}

TEST_F(hint, partial_madvise_splits)
{
	uint8_t *mid = self->m.map + self->m.table * fa_page_size;

	ASSERT_EQ(fa_set_hint(mid, 4, 2), 0);
	EXPECT_EQ(fa_smaps_order(self->m.map, NULL, NULL), -1);
	EXPECT_EQ(fa_smaps_order(mid, NULL, NULL), 2);
	EXPECT_EQ(fa_smaps_order(mid + 4 * fa_page_size, NULL, NULL), -1);
}

/* Different hints keep neighbours apart; the same hint lets them merge. */
TEST_F(hint, different_hints_do_not_merge)
{
	uint8_t *mid = self->m.map + self->m.table * fa_page_size;
	unsigned long s, e;

	ASSERT_EQ(fa_set_hint(self->m.map, self->m.table, 1), 0);
	ASSERT_EQ(fa_set_hint(mid, self->m.table, 2), 0);
	EXPECT_EQ(fa_smaps_order(self->m.map, &s, &e), 1);
	EXPECT_EQ(e, (unsigned long)mid);
	ASSERT_EQ(fa_set_hint(mid, self->m.table, 1), 0);
	EXPECT_EQ(fa_smaps_order(self->m.map, &s, &e), 1);
	EXPECT_EQ(s, (unsigned long)self->m.map);
	EXPECT_EQ(e, (unsigned long)(self->m.map + self->m.pages * fa_page_size));
}

TEST_F(hint, mremap_move_keeps_the_hint)
{
	size_t len = self->m.pages * fa_page_size;
	uint8_t *dst, *moved;

	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, 2), 0);
	dst = fa_map_aligned(self->m.fd, self->m.pages, 0, variant->map_flags, self->m.table, 0);
	ASSERT_NE(dst, MAP_FAILED);
	moved = mremap(self->m.map, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	ASSERT_EQ(moved, dst);
	self->m.map = moved;
	EXPECT_EQ(fa_smaps_order(moved, NULL, NULL), 2);
	EXPECT_TRUE(fa_window_is(&self->m, fa_probe(&self->m), 4));
}

TEST_F(hint, mremap_grow_keeps_the_hint)
{
	size_t half = self->m.table * fa_page_size;
	uint8_t *grown;

	ASSERT_EQ(munmap(self->m.map + half, half), 0);
	ASSERT_EQ(fa_set_hint(self->m.map, self->m.table, 3), 0);
	grown = mremap(self->m.map, half, 2 * half, MREMAP_MAYMOVE);
	ASSERT_NE(grown, MAP_FAILED);
	self->m.map = grown;
	EXPECT_EQ(fa_smaps_order(grown + 2 * half - fa_page_size, NULL, NULL), 3);
}

TEST_F(hint, munmap_of_the_middle_keeps_both_ends)
{
	uint8_t *mid = self->m.map + (self->m.table / 2) * fa_page_size;

	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, 4), 0);
	ASSERT_EQ(munmap(mid, self->m.table * fa_page_size), 0);
	EXPECT_EQ(fa_smaps_order(self->m.map, NULL, NULL), 4);
	EXPECT_EQ(fa_smaps_order(mid + self->m.table * fa_page_size, NULL, NULL), 4);
	EXPECT_EQ(fa_smaps_order(mid, NULL, NULL), -2);
}

TEST_F(hint, fork_copies_the_hint)
{
	int status;
	pid_t pid;

	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, 2), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		_exit(fa_smaps_order(self->m.map, NULL, NULL) == 2 &&
		      fa_window_is(&self->m, fa_probe(&self->m), 4) ? 0 : 1);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST_HARNESS_MAIN
