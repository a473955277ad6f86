// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A program whose stdout and exit status must be byte-identical with and
 * without libfaultaround-preload.so: file/anonymous/failing mmap and mmap64
 * with errno checks, dlopen success and failure, fork and exec.
 *   shim_victim [noexec|child] [--report-hint]
 * --report-hint writes to stderr the hints (faultaround_get()) of its file
 * mapping and of the libraries it loads.
 *   shim_victim dlopen-loop N     N times dlopen() libm by name and by
 *                                 path, and dlclose() both
 *   shim_victim status            the process default
 *   shim_victim abi               what the kernel (or its stand-in) takes:
 *                                 the self-sizing window, an order above the
 *                                 maximum, a range with a hole
 *   shim_victim walk              what faultaround_for_each_vma() returns
 *                                 when its callback stops it: 7, and -1
 *                                 with the callback's errno
 *   shim_victim output OUT FILE [reopen]
 *                                 (reopen: closes stderr first) opens OUT,
 *                                 which takes the lowest free descriptor,
 *                                 writes to it the descriptor it got, maps
 *                                 FILE, and writes "end"; as a daemon that
 *                                 runs with stderr closed writes its data
 */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "faultaround.h"

static void report_hint(const char *label, const void *addr)
{
	int order;

	if (faultaround_get(addr, &order) == 0)
		fprintf(stderr, "%s hint: %d\n", label, order);
	else
		fprintf(stderr, "%s hint: %s\n", label, strerror(errno));
}

/* Some address inside the object behind handle h: its dynamic section. */
static const void *object_addr(void *h)
{
	struct link_map *map;

	return dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 ? (const void *)map->l_ld
						     : NULL;
}

/*
 * own: a file mapping this program gave its own hint (order 2) before the
 * dlopen(); what the shim does at the next dlopen() must leave it alone.
 */
static int plugin_answer(const char *tag, const char *how, void *h,
			 const char *label, int report, const void *own)
{
	int (*answer)(void) = (int (*)(void))dlsym(h, "fa_plugin_answer");
	void *next = NULL;

	printf("%s: plugin by %s answers %d\n", tag, how, answer ? answer() : -1);
	if (own) {
		/* an mmap() must not make the shim look at the objects... */
		size_t page = (size_t)sysconf(_SC_PAGESIZE);
		void *p = mmap(NULL, page, PROT_READ,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p != MAP_FAILED)
			munmap(p, page);
		/* ...the next dlopen() does */
		next = dlopen("libm.so.6", RTLD_NOW);
	}
	if (report && answer)
		report_hint(label, (const void *)answer);
	if (report && own)
		report_hint("own", own);
	if (next)
		dlclose(next);
	return dlclose(h);
}

/*
 * The plugin, which has no RUNPATH, dlopen()s a system library by bare
 * name: glibc finds the same file whoever calls, so the shim calls it and
 * gives the library its hint before dlopen() returns.
 */
static int plugin_loads(const char *tag, void *plugin, int report)
{
	void *(*load)(const char *, int) =
		(void *(*)(const char *, int))dlsym(plugin, "fa_plugin_dlopen");
	void *h = load ? load("librt.so.1", RTLD_NOW) : NULL;

	printf("%s: plugin loads librt by name %s\n", tag, h ? "ok" : "failed");
	if (!h)
		return 0;
	if (report)
		report_hint("plugin-loaded", object_addr(h));
	return dlclose(h);
}

static void *map_own_hinted(size_t len)
{
	char path[] = "/tmp/fa_victim_ownXXXXXX";
	int fd = mkstemp(path);
	void *p;

	if (fd < 0)
		return MAP_FAILED;
	unlink(path);
	p = ftruncate(fd, (off_t)len) < 0 ? MAP_FAILED
		: mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p != MAP_FAILED)
		faultaround_set(p, len, 2);	/* fails alike without the feature */
	return p;
}

/*
 * Two copies of one library under test/plugins: one opened by path, one by
 * bare name, which only this program's RUNPATH ($ORIGIN/plugins) finds.
 * --report-hint reports the hint of each one's code: the first right after
 * dlopen(), the second after one more mmap(), with the hint of a mapping
 * this program hinted itself.
 */
static int plugins(const char *tag, int report)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *slash;
	void *h, *own;

	if (n <= 0)
		return 2;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return 2;
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/plugins/libfa_plugin_path.so", exe);
	h = dlopen(path, RTLD_NOW);
	printf("%s: dlopen plugin by path %s\n", tag, h ? "ok" : dlerror());
	if (h && plugin_loads(tag, h, report))
		return 2;
	if (h && plugin_answer(tag, "path", h, "plugin-path", report, NULL))
		return 2;
	/* Unloaded, it may come back at the same place: a new object still. */
	if (report)
		fputs("loading plugin-path again\n", stderr);
	h = dlopen(path, RTLD_NOW);
	printf("%s: dlopen plugin by path again %s\n", tag, h ? "ok" : dlerror());
	if (h && plugin_answer(tag, "path", h, "plugin-path-again", report, NULL))
		return 2;
	own = map_own_hinted(page);
	if (own == MAP_FAILED)
		return 2;
	errno = 47;
	h = dlopen("libfa_plugin_name.so", RTLD_NOW);
	printf("%s: dlopen plugin by name %s errno=%d\n", tag, h ? "ok" : dlerror(), errno);
	if (h && plugin_answer(tag, "name", h, "plugin-name", report, own))
		return 2;
	return munmap(own, page) ? 2 : 0;
}

static int run(const char *tag, int report)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char path[] = "/tmp/fa_victimXXXXXX";
	char *p;
	int fd, i, sum = 0;
	void *h;

	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, (off_t)(8 * page)) < 0) {
		perror("tmpfile");
		return 2;
	}
	for (i = 0; i < 8; i++)
		if (pwrite(fd, &"abcdefgh"[i], 1, (off_t)(i * page)) != 1)
			return 2;

	errno = 42;
	p = mmap(NULL, 8 * page, PROT_READ, MAP_PRIVATE, fd, 0);
	printf("%s: file mmap %s errno=%d\n", tag, p == MAP_FAILED ? "failed" : "ok", errno);
	if (p != MAP_FAILED) {
		for (i = 0; i < 8; i++)
			sum += p[i * page];
		printf("%s: sum=%d\n", tag, sum);
		if (report)
			report_hint("file", p);
		errno = 43;
		printf("%s: munmap=%d errno=%d\n", tag, munmap(p, 8 * page), errno);
	}
	errno = 44;
	p = mmap64(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	printf("%s: file mmap64 %s errno=%d\n", tag, p == MAP_FAILED ? "failed" : "ok", errno);
	if (p != MAP_FAILED)
		munmap(p, page);
	errno = 0;
	p = mmap(NULL, page, PROT_READ, MAP_PRIVATE, -1, 0);
	printf("%s: bad fd mmap %s errno=%d\n", tag, p == MAP_FAILED ? "failed" : "ok", errno);
	errno = 0;
	p = mmap(NULL, page, PROT_READ, 0, fd, 0);
	printf("%s: bad flags mmap %s errno=%d\n", tag, p == MAP_FAILED ? "failed" : "ok", errno);
	errno = 0;
	p = mmap(NULL, page, PROT_READ, MAP_PRIVATE, fd, 1);
	printf("%s: unaligned offset mmap %s errno=%d\n", tag, p == MAP_FAILED ? "failed" : "ok", errno);
	errno = 0;
	p = mmap64(NULL, 0, PROT_READ, MAP_PRIVATE, fd, 0);
	printf("%s: zero length mmap64 %s errno=%d\n", tag, p == MAP_FAILED ? "failed" : "ok", errno);
	errno = 45;
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("%s: anon mmap %s errno=%d\n", tag, p == MAP_FAILED ? "failed" : "ok", errno);
	if (p != MAP_FAILED)
		munmap(p, page);
	close(fd);
	unlink(path);

	errno = 46;
	h = dlopen("libm.so.6", RTLD_NOW);
	printf("%s: dlopen libm %s errno=%d\n", tag, h ? "ok" : "failed", errno);
	if (h) {
		double (*c)(double) = (double (*)(double))dlsym(h, "cos");

		printf("%s: cos(0)=%g\n", tag, c ? c(0.0) : -1.0);
		dlclose(h);
	}
	h = dlopen("libfaultaround-does-not-exist.so", RTLD_NOW);
	printf("%s: dlopen missing %s: %s\n", tag, h ? "ok" : "failed", h ? "" : dlerror());
	return plugins(tag, report);
}

static int print_default(void)
{
	int order = faultaround_get_default();

	if (order < 0)
		return 1;
	printf("default order %d\n", order);
	return 0;
}

static void abi_line(const char *what, int r, int got)
{
	if (r < 0)
		printf("%s: %s\n", what, strerror(errno));
	else
		printf("%s: %d\n", what, got);
}

/* The hint and the default the kernel stores for what the ABI carries. */
static int abi(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char path[] = "/tmp/fa_victimXXXXXX";
	int fd = mkstemp(path), order = -1, r;
	char *p;

	if (fd < 0 || ftruncate(fd, (off_t)(3 * page)) < 0)
		return 2;
	unlink(path);
	p = mmap(NULL, 3 * page, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return 2;
	r = faultaround_set(p, 3 * page, FAULTAROUND_AUTO);
	if (r == 0)
		r = faultaround_get(p, &order);
	abi_line("hint auto", r, order);
	r = faultaround_set(p, 3 * page, FAULTAROUND_ORDER_LIMIT);
	if (r == 0)
		r = faultaround_get(p, &order);
	abi_line("hint 253", r, order);
	r = faultaround_set(p, 3 * page, 0);
	if (r == 0)
		r = faultaround_get(p, &order);
	abi_line("hint 0", r, order);
	r = faultaround_set(p, 3 * page, FAULTAROUND_UNSET);
	if (r == 0)
		r = faultaround_get(p, &order);
	abi_line("hint unset", r, order);
	r = faultaround_set_default(FAULTAROUND_AUTO);
	abi_line("default auto", r, faultaround_get_default());
	r = faultaround_set_default(FAULTAROUND_ORDER_LIMIT);
	abi_line("default 253", r, faultaround_get_default());
	/* A hole in the middle: ENOMEM, as madvise() says. */
	if (munmap(p + page, page))
		return 2;
	abi_line("hint on a range with a hole", faultaround_set(p, 3 * page, 1), 0);
	munmap(p, 3 * page);
	close(fd);
	return 0;
}

/* dlopen() of a library loaded already, by name and by path. */
static int dlopen_loop(long n)
{
	char path[PATH_MAX];
	struct link_map *map;
	void *h = dlopen("libm.so.6", RTLD_NOW);

	if (!h || dlinfo(h, RTLD_DI_LINKMAP, &map) < 0)
		return 2;
	snprintf(path, sizeof(path), "%s", map->l_name);
	while (n-- > 0) {
		void *a = dlopen("libm.so.6", RTLD_NOW);
		void *b = dlopen(path, RTLD_NOW);

		if (!a || !b || dlclose(a) || dlclose(b))
			return 2;
	}
	return dlclose(h) ? 2 : 0;
}

static int walk_cb(const struct faultaround_vma *vma, void *arg)
{
	(void)vma;
	if (arg)
		return 7;
	errno = EDOM;
	return -1;
}

static int walk(void)
{
	int r;

	r = faultaround_for_each_vma(0, walk_cb, "stop");
	printf("stop: %d\n", r);
	errno = 0;
	r = faultaround_for_each_vma(0, walk_cb, NULL);
	printf("error: %d %s\n", r, errno == EDOM ? "EDOM" : strerror(errno));
	return 0;
}

/* The shim's log must not land in OUT when OUT got descriptor 2. */
static int output(const char *out, const char *file, int reopen)
{
	char buf[32];
	void *p;
	int fd, in;

	if (reopen)
		close(STDERR_FILENO);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 2;
	snprintf(buf, sizeof(buf), "fd %d\n", fd);
	if (write(fd, buf, strlen(buf)) < 0)
		return 2;
	in = open(file, O_RDONLY);
	if (in < 0)
		return 2;
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, in, 0);
	if (p == MAP_FAILED)
		return 2;
	munmap(p, 4096);
	close(in);
	return write(fd, "end\n", 4) == 4 && close(fd) == 0 ? 0 : 2;
}

int main(int argc, char **argv)
{
	int report = argc > 2 && !strcmp(argv[2], "--report-hint");
	const char *mode = argc > 1 ? argv[1] : "";
	pid_t pid;
	int st, r;

	if (!strcmp(mode, "child"))
		return run("exec", report) ? 2 : 7;
	/* Helpers for the shell tests: guests have no getconf, and a
	 * static busybox grep would not see the preloaded shim. */
	if (!strcmp(mode, "pagesize")) {
		printf("%ld\n", sysconf(_SC_PAGESIZE));
		return 0;
	}
	if (!strcmp(mode, "status"))
		return print_default();
	if (!strcmp(mode, "abi"))
		return abi();
	if (!strcmp(mode, "walk"))
		return walk();
	if (!strcmp(mode, "output") && argc > 3)
		return output(argv[2], argv[3], argc > 4);
	if (!strcmp(mode, "dlopen-loop"))
		return dlopen_loop(argc > 2 ? atol(argv[2]) : 1);
	r = run("main", report);
	if (r)
		return r;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		r = run("fork", 0);
		fflush(stdout);		/* the child's lines are compared too */
		_exit(r ? 2 : 5);
	}
	waitpid(pid, &st, 0);
	printf("fork child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	if (!strcmp(mode, "noexec"))
		return 3;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "child", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	printf("exec child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 3;
}
