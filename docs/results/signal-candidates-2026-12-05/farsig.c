// SPDX-License-Identifier: GPL-2.0
/*
 * farsig: touch one byte per page of a read-only MAP_SHARED file mapping in
 * one access pattern, for tracing the fault path (see farsig.bt).
 *
 * usage: farsig FILE PATTERN STATE SEED
 *   PATTERN  seq | rand | stride16 | thr2half | thr2alt
 *   STATE    cold: fdatasync + POSIX_FADV_DONTNEED through another struct file
 *            warm: as cold, then the whole file read() through that other
 *                  struct file (so the measured fd's f_ra starts fresh)
 *   SEED     seed for rand (xorshift64)
 *
 * The measured struct file is dup2()ed to fd 100 (farsig.bt reads f_ra
 * through current->files->fdt->fd[100]) and mapped at MAP_ADDR so the
 * tracer can filter page_fault_user by address.  After the touches, the
 * program writes to an anonymous page at MARK_ADDR (two pages below
 * MAP_ADDR): that fault is the tracer's end marker, its last f_ra snapshot.
 *
 * Prints one line:
 *   PROG,pattern,state,pages,touches,resident_before,minflt,majflt,elapsed_ns,
 *        vma_rss_kb,vma_file_pmd_mapped_kb
 *
 * build: gcc -std=c11 -O2 -Wall -Wextra -Werror -pthread -o farsig farsig.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MEASURED_FD 100
#define MAP_ADDR ((void *)0x600000000000UL)
#define MARK_ADDR ((void *)(0x600000000000UL - 2 * 4096))

static volatile unsigned char *map;
static size_t pages;
static long psz;
static pthread_barrier_t barrier;

static void die(const char *what)
{
	fprintf(stderr, "farsig: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static unsigned sink;

static void touch(size_t pg)
{
	sink += map[pg * (size_t)psz];
}

struct thr {
	int id;
	int alt; /* 0: halves, 1: alternating pages */
	unsigned sum;
};

static void *thr_main(void *arg)
{
	struct thr *t = arg;
	unsigned s = 0;
	size_t i;

	pthread_barrier_wait(&barrier);
	if (t->alt) {
		for (i = (size_t)t->id; i < pages; i += 2)
			s += map[i * (size_t)psz];
	} else {
		size_t lo = (size_t)t->id * (pages / 2);
		size_t hi = t->id ? pages : pages / 2;

		for (i = lo; i < hi; i++)
			s += map[i * (size_t)psz];
	}
	t->sum = s;
	return NULL;
}

/* Rss and FilePmdMapped (kB) of the VMA at MAP_ADDR, from /proc/self/smaps */
static void vma_rss(long *rss_kb, long *pmd_kb)
{
	char line[256];
	int in = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	*rss_kb = *pmd_kb = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo;

		if (sscanf(line, "%lx-", &lo) == 1 && strchr(line, '-') &&
		    strchr(line, ' ') > strchr(line, '-')) {
			in = lo == (unsigned long)MAP_ADDR;
			continue;
		}
		if (in) {
			sscanf(line, "Rss: %ld kB", rss_kb);
			sscanf(line, "FilePmdMapped: %ld kB", pmd_kb);
		}
	}
	fclose(f);
}

static void warm_or_cold(const char *path, int warm)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die("open (prepare)");
	/*
	 * Always evict first, so that a warm page cache is always built the
	 * same way (by one sequential read(), i.e. read() readahead and its
	 * folio sizes) and not left over from whatever the previous run did.
	 */
	if (fdatasync(fd) && errno != EINVAL)
		die("fdatasync");
	errno = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (errno)
		die("posix_fadvise");
	if (warm) {
		static char buf[1 << 20];
		ssize_t n;

		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		if (n < 0)
			die("read");
	}
	close(fd);
}

int main(int argc, char **argv)
{
	const char *path, *pattern, *state;
	unsigned char *vec;
	volatile unsigned char *mark;
	struct rusage r0, r1;
	struct stat st;
	size_t i, resident = 0, touches = 0;
	uint64_t seed, t0, t1;
	long rss_kb, pmd_kb;
	int fd, warm;

	if (argc != 5) {
		fprintf(stderr, "usage: farsig FILE seq|rand|stride16|thr2half|thr2alt warm|cold SEED\n");
		return 2;
	}
	path = argv[1];
	pattern = argv[2];
	state = argv[3];
	seed = strtoull(argv[4], NULL, 0) * 0x9E3779B97F4A7C15ull + 1;
	psz = sysconf(_SC_PAGESIZE);
	if (strcmp(state, "warm") && strcmp(state, "cold")) {
		fprintf(stderr, "farsig: bad state %s\n", state);
		return 2;
	}
	warm = !strcmp(state, "warm");

	warm_or_cold(path, warm);

	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open");
	if (dup2(fd, MEASURED_FD) < 0)
		die("dup2");
	close(fd);
	fd = MEASURED_FD;
	if (fstat(fd, &st))
		die("fstat");
	pages = (size_t)st.st_size / (size_t)psz;
	map = mmap(MAP_ADDR, pages * (size_t)psz, PROT_READ,
		   MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");
	if ((void *)map != MAP_ADDR) {
		fprintf(stderr, "farsig: mapped at %p, not %p\n", (void *)map, MAP_ADDR);
		return 1;
	}

	vec = malloc(pages);
	if (!vec)
		die("malloc");
	if (mincore((void *)map, pages * (size_t)psz, vec))
		die("mincore");
	for (i = 0; i < pages; i++)
		resident += vec[i] & 1;
	free(vec);

	mark = mmap(MARK_ADDR, (size_t)psz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (mark != MARK_ADDR)
		die("mmap marker");

	getrusage(RUSAGE_SELF, &r0);
	t0 = now_ns();

	if (!strcmp(pattern, "seq")) {
		for (i = 0; i < pages; i++)
			touch(i);
		touches = pages;
	} else if (!strcmp(pattern, "rand")) {
		for (i = 0; i < pages / 16; i++) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			touch((size_t)(seed % pages));
		}
		touches = pages / 16;
	} else if (!strcmp(pattern, "stride16")) {
		for (i = 0; i < pages; i += 16)
			touch(i);
		touches = (pages + 15) / 16;
	} else if (!strcmp(pattern, "thr2half") || !strcmp(pattern, "thr2alt")) {
		pthread_t th[2];
		struct thr t[2];
		int k;

		pthread_barrier_init(&barrier, NULL, 2);
		for (k = 0; k < 2; k++) {
			t[k].id = k;
			t[k].alt = !strcmp(pattern, "thr2alt");
			t[k].sum = 0;
			if ((errno = pthread_create(&th[k], NULL, thr_main, &t[k])))
				die("pthread_create");
		}
		for (k = 0; k < 2; k++) {
			pthread_join(th[k], NULL);
			sink += t[k].sum;
		}
		touches = pages;
	} else {
		fprintf(stderr, "farsig: bad pattern %s\n", pattern);
		return 2;
	}

	t1 = now_ns();
	getrusage(RUSAGE_SELF, &r1);
	*mark = 1; /* end marker for the tracer */
	vma_rss(&rss_kb, &pmd_kb);

	printf("PROG,%s,%s,%zu,%zu,%zu,%ld,%ld,%llu,%ld,%ld\n", pattern, state,
	       pages, touches, resident, r1.ru_minflt - r0.ru_minflt,
	       r1.ru_majflt - r0.ru_majflt, (unsigned long long)(t1 - t0),
	       rss_kb, pmd_kb);
	munmap((void *)map, pages * (size_t)psz);
	close(fd);
	return 0;
}
