// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrency under load.  Reader threads fault through a hinted file
 * mapping and check every byte; a mutator flips hints, splits the VMA with
 * mprotect, truncates and regrows the file's tail, remaps the mapping in
 * place and forks children that check it too; meanwhile io_uring keeps
 * asynchronous reads of another file going to churn the page cache.
 * Bounded by FA_STRESS_SECONDS (default 2: a smoke run; longer on request).
 */
#include <errno.h>
#include <liburing.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "fa_util.h"

#define READERS		3
#define URING_DEPTH	8

struct stress {
	uint8_t *map;
	unsigned long pages;	/* mapping and file size */
	unsigned long head;	/* pages never truncated: must always match */
	unsigned long table;
	int fd, other_fd;
	unsigned long other_pages;
	int max_order;
	atomic_bool stop;
	atomic_long mismatches, reads, uring_reads, mutations;
};

static __thread sigjmp_buf reader_jmp;
static __thread atomic_int in_tail;	/* read by on_sigbus() */

static void on_sigbus(int sig)
{
	/* A read of the truncated tail: expected, the reader skips it. */
	if (in_tail)
		siglongjmp(reader_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void *reader(void *arg)
{
	struct stress *st = arg;
	uint64_t x = (uintptr_t)&x;

	while (!atomic_load(&st->stop)) {
		unsigned long idx;
		uint8_t v, want;
		size_t off;

		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		idx = x % st->pages;
		off = idx * fa_page_size + (x >> 32) % fa_page_size;
		want = fa_pattern(off);
		in_tail = idx >= st->head;
		if (sigsetjmp(reader_jmp, 1)) {
			in_tail = 0;
			continue;
		}
		v = fa_touch(st->map + off);
		in_tail = 0;
		/* The tail may read back as zeroes between regrow and refill. */
		if (v != want && !(idx >= st->head && v == 0))
			atomic_fetch_add(&st->mismatches, 1);
		atomic_fetch_add(&st->reads, 1);
	}
	return NULL;
}

/* Refill the tail with the pattern after it was truncated and regrown. */
static void refill_tail(struct stress *st)
{
	size_t from = st->head * fa_page_size, len = (st->pages - st->head) * fa_page_size, i;
	uint8_t *buf = malloc(len);

	if (!buf)
		return;
	for (i = 0; i < len; i++)
		buf[i] = fa_pattern(from + i);
	if (pwrite(st->fd, buf, len, from) != (ssize_t)len)
		atomic_fetch_add(&st->mismatches, 1);
	free(buf);
}

static bool child_checks_head(struct stress *st)
{
	unsigned long i;

	for (i = 0; i < st->head; i++)
		if (fa_touch(st->map + i * fa_page_size) != fa_pattern(i * fa_page_size))
			return false;
	return true;
}

static void *mutator(void *arg)
{
	struct stress *st = arg;
	size_t len = st->pages * fa_page_size;
	uint64_t x = 12345;
	int status;
	pid_t pid;

	while (!atomic_load(&st->stop)) {
		size_t a, b;

		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		a = (x % st->pages) * fa_page_size;
		b = ((x >> 20) % st->pages) * fa_page_size;
		if (a > b) {
			size_t t = a;

			a = b;
			b = t;
		}
		switch ((x >> 40) % 6) {
		case 0:	/* flip hints on a random range */
			madvise(st->map + a, b - a + fa_page_size,
				MADV_FAULTAROUND_ORDER((int)((x >> 8) % (st->max_order + 1))));
			break;
		case 1:	/* clear them */
			madvise(st->map + a, b - a + fa_page_size, MADV_FAULTAROUND_UNSET);
			break;
		case 2:	/* split with mprotect, then undo */
			mprotect(st->map + a, b - a + fa_page_size, PROT_READ | PROT_WRITE);
			mprotect(st->map + a, b - a + fa_page_size, PROT_READ);
			break;
		case 3:	/* truncate the tail and regrow it */
			if (ftruncate(st->fd, st->head * fa_page_size) ||
			    ftruncate(st->fd, len))
				atomic_fetch_add(&st->mismatches, 1);
			refill_tail(st);
			break;
		case 4:	/* remap in place: atomic for the readers */
			if (mmap(st->map, len, PROT_READ, MAP_SHARED | MAP_FIXED,
				 st->fd, 0) != st->map)
				atomic_fetch_add(&st->mismatches, 1);
			madvise(st->map, len, MADV_FAULTAROUND_ORDER(st->max_order));
			break;
		default:	/* fork a checker */
			pid = fork();
			if (pid == 0)
				_exit(child_checks_head(st) ? 0 : 1);
			if (pid < 0 || waitpid(pid, &status, 0) != pid ||
			    !WIFEXITED(status) || WEXITSTATUS(status))
				atomic_fetch_add(&st->mismatches, 1);
			break;
		}
		atomic_fetch_add(&st->mutations, 1);
	}
	return NULL;
}

/* Batches of URING_DEPTH asynchronous reads of the other file, each checked. */
static void *uring_churn(void *arg)
{
	struct stress *st = arg;
	unsigned long next = 0;
	struct io_uring ring;
	uint8_t *bufs;
	int i;

	if (io_uring_queue_init(URING_DEPTH, &ring, 0))
		return (void *)1;
	bufs = malloc(URING_DEPTH * fa_page_size);
	while (bufs && !atomic_load(&st->stop)) {
		for (i = 0; i < URING_DEPTH; i++, next++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			io_uring_prep_read(sqe, st->other_fd, bufs + i * fa_page_size,
					   fa_page_size,
					   (next % st->other_pages) * fa_page_size);
			io_uring_sqe_set_data(sqe, (void *)(uintptr_t)next);
		}
		io_uring_submit(&ring);
		for (i = 0; i < URING_DEPTH; i++) {
			struct io_uring_cqe *cqe;
			unsigned long n;
			size_t off;
			uint8_t *b;

			if (io_uring_wait_cqe(&ring, &cqe))
				goto out;
			n = (uintptr_t)io_uring_cqe_get_data(cqe);
			b = bufs + (n % URING_DEPTH) * fa_page_size;
			off = (n % st->other_pages) * fa_page_size;
			if (cqe->res != (int)fa_page_size || b[0] != fa_pattern(off) ||
			    b[fa_page_size - 1] != fa_pattern(off + fa_page_size - 1))
				atomic_fetch_add(&st->mismatches, 1);
			atomic_fetch_add(&st->uring_reads, 1);
			io_uring_cqe_seen(&ring, cqe);
		}
	}
out:
	free(bufs);
	io_uring_queue_exit(&ring);
	return NULL;
}

TEST(hints_under_concurrent_faults_splits_truncation_fork_and_io_uring)
{
	const char *dir = getenv("FA_TESTDIR") ?: "/tmp";
	const char *secs = getenv("FA_STRESS_SECONDS");
	pthread_t readers[READERS], mut, ring;
	struct sigaction sa = { .sa_handler = on_sigbus };
	struct stress st = { 0 };
	struct io_uring probe;
	struct timespec ts;
	void *uring_ret;
	int i;

	st.max_order = fa_max_order();
	if (st.max_order < 0)
		SKIP(return, "kernel without MADV_FAULTAROUND");
	st.table = 1UL << st.max_order;
	st.pages = 2 * st.table;
	st.head = st.table;
	st.fd = fa_make_file(dir, st.pages);
	ASSERT_GE(st.fd, 0);
	st.other_pages = st.table;
	st.other_fd = fa_make_file(getenv("FA_EXT4DIR") ?: dir, st.other_pages);
	ASSERT_GE(st.other_fd, 0);
	st.map = fa_map_aligned(st.fd, st.pages, 0, MAP_SHARED, st.table, 0);
	ASSERT_NE(st.map, MAP_FAILED);
	ASSERT_EQ(madvise(st.map, st.pages * fa_page_size,
			  MADV_FAULTAROUND_ORDER(st.max_order)), 0);
	sigaction(SIGBUS, &sa, NULL);

	if (io_uring_queue_init(1, &probe, 0))
		SKIP(return, "io_uring unavailable (kernel.io_uring_disabled?)");
	io_uring_queue_exit(&probe);
	for (i = 0; i < READERS; i++)
		ASSERT_EQ(pthread_create(&readers[i], NULL, reader, &st), 0);
	ASSERT_EQ(pthread_create(&mut, NULL, mutator, &st), 0);
	ASSERT_EQ(pthread_create(&ring, NULL, uring_churn, &st), 0);

	ts.tv_sec = secs ? atoi(secs) : 2;
	ts.tv_nsec = 0;
	nanosleep(&ts, NULL);
	atomic_store(&st.stop, true);
	for (i = 0; i < READERS; i++)
		pthread_join(readers[i], NULL);
	pthread_join(mut, NULL);
	pthread_join(ring, &uring_ret);

	TH_LOG("%ld reads, %ld io_uring reads, %ld mutations",
	       atomic_load(&st.reads), atomic_load(&st.uring_reads),
	       atomic_load(&st.mutations));
	EXPECT_EQ(uring_ret, NULL) TH_LOG("io_uring setup failed");
	EXPECT_EQ(atomic_load(&st.mismatches), 0);
	EXPECT_GT(atomic_load(&st.reads), 0);
	EXPECT_GT(atomic_load(&st.mutations), 0);
	EXPECT_GT(atomic_load(&st.uring_reads), 0);
	munmap(st.map, st.pages * fa_page_size);
	close(st.fd);
	close(st.other_fd);
}

TEST_HARNESS_MAIN
