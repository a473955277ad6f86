// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench_mmap N REPEATS LABEL [MODE]: REPEATS times, time N operations and
 * print mean and stddev of ns per operation.  bench.sh runs it without the
 * shim and with LD_PRELOAD=libfaultaround-preload.so.
 *
 *   repeat      mmap+munmap of one 64K file, already mapped before (the
 *               shim's per-inode cache hits: one fstat, no readlink)
 *   first       open+mmap+munmap+close of a file never mapped before (the
 *               shim also reads /proc/self/fd/N and matches the rules)
 *   components  what the shim's path is made of, each in its own loop: an
 *               empty system call, fstat, the readlink, rule matching, and
 *               mmap+faultaround_set+munmap, which is what a program that
 *               sets the hint itself pays
 *   dlopen-name dlopen()+dlclose() of libm, loaded already, by bare name
 *               (this program has a RUNPATH: the shim jumps to glibc)
 *   dlopen-path the same by path (the shim calls dlopen() and looks at
 *               what it added on return)
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
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
	char dir[32];		/* "first": its files fa_bench_0.. */
	long files, next;
	char link[64];
	char lib[PATH_MAX];	/* dlopen-name/dlopen-path: what to dlopen() */
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

static int op_readlink(struct bench *b)
{
	char target[PATH_MAX];

	return readlink(b->link, target, sizeof(target) - 1) > 0 ? 0 : -1;
}

static int op_rules_match(struct bench *b)
{
	/* The result decides the return value, so the call cannot be
	 * optimised away. */
	return faultaround_rules_match(b->rules, "/tmp/fa_bench_file") ? 0 : -1;
}

static int op_mmap_set_munmap(struct bench *b)
{
	void *p = mmap(NULL, FILE_LEN, PROT_READ, MAP_PRIVATE, b->fd, 0);

	if (p == MAP_FAILED)
		return -1;
	if (faultaround_set(p, FILE_LEN, 0) < 0)
		return -1;
	return munmap(p, FILE_LEN);
}

static int op_dlopen(struct bench *b)
{
	void *h = dlopen(b->lib, RTLD_NOW);

	return h && dlclose(h) == 0 ? 0 : -1;
}

/* libm is loaded (this program links it): its name, or its path. */
static int pick_lib(struct bench *b, int by_path)
{
	struct link_map *map;
	void *h = dlopen("libm.so.6", RTLD_NOW | RTLD_NOLOAD);

	if (!h || dlinfo(h, RTLD_DI_LINKMAP, &map) < 0)
		return -1;
	snprintf(b->lib, sizeof(b->lib), "%s", by_path ? map->l_name : "libm.so.6");
	return dlclose(h);
}

static int file_name(struct bench *b, long i, char *buf, size_t size)
{
	return snprintf(buf, size, "%s/fa_bench_%ld", b->dir, i) < (int)size ? 0 : -1;
}

static int op_first(struct bench *b)
{
	char path[64];
	void *p;
	int fd;

	if (b->next >= b->files || file_name(b, b->next++, path, sizeof(path)) < 0)
		return -1;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	p = mmap(NULL, FILE_LEN, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED || munmap(p, FILE_LEN) < 0) {
		close(fd);
		return -1;
	}
	return close(fd);
}

static void remove_files(struct bench *b)
{
	char path[64];
	long i;

	for (i = 0; i < b->files; i++)
		if (file_name(b, i, path, sizeof(path)) == 0)
			unlink(path);
	b->files = b->next = 0;
}

/*
 * Before each repeat of "first": N files that were never mapped, each a new
 * inode (a tmpfs on 64K pages allows only some 16K inodes, so not all at once).
 */
static int make_files(struct bench *b)
{
	char path[64];
	int fd;

	remove_files(b);
	for (; b->files < b->n; b->files++) {
		if (file_name(b, b->files, path, sizeof(path)) < 0)
			return -1;
		fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
		if (fd < 0 || ftruncate(fd, FILE_LEN) < 0 || close(fd) < 0)
			return -1;
	}
	return 0;
}

static int run(struct bench *b, const char *label, int (*op)(struct bench *))
{
	int r;
	long i;

	for (r = -1; r < b->reps; r++) {	/* r == -1: warm-up */
		double t0;

		if (b->dir[0] && make_files(b) < 0) {
			perror("creating files");
			return -1;
		}
		t0 = now_ns();
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
		.fd = -1,
	};
	const char *label = argc > 3 ? argv[3] : "mmap+munmap";
	const char *mode = argc > 4 ? argv[4] : "repeat";
	char path[] = "/tmp/fa_benchXXXXXX";
	int ret = 1;

	if (b.n <= 0 || b.reps < 1 || (strcmp(mode, "repeat") &&
	    strcmp(mode, "first") && strcmp(mode, "components") &&
	    strcmp(mode, "dlopen-name") && strcmp(mode, "dlopen-path"))) {
		fprintf(stderr, "usage: %s N REPEATS LABEL [repeat|first|components|dlopen-name|dlopen-path]\n",
			argv[0]);
		return 1;
	}
	b.t = calloc((size_t)b.reps, sizeof(*b.t));
	b.fd = mkstemp(path);
	if (!b.t || b.fd < 0 || ftruncate(b.fd, FILE_LEN) < 0) {
		perror("setup");
		goto out;
	}
	unlink(path);
	if (!strcmp(mode, "repeat")) {
		ret = run(&b, label, op_mmap_munmap) < 0;
		goto out;
	}
	if (!strncmp(mode, "dlopen-", 7)) {
		if (pick_lib(&b, !strcmp(mode, "dlopen-path")) < 0) {
			fprintf(stderr, "libm: %s\n", dlerror());
			goto out;
		}
		ret = run(&b, label, op_dlopen) < 0;
		goto out;
	}
	if (!strcmp(mode, "first")) {
		strcpy(b.dir, "/tmp/fa_benchXXXXXX");
		if (!mkdtemp(b.dir)) {
			perror("mkdtemp");
			b.dir[0] = '\0';
			goto out;
		}
		ret = run(&b, label, op_first) < 0;
		goto out;
	}
	snprintf(b.link, sizeof(b.link), "/proc/self/fd/%d", b.fd);
	b.rules = faultaround_rules_parse("*.db=0;/usr/lib/*=64K;fa_bench*=2M",
					  NULL, 0);
	if (!b.rules) {
		perror("rules");
		goto out;
	}
	if (run(&b, "  empty syscall", op_getppid) < 0 ||
	    run(&b, "  fstat", op_fstat) < 0 ||
	    run(&b, "  readlink /proc/self/fd", op_readlink) < 0 ||
	    run(&b, "  rules match", op_rules_match) < 0)
		goto out;
	if (faultaround_supported() &&
	    run(&b, "  mmap+faultaround_set+munmap", op_mmap_set_munmap) < 0)
		goto out;
	ret = 0;
out:
	if (b.dir[0]) {
		remove_files(&b);
		rmdir(b.dir);
	}
	faultaround_rules_free(b.rules);
	if (b.fd >= 0)
		close(b.fd);
	free(b.t);
	return ret;
}
