// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfaultaround-preload.so: apply fault-around hints to unmodified programs.
 *
 *   FAULTAROUND=SIZE          process default, set once at load (prctl)
 *   FAULTAROUND_RULES=RULES   per-file hints: at load on the executable's
 *                             and libraries' mappings, on every later file
 *                             mmap/mmap64, and on the objects each dlopen()
 *                             adds (preload_objects.c)
 *   FAULTAROUND_RULES_FILE=PATH
 *                             the same from a file, RULES a line (for
 *                             rules too long for the environment); not
 *                             with FAULTAROUND_RULES; a regular file only,
 *                             not even looked at without the feature
 *   FAULTAROUND_DEBUG=1       log every decision, and why nothing happens
 *                             (malformed variable, kernel without the
 *                             feature), to the stderr the program started
 *                             with, or nowhere (preload_log.c)
 *
 * The shim never changes what the program sees: mmap/dlopen return
 * values and errno are preserved, and nothing is written to stdout or, unless
 * FAULTAROUND_DEBUG is set, to stderr.  It never blocks: the mmap hook takes
 * no lock of its own and calls nothing that takes the loader's locks, so a
 * child forked at any moment can map files.  Variables are
 * read with secure_getenv(), so a setuid program ignores them; static
 * programs do not load the shim at all.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "faultaround.h"
#include "internal.h"
#include "preload.h"

typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);
typedef void *(*dlopen_fn)(const char *, int);

int fa_debug;
static struct faultaround_rules *fa_rules;
static int fa_active;		/* rules parsed and kernel supports hints */
static mmap_fn real_mmap, real_mmap64;
static dlopen_fn real_dlopen;
static int resolving;

/* strerror() may take the locale's lock, which a forked child can inherit
 * held: the untranslated text needs none. */
static const char *fa_strerror(int err)
{
	const char *s = strerrordesc_np(err);

	return s ? s : "unknown error";
}

static void *raw_mmap(void *addr, size_t len, int prot, int flags, int fd,
		      off_t off)
{
	long r = syscall(SYS_mmap, addr, len, prot, flags, fd, off);

	return r == -1 ? MAP_FAILED : (void *)r;
}

/* ISO C has no conversion from dlsym()'s object pointer to a function
 * pointer; POSIX guarantees the representations agree, so copy it. */
static mmap_fn next_mmap(const char *name)
{
	void *sym = dlsym(RTLD_NEXT, name);
	mmap_fn fn;

	memcpy(&fn, &sym, sizeof(fn));
	return fn;
}

static dlopen_fn next_dlopen(void)
{
	void *sym = dlsym(RTLD_NEXT, "dlopen");
	dlopen_fn fn;

	memcpy(&fn, &sym, sizeof(fn));
	return fn;
}

/*
 * dlsym() may allocate, and an allocator may call mmap(): while we are
 * resolving, fall back to the raw system call.
 */
static void fa_resolve(void)
{
	if (__atomic_load_n(&real_dlopen, __ATOMIC_ACQUIRE) ||
	    __atomic_exchange_n(&resolving, 1, __ATOMIC_ACQ_REL))
		return;
	__atomic_store_n(&real_mmap, next_mmap("mmap"), __ATOMIC_RELEASE);
	__atomic_store_n(&real_mmap64, next_mmap("mmap64"), __ATOMIC_RELEASE);
	__atomic_store_n(&real_dlopen, next_dlopen(), __ATOMIC_RELEASE);
}

/*
 * An order above the running kernel's maximum goes to the library as it is
 * (the kernel clamps it, or the library refuses it): never dropped unseen.
 */
static void fa_apply_size(void *addr, size_t len,
			  const struct faultaround_size *sz, const char *path,
			  const char *why)
{
	int order, r, err;

	if (!sz) {
		if (fa_debug)
			fa_log(PFX "%s %s %p+%#zx: no rule matches\n", why, path,
			       addr, len);
		return;
	}
	order = faultaround_size_to_order(sz);
	r = order < 0 ? -1 : faultaround_set(addr, len, order);
	err = errno;
	if (!fa_debug)
		return;
	if (!path)
		path = "(seen before)";
	if (r < 0)
		fa_log(PFX "%s %s %p+%#zx: order %d (kernel maximum %d) failed: %s\n",
		       why, path, addr, len, order, faultaround_max_order(),
		       fa_strerror(err));
	else if (order == FAULTAROUND_UNSET)
		fa_log(PFX "%s %s %p+%#zx: hint cleared\n", why, path, addr, len);
	else
		fa_log(PFX "%s %s %p+%#zx: order %d\n", why, path, addr, len, order);
}

void fa_apply(void *addr, size_t len, const char *path, const char *why)
{
	fa_apply_size(addr, len, faultaround_rules_match(fa_rules, path), path,
		      why);
}

/*
 * Mapping a file again should cost an fstat(), not a readlink() of
 * /proc/self/fd/N, which walks procfs and builds the path: remember which
 * rule matched (or that none did) per (device, inode).  A file renamed after
 * its first mapping keeps the decision taken under its old name; the debug
 * log, which names every path, bypasses the cache.
 *
 * Each slot is a sequence lock without a lock: a writer that cannot make
 * the sequence odd leaves the slot alone, and a reader that sees it odd or
 * changed takes the slow path.  Nothing ever waits, so a child forked
 * while a writer was half-way has one slot that always misses, not a hang.
 */
#define FA_SEEN_SLOTS	64

struct fa_seen {
	unsigned long seq;	/* odd while written */
	unsigned long long dev, ino;
	const struct faultaround_size *sz;	/* NULL: empty slot */
};

static struct fa_seen fa_seen[FA_SEEN_SLOTS];
static const struct faultaround_size fa_no_rule;	/* no rule matched */

static struct fa_seen *fa_seen_slot(const struct stat *st)
{
	return &fa_seen[(size_t)(st->st_ino ^ st->st_dev * 31) % FA_SEEN_SLOTS];
}

static bool fa_seen_get(const struct stat *st, const struct faultaround_size **sz)
{
	struct fa_seen *s = fa_seen_slot(st);
	unsigned long seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
	bool hit;

	if (seq & 1)
		return false;
	hit = __atomic_load_n(&s->dev, __ATOMIC_RELAXED) == st->st_dev &&
	      __atomic_load_n(&s->ino, __ATOMIC_RELAXED) == st->st_ino;
	*sz = __atomic_load_n(&s->sz, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return hit && *sz && __atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq;
}

static void fa_seen_put(const struct stat *st, const struct faultaround_size *sz)
{
	struct fa_seen *s = fa_seen_slot(st);
	unsigned long seq = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);

	if ((seq & 1) ||
	    !__atomic_compare_exchange_n(&s->seq, &seq, seq + 1, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&s->dev, st->st_dev, __ATOMIC_RELAXED);
	__atomic_store_n(&s->ino, st->st_ino, __ATOMIC_RELAXED);
	__atomic_store_n(&s->sz, sz, __ATOMIC_RELAXED);
	__atomic_store_n(&s->seq, seq + 2, __ATOMIC_RELEASE);
}

static void fa_hint_fd(void *addr, size_t len, int fd)
{
	char link[64], path[PATH_MAX];
	const struct faultaround_size *sz;
	struct stat st;
	bool cache = !fa_debug && fstat(fd, &st) == 0;
	ssize_t n;

	if (cache && fa_seen_get(&st, &sz)) {
		fa_apply_size(addr, len, sz == &fa_no_rule ? NULL : sz, NULL,
			      "mmap");
		return;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return;
	path[n] = '\0';
	sz = faultaround_rules_match(fa_rules, path);
	if (cache)
		fa_seen_put(&st, sz ? sz : &fa_no_rule);
	fa_apply_size(addr, len, sz, path, "mmap");
}

static int env_flag(const char *name)
{
	const char *v = secure_getenv(name);

	return v && *v && strcmp(v, "0");
}

/* Everything that goes wrong here is said once, and only in debug. */
__attribute__((constructor)) static void fa_preload_init(void)
{
	const char *size_s = secure_getenv("FAULTAROUND");
	const char *rules_s = secure_getenv("FAULTAROUND_RULES");
	const char *file_s = secure_getenv("FAULTAROUND_RULES_FILE");
	struct faultaround_size size;
	struct faultaround_rules *rules = NULL;
	char err[256], q[128];
	int saved = errno;
	int order = FAULTAROUND_UNSET;

	fa_resolve();
	fa_debug = env_flag("FAULTAROUND_DEBUG");
	if (fa_debug)
		fa_log_open();
	if (size_s && !*size_s)
		size_s = NULL;
	if (rules_s && !*rules_s)
		rules_s = NULL;
	if (file_s && !*file_s)
		file_s = NULL;
	if (!size_s && !rules_s && !file_s) {
		if (fa_debug)
			fa_log(PFX "neither FAULTAROUND nor FAULTAROUND_RULES is set; nothing to do\n");
		goto out;
	}
	if (rules_s && file_s) {
		if (fa_debug)
			fa_log(PFX "both FAULTAROUND_RULES and FAULTAROUND_RULES_FILE are set; hints disabled\n");
		goto out;
	}
	if (size_s && faultaround_parse_size(size_s, &size, err, sizeof(err)) < 0) {
		if (fa_debug)
			fa_log(PFX "FAULTAROUND: %s; hints disabled\n", err);
		goto out;
	}
	if (rules_s && !(rules = faultaround_rules_parse(rules_s, err, sizeof(err)))) {
		if (fa_debug)
			fa_log(PFX "FAULTAROUND_RULES: %s; hints disabled\n", err);
		goto out;
	}
	/*
	 * Before the rules file: without the feature the shim must not touch
	 * it at all, since whatever it names (a pipe, a FIFO, /dev/stdin) is
	 * the program's business, not the shim's.
	 */
	if (!faultaround_supported()) {
		if (fa_debug)
			fa_log(PFX "%s; FAULTAROUND%s ignored\n", fa_unsupported_reason(),
			       file_s ? "_RULES_FILE" : rules ? "_RULES" : "");
		faultaround_rules_free(rules);
		goto out;
	}
	if (file_s && !(rules = faultaround_rules_parse_file(file_s, err, sizeof(err)))) {
		if (fa_debug)
			fa_log(PFX "FAULTAROUND_RULES_FILE: %s; hints disabled\n", err);
		goto out;
	}
	if (size_s) {
		order = faultaround_size_to_order(&size);
		if (order < 0 || faultaround_set_default(order) < 0) {
			if (fa_debug)
				fa_log(PFX "FAULTAROUND=%s: cannot set process default (order %d, kernel maximum %d): %s\n",
				       fa_quote(size_s, q, sizeof(q)), order,
				       faultaround_max_order(),
				       fa_strerror(errno));
		} else if (fa_debug) {
			fa_log(PFX "process default order %d%s\n", order,
			       order == FAULTAROUND_UNSET ? " (unset)" : "");
		}
	}
	if (rules) {
		fa_rules = rules;
		fa_objects_sync();
		__atomic_store_n(&fa_active, 1, __ATOMIC_RELEASE);
	}
out:
	errno = saved;
}

static void *fa_mmap_common(mmap_fn real, void *addr, size_t len, int prot,
			    int flags, int fd, off_t off)
{
	void *p;
	int saved;

	if (!real)
		fa_resolve();
	real = real ? real : __atomic_load_n(&real_mmap, __ATOMIC_ACQUIRE);
	p = real ? real(addr, len, prot, flags, fd, off)
		 : raw_mmap(addr, len, prot, flags, fd, off);
	if (p == MAP_FAILED || !__atomic_load_n(&fa_active, __ATOMIC_ACQUIRE) ||
	    fd < 0 || (flags & MAP_ANONYMOUS))
		return p;
	saved = errno;
	fa_hint_fd(p, len, fd);
	errno = saved;
	return p;
}

__attribute__((visibility("default")))
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return fa_mmap_common(__atomic_load_n(&real_mmap, __ATOMIC_ACQUIRE),
			      addr, len, prot, flags, fd, off);
}

__attribute__((visibility("default")))
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	mmap_fn real = __atomic_load_n(&real_mmap64, __ATOMIC_ACQUIRE);

	return fa_mmap_common(real ? real : __atomic_load_n(&real_mmap,
							     __ATOMIC_ACQUIRE),
			      addr, len, prot, flags, fd, off);
}

static void *fa_dlopen_unresolved(const char *file, int mode)
{
	(void)file;
	(void)mode;
	return NULL;
}

static void *fa_dlopen_and_sync(const char *file, int mode)
{
	void *h = __atomic_load_n(&real_dlopen, __ATOMIC_ACQUIRE)(file, mode);
	int saved;

	if (!h)
		return h;
	saved = errno;
	fa_objects_sync();
	errno = saved;
	return h;
}

/*
 * What the exported dlopen() jumps to with its own arguments and return
 * address: the real dlopen(), unless rules are active and the call is
 * caller-neutral (preload_objects.c), when the shim calls it and applies
 * the rules to what it added on return.  A jump leaves that to the next
 * dlopen().  Both first catch up with objects that came or went since the
 * last look (dlclose(), libc's own modules, a jump), so that the decision
 * sees every loaded object and an object unloaded and loaded again at the
 * same place is seen as new.
 */
__attribute__((used, visibility("hidden")))
dlopen_fn fa_dlopen_target(const char *file, int mode, const void *caller);
dlopen_fn fa_dlopen_target(const char *file, int mode, const void *caller)
{
	dlopen_fn real;
	bool neutral;
	int saved;

	(void)mode;
	fa_resolve();
	real = __atomic_load_n(&real_dlopen, __ATOMIC_ACQUIRE);
	if (!real)
		return fa_dlopen_unresolved;
	if (!__atomic_load_n(&fa_active, __ATOMIC_ACQUIRE))
		return real;
	saved = errno;
	neutral = fa_objects_sync() && file &&	/* dlopen(NULL) loads nothing */
		  fa_dlopen_caller_neutral(file, caller);
	if (fa_debug && file)
		fa_log(PFX "dlopen %s: %s\n", file, neutral ?
		       "the shim calls it" : "left to glibc, looked at by the next dlopen");
	errno = saved;
	return neutral ? fa_dlopen_and_sync : real;
}

/*
 * dlopen() itself: keep the arguments, ask fa_dlopen_target() with the
 * caller's return address, restore the stack and jump.  In assembly because
 * a compiler may turn the jump into a call (GCC does for any indirect call
 * on ppc64le ELFv2), which would make the shim glibc's caller.
 */
#define FA_ASM_BEGIN(sym)						\
	"	.text\n"							\
	"	.globl	" sym "\n"						\
	"	.type	" sym ", @function\n"					\
	"	.p2align 4\n"							\
	sym ":\n"								\
	"	.cfi_startproc\n"
#define FA_ASM_END(sym)							\
	"	.cfi_endproc\n"						\
	"	.size	" sym ", .-" sym "\n"

#if defined(__x86_64__)
__asm__(
	FA_ASM_BEGIN("dlopen")
	"	movq	(%rsp), %rdx\n"		/* the caller's return address */
	"	pushq	%rdi\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	pushq	%rsi\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	subq	$8, %rsp\n"		/* 16-byte alignment at the call */
	"	.cfi_adjust_cfa_offset 8\n"
	"	call	fa_dlopen_target\n"
	"	addq	$8, %rsp\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	popq	%rsi\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	popq	%rdi\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	jmp	*%rax\n"
	FA_ASM_END("dlopen"));
#elif defined(__powerpc64__) && defined(_CALL_ELF) && _CALL_ELF == 2
__asm__(
	FA_ASM_BEGIN("dlopen")
	"0:	addis	2, 12, .TOC.-0b@ha\n"
	"	addi	2, 2, .TOC.-0b@l\n"
	"	.localentry dlopen, .-dlopen\n"
	"	mflr	0\n"
	"	mr	5, 0\n"			/* the caller's return address */
	"	std	0, 16(1)\n"
	"	stdu	1, -112(1)\n"	/* past a parameter save area */
	"	.cfi_def_cfa_offset 112\n"
	"	.cfi_offset lr, 16\n"
	"	std	3, 96(1)\n"
	"	std	4, 104(1)\n"
	"	bl	fa_dlopen_target\n"
	"	nop\n"
	"	mr	12, 3\n"		/* ELFv2: r12 = global entry */
	"	ld	3, 96(1)\n"
	"	ld	4, 104(1)\n"
	"	addi	1, 1, 112\n"
	"	.cfi_def_cfa_offset 0\n"
	"	ld	0, 16(1)\n"
	"	mtlr	0\n"
	"	.cfi_restore lr\n"
	"	mtctr	12\n"
	"	bctr\n"
	FA_ASM_END("dlopen"));
#else
/* Elsewhere this is correct only if the compiler makes it a sibling call. */
__attribute__((visibility("default")))
void *dlopen(const char *file, int mode)
{
	return fa_dlopen_target(file, mode, __builtin_return_address(0))(file,
									  mode);
}
#endif
