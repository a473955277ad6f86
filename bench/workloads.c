// SPDX-License-Identifier: GPL-2.0
/*
 * The measured workloads and the files they read.
 *
 * Files live in the page cache (tmpfs by default) and every run maps them
 * afresh, so each run starts with empty page tables and a warm page cache.
 * A run's timed region is the whole life of its mappings: mmap, whatever
 * the column does to them (hint, advice, populate), the accesses and
 * munmap.  Mapped pages never read still cost their unmapping, and
 * populating costs its mmap or madvise, so every column pays for what it
 * does.  exec times fork, exec and wait of its children; smallfiles times
 * open, mmap, read, munmap of every file.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fabench.h"
#include "run.h"

static volatile unsigned long sink;

static long minflt_now(void)
{
	struct rusage self, children;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	return self.ru_minflt + children.ru_minflt;
}

void meas_begin(struct meas *m)
{
	m->flt = minflt_now();
	clock_gettime(CLOCK_MONOTONIC, &m->t);
}

/* @shift: qemu -icount shift=N divides times by 2^N (probe_cpu). */
void meas_end(const struct meas *m, struct sample *s, int shift)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	s->faults = minflt_now() - m->flt;
	s->nsecs = ((long long)(t.tv_sec - m->t.tv_sec) * 1000000000LL +
		    (t.tv_nsec - m->t.tv_nsec)) >> shift;
}

unsigned long touch_pages(const volatile char *p, unsigned long n, size_t page)
{
	unsigned long i, sum = 0;

	for (i = 0; i < n; i++)
		sum += (unsigned char)p[i * page];
	return sum;
}

static uint64_t rng_next(uint64_t *s)	/* splitmix64 */
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* @n random page numbers below @pages, the same every run. */
static unsigned long *random_pages(unsigned long n, unsigned long pages)
{
	unsigned long *idx = malloc(n * sizeof(*idx)), i;
	uint64_t seed = 0x5eedULL;

	for (i = 0; idx && i < n; i++)
		idx[i] = (unsigned long)(rng_next(&seed) % pages);
	return idx;
}

/* Map @pages pages of @fd from page @pgoff read-only at an address aligned
 * to the largest fault-around window, so every window is whole. */
char *map_aligned(const struct machine *m, int fd, unsigned long pgoff, unsigned long pages,
		  int flags)
{
	size_t align = m->page << m->max_order, len = pages * m->page;
	char *r, *p;
	uintptr_t a;

	r = mmap(NULL, len + align, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)r + align - 1) & ~(uintptr_t)(align - 1);
	p = mmap((void *)a, len, PROT_READ, MAP_PRIVATE | MAP_FIXED | flags, fd,
		 (off_t)(pgoff * m->page));
	if (p == MAP_FAILED) {
		int e = errno;

		munmap(r, len + align);
		errno = e;
		return NULL;
	}
	if ((char *)a > r)
		munmap(r, (size_t)((char *)a - r));
	if (r + len + align > p + len)
		munmap(p + len, (size_t)(r + len + align - (p + len)));
	return p;
}

/* seq and rand: one mapping, read in order or at @random lookups. */
static int run_scan(const struct wl_env *env, const struct params *p, int mode,
		    const struct column *col, int random, struct sample *smp)
{
	const struct machine *mc = env->m;
	enum part part = random ? PART_RAND : PART_SEQ;
	unsigned long n = random ? lookups(p->pages, p->density) : 0, i, sum = 0;
	size_t len = p->pages * mc->page;
	unsigned long *idx = NULL;
	volatile char *a;
	struct meas m;
	int ret = 0, e;

	if (random && !(idx = random_pages(n, p->pages)))
		return -1;
	meas_begin(&m);
	a = map_aligned(mc, env->files->datafd, 0, p->pages, setting_map_flags(mode, col, part));
	if (!a) {
		ret = -1;
		goto out;
	}
	if (setting_mapping(mc, mode, random ? WL_RAND : WL_SEQ, col, (void *)a, len, part) < 0)
		ret = -1;
	else if (random)
		for (i = 0; i < n; i++)
			sum += (unsigned char)a[idx[i] * mc->page];
	else
		sum = touch_pages(a, p->pages, mc->page);
	sink = sum;
	e = errno;
	munmap((void *)a, len);
	meas_end(&m, smp, mc->icount_shift);
	errno = e;
out:
	e = errno;
	free(idx);
	errno = e;
	return ret;
}

/* touch: a plain, unaligned mapping, as the tracepoint microbenchmark had. */
static int run_touch(const struct wl_env *env, const struct params *p, int mode,
		     const struct column *col, struct sample *smp)
{
	const struct machine *mc = env->m;
	size_t len = p->touch_pages * mc->page;
	struct meas m;
	int ret = 0, e;
	char *a;

	meas_begin(&m);
	a = mmap(NULL, len, PROT_READ, MAP_PRIVATE | setting_map_flags(mode, col, PART_SEQ),
		 env->files->datafd, 0);
	if (a == MAP_FAILED)
		return -1;
	if (setting_mapping(mc, mode, WL_TOUCH, col, a, len, PART_SEQ) < 0)
		ret = -1;
	else
		sink = touch_pages(a, p->touch_pages, mc->page);
	e = errno;
	munmap(a, len);
	meas_end(&m, smp, mc->icount_shift);
	errno = e;
	return ret;
}

int exec_child(const char *file, const char *npages)
{
	unsigned long n = strtoul(npages, NULL, 10);
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	unsigned long i, sum = 0;
	char *p;

	if (fd < 0)
		return 1;
	p = mmap(NULL, n * pg, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	for (i = 0; i < n; i++)
		sum += (unsigned char)((volatile char *)p)[i * pg];
	sink = sum;
	return 0;
}

/* This program, to exec again (valgrind makes readlink give the client). */
const char *self_exe(void)
{
	static char exe[PATH_MAX];	/* found once: the program does not change */
	ssize_t n;

	if (exe[0])
		return exe;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		die("readlink /proc/self/exe: %s", strerror(errno));
	exe[n] = '\0';
	return exe;
}

static int run_exec(const struct wl_env *env, struct sample *smp)
{
	const char *prog = self_exe();
	char npages[32];
	struct meas m;
	unsigned long i;
	int ret = 0, st;
	pid_t pid;

	snprintf(npages, sizeof(npages), "%lu", env->child_pages);
	meas_begin(&m);
	for (i = 0; i < env->execs && !ret; i++) {
		pid = fork();
		if (pid < 0) {
			ret = -1;
			break;
		}
		if (pid == 0) {
			execl(prog, prog, EXEC_CHILD_ARG, env->files->datafile, npages, (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
			errno = ECHILD;
			ret = -1;
		}
	}
	meas_end(&m, smp, env->m->icount_shift);
	return ret;
}

static int run_small(const struct wl_env *env, const struct params *p, int mode,
		     const struct column *col, struct sample *smp)
{
	const struct machine *mc = env->m;
	char path[PATH_MAX + 32];
	struct meas m;
	struct stat st;
	unsigned long i, sum = 0;
	int ret = 0, fd, e;
	char *a;

	meas_begin(&m);
	for (i = 0; i < p->files && !ret; i++) {
		snprintf(path, sizeof(path), "%s/small-%lu", env->files->workdir, i);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			e = errno;
			if (fd >= 0)
				close(fd);
			errno = e;
			ret = -1;
			break;
		}
		a = mmap(NULL, (size_t)st.st_size, PROT_READ,
			 MAP_PRIVATE | setting_map_flags(mode, col, PART_SEQ), fd, 0);
		close(fd);
		if (a == MAP_FAILED) {
			ret = -1;
			break;
		}
		if (setting_mapping(mc, mode, WL_SMALL, col, a, (size_t)st.st_size, PART_SEQ) < 0)
			ret = -1;
		else
			sum += touch_pages(a, ((size_t)st.st_size + mc->page - 1) / mc->page,
					   mc->page);
		e = errno;
		munmap(a, (size_t)st.st_size);
		errno = e;
	}
	sink = sum;
	meas_end(&m, smp, mc->icount_shift);
	return ret;
}

/* mixed: one mapping read in order, another probed at random, interleaved
 * evenly, in one process: no single system-wide order fits both. */
static int run_mixed(const struct wl_env *env, const struct params *p, int mode,
		     const struct column *col, struct sample *smp)
{
	const struct machine *mc = env->m;
	const size_t pg = mc->page;
	const int fd = env->files->datafd;
	unsigned long s = mixed_seq_pages(p), r = mixed_rand_pages(p);
	unsigned long n = lookups(r, p->density), *idx, i, j, sum = 0;
	volatile char *a = NULL, *b = NULL;
	struct meas m;
	int ret = 0, e;

	idx = random_pages(n, r);
	if (!idx)
		return -1;
	meas_begin(&m);
	a = map_aligned(mc, fd, 0, s, setting_map_flags(mode, col, PART_SEQ));
	b = map_aligned(mc, fd, s, r, setting_map_flags(mode, col, PART_RAND));
	if (!a || !b ||
	    setting_mapping(mc, mode, WL_MIXED, col, (void *)a, s * pg, PART_SEQ) < 0 ||
	    setting_mapping(mc, mode, WL_MIXED, col, (void *)b, r * pg, PART_RAND) < 0) {
		ret = -1;
		goto out;
	}
	/* Lookup j comes after sequential page j * s / n: 1:1 and density 16
	 * read a random page after every 16th sequential one, as the seed. */
	for (i = 0, j = 0; i < s; i++) {
		sum += (unsigned char)a[i * pg];
		while (j < n && j * s <= i * n)
			sum += (unsigned char)b[idx[j++] * pg];
	}
	while (j < n)
		sum += (unsigned char)b[idx[j++] * pg];
	sink = sum;
out:
	e = errno;
	if (a)
		munmap((void *)a, s * pg);
	if (b)
		munmap((void *)b, r * pg);
	if (!ret)
		meas_end(&m, smp, mc->icount_shift);
	free(idx);
	errno = e;
	return ret;
}

/* One timed run of a workload of one thread. */
int run_single(const struct wl_env *env, int wl, const struct params *p, int mode,
	       const struct column *col, struct sample *smp)
{
	switch (wl) {
	case WL_SEQ:	return run_scan(env, p, mode, col, 0, smp);
	case WL_RAND:	return run_scan(env, p, mode, col, 1, smp);
	case WL_TOUCH:	return run_touch(env, p, mode, col, smp);
	case WL_EXEC:	return run_exec(env, smp);
	case WL_SMALL:	return run_small(env, p, mode, col, smp);
	case WL_MIXED:	return run_mixed(env, p, mode, col, smp);
	}
	errno = EINVAL;
	return -1;
}

static int write_pattern(int fd, size_t len, unsigned seedbyte)
{
	char buf[65536];
	size_t done = 0, i;
	ssize_t n;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7 + seedbyte + 1);
	while (done < len) {
		size_t chunk = len - done < sizeof(buf) ? len - done : sizeof(buf);

		n = write(fd, buf, chunk);
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return fsync(fd);
}

/* No files yet: remove_files() has nothing to do. */
void files_init(struct files *f)
{
	memset(f, 0, sizeof(*f));
	f->datafd = -1;
}

/* The data file, large enough for every point of @pl, and the small files,
 * in a directory of their own in @dir. */
void setup_files(struct files *f, const struct plan *pl, const struct machine *mc,
		 const char *dir)
{
	unsigned long data_pages = 1, files = 0, i;
	uint64_t seed = 0xf11e5ULL;
	char path[PATH_MAX + 32];
	int fd, pt, m;

	for (pt = 0; pt < pl->npoints; pt++) {
		const struct point *pp = &pl->points[pt];
		const struct params *p = &pp->p;

		if (data_pages < p->pages * 2)
			data_pages = p->pages * 2;
		if (data_pages < p->touch_pages)
			data_pages = p->touch_pages;
		for (m = 0; m < NR_MODES; m++) {
			if (pp->have[m][WL_SMALL] && files < p->files)
				files = p->files;
			/* The threaded workloads read pages per thread. */
			if ((pp->have[m][WL_MT_SLICES] ||
			     pp->have[m][WL_MT_INTERLEAVED] ||
			     pp->have[m][WL_MT_SEPARATE]) &&
			    data_pages < p->pages * p->threads)
				data_pages = p->pages * p->threads;
		}
	}
	snprintf(f->workdir, sizeof(f->workdir), "%s/fabench.%d", dir, (int)getpid());
	if (mkdir(f->workdir, 0700) < 0) {
		f->workdir[0] = '\0';
		die("mkdir in %s: %s", dir, strerror(errno));
	}
	snprintf(f->datafile, sizeof(f->datafile), "%s/data", f->workdir);
	f->datafd = open(f->datafile, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (f->datafd < 0 || write_pattern(f->datafd, data_pages * mc->page, 0) < 0)
		die("creating %s (%lu pages): %s", f->datafile, data_pages, strerror(errno));
	for (i = 0; i < files; i++) {
		/* 512 bytes to 128K, log-uniform: headers and sources. */
		double e = 9 + (double)(rng_next(&seed) % 1000) / 1000.0 * 8;
		size_t size = (size_t)pow(2, e);

		snprintf(path, sizeof(path), "%s/small-%lu", f->workdir, i);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		f->nfiles = i + 1;
		if (fd < 0 || write_pattern(fd, size, (unsigned)i) < 0)
			die("creating %s: %s", path, strerror(errno));
		close(fd);
	}
}

void remove_files(struct files *f)
{
	char path[PATH_MAX + 32];
	unsigned long i;

	if (!f->workdir[0])
		return;
	if (f->datafd >= 0)
		close(f->datafd);
	f->datafd = -1;
	if (f->datafile[0])
		unlink(f->datafile);
	for (i = 0; i < f->nfiles; i++) {
		snprintf(path, sizeof(path), "%s/small-%lu", f->workdir, i);
		unlink(path);
	}
	rmdir(f->workdir);
	f->workdir[0] = '\0';
}
