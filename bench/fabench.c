// SPDX-License-Identifier: GPL-2.0
/*
 * fabench: fault-around order benchmarks.
 *
 * Measures minor faults and elapsed time of small file-mapping workloads
 * for the system default ("Baseline") and for fault-around orders set
 * either system-wide (--mode global: sysfs default_bytes, or debugfs
 * fault_around_bytes on stock kernels) or per mapping / per process
 * (--mode hint: MADV_FAULTAROUND / PR_SET_FAULTAROUND through
 * libfaultaround).  --mode cost runs the baseline column only, with no
 * hint and no knob written, to compare stock and patched kernels.
 *
 * Each cell is repeated --repeat times and reported as the mean and the
 * standard deviation of the mean in percent of the mean, the way
 * "perf stat --repeat" reports it.  Only the measured loop is timed; files
 * live in the page cache (tmpfs by default) and every run maps them afresh,
 * so each run starts with empty page tables and a warm page cache.
 *
 * The tables follow the layout of the 2014 FAULT_AROUND_ORDER threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <faultaround.h>

#define SYSFS_DIR		"/sys/kernel/mm/faultaround"
#define SYSFS_DEFAULT_BYTES	SYSFS_DIR "/default_bytes"
#define SYSFS_MAX_ORDER		SYSFS_DIR "/max_order"
#define DEBUGFS_BYTES		"/sys/kernel/debug/fault_around_bytes"
#define EXEC_CHILD_ARG		"--exec-child"

#define MAX_COLS	24
#define COL_BASELINE	(-1)
/*
 * rand and mixed look up one page in RAND_SPARSITY at random, the way a
 * lookup table or an index is read: most of the file is never touched.
 */
#define RAND_SPARSITY	16

#define COL_SPLIT	(-2)	/* mixed, hint mode: max order seq, 0 random */

enum { WL_SEQ, WL_RAND, WL_TOUCH, WL_EXEC, WL_SMALL, WL_MIXED, NR_WL };
static const char *const wl_names[NR_WL] = {
	"seq", "rand", "touch", "exec", "smallfiles", "mixed",
};

enum { MODE_GLOBAL, MODE_HINT, MODE_COST, NR_MODES };
static const char *const mode_names[NR_MODES] = { "global", "hint", "cost" };

enum { ST_RAN, ST_SKIP, ST_ERROR };

struct cell {
	int status;
	char note[160];
	int runs;
	double fmean, fsd;	/* minor faults; sd of the mean, % of mean */
	double tmean, tsd;	/* seconds */
	long expected;		/* seq: the limit, or -1 */
};

struct column {
	int order;		/* >= 0, COL_BASELINE or COL_SPLIT */
	char label[16];
};

/* --- configuration ------------------------------------------------------ */

static struct {
	int modes[NR_MODES];
	int wl[NR_WL];
	int repeat;
	unsigned long pages;		/* seq, rand, each mixed mapping */
	unsigned long touch_pages;	/* touch: the large region */
	unsigned long files;		/* smallfiles */
	unsigned long execs;		/* exec: processes per run */
	unsigned long child_pages;	/* exec: pages each child touches */
	const char *dir;
	const char *csv, *json;
	int tap;
	int allow_knobs;
	int orders[MAX_COLS];
	int norders;			/* 0: the default list */
} cfg = {
	.repeat = 5,
	.pages = 4096,
	.execs = 50,
	.child_pages = 16,
};

/* --- the machine --------------------------------------------------------- */

static size_t page;
static int supported;		/* the kernel has the feature */
static int max_order;		/* kernel's, or guessed on stock kernels */
static int max_order_guessed;
static const char *knob;	/* the system default knob, or NULL */
static long long knob_orig = -1;	/* its value at start */
static int knob_dirty;		/* we wrote it and have not restored it */
static int baseline_order = -1;	/* from the knob, -1 when unknown */
static int knobs_allowed;
static char mmu[32] = "n/a";
static int emulated;
static char exe[PATH_MAX];
static char workdir[PATH_MAX - 64];
static char datafile[PATH_MAX];
static int datafd = -1;

static struct column cols[MAX_COLS];
static int ncols;
static struct cell results[NR_MODES][NR_WL][MAX_COLS + 1];
static int have_results[NR_MODES][NR_WL];

static int tap_n, tap_failed;
static FILE *out;	/* human output */

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	char *line, *save = NULL;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!cfg.tap) {
		fputs(buf, out);
		fflush(out);
		return;
	}
	/* TAP: human output becomes diagnostics. */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		fprintf(out, "# %s\n", line);
	fflush(out);
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void cleanup(void);
static void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(cfg.tap ? "Bail out! fabench: " : "fabench: ", stdout);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	cleanup();
	exit(1);
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static long long read_knob(void)
{
	char buf[64], *end;
	long long v;

	if (!knob || read_file(knob, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (errno || end == buf)
		return -1;
	return v;
}

static int write_knob(long long bytes)
{
	char buf[32];
	int fd, len, ret = 0;

	fd = open(knob, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = snprintf(buf, sizeof(buf), "%lld\n", bytes);
	if (write(fd, buf, (size_t)len) != len)
		ret = -1;
	if (close(fd) < 0 && !ret)
		ret = -1;
	return ret;
}

static void restore_knob(void)
{
	if (knob_dirty && knob_orig >= 0 && write_knob(knob_orig) == 0)
		knob_dirty = 0;
}

static void cleanup(void)
{
	char path[PATH_MAX + 32];
	unsigned long i;

	restore_knob();
	if (supported)
		faultaround_set_default(FAULTAROUND_UNSET);
	if (!workdir[0])
		return;
	if (datafile[0])
		unlink(datafile);
	for (i = 0; i < cfg.files; i++) {
		snprintf(path, sizeof(path), "%s/small-%lu", workdir, i);
		unlink(path);
	}
	rmdir(workdir);
	workdir[0] = '\0';
}

static void on_signal(int sig)
{
	/* Best effort: put the system default back, then die of the signal. */
	restore_knob();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int ilog2(unsigned long long v)
{
	int o = 0;

	while (v > 1) {
		v >>= 1;
		o++;
	}
	return o;
}

static int cmdline_has(const char *word)
{
	char buf[4096], *tok, *save = NULL;

	if (read_file("/proc/cmdline", buf, sizeof(buf)) < 0)
		return 0;
	for (tok = strtok_r(buf, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
		if (!strcmp(tok, word))
			return 1;
	return 0;
}

static void probe_machine(void)
{
	char buf[64], line[512];
	const char *env = getenv("FA_EMULATED");
	FILE *f;

	page = (size_t)sysconf(_SC_PAGESIZE);
	f = fopen("/proc/cpuinfo", "re");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "MMU", 3) && strchr(line, ':')) {
				char *v = strchr(line, ':') + 1;

				v += strspn(v, " \t");
				v[strcspn(v, "\n")] = '\0';
				snprintf(mmu, sizeof(mmu), "%s", v);
			}
			if (strstr(line, "emulated by qemu") || strstr(line, "QEMU TCG"))
				emulated = 1;
		}
		fclose(f);
	}
	if (env && *env && strcmp(env, "0"))
		emulated = 1;

	supported = faultaround_supported();
	if (supported) {
		max_order = faultaround_max_order();
	} else if (read_file(SYSFS_MAX_ORDER, buf, sizeof(buf)) == 0) {
		max_order = atoi(buf);
	} else {
		/* Stock kernel: one page table of PTEs, as fault_around_bytes
		 * allows (64K pages: radix 32 PTEs, hash 256). */
		max_order_guessed = 1;
		if (page == 65536)
			max_order = strstr(mmu, "Hash") ? 8 : 5;
		else
			max_order = ilog2(page / 8);
	}

	/* FABENCH_KNOB: a stand-in file, to test the global-mode code paths. */
	if (getenv("FABENCH_KNOB") && *getenv("FABENCH_KNOB"))
		knob = getenv("FABENCH_KNOB");
	else if (access(SYSFS_DEFAULT_BYTES, F_OK) == 0)
		knob = SYSFS_DEFAULT_BYTES;
	else if (access(DEBUGFS_BYTES, F_OK) == 0)
		knob = DEBUGFS_BYTES;
	knob_orig = read_knob();
	if (knob_orig >= 0)
		baseline_order = knob_orig < (long long)page ? 0 :
				 ilog2((unsigned long long)knob_orig / page);
	knobs_allowed = geteuid() == 0 && (cfg.allow_knobs || cmdline_has("faultaround.test"));
	if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) < 0)
		die("readlink /proc/self/exe: %s", strerror(errno));
}

/* --- statistics ---------------------------------------------------------- */

/* Mean and the standard deviation of the mean in percent of the mean, as
 * perf stat --repeat prints it (tools/perf/util/stat.c). */
static void stats(const double *v, int n, double *mean, double *sd_pct)
{
	double m = 0, m2 = 0;
	int i;

	for (i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (i = 0; i < n; i++)
		m2 += (v[i] - m) * (v[i] - m);
	*mean = m;
	*sd_pct = (n > 1 && m != 0) ? 100.0 * sqrt(m2 / (n - 1) / n) / m : 0.0;
}

/* --- measuring ---------------------------------------------------------- */

struct sample {
	double faults, secs;
};

struct meas {
	long flt;
	struct timespec t;
};

static long minflt_now(void)
{
	struct rusage self, children;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	return self.ru_minflt + children.ru_minflt;
}

static void meas_begin(struct meas *m)
{
	m->flt = minflt_now();
	clock_gettime(CLOCK_MONOTONIC, &m->t);
}

static void meas_end(const struct meas *m, struct sample *s)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	s->faults = (double)(minflt_now() - m->flt);
	s->secs = (double)(t.tv_sec - m->t.tv_sec) + (t.tv_nsec - m->t.tv_nsec) / 1e9;
}

static volatile unsigned long sink;

static unsigned long touch_pages(const volatile char *p, unsigned long n)
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

/* Map @pages pages of @fd from page @pgoff read-only at an address aligned
 * to the largest fault-around window, so every window is whole. */
static char *map_aligned(int fd, unsigned long pgoff, unsigned long pages)
{
	size_t align = page << max_order, len = pages * page;
	char *r, *p;
	uintptr_t a;

	r = mmap(NULL, len + align, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)r + align - 1) & ~(uintptr_t)(align - 1);
	p = mmap((void *)a, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd,
		 (off_t)(pgoff * page));
	if (p == MAP_FAILED) {
		munmap(r, len + align);
		return NULL;
	}
	if ((char *)a > r)
		munmap(r, (size_t)((char *)a - r));
	if (r + len + align > p + len)
		munmap(p + len, (size_t)(r + len + align - (p + len)));
	return p;
}

/* One run of one workload: mode and column say which order applies. */
struct setting {
	int mode;
	int order;	/* COL_BASELINE, COL_SPLIT or an order */
};

static int hint_map(const struct setting *s, void *addr, size_t len, int order)
{
	if (s->mode != MODE_HINT || s->order == COL_BASELINE)
		return 0;
	return faultaround_set(addr, len, order);
}

static int hint_process(const struct setting *s)
{
	if (s->mode != MODE_HINT || s->order == COL_BASELINE)
		return 0;
	return faultaround_set_default(s->order);
}

static int unhint_process(const struct setting *s)
{
	if (s->mode != MODE_HINT || s->order == COL_BASELINE)
		return 0;
	return faultaround_set_default(FAULTAROUND_UNSET);
}

static int run_map_scan(const struct setting *s, struct sample *smp,
			unsigned long pgoff, unsigned long pages, int random)
{
	unsigned long *idx = NULL, i;
	uint64_t seed = 0x5eedULL;
	struct meas m;
	char *p;
	int ret = 0;

	unsigned long lookups = pages / RAND_SPARSITY ?: 1;

	if (random) {
		idx = malloc(lookups * sizeof(*idx));
		if (!idx)
			return -1;
		for (i = 0; i < lookups; i++)
			idx[i] = (unsigned long)(rng_next(&seed) % pages);
	}
	p = map_aligned(datafd, pgoff, pages);
	if (!p) {
		free(idx);
		return -1;
	}
	if (hint_map(s, p, pages * page, s->order) < 0) {
		ret = -1;
		goto out;
	}
	meas_begin(&m);
	if (random) {
		unsigned long sum = 0;

		for (i = 0; i < lookups; i++)
			sum += (unsigned char)((volatile char *)p)[idx[i] * page];
		sink = sum;
	} else {
		sink = touch_pages(p, pages);
	}
	/* Pages mapped and never used still cost their unmapping. */
	munmap(p, pages * page);
	meas_end(&m, smp);
	free(idx);
	return ret;
out:
	munmap(p, pages * page);
	free(idx);
	return ret;
}

static int run_touch(const struct setting *s, struct sample *smp)
{
	size_t len = cfg.touch_pages * page;
	struct meas m;
	char *p;
	int ret = 0;

	/* A plain mapping, as the tracepoint microbenchmark had. */
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, datafd, 0);
	if (p == MAP_FAILED)
		return -1;
	if (hint_map(s, p, len, s->order) < 0) {
		munmap(p, len);
		return -1;
	}
	meas_begin(&m);
	sink = touch_pages(p, cfg.touch_pages);
	/* As seq: pages mapped and never used still cost their unmapping. */
	munmap(p, len);
	meas_end(&m, smp);
	return ret;
}

static int exec_child(const char *file, const char *npages)
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

static int run_exec(const struct setting *s, struct sample *smp)
{
	char npages[32];
	struct meas m;
	unsigned long i;
	int ret = 0, st;
	pid_t pid;

	snprintf(npages, sizeof(npages), "%lu", cfg.child_pages);
	if (hint_process(s) < 0)
		return -1;
	meas_begin(&m);
	for (i = 0; i < cfg.execs && !ret; i++) {
		pid = fork();
		if (pid < 0) {
			ret = -1;
			break;
		}
		if (pid == 0) {
			execl(exe, exe, EXEC_CHILD_ARG, datafile, npages, (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			ret = -1;
	}
	meas_end(&m, smp);
	if (unhint_process(s) < 0)
		ret = -1;
	return ret;
}

static int run_small(const struct setting *s, struct sample *smp)
{
	char path[PATH_MAX + 32];
	struct meas m;
	struct stat st;
	unsigned long i, sum = 0;
	int ret = 0, fd;
	char *p;

	if (hint_process(s) < 0)
		return -1;
	meas_begin(&m);
	for (i = 0; i < cfg.files && !ret; i++) {
		snprintf(path, sizeof(path), "%s/small-%lu", workdir, i);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			ret = -1;
			break;
		}
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
		if (p == MAP_FAILED) {
			ret = -1;
			break;
		}
		sum += touch_pages(p, ((size_t)st.st_size + page - 1) / page);
		munmap(p, (size_t)st.st_size);
	}
	sink = sum;
	meas_end(&m, smp);
	if (unhint_process(s) < 0)
		ret = -1;
	return ret;
}

static int run_mixed(const struct setting *s, struct sample *smp)
{
	unsigned long n = cfg.pages, nl = n / RAND_SPARSITY, *idx, i, j, sum = 0;
	uint64_t seed = 0x5eedULL;
	int oseq = s->order, orand = s->order, ret = 0;
	volatile char *a, *b;
	struct meas m;

	idx = malloc(nl * sizeof(*idx));
	if (!idx)
		return -1;
	for (i = 0; i < nl; i++)
		idx[i] = (unsigned long)(rng_next(&seed) % n);
	a = map_aligned(datafd, 0, n);
	b = map_aligned(datafd, n, n);
	if (!a || !b) {
		ret = -1;
		goto out;
	}
	if (s->order == COL_SPLIT) {
		oseq = max_order;
		orand = 0;
	}
	if (hint_map(s, (void *)a, n * page, oseq) < 0 ||
	    hint_map(s, (void *)b, n * page, orand) < 0) {
		ret = -1;
		goto out;
	}
	meas_begin(&m);
	/* Only the nl lookups drawn: with pages not a multiple of
	 * RAND_SPARSITY, i / RAND_SPARSITY reached one past them. */
	for (i = 0, j = 0; i < n; i++) {
		sum += (unsigned char)a[i * page];
		if (i % RAND_SPARSITY == 0 && j < nl)
			sum += (unsigned char)b[idx[j++] * page];
	}
	sink = sum;
	munmap((void *)a, n * page);
	munmap((void *)b, n * page);
	meas_end(&m, smp);
	free(idx);
	return ret;
out:
	if (a)
		munmap((void *)a, n * page);
	if (b)
		munmap((void *)b, n * page);
	free(idx);
	return ret;
}

static int run_once(int wl, const struct setting *s, struct sample *smp)
{
	switch (wl) {
	case WL_SEQ:	return run_map_scan(s, smp, 0, cfg.pages, 0);
	case WL_RAND:	return run_map_scan(s, smp, 0, cfg.pages, 1);
	case WL_TOUCH:	return run_touch(s, smp);
	case WL_EXEC:	return run_exec(s, smp);
	case WL_SMALL:	return run_small(s, smp);
	case WL_MIXED:	return run_mixed(s, smp);
	}
	return -1;
}

/* --- setup --------------------------------------------------------------- */

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

static void setup_files(void)
{
	unsigned long data_pages = cfg.pages * 2 > cfg.touch_pages ? cfg.pages * 2 : cfg.touch_pages;
	uint64_t seed = 0xf11e5ULL;
	char path[PATH_MAX + 32];
	unsigned long i;
	int fd;

	snprintf(workdir, sizeof(workdir), "%s/fabench.%d", cfg.dir, (int)getpid());
	if (mkdir(workdir, 0700) < 0) {
		workdir[0] = '\0';
		die("mkdir in %s: %s", cfg.dir, strerror(errno));
	}
	snprintf(datafile, sizeof(datafile), "%s/data", workdir);
	datafd = open(datafile, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (datafd < 0 || write_pattern(datafd, data_pages * page, 0) < 0)
		die("creating %s (%lu pages): %s", datafile, data_pages, strerror(errno));
	if (cfg.wl[WL_SMALL]) {
		for (i = 0; i < cfg.files; i++) {
			/* 512 bytes to 128K, log-uniform: headers and sources. */
			double e = 9 + (double)(rng_next(&seed) % 1000) / 1000.0 * 8;
			size_t size = (size_t)pow(2, e);

			snprintf(path, sizeof(path), "%s/small-%lu", workdir, i);
			fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			if (fd < 0 || write_pattern(fd, size, (unsigned)i) < 0)
				die("creating %s: %s", path, strerror(errno));
			close(fd);
		}
	}
}

/* --- columns and cells --------------------------------------------------- */

static void setup_columns(void)
{
	static const int deflist[] = { 0, 1, 3, 4, 5, 8 };
	int i, n = 0;

	cols[n].order = COL_BASELINE;
	snprintf(cols[n++].label, sizeof(cols[0].label), "Baseline");
	if (cfg.norders) {
		for (i = 0; i < cfg.norders; i++)
			if (cfg.orders[i] <= max_order)
				cols[n++].order = cfg.orders[i];
	} else {
		for (i = 0; i < (int)(sizeof(deflist) / sizeof(deflist[0])); i++)
			if (deflist[i] <= max_order)
				cols[n++].order = deflist[i];
		if (cols[n - 1].order != max_order)
			cols[n++].order = max_order;
	}
	for (i = 1; i < n; i++)
		snprintf(cols[i].label, sizeof(cols[0].label), "%d", cols[i].order);
	ncols = n;
}

static void tap_result(int ok, const char *name, const char *directive)
{
	if (!cfg.tap)
		return;
	tap_failed += !ok;
	fprintf(out, "%sok %d %s%s%s\n", ok ? "" : "not ", ++tap_n, name,
		directive ? " # " : "", directive ? directive : "");
	fflush(out);
}

/* The number of TAP tests the run will print. */
static int tap_plan(void)
{
	int m, w, n = 0;

	for (m = 0; m < NR_MODES; m++) {
		if (!cfg.modes[m])
			continue;
		for (w = 0; w < NR_WL; w++) {
			if (!cfg.wl[w])
				continue;
			n += m == MODE_COST ? 1 : ncols;
			if (m == MODE_HINT && w == WL_MIXED)
				n++;
			if (w == WL_SEQ && m != MODE_COST)
				n++;	/* the limit */
		}
	}
	return n;
}

static const char *skip_reason(int mode, int order)
{
	if (order == COL_BASELINE)
		return NULL;
	if (mode == MODE_HINT)
		return supported ? NULL : "no kernel support";
	if (mode == MODE_GLOBAL) {
		if (!knob)
			return "no fault-around knob (no sysfs default_bytes, debugfs not mounted)";
		if (knob_orig < 0)
			return "fault-around knob not readable";
		if (!knobs_allowed)
			return "system default left alone (not root in a faultaround.test guest; see --allow-knobs)";
	}
	return NULL;
}

static void run_cell(int mode, int wl, int order, struct cell *c)
{
	struct setting s = { .mode = mode, .order = order };
	double *f = calloc((size_t)cfg.repeat, sizeof(double));
	double *t = calloc((size_t)cfg.repeat, sizeof(double));
	const char *why = skip_reason(mode, order);
	struct sample smp;
	int r;

	memset(c, 0, sizeof(*c));
	c->expected = -1;
	if (!f || !t)
		die("out of memory");
	if (why) {
		c->status = ST_SKIP;
		snprintf(c->note, sizeof(c->note), "%s", why);
		goto out;
	}
	if (mode == MODE_GLOBAL && order >= 0) {
		if (write_knob((long long)page << order) < 0) {
			c->status = ST_SKIP;
			snprintf(c->note, sizeof(c->note), "%s refused %zu bytes: %s",
				 knob, page << order, strerror(errno));
			goto out;
		}
		knob_dirty = 1;
	}
	for (r = 0; r < cfg.repeat; r++) {
		if (run_once(wl, &s, &smp) < 0) {
			c->status = ST_ERROR;
			snprintf(c->note, sizeof(c->note), "run %d failed: %s", r + 1,
				 strerror(errno));
			break;
		}
		f[r] = smp.faults;
		t[r] = smp.secs;
		c->runs++;
	}
	if (mode == MODE_GLOBAL && order >= 0)
		restore_knob();
	if (c->status == ST_RAN) {
		stats(f, c->runs, &c->fmean, &c->fsd);
		stats(t, c->runs, &c->tmean, &c->tsd);
	}
	if (wl == WL_SEQ) {
		int o = order == COL_BASELINE ? baseline_order : order;

		if (o >= 0)
			c->expected = (long)((cfg.pages + (1UL << o) - 1) >> o);
	}
out:
	free(f);
	free(t);
}

static const char *col_name(int order, char *buf, size_t size)
{
	if (order == COL_BASELINE)
		return "baseline";
	if (order == COL_SPLIT)
		snprintf(buf, size, "split-%d/0", max_order);
	else
		snprintf(buf, size, "order-%d", order);
	return buf;
}

static void tap_cell(int mode, int wl, int order, const struct cell *c)
{
	char name[96], cb[32], dir[200];

	snprintf(name, sizeof(name), "%s %s %s", wl_names[wl], mode_names[mode],
		 col_name(order, cb, sizeof(cb)));
	if (c->status == ST_SKIP) {
		snprintf(dir, sizeof(dir), "SKIP %s", c->note);
		tap_result(1, name, dir);
	} else if (c->status == ST_ERROR) {
		tap_result(0, name, NULL);
		say("%s: %s\n", name, c->note);
	} else {
		tap_result(1, name, NULL);
	}
}

/* --- output ------------------------------------------------------------- */

#define LW	24	/* label width */
#define CW	16	/* column width */

static void print_row(const char *label, const struct cell *cs, int n, int what,
		      const struct cell *base)
{
	char line[2048], cellbuf[64];
	int i, len;

	len = snprintf(line, sizeof(line), "%-*s", LW, label);
	for (i = 0; i < n; i++) {
		const struct cell *c = &cs[i];

		if (c->status == ST_SKIP)
			snprintf(cellbuf, sizeof(cellbuf), "skip");
		else if (c->status == ST_ERROR)
			snprintf(cellbuf, sizeof(cellbuf), "error");
		else if (what == 0)
			snprintf(cellbuf, sizeof(cellbuf), "%.0f", c->fmean);
		else if (what == 1)
			snprintf(cellbuf, sizeof(cellbuf), "( +-%6.2f%% )", c->fsd);
		else if (what == 2)
			snprintf(cellbuf, sizeof(cellbuf), "%.9f", c->tmean);
		else if (what == 3)
			snprintf(cellbuf, sizeof(cellbuf), "( +-%6.2f%% )", c->tsd);
		else if (what == 4) {
			/* %chg of time against base; nothing for the base itself */
			if (c == base || !base || base->status != ST_RAN || base->tmean <= 0)
				cellbuf[0] = '\0';
			else
				snprintf(cellbuf, sizeof(cellbuf), "%.1f%%",
					 100.0 * (c->tmean - base->tmean) / base->tmean);
		} else if (what == 5) {
			if (c->expected < 0)
				snprintf(cellbuf, sizeof(cellbuf), "n/a");
			else if ((long)c->fmean == c->expected && c->fsd == 0)
				snprintf(cellbuf, sizeof(cellbuf), "ok");
			else
				snprintf(cellbuf, sizeof(cellbuf), "%.0f!=%ld", c->fmean, c->expected);
		}
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%-*s", CW, cellbuf);
	}
	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
	say("%s\n", line);
}

static void print_header(int mode, int with_split)
{
	char line[2048], lb[32];
	int i, len;

	len = snprintf(line, sizeof(line), "%-*s", LW, "FAULT_AROUND_ORDER");
	for (i = 0; i < (mode == MODE_COST ? 1 : ncols); i++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%-*s", CW,
				mode == MODE_COST ? "Baseline" : cols[i].label);
	if (with_split) {
		snprintf(lb, sizeof(lb), "seq=%d/rand=0", max_order);
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%-*s", CW, lb);
	}
	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
	say("%s\n", line);
}

static const char *wl_desc(int wl, char *buf, size_t size)
{
	switch (wl) {
	case WL_SEQ: snprintf(buf, size, "one byte per page, %lu pages, in order, unmap included", cfg.pages); break;
	case WL_RAND: snprintf(buf, size, "%lu random lookups in %lu pages, fixed seed, unmap included", cfg.pages / RAND_SPARSITY, cfg.pages); break;
	case WL_TOUCH: snprintf(buf, size, "one byte per page of %lu pages, unaligned mapping, unmap included", cfg.touch_pages); break;
	case WL_EXEC: snprintf(buf, size, "%lu fork+exec, each touches %lu pages", cfg.execs, cfg.child_pages); break;
	case WL_SMALL: snprintf(buf, size, "mmap and read %lu files of 512B-128K", cfg.files); break;
	case WL_MIXED: snprintf(buf, size, "%lu pages in order on one mapping, %lu random lookups in another, unmap included", cfg.pages, cfg.pages / RAND_SPARSITY); break;
	}
	return buf;
}

static const struct cell *best_single(const struct cell *cs, int n, int *col)
{
	const struct cell *best = NULL;
	int i;

	for (i = 0; i < n; i++)
		if (cs[i].status == ST_RAN && (!best || cs[i].tmean < best->tmean)) {
			best = &cs[i];
			*col = i;
		}
	return best;
}

static void print_block(int mode, int wl)
{
	struct cell *cs = results[mode][wl];
	int split = mode == MODE_HINT && wl == WL_MIXED;
	int n = (mode == MODE_COST ? 1 : ncols) + split;
	char desc[160];

	if (split)
		print_header(mode, 1);
	say("%s (%s)    [%s]\n", wl_names[wl], mode_names[mode], wl_desc(wl, desc, sizeof(desc)));
	print_row("minor-faults", cs, n, 0, NULL);
	print_row(" stddev", cs, n, 1, NULL);
	print_row("times in seconds", cs, n, 2, NULL);
	print_row(" stddev for time", cs, n, 3, NULL);
	if (mode != MODE_COST)
		print_row(" %chg time to baseline", cs, n, 4, &cs[0]);
	if (wl == WL_SEQ && mode != MODE_COST)
		print_row(" limit ceil(pages/2^k)", cs, n, 5, NULL);
	if (split) {
		/* The per-mapping hints against every single order. */
		const struct cell *sp = &cs[ncols];
		const struct cell *ref = results[MODE_GLOBAL][WL_MIXED];
		const char *refname = "global";
		char line[2048], cb[64];
		const struct cell *best;
		int i, len, bc = 0;

		if (!have_results[MODE_GLOBAL][WL_MIXED] || !best_single(ref + 1, ncols - 1, &bc)) {
			ref = cs;
			refname = "hint, both mappings";
		}
		len = snprintf(line, sizeof(line), "%-*s", LW, " %chg split vs column");
		for (i = 0; i < ncols; i++) {
			if (sp->status != ST_RAN || ref[i].status != ST_RAN || ref[i].tmean <= 0)
				snprintf(cb, sizeof(cb), "%s", ref[i].status == ST_RAN ? "" : "skip");
			else
				snprintf(cb, sizeof(cb), "%.1f%%", 100.0 * (sp->tmean - ref[i].tmean) / ref[i].tmean);
			len += snprintf(line + len, sizeof(line) - (size_t)len, "%-*s", CW, cb);
		}
		while (len > 0 && line[len - 1] == ' ')
			line[--len] = '\0';
		say("%s    (columns: single order, %s)\n", line, refname);
		best = best_single(ref, ncols, &bc);
		if (sp->status == ST_RAN && best && best->fmean > 0 && best->tmean > 0)
			say("mixed: per-mapping hints (seq %d, rand 0): %.9f s ( +-%6.2f%% ), %.0f faults;"
			    " best single order (%s) %s: %.9f s ( +-%6.2f%% ), %.0f faults;"
			    " time %+.1f%%, faults %+.1f%%\n",
			    max_order, sp->tmean, sp->tsd, sp->fmean, refname, cols[bc].label,
			    best->tmean, best->tsd, best->fmean,
			    100.0 * (sp->tmean - best->tmean) / best->tmean,
			    100.0 * (sp->fmean - best->fmean) / best->fmean);
		else
			say("mixed: per-mapping hints vs best single order: not measured (%s)\n",
			    sp->status == ST_RAN ? "no single order ran" : sp->note);
	}
	say("\n");
}

/* The limit check of seq: ok when every column with a known limit ran and
 * took exactly ceil(pages / 2^order) faults in every run.  Baseline with a
 * known system default is checked too. */
static void limit_check(int mode)
{
	const struct cell *cs = results[mode][WL_SEQ];
	char name[64], msg[1024] = "";
	int i, checked = 0, bad = 0, len = 0;

	for (i = 0; i < ncols; i++) {
		const struct cell *c = &cs[i];

		if (c->status != ST_RAN || c->expected < 0)
			continue;
		checked++;
		if ((long)c->fmean != c->expected || c->fsd != 0) {
			bad++;
			len += snprintf(msg + len, sizeof(msg) - (size_t)len,
					" %s: %.0f faults (+-%.2f%%), expected %ld;",
					cols[i].label, c->fmean, c->fsd, c->expected);
		}
	}
	snprintf(name, sizeof(name), "seq %s limit", mode_names[mode]);
	if (cs[0].status == ST_RAN && cs[0].expected < 0 && cs[0].fmean > 0)
		say("seq (%s): system default unknown; Baseline took %.0f faults for %lu pages,"
		    " a window of about %.0f pages\n", mode_names[mode], cs[0].fmean, cfg.pages,
		    (double)cfg.pages / cs[0].fmean);
	if (!checked) {
		say("seq (%s): limit not checked (no column with a known order ran)\n\n", mode_names[mode]);
		tap_result(1, name, "SKIP no column with a known order ran");
	} else if (!bad) {
		say("seq (%s): limit ok: minor faults == ceil(%lu / 2^order) in %d column(s)\n\n",
		    mode_names[mode], cfg.pages, checked);
		tap_result(1, name, NULL);
	} else {
		say("seq (%s): limit MISMATCH:%s\n\n", mode_names[mode], msg);
		tap_result(0, name, NULL);
	}
}

static void csv_escape(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void json_escape(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static const char *status_name(int st)
{
	return st == ST_RAN ? "ok" : st == ST_SKIP ? "skip" : "error";
}

static void for_each_cell(void (*fn)(void *arg, int mode, int wl, int order,
				      const char *label, const struct cell *c,
				      const struct cell *base), void *arg)
{
	int m, w, i;
	char lb[32];

	for (m = 0; m < NR_MODES; m++)
		for (w = 0; w < NR_WL; w++) {
			if (!have_results[m][w])
				continue;
			for (i = 0; i < (m == MODE_COST ? 1 : ncols); i++)
				fn(arg, m, w, cols[i].order, cols[i].label,
				   &results[m][w][i], &results[m][w][0]);
			if (m == MODE_HINT && w == WL_MIXED) {
				snprintf(lb, sizeof(lb), "seq=%d/rand=0", max_order);
				fn(arg, m, w, COL_SPLIT, lb, &results[m][w][ncols],
				   &results[m][w][0]);
			}
		}
}

static double chg(const struct cell *c, const struct cell *base)
{
	if (c == base || c->status != ST_RAN || base->status != ST_RAN || base->tmean <= 0)
		return NAN;
	return 100.0 * (c->tmean - base->tmean) / base->tmean;
}

static void csv_cell(void *arg, int mode, int wl, int order, const char *label,
		     const struct cell *c, const struct cell *base)
{
	FILE *f = arg;
	double p = chg(c, base);

	fprintf(f, "%s,%s,%s,%d,%s,%d,%lu,", mode_names[mode], wl_names[wl], label,
		order, status_name(c->status), c->runs, cfg.pages);
	if (c->status == ST_RAN)
		fprintf(f, "%.1f,%.2f,%.9f,%.2f,", c->fmean, c->fsd, c->tmean, c->tsd);
	else
		fprintf(f, ",,,,");
	if (!isnan(p))
		fprintf(f, "%.2f", p);
	fputc(',', f);
	if (c->expected >= 0)
		fprintf(f, "%ld", c->expected);
	fputc(',', f);
	csv_escape(f, c->note);
	fputc('\n', f);
}

static void print_meta(FILE *f, const char *prefix)
{
	struct utsname u;
	char dflt[32] = "unknown";

	if (knob_orig >= 0)
		snprintf(dflt, sizeof(dflt), "%lld bytes", knob_orig);
	uname(&u);
	fprintf(f, "%skernel %s %s, page size %zu, MMU %s, max order %d%s, feature %s,"
		" system default %s (%s), repeat %d, pages %lu%s\n",
		prefix, u.release, u.machine, page, mmu, max_order,
		max_order_guessed ? " (guessed)" : "", supported ? "yes" : "no",
		dflt, knob ? knob : "no knob", cfg.repeat, cfg.pages,
		emulated ? ", emulated" : "");
}

static void write_csv(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "we") : stdout;

	if (!f)
		die("%s: %s", path, strerror(errno));
	print_meta(f, "# ");
	fprintf(f, "mode,workload,column,order,status,runs,pages,faults_mean,faults_stddev_pct,"
		"time_mean_s,time_stddev_pct,time_chg_pct,faults_expected,note\n");
	for_each_cell(csv_cell, f);
	if (f != stdout)
		fclose(f);
	else
		fflush(f);
}

struct json_state {
	FILE *f;
	int first;
};

static void json_cell(void *arg, int mode, int wl, int order, const char *label,
		      const struct cell *c, const struct cell *base)
{
	struct json_state *js = arg;
	FILE *f = js->f;
	double p = chg(c, base);

	fprintf(f, "%s\n    {\"mode\": \"%s\", \"workload\": \"%s\", \"column\": ",
		js->first ? "" : ",", mode_names[mode], wl_names[wl]);
	json_escape(f, label);
	fprintf(f, ", \"order\": %d, \"status\": \"%s\", \"runs\": %d, \"pages\": %lu",
		order, status_name(c->status), c->runs, cfg.pages);
	if (c->status == ST_RAN)
		fprintf(f, ", \"faults_mean\": %.1f, \"faults_stddev_pct\": %.2f,"
			" \"time_mean_s\": %.9f, \"time_stddev_pct\": %.2f",
			c->fmean, c->fsd, c->tmean, c->tsd);
	if (!isnan(p))
		fprintf(f, ", \"time_chg_pct\": %.2f", p);
	if (c->expected >= 0)
		fprintf(f, ", \"faults_expected\": %ld", c->expected);
	fprintf(f, ", \"note\": ");
	json_escape(f, c->note);
	fputc('}', f);
	js->first = 0;
}

static void write_json(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "we") : stdout;
	struct json_state js = { .first = 1 };
	struct utsname u;

	if (!f)
		die("%s: %s", path, strerror(errno));
	js.f = f;
	uname(&u);
	fprintf(f, "{\n  \"kernel\": ");
	json_escape(f, u.release);
	fprintf(f, ",\n  \"machine\": ");
	json_escape(f, u.machine);
	fprintf(f, ",\n  \"page_size\": %zu,\n  \"mmu\": ", page);
	json_escape(f, mmu);
	fprintf(f, ",\n  \"max_order\": %d,\n  \"max_order_guessed\": %s,\n"
		"  \"feature\": %s,\n  \"system_default_bytes\": %lld,\n"
		"  \"emulated\": %s,\n  \"repeat\": %d,\n  \"pages\": %lu,\n"
		"  \"results\": [",
		max_order, max_order_guessed ? "true" : "false",
		supported ? "true" : "false", knob_orig,
		emulated ? "true" : "false", cfg.repeat, cfg.pages);
	for_each_cell(json_cell, &js);
	fprintf(f, "\n  ]\n}\n");
	if (f != stdout)
		fclose(f);
	else
		fflush(f);
}

/* --- main ----------------------------------------------------------------- */

static void usage(int rc)
{
	printf("usage: fabench [options]\n"
	       "  --mode LIST        global,hint (default), cost; or both\n"
	       "  --workloads LIST   seq,rand,touch,exec,smallfiles,mixed (default: all;\n"
	       "                     cost mode: seq,touch,exec)\n"
	       "  --repeat N         runs per cell (default 5)\n"
	       "  --pages N          pages per mapping (default 4096)\n"
	       "  --size BYTES       the same in bytes (K, M, G suffixes)\n"
	       "  --touch-pages N    touch: pages of the large region (default 2 x pages)\n"
	       "  --files N          smallfiles: number of files (default pages / 8, >= 8)\n"
	       "  --execs N          exec: processes per run (default 50)\n"
	       "  --child-pages N    exec: pages each child touches (default 16)\n"
	       "  --orders LIST      columns after Baseline (default 0,1,3,4,5,8,max; <= max)\n"
	       "  --dir DIR          where the files go (default $TMPDIR or /tmp)\n"
	       "  --csv FILE, --json FILE   also write the results there (- for stdout)\n"
	       "  --tap              TAP on stdout, tables as diagnostics\n"
	       "  --allow-knobs      as root, change the system default outside a\n"
	       "                     faultaround.test guest (global mode)\n"
	       "  --print-page-size  print the page size and exit\n");
	exit(rc);
}

static unsigned long parse_ul(const char *opt, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		die("%s: bad number '%s'", opt, s);
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (*end)
		die("%s: bad number '%s'", opt, s);
	return (unsigned long)v;
}

static void parse_list(const char *opt, const char *s, const char *const *names,
		       int n, int *flags)
{
	char buf[256], *tok, *save = NULL;
	int i;

	snprintf(buf, sizeof(buf), "%s", s);
	memset(flags, 0, sizeof(int) * (size_t)n);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all") || (names == mode_names && !strcmp(tok, "both"))) {
			for (i = 0; i < n; i++)
				flags[i] = names == mode_names ? i != MODE_COST : 1;
			continue;
		}
		for (i = 0; i < n; i++)
			if (!strcmp(tok, names[i]))
				break;
		if (i == n)
			die("%s: unknown '%s'", opt, tok);
		flags[i] = 1;
	}
}

int main(int argc, char **argv)
{
	const char *wls = NULL, *modes = "global,hint", *orders = NULL;
	unsigned long size = 0;
	int m, w, i, any = 0;

	if (argc == 4 && !strcmp(argv[1], EXEC_CHILD_ARG))
		return exec_child(argv[2], argv[3]);

	out = stdout;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		int takes = 1;

		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			usage(0);
		else if (!strcmp(a, "--tap"))
			cfg.tap = 1, takes = 0;
		else if (!strcmp(a, "--allow-knobs"))
			cfg.allow_knobs = 1, takes = 0;
		else if (!strcmp(a, "--print-page-size"))
			return printf("%ld\n", sysconf(_SC_PAGESIZE)) < 0;
		else if (!v)
			usage(2);
		else if (!strcmp(a, "--mode"))
			modes = v;
		else if (!strcmp(a, "--workloads"))
			wls = v;
		else if (!strcmp(a, "--repeat"))
			cfg.repeat = (int)parse_ul(a, v);
		else if (!strcmp(a, "--pages"))
			cfg.pages = parse_ul(a, v);
		else if (!strcmp(a, "--size"))
			size = parse_ul(a, v);
		else if (!strcmp(a, "--touch-pages"))
			cfg.touch_pages = parse_ul(a, v);
		else if (!strcmp(a, "--files"))
			cfg.files = parse_ul(a, v);
		else if (!strcmp(a, "--execs"))
			cfg.execs = parse_ul(a, v);
		else if (!strcmp(a, "--child-pages"))
			cfg.child_pages = parse_ul(a, v);
		else if (!strcmp(a, "--orders"))
			orders = v;
		else if (!strcmp(a, "--dir"))
			cfg.dir = v;
		else if (!strcmp(a, "--csv"))
			cfg.csv = v;
		else if (!strcmp(a, "--json"))
			cfg.json = v;
		else
			usage(2);
		i += takes;
	}
	parse_list("--mode", modes, mode_names, NR_MODES, cfg.modes);
	if (cfg.modes[MODE_COST] && (cfg.modes[MODE_GLOBAL] || cfg.modes[MODE_HINT]))
		die("--mode cost runs alone");
	if (wls)
		parse_list("--workloads", wls, wl_names, NR_WL, cfg.wl);
	else
		for (w = 0; w < NR_WL; w++)
			cfg.wl[w] = !cfg.modes[MODE_COST] || w == WL_SEQ ||
				    w == WL_TOUCH || w == WL_EXEC;
	if (orders) {
		char buf[256], *tok, *save = NULL;

		snprintf(buf, sizeof(buf), "%s", orders);
		for (tok = strtok_r(buf, ",", &save); tok && cfg.norders < MAX_COLS - 1;
		     tok = strtok_r(NULL, ",", &save))
			cfg.orders[cfg.norders++] = (int)parse_ul("--orders", tok);
	}
	if (cfg.repeat < 1)
		die("--repeat must be at least 1");

	probe_machine();
	if (size)
		cfg.pages = (size + page - 1) / page;
	if (cfg.pages < 1)
		die("--pages must be at least 1");
	if ((cfg.wl[WL_RAND] || cfg.wl[WL_MIXED]) && cfg.pages < RAND_SPARSITY)
		die("--pages %lu: rand and mixed look up one page in %d, so they need"
		    " at least %d pages", cfg.pages, RAND_SPARSITY, RAND_SPARSITY);
	if (!cfg.touch_pages)
		cfg.touch_pages = cfg.pages * 2;
	if (!cfg.files)
		cfg.files = cfg.pages / 8 < 8 ? 8 : cfg.pages / 8;
	if (!cfg.dir) {
		cfg.dir = getenv("TMPDIR");
		if (!cfg.dir || !*cfg.dir)
			cfg.dir = "/tmp";
	}
	setup_columns();

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	/* A process default inherited from our parent would skew the baseline. */
	if (supported && faultaround_get_default() != FAULTAROUND_UNSET)
		faultaround_set_default(FAULTAROUND_UNSET);

	if (cfg.tap) {
		printf("TAP version 13\n1..%d\n", tap_plan());
		fflush(stdout);
	}
	say("fabench: fault-around orders, minor faults and time per cell; mean of %d run(s),\n"
	    "stddev = standard deviation of the mean in %% of the mean (as perf stat --repeat)\n",
	    cfg.repeat);
	{
		char meta[512];
		FILE *mf = fmemopen(meta, sizeof(meta), "w");

		if (mf) {
			print_meta(mf, "");
			fclose(mf);
			say("%s", meta);
		}
	}
	if (emulated)
		say("NOTE: absolute times are emulated (qemu TCG with -icount): compare columns, not machines\n");
	if (!supported && cfg.modes[MODE_HINT])
		say("NOTE: no per-VMA fault-around support in this kernel: hint cells are skipped\n");
	if ((cfg.modes[MODE_GLOBAL]) && !knobs_allowed)
		say("NOTE: global mode leaves the system default alone here: only its Baseline runs\n");
	say("\n");

	setup_files();
	atexit(cleanup);

	for (m = 0; m < NR_MODES; m++) {
		if (!cfg.modes[m])
			continue;
		say("== mode %s: %s\n", mode_names[m],
		    m == MODE_GLOBAL ? "the order is the system default (all mappings)" :
		    m == MODE_HINT ? "the order is a per-mapping hint (exec, smallfiles: per-process default)" :
		    "no hint, system default untouched (stock vs patched cost)");
		print_header(m, 0);
		for (w = 0; w < NR_WL; w++) {
			struct setting warm = { .mode = m, .order = COL_BASELINE };
			struct sample smp;

			if (!cfg.wl[w])
				continue;
			/* One unmeasured run to warm caches and the binary. */
			run_once(w, &warm, &smp);
			for (i = 0; i < (m == MODE_COST ? 1 : ncols); i++) {
				run_cell(m, w, cols[i].order, &results[m][w][i]);
				tap_cell(m, w, cols[i].order, &results[m][w][i]);
			}
			if (m == MODE_HINT && w == WL_MIXED) {
				run_cell(m, w, COL_SPLIT, &results[m][w][ncols]);
				tap_cell(m, w, COL_SPLIT, &results[m][w][ncols]);
			}
			have_results[m][w] = 1;
			any = 1;
			print_block(m, w);
			if (w == WL_SEQ && m != MODE_COST)
				limit_check(m);
		}
	}
	restore_knob();
	if (knob_dirty)
		say("WARNING: could not restore %s to %lld\n", knob, knob_orig);
	if (any && cfg.csv)
		write_csv(cfg.csv);
	if (any && cfg.json)
		write_json(cfg.json);
	for (m = 0; m < NR_MODES; m++)
		for (w = 0; w < NR_WL; w++)
			for (i = 0; i <= ncols; i++)
				if (have_results[m][w] && results[m][w][i].status == ST_ERROR)
					return 1;
	return tap_failed ? 1 : 0;
}
