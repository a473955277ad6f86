// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The preload shim's view of the loaded objects: which ones already got
 * their rules, and whether a dlopen() may be called by the shim.
 *
 * dl_iterate_phdr() reports with each object how many objects were ever
 * added and removed (dlpi_adds, dlpi_subs).  When neither moved since the
 * last look, a look costs one callback.  Otherwise the objects whose span
 * is not in the table are new: only their file mappings, as
 * /proc/self/maps names them (the paths the mmap hook matches), get the
 * rules, once.  A mapping that has its hint is never advised again, so a
 * hint the program set itself on one survives.
 *
 * Only the dlopen() wrapper and the constructor come here, never
 * the mmap hook: dl_iterate_phdr() takes glibc's dl_load_write_lock, which
 * fork() does not reset in the child (it resets only dl_load_lock), so a
 * child forked while another thread held it would hang in the next call.
 * The table has no lock either: one thread at a time owns it through an
 * atomic flag that nobody waits for (a thread that finds it taken leaves
 * its work to the owner), so a child forked while another thread owned it
 * finds it taken for good and simply stops looking.
 */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "faultaround.h"
#include "internal.h"
#include "preload.h"

#define FA_MAX_OBJECTS	4096

struct fa_object {
	uintptr_t start, end;	/* the span of its PT_LOAD segments */
	unsigned long seen;	/* generation of the last look that saw it */
	bool fresh;		/* added by the current look: not hinted yet */
};

/* Owned by whoever holds fa_busy. */
static struct {
	unsigned long long adds, subs;
	unsigned long gen;
	bool looked;
	size_t n;		/* sorted by start */
	struct fa_object obj[FA_MAX_OBJECTS];
	struct fa_lines maps;
} fa_tab;

static int fa_busy;		/* a thread owns fa_tab */
static int fa_stale;		/* a look was asked for */
static bool fa_rpath;		/* an object but the executable has DT_RPATH */

struct fa_look {
	bool first, changed, rpath;
	size_t fresh, dropped;
};

static bool fa_dyn_has(const ElfW(Dyn) *d, ElfW(Sxword) tag)
{
	for (; d && d->d_tag != DT_NULL; d++)
		if (d->d_tag == tag)
			return true;
	return false;
}

static const ElfW(Dyn) *fa_dynamic(const struct dl_phdr_info *info)
{
	int i;

	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			return (const void *)(info->dlpi_addr +
					      info->dlpi_phdr[i].p_vaddr);
	return NULL;
}

/* Index of the first object whose span starts at or after addr. */
static size_t fa_find(uintptr_t addr)
{
	size_t lo = 0, hi = fa_tab.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fa_tab.obj[mid].start < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Runs under the loader's lock: no I/O, no allocation. */
static int fa_look_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct fa_look *lk = data;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	struct fa_object *o;
	size_t i;
	int k;

	if (lk->first) {
		lk->first = false;
		if (size < offsetof(struct dl_phdr_info, dlpi_subs) +
			   sizeof(info->dlpi_subs))
			return 1;	/* no counters: cannot tell new from old */
		if (fa_tab.looked && info->dlpi_adds == fa_tab.adds &&
		    info->dlpi_subs == fa_tab.subs)
			return 1;
		fa_tab.adds = info->dlpi_adds;
		fa_tab.subs = info->dlpi_subs;
		fa_tab.gen++;
		lk->changed = true;
	} else if (fa_dyn_has(fa_dynamic(info), DT_RPATH)) {
		/* the executable's DT_RPATH is searched whoever calls */
		lk->rpath = true;
	}
	for (k = 0; k < info->dlpi_phnum; k++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[k];

		if (ph->p_type != PT_LOAD)
			continue;
		if (info->dlpi_addr + ph->p_vaddr < lo)
			lo = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > hi)
			hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	if (lo >= hi)
		return 0;
	i = fa_find(lo);
	o = &fa_tab.obj[i];
	if (i < fa_tab.n && o->start == lo && o->end == hi) {
		o->seen = fa_tab.gen;
		return 0;
	}
	if (fa_tab.n == FA_MAX_OBJECTS) {
		lk->dropped++;
		return 0;
	}
	memmove(o + 1, o, (fa_tab.n - i) * sizeof(*o));
	*o = (struct fa_object){ lo, hi, fa_tab.gen, true };
	fa_tab.n++;
	lk->fresh++;
	return 0;
}

/* Forget the objects this look did not see: they were unloaded. */
static void fa_forget_gone(void)
{
	size_t i, n = 0;

	for (i = 0; i < fa_tab.n; i++)
		if (fa_tab.obj[i].seen == fa_tab.gen)
			fa_tab.obj[n++] = fa_tab.obj[i];
	fa_tab.n = n;
}

/* The rules for the file mappings of the fresh objects (both lists sorted). */
static void fa_hint_fresh(void)
{
	size_t i = 0;
	char *line;

	if (fa_lines_open(&fa_tab.maps, "/proc/self/maps") < 0)
		return;
	while (i < fa_tab.n && (line = fa_lines_next(&fa_tab.maps))) {
		unsigned long start, end;
		const char *path;
		char perms[5];

		if (fa_parse_maps_line(line, &start, &end, perms, &path))
			continue;
		while (i < fa_tab.n && fa_tab.obj[i].end <= start)
			i++;
		if (i < fa_tab.n && fa_tab.obj[i].fresh &&
		    fa_tab.obj[i].start < end && path[0] == '/')
			fa_apply((void *)start, end - start, path, "load");
	}
	fa_lines_close(&fa_tab.maps);
	for (i = 0; i < fa_tab.n; i++)
		fa_tab.obj[i].fresh = false;
}

static void fa_look(void)
{
	struct fa_look lk = { .first = true };

	dl_iterate_phdr(fa_look_object, &lk);
	if (!lk.changed)
		return;
	fa_tab.looked = true;
	fa_forget_gone();
	__atomic_store_n(&fa_rpath, lk.rpath, __ATOMIC_RELAXED);
	if (lk.dropped && fa_debug)
		fa_log(PFX "more than %d objects: %zu left without hints\n",
		       FA_MAX_OBJECTS, lk.dropped);
	if (lk.fresh)
		fa_hint_fresh();
}

/*
 * A thread that finds fa_busy taken has raised fa_stale first, and the
 * owner checks fa_stale after releasing fa_busy (all sequentially
 * consistent), so no request is lost while the owner is alive.
 */
bool fa_objects_sync(void)
{
	__atomic_store_n(&fa_stale, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&fa_stale, __ATOMIC_SEQ_CST)) {
		if (__atomic_exchange_n(&fa_busy, 1, __ATOMIC_SEQ_CST))
			return false;
		__atomic_store_n(&fa_stale, 0, __ATOMIC_SEQ_CST);
		fa_look();
		__atomic_store_n(&fa_busy, 0, __ATOMIC_SEQ_CST);
	}
	return true;
}

/* glibc 2.35 bumps r_version to 2 when a second namespace is created. */
static bool fa_in_base_namespace(struct link_map *map)
{
	Lmid_t lmid;

	if (__atomic_load_n(&_r_debug.r_version, __ATOMIC_ACQUIRE) < 2)
		return true;
	return dlinfo(map, RTLD_DI_LMID, &lmid) == 0 && lmid == LM_ID_BASE;
}

/*
 * glibc's dlopen() works on behalf of the object its return address lies
 * in (_dl_find_dso_for_object): the new object goes into that object's
 * namespace, becomes its child (l_loader: the new object's dependencies
 * search the DT_RPATH of that chain), and a bare name is searched through
 * its DT_RPATH chain or, if it has one, its DT_RUNPATH, honouring its
 * DF_1_NODEFLIB; $ORIGIN expands to its directory.  The shim, called
 * instead, is in the base namespace and has none of these, so it opens the
 * same files when the caller is in the base namespace, the name has no '$',
 * no object but the executable (whose DT_RPATH is searched anyway) has a
 * DT_RPATH, and, for a bare name, the caller has no DT_RUNPATH, DT_RPATH or
 * DF_1_NODEFLIB.  Called only when the table is up to date.
 */
bool fa_dlopen_caller_neutral(const char *file, const void *caller)
{
#if defined(__GLIBC_PREREQ) && __GLIBC_PREREQ(2, 35)
	struct dl_find_object found;
	const ElfW(Dyn) *d;
	bool bare = !strchr(file, '/');

	if (strchr(file, '$') || __atomic_load_n(&fa_rpath, __ATOMIC_RELAXED) ||
	    _dl_find_object((void *)caller, &found) != 0 ||
	    !fa_in_base_namespace(found.dlfo_link_map))
		return false;
	/* its DT_RPATH: not seen by a look yet, or the executable's */
	for (d = found.dlfo_link_map->l_ld; d && d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_RPATH ||
		    (bare && (d->d_tag == DT_RUNPATH ||
			      (d->d_tag == DT_FLAGS_1 &&
			       (d->d_un.d_val & DF_1_NODEFLIB)))))
			return false;
	return true;
#else
	(void)file;
	(void)caller;
	return false;	/* no _dl_find_object(): leave every call to glibc */
#endif
}
