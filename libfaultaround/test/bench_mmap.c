// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench_mmap [N [REPEATS [LABEL [--components]]]]: time N mmap+munmap pairs
 * of a 64K file mapping, REPEATS times; print mean and stddev of ns per pair.
 * Run it with and without LD_PRELOAD=libfaultaround-preload.so (bench.sh).
 *
 * --components also times, one per loop, what the shim may add to an mmap
 * on a patched kernel: the fstat() behind its per-inode cache, the readlink
 * of /proc/self/fd/N on a cache miss, rule matching, and the madvise() of a
 * matching mapping; plus an empty system call as the floor any syscall pays.
 */
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "faultaround.h"

#define FILE_LEN	65536

struct bench {
	long n;
	int reps;
	int fd;
	void *map;
	char link[64];
	struct faultaround_rules *rules;
	double *t;
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void stats(const char *label, const double *v, int n, long ops)
{
	double mean = 0, var = 0;
	int i;

	for (i = 0; i < n; i++)
		mean += v[i];
	mean /= n;
	for (i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	var = n > 1 ? var / (n - 1) : 0;
	printf("%-28s mean %8.1f ns/op  stddev %6.1f ns/op  (%ld ops x %d repeats)\n",
	       label, mean, sqrt(var), ops, n);
	fflush(stdout);
}

static int op_mmap_munmap(struct bench *b)
{
	void *p = mmap(NULL, FILE_LEN, PROT_READ, MAP_PRIVATE, b->fd, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		return -1;
	}
	return munmap(p, FILE_LEN);
}

static int op_getppid(struct bench *b)
{
	(void)b;
	return syscall(SYS_getppid) < 0 ? -1 : 0;
}

static int op_fstat(struct bench *b)
{
	struct stat st;

	return fstat(b->fd, &st);
}

static int op_sysfstat(struct bench *b)
{
	struct stat st;

	return syscall(SYS_fstat, b->fd, &st) < 0 ? -1 : 0;
}

static int op_statx(struct bench *b)
{
	struct statx sx;

	return statx(b->fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_INO, &sx);
}

static int op_fcntl(struct bench *b)
{
	return fcntl(b->fd, F_GETFL) < 0 ? -1 : 0;
}

static int op_readlink(struct bench *b)
{
	char target[PATH_MAX];

	return readlink(b->link, target, sizeof(target) - 1) > 0 ? 0 : -1;
}

static int op_rules_match(struct bench *b)
{
	static volatile int sink;

	sink += faultaround_rules_match(b->rules, "/tmp/fa_bench_file") != NULL;
	return 0;
}

static int op_madvise(struct bench *b)
{
	return madvise(b->map, FILE_LEN, MADV_FAULTAROUND_ORDER(0));
}

static int run(struct bench *b, const char *label, int (*op)(struct bench *))
{
	int r;
	long i;

	for (r = -1; r < b->reps; r++) {	/* r == -1: warm-up */
		double t0 = now_ns();

		for (i = 0; i < b->n; i++)
			if (op(b) < 0) {
				fprintf(stderr, "%s: %m\n", label);
				return -1;
			}
		if (r >= 0)
			b->t[r] = (now_ns() - t0) / b->n;
	}
	stats(label, b->t, b->reps, b->n);
	return 0;
}

int main(int argc, char **argv)
{
	struct bench b = {
		.n = argc > 1 ? atol(argv[1]) : 20000,
		.reps = argc > 2 ? atoi(argv[2]) : 10,
	};
	const char *label = argc > 3 ? argv[3] : "mmap+munmap";
	int components = argc > 4 && !strcmp(argv[4], "--components");
	char path[] = "/tmp/fa_benchXXXXXX";
	int ret = 1;

	if (b.n <= 0 || b.reps < 1) {
		fprintf(stderr, "usage: %s [N [REPEATS [LABEL [--components]]]]\n", argv[0]);
		return 1;
	}
	b.t = calloc((size_t)b.reps, sizeof(*b.t));
	b.fd = mkstemp(path);
	if (!b.t || b.fd < 0 || ftruncate(b.fd, FILE_LEN) < 0) {
		perror("setup");
		goto out;
	}
	unlink(path);
	if (run(&b, label, op_mmap_munmap) < 0)
		goto out;
	if (!components) {
		ret = 0;
		goto out;
	}
	snprintf(b.link, sizeof(b.link), "/proc/self/fd/%d", b.fd);
	b.rules = faultaround_rules_parse("*.db=0;/usr/lib/*=64K;fa_bench*=2M",
					  NULL, 0);
	b.map = mmap(NULL, FILE_LEN, PROT_READ, MAP_PRIVATE, b.fd, 0);
	if (!b.rules || b.map == MAP_FAILED) {
		perror("components setup");
		goto out;
	}
	if (run(&b, "  empty syscall", op_getppid) < 0 ||
	    run(&b, "  fstat", op_fstat) < 0 ||
	    run(&b, "  SYS_fstat", op_sysfstat) < 0 ||
	    run(&b, "  statx INO", op_statx) < 0 ||
	    run(&b, "  fcntl GETFL", op_fcntl) < 0 ||
	    run(&b, "  readlink /proc/self/fd", op_readlink) < 0 ||
	    run(&b, "  rules match", op_rules_match) < 0)
		goto out;
	if (faultaround_supported() && run(&b, "  madvise FAULTAROUND", op_madvise) < 0)
		goto out;
	ret = 0;
out:
	if (b.map && b.map != MAP_FAILED)
		munmap(b.map, FILE_LEN);
	faultaround_rules_free(b.rules);
	if (b.fd >= 0)
		close(b.fd);
	free(b.t);
	return ret;
}
