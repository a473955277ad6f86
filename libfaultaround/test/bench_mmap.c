// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench_mmap [N [REPEATS [LABEL]]]: time N mmap+munmap pairs of a 64K file
 * mapping, REPEATS times; print mean and stddev of ns per pair.  Run it with
 * and without LD_PRELOAD=libfaultaround-preload.so (see bench.sh).
 * With --components it also times what the shim adds on its active path
 * (readlink of /proc/self/fd/N, rule matching, the madvise call), which is
 * the cost on a patched kernel.
 */
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "faultaround.h"

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
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	int reps = argc > 2 ? atoi(argv[2]) : 10, r, fd;
	const char *label = argc > 3 ? argv[3] : "mmap+munmap";
	int components = argc > 4 && !strcmp(argv[4], "--components");
	char path[] = "/tmp/fa_benchXXXXXX";
	size_t len = 65536;
	double *t;
	long i;

	if (n <= 0 || reps < 1) {
		fprintf(stderr, "usage: %s [N [REPEATS [LABEL [--components]]]]\n", argv[0]);
		return 1;
	}
	t = calloc((size_t)reps, sizeof(*t));
	fd = mkstemp(path);
	if (!t || fd < 0 || ftruncate(fd, (off_t)len) < 0) {
		perror("setup");
		return 1;
	}
	unlink(path);
	for (r = -1; r < reps; r++) {	/* r == -1: warm-up */
		double t0 = now_ns();

		for (i = 0; i < n; i++) {
			void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);

			if (p == MAP_FAILED) {
				perror("mmap");
				return 1;
			}
			munmap(p, len);
		}
		if (r >= 0)
			t[r] = (now_ns() - t0) / n;
	}
	stats(label, t, reps, n);

	if (components) {
		struct faultaround_rules *rules = faultaround_rules_parse(
			"*.db=0;/usr/lib/*=64K;fa_bench*=2M", NULL, 0);
		void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
		char link[64], target[PATH_MAX];
		volatile int sink = 0;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		for (r = -1; r < reps; r++) {
			double t0 = now_ns();

			for (i = 0; i < n; i++) {
				ssize_t l = readlink(link, target, sizeof(target) - 1);

				target[l > 0 ? l : 0] = '\0';
				sink += faultaround_rules_match(rules, target) != NULL;
				sink += madvise(p, len, MADV_FAULTAROUND_ORDER(0));
			}
			if (r >= 0)
				t[r] = (now_ns() - t0) / n;
		}
		stats("shim active path (est.)", t, reps, n);
		munmap(p, len);
		faultaround_rules_free(rules);
		(void)sink;
	}
	close(fd);
	free(t);
	return 0;
}
