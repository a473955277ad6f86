// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * shim_forker DIR CHILDREN: fork while other threads are inside the shim.
 *
 * Four threads map and unmap files in DIR, two dlopen() and dlclose()
 * libc and libm by bare name (loaded already; this program has a RUNPATH,
 * so the shim leaves those calls to glibc and looks at the loaded objects
 * at the next dlopen()), and the main thread forks CHILDREN children, one
 * after the other, that each map a file and exit.
 *
 * A child inherits whatever lock another thread held at fork(); one that
 * waits for it would wait for ever, so each child arms alarm(CHILD_SECONDS)
 * first and a hung child dies of SIGALRM.  Should anything else stop the
 * main thread (a child stuck before its alarm, the parent itself), a
 * watchdog thread prints where the child and the parent's threads wait
 * (/proc) and ends the run.
 * Exit status 0 when every child exited 0, 1 at the first that did not.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define FILES		16
#define FILE_LEN	65536
#define MAPPERS		4
#define LOADERS		2
/* A child maps one file: milliseconds even under qemu TCG.  A child that is
 * still there after this long waits for a lock nobody will release. */
#define CHILD_SECONDS	20

static const char *dir;
static int stop;			/* the workers' */
static int done;		/* the watchdog's */
static int progress;		/* children reaped, workers joined */
static pid_t child;		/* the child being waited for, or 0 */

static int map_one(int i)
{
	char path[4096];
	volatile const char *p;
	int fd, r = 0;

	snprintf(path, sizeof(path), "%s/fa_fork_%d", dir, i % FILES);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	p = mmap(NULL, FILE_LEN, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		r = -1;
	else if (p[0] != 'f' || munmap((void *)p, FILE_LEN))
		r = -1;
	close(fd);
	return r;
}

static void *mapper(void *arg)
{
	int i = (int)(long)arg;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED))
		if (map_one(i++) < 0) {
			perror("mapper");
			exit(2);
		}
	return NULL;
}

static void *loader(void *arg)
{
	const char *name = arg;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		void *h = dlopen(name, RTLD_NOW);

		if (!h) {
			fprintf(stderr, "loader: %s\n", dlerror());
			exit(2);
		}
		dlclose(h);
	}
	return NULL;
}

/* Print the lines of /proc/PID/FILE that start with one of keys ("": all). */
static void show(const char *what, const char *file, const char *keys)
{
	char path[400], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/%s", what, file);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char key[64];

		if (sscanf(line, "%63[^:]", key) == 1 && *keys && !strstr(keys, key))
			continue;
		printf("#   %s %s: %s", what, file, line);
		if (!strchr(line, '\n'))
			putchar('\n');
	}
	fclose(f);
}

/*
 * A task asleep in futex(): the futex word and the four words after it
 * (a pthread mutex's lock, count, owner, users, kind), the mapping that
 * holds it and the frame behind it (/proc/self/pagemap; PFN 0 unless
 * CAP_SYS_ADMIN), so that a lost wake-up (word 0 or owner gone) can be
 * told from a lost store (word 2 with a live owner).
 */
static void show_futex(const char *what)
{
	char path[400], line[512];
	unsigned long nr, addr, lo, hi;
	unsigned int w[5];
	uint64_t pm = 0;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/syscall", what);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fscanf(f, "%lu %lx", &nr, &addr) != 2 || !addr) {
		fclose(f);
		return;
	}
	fclose(f);
	fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pread(fd, w, sizeof(w), (off_t)addr) != sizeof(w)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		off_t at = (off_t)(addr / (unsigned long)sysconf(_SC_PAGESIZE)) * 8;

		if (pread(fd, &pm, sizeof(pm), at) != sizeof(pm))
			pm = 0;
		close(fd);
	}
	printf("#   %s futex %#lx: %d %u %d %u %d; pagemap %#llx\n", what, addr,
	       (int)w[0], w[1], (int)w[2], w[3], (int)w[4], (unsigned long long)pm);
	f = fopen("/proc/self/maps", "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= addr && addr < hi)
			printf("#   %s futex in: %s", what, line);
	if (f)
		fclose(f);
}

static void show_task(const char *what)
{
	show(what, "status", "State SigBlk SigPnd ShdPnd");
	show(what, "wchan", "");
	show(what, "syscall", "");
	show(what, "stack", "");
	show_futex(what);
}

static void *watchdog(void *arg)
{
	int last = -1, idle = 0;

	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_RELAXED)) {
		int now = __atomic_load_n(&progress, __ATOMIC_RELAXED);
		pid_t pid = __atomic_load_n(&child, __ATOMIC_RELAXED);
		char what[300];
		struct dirent *de;
		DIR *d;

		sleep(1);
		if (now != last) {
			last = now;
			idle = 0;
			continue;
		}
		if (++idle < CHILD_SECONDS + 10)
			continue;
		printf("no progress for %d s at step %d; child %d:\n", idle,
		       now, (int)pid);
		if (pid > 0) {
			snprintf(what, sizeof(what), "%d", (int)pid);
			show_task(what);
		}
		d = opendir("/proc/self/task");
		while (d && (de = readdir(d)))
			if (de->d_name[0] != '.') {
				snprintf(what, sizeof(what), "self/task/%s",
					 de->d_name);
				show_task(what);
			}
		if (d)
			closedir(d);
		fflush(stdout);
		if (pid > 0)
			kill(pid, SIGKILL);
		_exit(1);
	}
	return NULL;
}

static int make_files(void)
{
	static char buf[FILE_LEN];
	char path[4096];
	int i, fd;

	memset(buf, 'f', sizeof(buf));
	for (i = 0; i < FILES; i++) {
		snprintf(path, sizeof(path), "%s/fa_fork_%d", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf) ||
		    close(fd) < 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const names[LOADERS] = { "libc.so.6", "libm.so.6" };
	pthread_t th[MAPPERS + LOADERS], dog;
	int i, n, ret = 0;

	if (argc != 3 || (n = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: %s DIR CHILDREN\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);	/* what was said survives a kill */
	if (make_files() < 0) {
		perror("files");
		return 2;
	}
	if (pthread_create(&dog, NULL, watchdog, NULL)) {
		fprintf(stderr, "pthread_create failed\n");
		return 2;
	}
	for (i = 0; i < MAPPERS + LOADERS; i++)
		if (pthread_create(&th[i], NULL, i < MAPPERS ? mapper : loader,
				   i < MAPPERS ? (void *)(long)i
					       : (void *)names[i - MAPPERS])) {
			fprintf(stderr, "pthread_create failed\n");
			return 2;
		}
	for (i = 0; i < n && !ret; i++) {
		pid_t pid = fork();
		int st;

		if (pid < 0) {
			perror("fork");
			ret = 2;
			break;
		}
		if (pid == 0) {
			alarm(CHILD_SECONDS);
			_exit(map_one(i) < 0 ? 3 : 0);
		}
		__atomic_store_n(&child, pid, __ATOMIC_RELAXED);
		if (waitpid(pid, &st, 0) != pid) {
			perror("waitpid");
			ret = 2;
		} else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
			printf("child %d of %d hung (killed after %d s)\n", i + 1,
			       n, CHILD_SECONDS);
			ret = 1;
		} else if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			printf("child %d of %d: status %#x\n", i + 1, n, st);
			ret = 1;
		}
		__atomic_store_n(&child, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&progress, i + 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < MAPPERS + LOADERS; i++) {
		pthread_join(th[i], NULL);
		__atomic_add_fetch(&progress, 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&done, 1, __ATOMIC_RELAXED);
	pthread_join(dog, NULL);
	if (!ret)
		printf("%d children forked and exited\n", n);
	return ret;
}
