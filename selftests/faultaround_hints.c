// SPDX-License-Identifier: GPL-2.0
/*
 * MADV_FAULTAROUND: the per-VMA fault-around order, its window against the
 * process and system defaults, its errors, end of file and truncation, and
 * the ranges that get no fault-around (userfaultfd), with the tracepoint,
 * on tmpfs and on ext4, MAP_SHARED and MAP_PRIVATE.  Its lifetime across
 * VMA changes is faultaround_lifetime's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/userfaultfd.h>

#include "../kselftest_harness.h"
#include "vm_util.h"
#include "fa_util.h"

FIXTURE(hint)
{
	struct fa_table_map m;	/* 2 page tables */
	int max_order;
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
	self->max_order = fa_max_order();
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_UNSET, 0, 0, 0), 0);
}

FIXTURE_TEARDOWN(hint)
{
	fa_table_map_close(&self->m);
}

TEST_F(hint, every_order_maps_its_window)
{
	int order;

	for (order = 0; order <= self->max_order; order++) {
		ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, order), 0);
		EXPECT_EQ(fa_smaps_order(self->m.map, NULL, NULL), order);
		EXPECT_TRUE(fa_window_is(&self->m, fa_probe(&self->m), 1UL << order))
			TH_LOG("order %d", order);
	}
}

TEST_F(hint, minor_faults_are_one_per_window)
{
	unsigned long i, nr;
	unsigned int sum = 0;
	long before;
	int order;

	for (order = 0; order <= self->max_order; order++) {
		nr = 1UL << order;
		ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, order), 0);
		ASSERT_EQ(fa_zap(self->m.map, self->m.pages), 0);
		before = fa_minor_faults();
		for (i = 0; i < self->m.pages; i++)
			sum += fa_touch(self->m.map + i * fa_page_size);
		EXPECT_EQ(fa_minor_faults() - before,
			  (long)((self->m.pages + nr - 1) / nr))
			TH_LOG("order %d", order);
	}
	(void)sum;
}

TEST_F(hint, unset_follows_the_system_default)
{
	if (!fa_system_default_pages())
		SKIP(return, "the system default is \"auto\"");
	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, 3), 0);
	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, -1), 0);
	EXPECT_EQ(fa_smaps_order(self->m.map, NULL, NULL), -1);
	EXPECT_TRUE(fa_window_is(&self->m, fa_probe(&self->m),
				 fa_system_default_pages()));
}

TEST_F(hint, vma_beats_process_beats_system)
{
	unsigned long idx = fa_probe(&self->m);

	if (!fa_system_default_pages())
		SKIP(return, "the system default is \"auto\"");
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, 2, 0, 0, 0), 0);
	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, 4), 0);
	EXPECT_TRUE(fa_window_is(&self->m, idx, 16));
	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, -1), 0);
	EXPECT_TRUE(fa_window_is(&self->m, idx, 4));
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_UNSET, 0, 0, 0), 0);
	EXPECT_TRUE(fa_window_is(&self->m, idx, fa_system_default_pages()));
}

/* The system default moves only what neither a hint nor a default pins. */
TEST_F(hint, system_default_changes_only_unhinted_vmas)
{
	unsigned long saved, half = self->m.table;
	uint8_t *second = self->m.map + half * fa_page_size;

	if (!fa_may_change_system())
		SKIP(return, "changes the system default: guest only");
	if (!fa_system_default_pages())
		SKIP(return, "the system default is \"auto\"");
	ASSERT_EQ(read_sysfs(FA_SYSFS_DEFAULT_BYTES, &saved), 0);
	ASSERT_EQ(fa_set_hint(self->m.map, half, 1), 0);
	ASSERT_EQ(fa_write_ulong(FA_SYSFS_DEFAULT_BYTES, 8 * fa_page_size), 0);
	EXPECT_TRUE(fa_window_at(self->m.map, half, 0, self->m.table, half / 2 + 1, 2));
	EXPECT_TRUE(fa_window_at(second, half, half, self->m.table, half / 2 + 1, 8));
	ASSERT_EQ(fa_write_ulong(FA_SYSFS_DEFAULT_BYTES, saved), 0);
}

/*
 * An order above the MMU's maximum, up to the largest the encoding holds,
 * is stored as the maximum: smaps shows the order in effect and a fault
 * maps one whole page table, on every MMU alike.
 */
TEST_F(hint, order_above_max_is_clamped)
{
	int orders[] = { self->max_order + 1, 8, 13, 14, 253 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(orders); i++) {
		if (orders[i] <= self->max_order)
			continue;
		ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, 0), 0);
		ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, orders[i]), 0)
			TH_LOG("order %d: %s", orders[i], strerror(errno));
		EXPECT_EQ(fa_smaps_order(self->m.map, NULL, NULL), self->max_order)
			TH_LOG("order %d", orders[i]);
		EXPECT_TRUE(fa_window_is(&self->m, fa_probe(&self->m), self->m.table))
			TH_LOG("order %d", orders[i]);
	}
}

/* Bits above the field, or a negative advice, are EINVAL and change nothing. */
TEST_F(hint, bits_above_the_field_are_einval)
{
	size_t len = self->m.pages * fa_page_size;

	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, 2), 0);
	EXPECT_EQ(madvise(self->m.map, len, MADV_FAULTAROUND | (1 << 16)), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(madvise(self->m.map, len, MADV_FAULTAROUND_ORDER(1) | (1 << 24)), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(madvise(self->m.map, len, MADV_FAULTAROUND | INT_MIN), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(fa_smaps_order(self->m.map, NULL, NULL), 2);
}

/*
 * Every value of the 8-bit field is valid, the value PR_SET_FAULTAROUND
 * takes: an order (plain MADV_FAULTAROUND is order 0, no fault-around, and
 * one above the maximum is stored as it), 254 the self-sizing window, 255
 * no hint, so the VMA follows the process default again.
 */
TEST_F(hint, every_field_value_is_valid)
{
	size_t len = self->m.pages * fa_page_size;
	int v, want;

	for (v = 0; v <= MADV_FAULTAROUND_MASK; v++) {
		ASSERT_EQ(madvise(self->m.map, len,
				  MADV_FAULTAROUND | (v << MADV_FAULTAROUND_SHIFT)), 0)
			TH_LOG("value %d: %s", v, strerror(errno));
		/* smaps for the orders up to one past the maximum and the top three */
		if (v > self->max_order + 1 && v < PR_FAULTAROUND_AUTO - 1)
			continue;
		if (v == PR_FAULTAROUND_UNSET)
			want = -1;
		else if (v == PR_FAULTAROUND_AUTO)
			want = FA_ORDER_AUTO;
		else
			want = v < self->max_order ? v : self->max_order;
		EXPECT_EQ(fa_smaps_order(self->m.map, NULL, NULL), want)
			TH_LOG("value %d", v);
	}
}

/*
 * Under a process default, plain MADV_FAULTAROUND is order 0, a hint of
 * its own, and MADV_FAULTAROUND_UNSET hands the VMA back to the default.
 */
TEST_F(hint, plain_is_order_0_and_unset_follows_the_process_default)
{
	unsigned long idx = fa_probe(&self->m);

	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, 2, 0, 0, 0), 0);
	ASSERT_EQ(madvise(self->m.map, self->m.pages * fa_page_size,
			  MADV_FAULTAROUND), 0);
	EXPECT_TRUE(fa_window_is(&self->m, idx, 1));
	ASSERT_EQ(madvise(self->m.map, self->m.pages * fa_page_size,
			  MADV_FAULTAROUND_UNSET), 0);
	EXPECT_EQ(fa_smaps_order(self->m.map, NULL, NULL), -1);
	EXPECT_TRUE(fa_window_is(&self->m, idx, 4));
	ASSERT_EQ(prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_UNSET, 0, 0, 0), 0);
}

TEST_F(hint, unaligned_start_and_wrapping_length_are_einval)
{
	EXPECT_EQ(madvise(self->m.map + 1, fa_page_size, MADV_FAULTAROUND_ORDER(1)), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(madvise(self->m.map, (size_t)-fa_page_size / 2 * 2,
			  MADV_FAULTAROUND_ORDER(1)), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(madvise(self->m.map, (size_t)-1, MADV_FAULTAROUND_ORDER(1)), -1);
	EXPECT_EQ(errno, EINVAL);
}

static sigjmp_buf sigbus_jmp;

static void on_sigbus(int sig)
{
	siglongjmp(sigbus_jmp, 1);
}

static bool touch_raises_sigbus(const uint8_t *p)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	bool raised = false;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(sigbus_jmp, 1))
		raised = true;
	else
		fa_touch(p);
	sigaction(SIGBUS, &old, NULL);
	return raised;
}

/* No order maps past EOF, and touching past EOF still raises SIGBUS. */
TEST_F(hint, nothing_past_eof_and_sigbus_at_every_order)
{
	unsigned long eof = self->m.table + 3;
	int order;

	ASSERT_EQ(ftruncate(self->m.fd, eof * fa_page_size), 0);
	for (order = 0; order <= self->max_order; order++) {
		ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, order), 0);
		ASSERT_EQ(fa_zap(self->m.map, self->m.pages), 0);
		EXPECT_EQ(fa_touch(self->m.map + (eof - 1) * fa_page_size),
			  fa_pattern((eof - 1) * fa_page_size));
		EXPECT_EQ(fa_count_present(self->m.map + eof * fa_page_size,
					   self->m.pages - eof), 0)
			TH_LOG("order %d mapped past EOF", order);
		EXPECT_TRUE(touch_raises_sigbus(self->m.map + eof * fa_page_size))
			TH_LOG("order %d", order);
		EXPECT_TRUE(touch_raises_sigbus(self->m.map + (self->m.pages - 1) * fa_page_size));
	}
}

TEST_F(hint, truncate_and_regrow_behave_as_without_a_hint)
{
	unsigned long i;

	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, self->max_order), 0);
	ASSERT_EQ(ftruncate(self->m.fd, self->m.table * fa_page_size), 0);
	EXPECT_TRUE(touch_raises_sigbus(self->m.map + self->m.table * fa_page_size));
	ASSERT_EQ(ftruncate(self->m.fd, self->m.pages * fa_page_size), 0);
	for (i = self->m.table; i < self->m.pages; i++)
		ASSERT_EQ(fa_touch(self->m.map + i * fa_page_size), 0);
	for (i = 0; i < self->m.table; i++)
		ASSERT_EQ(fa_touch(self->m.map + i * fa_page_size), fa_pattern(i * fa_page_size));
}

/*
 * A userfaultfd with @features, registering @pages at @map in write-protect
 * (@wp) or minor (@minor) mode with vm_util.c's uffd_register(); -1 with
 * errno on error.
 */
static int uffd_open_registered(void *map, unsigned long pages, __u64 features,
				bool wp, bool minor)
{
	struct uffdio_api api = { .api = UFFD_API, .features = features };
	int uffd, err;

	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
	if (uffd < 0)
		return -1;
	if (ioctl(uffd, UFFDIO_API, &api))
		err = errno;
	else
		err = -uffd_register(uffd, map, pages * fa_page_size, false, wp, minor);
	if (err) {
		close(uffd);
		errno = err;
		return -1;
	}
	return uffd;
}

/*
 * A range registered with userfaultfd in write-protect mode gets no
 * fault-around, whatever its hint: a read fault maps only its own page.
 */
TEST_F(hint, uffd_wp_range_gets_no_fault_around)
{
	unsigned long idx = fa_probe(&self->m);
	int uffd;

	uffd = uffd_open_registered(self->m.map, self->m.pages,
				    UFFD_FEATURE_WP_HUGETLBFS_SHMEM, true, false);
	if (uffd < 0)
		SKIP(return, "uffd-wp on %s: %s", variant->fs, strerror(errno));
	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, self->max_order), 0);
	EXPECT_TRUE(fa_window_is(&self->m, idx, 1));
	close(uffd);
	/* Unregistered again, the same hint maps the whole table. */
	EXPECT_TRUE(fa_window_is(&self->m, idx, self->m.table));
}

#define TRACE_DIR "/sys/kernel/tracing"
#define TRACE_EVENT_ENABLE TRACE_DIR "/events/fault_around/fault_around/enable"
#define TRACE_FORMAT \
	"fault_around: address=0x%lx start=0x%lx end=0x%lx order=%u source=%15s"

static int write_str(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* The tracepoint reports the window handed to ->map_pages and the source. */
TEST_F(hint, tracepoint_reports_window_order_and_source)
{
	unsigned long idx = fa_probe(&self->m), addr, start, end;
	unsigned long want = (uintptr_t)self->m.map + idx / 8 * 8 * fa_page_size;
	char line[512], source[16];
	unsigned int order;
	int found = 0;
	FILE *f;

	if (!fa_may_change_system())
		SKIP(return, "uses the global trace buffer: guest only");
	if (access(TRACE_EVENT_ENABLE, W_OK))
		SKIP(return, "no tracefs or no fault_around event");
	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, 3), 0);
	ASSERT_EQ(fa_zap(self->m.map, self->m.pages), 0);
	ASSERT_EQ(write_str(TRACE_DIR "/trace", "", O_TRUNC), 0);
	ASSERT_EQ(write_str(TRACE_EVENT_ENABLE, "1", 0), 0);
	fa_touch(self->m.map + idx * fa_page_size);
	ASSERT_EQ(write_str(TRACE_EVENT_ENABLE, "0", 0), 0);
	f = fopen(TRACE_DIR "/trace", "r");
	ASSERT_NE(f, NULL);
	while (fgets(line, sizeof(line), f)) {
		char *ev = strstr(line, "fault_around: ");

		if (!ev || sscanf(ev, TRACE_FORMAT, &addr, &start, &end, &order, source) != 5)
			continue;
		if (addr != (uintptr_t)self->m.map + idx * fa_page_size)
			continue;
		found++;
		EXPECT_EQ(start, want);
		EXPECT_EQ(end, want + 8 * fa_page_size);
		EXPECT_EQ(order, 3U);
		EXPECT_STREQ(source, "hint");
	}
	fclose(f);
	EXPECT_EQ(found, 1);
}

/* Resolves the first minor fault on @uffd with UFFDIO_CONTINUE of one page. */
static void *continue_one_fault(void *arg)
{
	int uffd = *(int *)arg;
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffdio_continue cont = { 0 };
	struct uffd_msg msg;

	if (poll(&pfd, 1, 10000) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT) {
		/* Closing the uffd wakes the fault, so the test cannot hang. */
		close(uffd);
		*(int *)arg = -1;
		return (void *)1;
	}
	cont.range.start = msg.arg.pagefault.address & ~(uint64_t)(fa_page_size - 1);
	cont.range.len = fa_page_size;
	return ioctl(uffd, UFFDIO_CONTINUE, &cont) ? (void *)2 : NULL;
}

/* The same for minor mode: the resolved fault maps its own page only. */
TEST_F(hint, uffd_minor_range_gets_no_fault_around)
{
	unsigned long idx = fa_probe(&self->m);
	pthread_t handler;
	void *ret;
	int uffd;

	uffd = uffd_open_registered(self->m.map, self->m.pages,
				    UFFD_FEATURE_MINOR_SHMEM, false, true);
	if (uffd < 0)
		SKIP(return, "uffd-minor on %s: %s", variant->fs, strerror(errno));
	ASSERT_EQ(fa_set_hint(self->m.map, self->m.pages, self->max_order), 0);
	ASSERT_EQ(fa_zap(self->m.map, self->m.pages), 0);
	ASSERT_EQ(pthread_create(&handler, NULL, continue_one_fault, &uffd), 0);
	EXPECT_EQ(fa_touch(self->m.map + idx * fa_page_size), fa_pattern(idx * fa_page_size));
	pthread_join(handler, &ret);
	EXPECT_EQ(ret, NULL);
	EXPECT_TRUE(fa_present_exactly(self->m.map, self->m.pages, idx, 1));
	if (uffd >= 0)
		close(uffd);
}

TEST_HARNESS_MAIN
