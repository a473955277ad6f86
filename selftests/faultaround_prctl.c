// SPDX-License-Identifier: GPL-2.0
/*
 * PR_SET_FAULTAROUND / PR_GET_FAULTAROUND: the per-process default, its
 * errors, its visibility and its lifetime across fork and execve.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "fa_util.h"

/* Run as "faultaround_prctl --exec-child": report what survived execve. */
static int exec_child(void)
{
	int order = prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0);
	char line[256];
	int hinted = 0;
	FILE *f;

	f = fopen("/proc/self/smaps", "r");
	if (!f)
		return 100;
	while (fgets(line, sizeof(line), f))
		hinted += !strncmp(line, "FaultAroundOrder:", 17);
	fclose(f);
	/* exit status: the default, or 101 if any VMA kept a hint */
	return hinted ? 101 : order;
}

static int status_line(char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "FaultAroundOrder:", 17)) {
			snprintf(buf, len, "%s", line + 17);
			buf[strcspn(buf, "\n")] = '\0';
			found = 0;
		}
	}
	fclose(f);
	return found;
}

FIXTURE(prctl)
{
	int max_order;
};

FIXTURE_SETUP(prctl)
{
	self->max_order = fa_max_order();
	if (self->max_order < 0)
		SKIP(return, "kernel without PR_SET_FAULTAROUND");
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_UNSET, 0, 0, 0), 0);
}

FIXTURE_TEARDOWN(prctl)
{
	prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_UNSET, 0, 0, 0);
}

TEST_F(prctl, get_returns_unset_when_none_is_set)
{
	EXPECT_EQ(prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0), PR_FAULTAROUND_UNSET);
}

TEST_F(prctl, set_then_get_every_order)
{
	int order;

	for (order = 0; order <= self->max_order; order++) {
		ASSERT_EQ(prctl(PR_SET_FAULTAROUND, order, 0, 0, 0), 0);
		EXPECT_EQ(prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0), order);
	}
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_UNSET, 0, 0, 0), 0);
	EXPECT_EQ(prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0), PR_FAULTAROUND_UNSET);
}

/* Up to 253, an order above the maximum is stored, and reported, as it. */
TEST_F(prctl, order_above_max_is_clamped)
{
	char val[256], want[32];

	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, self->max_order + 1, 0, 0, 0), 0);
	EXPECT_EQ(prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0), self->max_order);
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, 1, 0, 0, 0), 0);
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, 253, 0, 0, 0), 0);
	EXPECT_EQ(prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0), self->max_order);
	snprintf(want, sizeof(want), "\t%d", self->max_order);
	ASSERT_EQ(status_line(val, sizeof(val)), 0);
	EXPECT_STREQ(val, want);
}

TEST_F(prctl, out_of_range_is_einval_and_changes_nothing)
{
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, 1, 0, 0, 0), 0);
	EXPECT_EQ(prctl(PR_SET_FAULTAROUND, 256, 0, 0, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(prctl(PR_SET_FAULTAROUND, -1UL, 0, 0, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0), 1);
}

TEST_F(prctl, unused_arguments_must_be_zero)
{
	EXPECT_EQ(prctl(PR_SET_FAULTAROUND, 1, 1, 0, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(prctl(PR_SET_FAULTAROUND, 1, 0, 0, 1), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(prctl(PR_GET_FAULTAROUND, 1, 0, 0, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(prctl(PR_GET_FAULTAROUND, 0, 0, 1, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0), PR_FAULTAROUND_UNSET);
}

TEST_F(prctl, status_shows_the_default)
{
	char val[256];

	ASSERT_EQ(status_line(val, sizeof(val)), 0);
	EXPECT_STREQ(val, "\tunset");
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, 3, 0, 0, 0), 0);
	ASSERT_EQ(status_line(val, sizeof(val)), 0);
	EXPECT_STREQ(val, "\t3");
}

/*
 * With the process default @order, a read fault in the middle of a fresh
 * table-sized file mapping maps exactly a window of @nr pages.
 */
static bool default_maps_window(int order, unsigned long nr)
{
	unsigned long table = fa_table_pages(), idx, first, count;
	const char *dir = getenv("FA_TESTDIR") ?: "/tmp";
	bool ok = false;
	uint8_t *map;
	int fd;

	fd = fa_make_file(dir, table);
	if (fd < 0)
		return false;
	map = fa_map_aligned(fd, table, 0, MAP_PRIVATE, table, 0);
	if (map != MAP_FAILED && !prctl(PR_SET_FAULTAROUND, order, 0, 0, 0)) {
		idx = table / 2 + 1;
		fa_expected_window(idx, nr, 0, table, &first, &count);
		ok = fa_touch(map + idx * fa_page_size) == fa_pattern(idx * fa_page_size) &&
		     fa_present_exactly(map, table, first, count);
	}
	if (map != MAP_FAILED)
		munmap(map, table * fa_page_size);
	close(fd);
	return ok;
}

TEST_F(prctl, default_applies_to_unhinted_file_mappings)
{
	EXPECT_TRUE(default_maps_window(2, 4));
	/* A clamped default maps the whole table. */
	EXPECT_TRUE(default_maps_window(253, 1UL << self->max_order));
}

TEST_F(prctl, fork_inherits_the_default)
{
	int status;
	pid_t pid;

	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, 4, 0, 0, 0), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		_exit(prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0));
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(WEXITSTATUS(status), 4);
}

/* execve keeps the process default and drops every VMA hint (new mm). */
TEST_F(prctl, execve_keeps_the_default_and_drops_vma_hints)
{
	char *const argv[] = { "faultaround_prctl", "--exec-child", NULL };
	uint8_t *p;
	int status;
	pid_t pid;

	p = mmap(NULL, 4 * fa_page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(p, MAP_FAILED);
	ASSERT_EQ(madvise(p, 4 * fa_page_size, MADV_FAULTAROUND_ORDER(1)), 0);
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, 3, 0, 0, 0), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		execv("/proc/self/exe", argv);
		_exit(102);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(WEXITSTATUS(status), 3);
	munmap(p, 4 * fa_page_size);
}

/*
 * The launcher hands any order to the kernel, which clamps it: "faultaround
 * -o 8 -- cmd" must work on radix (maximum 5) as on hash and x86-64.  Needs
 * faultaround(1) in PATH, as in the guests; SKIP elsewhere.
 */
TEST_F(prctl, launcher_order_8_works_on_every_mmu)
{
	char self_path[4096], *argv[] = { "faultaround", "-o", "8", "--",
					  self_path, "--exec-child", NULL };
	int want = self->max_order < 8 ? self->max_order : 8, status;
	ssize_t n;
	pid_t pid;

	n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);
	ASSERT_GT(n, 0);
	self_path[n] = '\0';
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		execvp(argv[0], argv);
		_exit(127);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 127)
		SKIP(return, "no faultaround(1) in PATH");
	EXPECT_EQ(WEXITSTATUS(status), want);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--exec-child"))
		return exec_child();
	return test_harness_run(argc, argv);
}
