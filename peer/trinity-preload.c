// SPDX-License-Identifier: GPL-2.0
/*
 * trinity-preload.c: an LD_PRELOAD wrapper that feeds the series' new
 * advice and prctl options to trinity (scripts/peer-trinity.sh).
 *
 * trinity 1.9's argument tables predate MADV_FAULTAROUND and
 * PR_SET/GET_FAULTAROUND, so on its own it would never reach the new code.
 * trinity issues every fuzzed system call through glibc's syscall()
 * (its own calls to madvise() and prctl() go through their glibc wrappers,
 * not through syscall()), so this wrapper replaces syscall() and rewrites
 * about half of the fuzzed madvise(), process_madvise() and prctl() calls,
 * chosen by a hash of trinity's own random arguments, into:
 *
 *   madvise, process_madvise: MADV_FAULTAROUND_ORDER(order) with a small
 *     order, a random field value (0 to 255: every one is valid), the auto
 *     and unset values, plain MADV_FAULTAROUND; and invalid advice: bits
 *     above the field set, a negative advice, trinity's own random value in
 *     the field.  The address and length stay trinity's (mostly one of its
 *     mappings); process_madvise keeps trinity's pidfd and iovec, and a
 *     quarter of the rewritten madvise() calls are made through
 *     process_madvise() on a pidfd of the caller or of its parent, since
 *     trinity 1.9 never calls process_madvise() itself (below).
 *   prctl: PR_SET_FAULTAROUND with a small order, auto, unset, a random
 *     field value; with a value above 255 (invalid) or a non-zero unused
 *     argument (invalid); PR_GET_FAULTAROUND with zero and with non-zero
 *     unused arguments (invalid).
 *
 * Each rewritten call appends one line to the file named by
 * $FA_TRINITY_LOG ("madvise set-order 0x3fa ret=0 errno=0"), which the
 * in-guest driver (peer/trinity-guest.sh) counts: opened, written and
 * closed per call, because trinity's children die by SIGKILL and may have
 * every descriptor number in use.  A line that could not be written is
 * lost, not counted.  errno is what the kernel returned, kept for trinity.
 *
 * The numbers come from the project's uapi header
 * (include/uapi/linux/faultaround.h); none is copied here.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/faultaround.h>

typedef long (*syscall_fn)(long, ...);

static syscall_fn real_syscall;
static const char *log_path;

__attribute__((constructor)) static void trinity_preload_init(void)
{
	real_syscall = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
	log_path = getenv("FA_TRINITY_LOG");
}

/* splitmix64's finaliser: every bit of the result depends on every bit in. */
static unsigned long long mix(unsigned long long x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void log_call(const char *call, const char *kind, unsigned long value,
		     long ret, int err)
{
	char line[160];
	int fd, n;

	if (!log_path)
		return;
	n = snprintf(line, sizeof(line), "%s %s 0x%lx ret=%ld errno=%d\n",
		     call, kind, value, ret, ret == -1 ? err : 0);
	if (n <= 0 || (size_t)n >= sizeof(line))
		return;
	fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)n) != n) {
		/* Lost; nothing to do about it in a fuzzed child. */
	}
	close(fd);
}

/*
 * The advice for madvise() and process_madvise(), from the hash r and
 * trinity's random word junk.  *kind names the class for the log.
 */
static unsigned long fault_around_advice(unsigned long long r,
					 unsigned long junk, const char **kind)
{
	unsigned long field = (r >> 8) & MADV_FAULTAROUND_MASK;

	switch ((r >> 1) % 8) {
	case 0:
		*kind = "set-order";
		return MADV_FAULTAROUND_ORDER((r >> 16) % 10);
	case 1:
		*kind = "set-auto";
		return MADV_FAULTAROUND_AUTO;
	case 2:
		*kind = "set-unset";
		return MADV_FAULTAROUND_UNSET;
	case 3:
		*kind = "set-field";
		return MADV_FAULTAROUND_ORDER(field);
	case 4:
		*kind = "set-plain";
		return MADV_FAULTAROUND;
	case 5:
		/* A bit above the field, below the sign: EINVAL. */
		*kind = "bad-high-bit";
		return MADV_FAULTAROUND_ORDER(field) |
		       (1UL << (MADV_FAULTAROUND_SHIFT + 8 + (r >> 16) % 15));
	case 6:
		/* A negative int: EINVAL (the kernel's advice is an int). */
		*kind = "bad-negative";
		return (unsigned long)(long)(int)(MADV_FAULTAROUND_ORDER(field) |
						  0x80000000U);
	default:
		/* trinity's random word in the field and above it. */
		*kind = "junk-field";
		return MADV_FAULTAROUND |
		       ((junk & 0xffffffUL) << MADV_FAULTAROUND_SHIFT);
	}
}

/*
 * The prctl() arguments a[0..4] (option, arg2..arg5), from the hash r and
 * trinity's own arguments.
 */
static void fault_around_prctl(unsigned long long r, unsigned long a[5],
			       const char **kind)
{
	unsigned long field = (r >> 8) & 0xff;
	unsigned long junk = a[1];

	a[0] = PR_SET_FAULTAROUND;
	a[2] = a[3] = a[4] = 0;
	switch ((r >> 1) % 8) {
	case 0:
		*kind = "set-order";
		a[1] = (r >> 16) % 10;
		break;
	case 1:
		*kind = "set-auto";
		a[1] = PR_FAULTAROUND_AUTO;
		break;
	case 2:
		*kind = "set-unset";
		a[1] = PR_FAULTAROUND_UNSET;
		break;
	case 3:
		*kind = "set-field";
		a[1] = field;
		break;
	case 4:
		/* Above 255: EINVAL. */
		*kind = "bad-value";
		a[1] = junk > PR_FAULTAROUND_UNSET ? junk :
			junk + PR_FAULTAROUND_UNSET + 1;
		break;
	case 5:
		/* A valid value, a non-zero unused argument: EINVAL. */
		*kind = "bad-unused";
		a[1] = (r >> 16) % 10;
		a[2 + (r >> 24) % 3] = junk | 1;
		break;
	case 6:
		*kind = "get";
		a[0] = PR_GET_FAULTAROUND;
		a[1] = 0;
		break;
	default:
		*kind = "get-bad-unused";
		a[0] = PR_GET_FAULTAROUND;
		a[1] = 0;
		a[1 + (r >> 24) % 4] = junk | 1;
		break;
	}
}

/*
 * trinity 1.9 never calls process_madvise() (ppc64le's table lacks it;
 * x86_64's has it and never picks it), so a quarter of the rewritten
 * madvise() calls go through process_madvise() instead, on the same range
 * (one iovec): with a pidfd of the caller, where it acts as madvise(), or,
 * one time in four, of the parent (trinity's main process or a child's
 * parent), which must refuse the advice.  The pidfd is opened and closed
 * around the call.  Returns what madvise() would (0 for any byte count).
 */
static long fault_around_process_madvise(unsigned long long r,
					 unsigned long addr, unsigned long len,
					 unsigned long advice, const char **target)
{
	struct iovec iov = { .iov_base = (void *)addr, .iov_len = len };
	int remote = ((r >> 40) & 3) == 0;
	long pidfd, ret;
	int err;

	*target = remote ? "parent" : "self";
	pidfd = real_syscall(SYS_pidfd_open, remote ? getppid() : getpid(), 0);
	if (pidfd < 0)
		return -1;
	ret = real_syscall(SYS_process_madvise, pidfd, &iov, 1UL, advice, 0UL);
	err = errno;
	close((int)pidfd);
	errno = err;
	return ret < 0 ? ret : 0;
}

long syscall(long nr, ...)
{
	unsigned long a[6];
	unsigned long long r;
	const char *kind = NULL, *call = NULL;
	unsigned long value = 0;
	va_list ap;
	long ret;
	int err, i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);

	if (!real_syscall)
		real_syscall = (syscall_fn)dlsym(RTLD_NEXT, "syscall");

	r = mix(nr);
	for (i = 0; i < 6; i++)
		r = mix(r ^ a[i]);

	if (r & 1) {
		switch (nr) {
		case SYS_madvise:
			call = "madvise";
			a[2] = value = fault_around_advice(r, a[3], &kind);
#if defined(SYS_process_madvise) && defined(SYS_pidfd_open)
			if (((r >> 32) & 3) == 0) {
				const char *target;

				ret = fault_around_process_madvise(r, a[0], a[1],
								   value, &target);
				err = errno;
				log_call(target[0] == 's' ? "process_madvise-self" :
					 "process_madvise-parent", kind, value,
					 ret, err);
				errno = err;
				return ret;
			}
#endif
			break;
#ifdef SYS_process_madvise
		case SYS_process_madvise:
			call = "process_madvise";
			a[3] = value = fault_around_advice(r, a[5], &kind);
			break;
#endif
		case SYS_prctl:
			call = "prctl";
			fault_around_prctl(r, a, &kind);
			value = a[0] == PR_GET_FAULTAROUND ? a[0] : a[1];
			break;
		}
	}

	ret = real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (call) {
		err = errno;
		log_call(call, kind, value, ret, err);
		errno = err;
	}
	return ret;
}
