// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfaultaround-preload.so: apply fault-around hints to unmodified programs.
 *
 *   FAULTAROUND=SIZE          process default, set once at load (prctl)
 *   FAULTAROUND_RULES=RULES   per-file hints: at load on the executable's
 *                             and libraries' mappings, on every later file
 *                             mmap/mmap64, and after dlopen()
 *   FAULTAROUND_DEBUG=1       log every decision to stderr
 *
 * The shim never changes what the program sees: mmap/dlopen return values
 * and errno are preserved, nothing is written to stdout, and on a kernel
 * without the feature or with a malformed variable it warns once on stderr
 * and does nothing.  Variables are read with secure_getenv(), so a setuid
 * program ignores them; static programs do not load the shim at all.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "faultaround.h"
#include "internal.h"

#define PFX "libfaultaround-preload: "

typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);
typedef void *(*dlopen_fn)(const char *, int);

static struct faultaround_rules *fa_rules;
static int fa_active;		/* rules parsed and kernel supports hints */
static int fa_debug;
static mmap_fn real_mmap, real_mmap64;
static dlopen_fn real_dlopen;
static int resolving;
static int fa_scan_pending;	/* a dlopen() ran that we could not follow */

static void fa_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fa_log(const char *fmt, ...)
{
	char buf[PATH_MAX + 256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	if (write(STDERR_FILENO, buf, (size_t)n) < 0)
		return;
}

static void *raw_mmap(void *addr, size_t len, int prot, int flags, int fd,
		      off_t off)
{
	long r = syscall(SYS_mmap, addr, len, prot, flags, fd, off);

	return r == -1 ? MAP_FAILED : (void *)r;
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
	__atomic_store_n(&real_mmap, (mmap_fn)dlsym(RTLD_NEXT, "mmap"),
			 __ATOMIC_RELEASE);
	__atomic_store_n(&real_mmap64, (mmap_fn)dlsym(RTLD_NEXT, "mmap64"),
			 __ATOMIC_RELEASE);
	__atomic_store_n(&real_dlopen, (dlopen_fn)dlsym(RTLD_NEXT, "dlopen"),
			 __ATOMIC_RELEASE);
}

static void fa_apply_size(void *addr, size_t len,
			  const struct faultaround_size *sz, const char *path,
			  const char *why)
{
	int order, r;

	if (!sz) {
		if (fa_debug)
			fa_log(PFX "%s %s %p+%#zx: no rule matches\n", why, path,
			       addr, len);
		return;
	}
	order = faultaround_size_to_order(sz);
	r = order < 0 ? -1 : faultaround_set(addr, len, order);
	if (!fa_debug)
		return;
	if (r < 0)
		fa_log(PFX "%s %s %p+%#zx: order %d failed: %s\n", why, path, addr,
		       len, order, strerror(errno));
	else if (order == FAULTAROUND_UNSET)
		fa_log(PFX "%s %s %p+%#zx: hint cleared\n", why, path, addr, len);
	else
		fa_log(PFX "%s %s %p+%#zx: order %d\n", why, path, addr, len, order);
}

static void fa_apply(void *addr, size_t len, const char *path, const char *why)
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
 */
#define FA_SEEN_SLOTS	64

struct fa_seen {
	dev_t dev;
	ino_t ino;
	const struct faultaround_size *sz;
	bool used;
};

static struct fa_seen fa_seen[FA_SEEN_SLOTS];
static pthread_mutex_t fa_seen_lock = PTHREAD_MUTEX_INITIALIZER;

static struct fa_seen *fa_seen_slot(dev_t dev, ino_t ino)
{
	return &fa_seen[(size_t)(ino ^ dev * 31) % FA_SEEN_SLOTS];
}

static void fa_hint_fd(void *addr, size_t len, int fd)
{
	char link[64], path[PATH_MAX];
	const struct faultaround_size *sz;
	struct fa_seen *slot = NULL;
	struct stat st;
	bool hit = false;
	ssize_t n;

	if (!fa_debug && fstat(fd, &st) == 0) {
		slot = fa_seen_slot(st.st_dev, st.st_ino);
		pthread_mutex_lock(&fa_seen_lock);
		hit = slot->used && slot->dev == st.st_dev && slot->ino == st.st_ino;
		sz = slot->sz;
		pthread_mutex_unlock(&fa_seen_lock);
		if (hit) {
			fa_apply_size(addr, len, sz, NULL, "mmap");
			return;
		}
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return;
	path[n] = '\0';
	sz = faultaround_rules_match(fa_rules, path);
	if (slot) {
		pthread_mutex_lock(&fa_seen_lock);
		*slot = (struct fa_seen){ st.st_dev, st.st_ino, sz, true };
		pthread_mutex_unlock(&fa_seen_lock);
	}
	fa_apply_size(addr, len, sz, path, "mmap");
}

/*
 * Where the loaded objects lie (PT_LOAD spans).  Scans apply the rules only
 * there: the program's own file mappings got their rule at mmap() time, and
 * a hint the program has set on one since must survive a later rescan.
 */
#define FA_MAX_OBJECTS	4096

struct fa_objects {
	size_t n;
	struct {
		uintptr_t start, end;
	} span[FA_MAX_OBJECTS];
};

static int fa_add_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct fa_objects *objs = data;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (info->dlpi_addr + ph->p_vaddr < lo)
			lo = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > hi)
			hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	if (lo < hi && objs->n < FA_MAX_OBJECTS) {
		objs->span[objs->n].start = lo;
		objs->span[objs->n].end = hi;
		objs->n++;
	}
	return 0;
}

static bool fa_in_object(const struct fa_objects *objs, unsigned long start,
			 unsigned long end)
{
	size_t i;

	for (i = 0; i < objs->n; i++)
		if (start < objs->span[i].end && end > objs->span[i].start)
			return true;
	return false;
}

/* Never malloc() here: an allocator's own mmap() may have brought us here. */
static void *fa_scratch(size_t len)
{
	return real_mmap ? real_mmap(NULL, len, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
			 : raw_mmap(NULL, len, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/* Apply the rules to the loaded objects' file mappings in /proc/self/maps. */
static void fa_scan(const char *why)
{
	struct fa_objects *objs;
	struct fa_lines *lr;
	char *line;

	objs = fa_scratch(sizeof(*objs));
	if (objs == MAP_FAILED)
		return;
	lr = fa_scratch(sizeof(*lr));
	if (lr == MAP_FAILED)
		goto out;
	dl_iterate_phdr(fa_add_object, objs);
	if (fa_lines_open(lr, "/proc/self/maps") == 0) {
		while ((line = fa_lines_next(lr))) {
			unsigned long start, end;
			const char *path;
			char perms[5];

			if (fa_parse_maps_line(line, &start, &end, perms, &path) ||
			    path[0] != '/' || !fa_in_object(objs, start, end))
				continue;
			fa_apply((void *)start, end - start, path, why);
		}
		fa_lines_close(lr);
	}
	munmap(lr, sizeof(*lr));
out:
	munmap(objs, sizeof(*objs));
}

static int env_flag(const char *name)
{
	const char *v = secure_getenv(name);

	return v && *v && strcmp(v, "0");
}

__attribute__((constructor)) static void fa_preload_init(void)
{
	const char *size_s = secure_getenv("FAULTAROUND");
	const char *rules_s = secure_getenv("FAULTAROUND_RULES");
	struct faultaround_size size;
	struct faultaround_rules *rules = NULL;
	char err[256];
	int saved = errno;
	int order = FAULTAROUND_UNSET;

	fa_resolve();
	fa_debug = env_flag("FAULTAROUND_DEBUG");
	if (size_s && !*size_s)
		size_s = NULL;
	if (rules_s && !*rules_s)
		rules_s = NULL;
	if (!size_s && !rules_s)
		goto out;
	if (size_s && faultaround_parse_size(size_s, &size, err, sizeof(err)) < 0) {
		fa_log(PFX "FAULTAROUND: %s; hints disabled\n", err);
		goto out;
	}
	if (rules_s && !(rules = faultaround_rules_parse(rules_s, err, sizeof(err)))) {
		fa_log(PFX "FAULTAROUND_RULES: %s; hints disabled\n", err);
		goto out;
	}
	if (!faultaround_supported()) {
		fa_log(PFX "kernel lacks fault-around hints; FAULTAROUND%s ignored\n",
		       rules ? "_RULES" : "");
		faultaround_rules_free(rules);
		goto out;
	}
	if (size_s) {
		order = faultaround_size_to_order(&size);
		if (order < 0 || faultaround_set_default(order) < 0)
			fa_log(PFX "FAULTAROUND=%s: cannot set process default: %s\n",
			       size_s, strerror(errno));
		else if (fa_debug)
			fa_log(PFX "process default order %d%s\n", order,
			       order == FAULTAROUND_UNSET ? " (unset)" : "");
	}
	if (rules) {
		fa_rules = rules;
		fa_scan("load");
		__atomic_store_n(&fa_active, 1, __ATOMIC_RELEASE);
	}
out:
	errno = saved;
}

/*
 * glibc's dlopen() works on behalf of the object its return address lies in:
 * that object's DT_RPATH/DT_RUNPATH find a bare name, $ORIGIN expands to its
 * directory, and it becomes the loader of the new object, whose dependencies
 * then search the DT_RPATH of that loader chain.  Calling the real dlopen()
 * from the shim makes the shim that object.  It opens the same files only
 * for a path with a slash and no dynamic string token, and only while no
 * object but the executable (whose DT_RPATH is searched either way) has a
 * DT_RPATH.
 */
static int fa_has_rpath(struct dl_phdr_info *info, size_t size, void *first)
{
	int i;

	(void)size;
	if (*(bool *)first) {		/* the executable */
		*(bool *)first = false;
		return 0;
	}
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Dyn) *d;

		if (info->dlpi_phdr[i].p_type != PT_DYNAMIC)
			continue;
		d = (const void *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
		for (; d->d_tag != DT_NULL; d++)
			if (d->d_tag == DT_RPATH)
				return 1;
	}
	return 0;
}

static bool fa_dlopen_caller_neutral(const char *file)
{
	bool first = true;

	if (!strchr(file, '/') || strchr(file, '$'))
		return false;
	return dl_iterate_phdr(fa_has_rpath, &first) == 0;
}

/* The scan a dlopen() left to us: done at the shim's next mmap or dlopen. */
static void fa_scan_if_pending(void)
{
	if (__atomic_load_n(&fa_scan_pending, __ATOMIC_ACQUIRE) &&
	    __atomic_exchange_n(&fa_scan_pending, 0, __ATOMIC_ACQ_REL))
		fa_scan("dlopen");
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
	if (p == MAP_FAILED || !__atomic_load_n(&fa_active, __ATOMIC_ACQUIRE))
		return p;
	saved = errno;
	fa_scan_if_pending();
	if (fd >= 0 && !(flags & MAP_ANONYMOUS))
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

static void *fa_dlopen_and_scan(const char *file, int mode)
{
	void *h = __atomic_load_n(&real_dlopen, __ATOMIC_ACQUIRE)(file, mode);
	int saved;

	if (!h)
		return h;
	saved = errno;
	fa_scan("dlopen");
	errno = saved;
	return h;
}

/*
 * What the exported dlopen() jumps to with its own arguments and return
 * address: the real dlopen(), unless the call is caller-neutral and rules
 * are active, when the shim may call it and scan on return.  A jump that is
 * not caller-neutral leaves the scan to the next mmap or dlopen.
 */
__attribute__((used, visibility("hidden")))
dlopen_fn fa_dlopen_target(const char *file, int mode);
dlopen_fn fa_dlopen_target(const char *file, int mode)
{
	dlopen_fn real;
	int saved;

	(void)mode;
	fa_resolve();
	real = __atomic_load_n(&real_dlopen, __ATOMIC_ACQUIRE);
	if (!real)
		return fa_dlopen_unresolved;
	if (!file || !__atomic_load_n(&fa_active, __ATOMIC_ACQUIRE))
		return real;	/* dlopen(NULL) loads nothing */
	saved = errno;
	fa_scan_if_pending();
	errno = saved;
	if (fa_dlopen_caller_neutral(file))
		return fa_dlopen_and_scan;
	__atomic_store_n(&fa_scan_pending, 1, __ATOMIC_RELEASE);
	return real;
}

/*
 * dlopen() itself: keep the arguments, ask fa_dlopen_target(), restore the
 * stack and jump.  In assembly because a compiler may turn the jump into a
 * call (GCC does for any indirect call on ppc64le ELFv2), which would make
 * the shim glibc's caller.
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
	return fa_dlopen_target(file, mode)(file, mode);
}
#endif
