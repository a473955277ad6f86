// SPDX-License-Identifier: GPL-2.0
/*
 * churn [-n] DIR SECONDS [BYTES]: the other process of the stress runs.  While stress-ng
 * works on the files in DIR, keep changing everything fault-around reads
 * on those same files: map a random one, give the mapping a random
 * MADV_FAULTAROUND order (or auto, or unset), MADV_RANDOM, MADV_SEQUENTIAL,
 * MADV_NORMAL, MADV_WILLNEED or MADV_DONTNEED, touch random pages, set a
 * random process default (PR_SET_FAULTAROUND, inherited by the children it
 * forks to do the same) and write a random system default to
 * /sys/kernel/mm/faultaround/default_bytes.
 *
 * It checks what it can know: a file of its own (BYTES long, default 8 MiB),
 * written once with a pattern and synced to its blocks before any mapping
 * reads it, reads back the pattern through every mapping and hint, and
 * every hint, advice and default that the ABI promises to take is taken
 * (the kernel clamps orders, so any order up to 253 must succeed).  Exit 1
 * on the first wrong byte or refused call, with its description; the
 * system default is put back on the way out.  On a kernel without the
 * series the hints fail with EINVAL and only the mappings and touches run.
 * -n leaves them out on a kernel with the series too (no hint, no process
 * or system default takes effect), so that it carries the same load as a
 * kernel without.
 *
 * A file that cannot be written whole is a load that does not fit, not a
 * wrong byte: the churner says so (a short write, or ENOSPC from write or
 * fsync, with the filesystem's free space) and exits 1 before mapping it.
 * Without the fsync, ext4 can accept the write into the page cache, fail
 * to allocate its blocks at writeback on a full device, and drop the
 * pages: the pattern would then read back wrong through no fault of the
 * mappings.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../include/uapi/linux/faultaround.h"

#define SYS_BYTES "/sys/kernel/mm/faultaround/default_bytes"
#define OWN_BYTES_DEFAULT (8UL << 20)

static long page;
static size_t own_bytes;
static int hints;		/* the kernel has the series */
static int hints_off;		/* -n: make no hint call even so */
static char saved_default[64];
static unsigned long ops[8];
static sigjmp_buf bus_jmp;
static volatile sig_atomic_t bus_armed;

/* Only for the other processes' files, which may shrink under a read. */
static void on_bus(int sig)
{
	if (!bus_armed) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	siglongjmp(bus_jmp, 1);
}

static void die(const char *what)
{
	fprintf(stderr, "churn: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint8_t pattern(size_t off)
{
	return (uint8_t)(off * 7 + off / 4096 + 1);
}

/* Exit 1 saying why the churner's own file could not be written whole. */
static void no_room(const char *dir, const char *what, size_t done, int err)
{
	struct statvfs sv;

	fprintf(stderr, "churn: %s of its own file stopped at %zu of %zu bytes: %s",
		what, done, own_bytes, err ? strerror(err) : "short write");
	if (!statvfs(dir, &sv))
		fprintf(stderr, "; %s has %llu of %llu kB free",
			dir, (unsigned long long)sv.f_bavail * sv.f_frsize / 1024,
			(unsigned long long)sv.f_blocks * sv.f_frsize / 1024);
	fprintf(stderr, "%s\n", err == ENOSPC || !err ?
		": the filesystem is full, the load does not fit it" : "");
	exit(1);
}

/* Write the pattern file whole and onto its blocks, or exit saying why. */
static void write_own(int fd, const char *dir)
{
	size_t done = 0, i;
	uint8_t *buf = malloc(own_bytes);

	if (!buf)
		die("malloc");
	for (i = 0; i < own_bytes; i++)
		buf[i] = pattern(i);
	while (done < own_bytes) {
		ssize_t n = write(fd, buf + done, own_bytes - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			no_room(dir, "write", done, n < 0 ? errno : 0);
		done += n;
	}
	free(buf);
	if (fsync(fd))
		no_room(dir, "fsync", done, errno);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), rc;

	if (fd < 0)
		return -1;
	rc = write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
	close(fd);
	return rc;
}

static void restore(void)
{
	if (saved_default[0])
		write_str(SYS_BYTES, saved_default);
}

static void on_signal(int sig)
{
	restore();
	_exit(128 + sig);
}

/* A random regular file of DIR or its subdirectories (one level), or NULL. */
static int pick_file(const char *dir, char *out, size_t len)
{
	char names[64][512];
	int n = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((e = readdir(d)) && n < 64) {
		struct stat st;
		char p[512];

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (stat(p, &st))
			continue;
		if (S_ISREG(st.st_mode) && st.st_size >= page)
			snprintf(names[n++], sizeof(names[0]), "%s", p);
		else if (S_ISDIR(st.st_mode) && rand() % 2)
			if (!pick_file(p, names[n], sizeof(names[0])))
				n++;
	}
	closedir(d);
	if (!n)
		return -1;
	snprintf(out, len, "%s", names[rand() % n]);
	return 0;
}

static int random_advice(void)
{
	switch (rand() % 9) {
	case 0: return MADV_RANDOM;
	case 1: return MADV_SEQUENTIAL;
	case 2: return MADV_NORMAL;
	case 3: return MADV_WILLNEED;
	case 4: return MADV_DONTNEED;
	case 5: return MADV_FAULTAROUND_AUTO;
	case 6: return MADV_FAULTAROUND_UNSET;
	default: return MADV_FAULTAROUND_ORDER(rand() % 254);
	}
}

/* Map @fd (@size bytes), advise, touch; with @own, check every byte read. */
static void exercise(int fd, size_t size, int own)
{
	size_t pages = size / page, i;
	int flags = rand() % 2 ? MAP_SHARED : MAP_PRIVATE, adv, k;
	uint8_t *m = mmap(NULL, pages * page, PROT_READ, flags, fd, 0);
	volatile uint8_t sink;

	if (m == MAP_FAILED)
		return;		/* stress-ng may have truncated it meanwhile */
	ops[0]++;
	for (k = 0; k < 3; k++) {
		size_t first = rand() % pages, n = 1 + rand() % (pages - first);

		adv = random_advice();
		if (hints_off && (adv & 0xff) == MADV_FAULTAROUND) {
			ops[1]++;	/* taken as a kernel without it takes it */
			continue;
		}
		if (madvise(m + first * page, n * page, adv)) {
			/* Only the hints can be refused, and only by a
			 * kernel without them. */
			if ((adv & 0xff) != MADV_FAULTAROUND || hints) {
				fprintf(stderr, "churn: madvise(%#x) refused: %s\n", adv, strerror(errno));
				exit(1);
			}
		}
		ops[1]++;
	}
	for (k = 0; k < 32; k++) {
		i = rand() % pages;
		if (own) {
			size_t off = i * page + rand() % page;

			if (m[off] != pattern(off)) {
				fprintf(stderr, "churn: byte %zu of its own file reads %u, not %u\n",
					off, m[off], pattern(off));
				exit(1);
			}
		} else {
			/* A file another process truncates raises SIGBUS. */
			if (sigsetjmp(bus_jmp, 1)) {
				bus_armed = 0;
				ops[6]++;
				break;
			}
			bus_armed = 1;
			sink = m[i * page];
			bus_armed = 0;
		}
		ops[2]++;
	}
	(void)sink;
	munmap(m, pages * page);
}

static void set_process_default(void)
{
	int r = rand() % 4, order = r == 0 ? PR_FAULTAROUND_AUTO :
		    r == 1 ? PR_FAULTAROUND_UNSET : rand() % 254;

	if (!hints_off && prctl(PR_SET_FAULTAROUND, order, 0, 0, 0) && hints) {
		fprintf(stderr, "churn: PR_SET_FAULTAROUND %d refused: %s\n", order, strerror(errno));
		exit(1);
	}
	ops[3]++;
}

static void set_system_default(void)
{
	char buf[32];

	if (!hints || hints_off)
		return;
	snprintf(buf, sizeof(buf), "%ld", page << (rand() % 10));
	/* Above a page table's worth is refused with EINVAL (the stock rule). */
	if (write_str(SYS_BYTES, buf) && errno != EINVAL) {
		fprintf(stderr, "churn: writing %s to default_bytes: %s\n", buf, strerror(errno));
		exit(1);
	}
	ops[4]++;
}

int main(int argc, char **argv)
{
	char own_path[512], path[512];
	time_t end;
	int own, fd;

	if (argc > 1 && !strcmp(argv[1], "-n")) {
		hints_off = 1;
		argc--;
		argv++;
	}
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: churn [-n] DIR SECONDS [BYTES]\n");
		return 2;
	}
	page = sysconf(_SC_PAGESIZE);
	own_bytes = argc == 4 ? strtoul(argv[3], NULL, 0) : OWN_BYTES_DEFAULT;
	own_bytes -= own_bytes % page;
	if (!own_bytes) {
		fprintf(stderr, "churn: BYTES must be at least a page (%ld)\n", page);
		return 2;
	}
	srand(getpid() ^ time(NULL));
	hints = prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0) >= 0;
	fd = open(SYS_BYTES, O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, saved_default, sizeof(saved_default) - 1);

		saved_default[n > 0 ? n : 0] = 0;
		close(fd);
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGBUS, on_bus);

	snprintf(own_path, sizeof(own_path), "%s/churn-own", argv[1]);
	own = open(own_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (own < 0)
		die(own_path);
	write_own(own, argv[1]);

	end = time(NULL) + atol(argv[2]);
	while (time(NULL) < end) {
		switch (rand() % 8) {
		case 0:
			set_process_default();
			break;
		case 1:
			set_system_default();
			break;
		case 2: {
			/* A child inherits the process default and works too. */
			pid_t pid = fork();
			int st;

			if (pid == 0) {
				exercise(own, own_bytes, 1);
				_exit(0);
			}
			if (pid > 0 && waitpid(pid, &st, 0) == pid &&
			    (!WIFEXITED(st) || WEXITSTATUS(st))) {
				fprintf(stderr, "churn: child failed (status %#x)\n", st);
				restore();
				return 1;
			}
			ops[5]++;
			break;
		}
		case 3:
		case 4:
			exercise(own, own_bytes, 1);
			break;
		default:
			if (!pick_file(argv[1], path, sizeof(path))) {
				struct stat st;

				fd = open(path, O_RDONLY);
				if (fd >= 0 && !fstat(fd, &st) && st.st_size >= page)
					exercise(fd, st.st_size, 0);
				if (fd >= 0)
					close(fd);
			}
		}
	}
	restore();
	unlink(own_path);
	printf("churn: %s kernel, %lu mappings, %lu advice calls, %lu page reads, %lu process defaults, %lu system defaults, %lu children, %lu reads past a truncated end\n",
	       !hints ? "stock" : hints_off ? "patched (hints off)" : "patched", ops[0], ops[1], ops[2], ops[3], ops[4], ops[5], ops[6]);
	return 0;
}
