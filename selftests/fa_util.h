/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the fault-around selftests: page-cache test files mapped
 * at window-aligned addresses, page-table presence through pagemap, minor
 * fault counts and the system knobs.
 */
#ifndef FA_UTIL_H
#define FA_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/mman.h>		/* MADV_FAULTAROUND* */
#include <linux/prctl.h>	/* PR_[GS]ET_FAULTAROUND, PR_FAULTAROUND_* */

#define FA_DEBUGFS_BYTES	"/sys/kernel/debug/fault_around_bytes"
#define FA_SYSFS_DIR		"/sys/kernel/mm/faultaround"
#define FA_SYSFS_MAX_ORDER	FA_SYSFS_DIR "/max_order"
#define FA_SYSFS_DEFAULT_BYTES	FA_SYSFS_DIR "/default_bytes"

extern size_t fa_page_size;

/*
 * The largest order, read from FA_SYSFS_MAX_ORDER: one page table, at most
 * 9 (512 pages).  -1 when the kernel lacks the feature.
 */
int fa_max_order(void);

/*
 * The largest window a hint can ask for, 1 << fa_max_order(), or 0: a page
 * table, or an aligned part of one where the table has more than 512 PTEs.
 */
unsigned long fa_table_pages(void);

/*
 * Pages mapped by one last-level page table: THP's PMD size over the page
 * size, else 1 << fa_max_order() where that is below the 512-page cap;
 * 0 where neither tells.
 */
unsigned long fa_pte_table_pages(void);

/*
 * The directory a test variant's files go to: "ext4" is FA_EXT4DIR (NULL
 * when unset), anything else FA_TESTDIR or /tmp.
 */
const char *fa_fs_dir(const char *fs);

/* True when @dir is on the file system @fs names ("tmpfs", "ext4"). */
bool fa_dir_is(const char *dir, const char *fs);

/* True when the kernel has the per-VMA fault-around feature. */
bool fa_feature_present(void);

/*
 * True when a test may change a system-wide setting and put it back, as
 * run_vmtests.sh's tests do: as root, unless FA_KEEP_SYSTEM is set.
 */
bool fa_may_change_system(void);

/*
 * Create an unlinked file of @pages pages filled with fa_pattern() in
 * directory @dir (tmpfs, ext4, ...), so all of it is in the page cache, in
 * order-0 folios.  Returns the fd or -1.
 */
int fa_make_file(const char *dir, unsigned long pages);

/*
 * The same, written @chunk bytes at a time.  fa_make_file() writes a page
 * at a time: a filesystem with large folios (ext4, XFS) sizes a new folio
 * by the write, so the page cache then holds order-0 folios everywhere and
 * a window maps exactly its pages.  One large write gives large folios.
 */
int fa_make_file_chunked(const char *dir, unsigned long pages, size_t chunk);

/* The byte stored at file offset @off by fa_make_file(). */
static inline uint8_t fa_pattern(uint64_t off)
{
	return (uint8_t)((off >> 12) * 31 + (off & 0xfff) * 7 + 1);
}

/*
 * Map @pages pages of @fd from page @pgoff so that the mapping starts
 * @skew pages past an address aligned to @align_pages pages.
 * Returns MAP_FAILED on error.
 */
void *fa_map_aligned(int fd, unsigned long pages, unsigned long pgoff,
		     int flags, unsigned long align_pages, unsigned long skew);

/* Page-table present bit of each page in [addr, addr + pages pages). */
int fa_present(const void *addr, unsigned long pages, bool *present);

/* The same for the one page at @addr; a pagemap error fails the test. */
bool fa_page_present(const void *addr);

/*
 * Count the present pages; check that exactly [first, first + count) of
 * the @pages pages at @addr are present.  Returns the number present, or
 * -1 on a pagemap read error.
 */
long fa_count_present(const void *addr, unsigned long pages);
/*
 * Read page @idx of the @pages-page mapping @map of a fa_make_file() file;
 * return how many pages that fault made present, or -1 on a wrong byte or
 * a pagemap error.
 */
long fa_fault_maps(uint8_t *map, unsigned long pages, unsigned long idx);
/*
 * Read the mapping page by page from page @from, up (@dir 1) or down (@dir
 * -1), as a scan does, faulting only on pages not yet present; return how
 * many faults mapped anything, or -1 as fa_fault_maps().  *@first_full gets
 * the number (counting from 1) of the first fault that mapped @table pages.
 */
long fa_scan(uint8_t *map, unsigned long pages, unsigned long table,
	     unsigned long from, int dir, long *first_full);
bool fa_present_exactly(const void *addr, unsigned long pages,
			unsigned long first, unsigned long count);

/*
 * madvise(MADV_FAULTAROUND_ORDER(@order)) on @pages pages at @addr;
 * MADV_FAULTAROUND_UNSET (back to unset) for a negative @order.
 */
int fa_set_hint(void *addr, unsigned long pages, int order);

/*
 * Zap the @pages-page mapping @map (aligned to a page table of @table
 * pages, mapping the file from page @pgoff), read its page @idx and check
 * that exactly the window of @nr pages around it is present, within the
 * page table and the mapping.
 */
bool fa_window_at(uint8_t *map, unsigned long pages, unsigned long pgoff,
		  unsigned long table, unsigned long idx, unsigned long nr);

/* Drop the page-table entries of a file mapping, keeping the page cache. */
int fa_zap(void *addr, unsigned long pages);

/* Minor faults of this process so far. */
long fa_minor_faults(void);

/* Read one byte through an atomic load, which the compiler does not elide. */
static inline uint8_t fa_touch(const void *addr)
{
	return __atomic_load_n((const uint8_t *)addr, __ATOMIC_RELAXED);
}

/*
 * Write an unsigned number to a file; -1 with errno on error, also when
 * the kernel refuses the value.  (vm_util.c's write_sysfs() writes through
 * stdio and does not check fclose(), where such an error shows.)
 */
int fa_write_ulong(const char *path, unsigned long val);
/* The same for a string, written as it is. */
int fa_write_str(const char *path, const char *text);
/*
 * The system default from FA_SYSFS_DEFAULT_BYTES: *@bytes, or *@is_auto
 * when it is the self-sizing window ("auto").  -1 when it cannot be read.
 */
int fa_system_default(unsigned long *bytes, bool *is_auto);
/*
 * Put back a system default read by fa_system_default(): "auto" when
 * @is_auto, else @bytes.  0, or -1 with errno.
 */
int fa_restore_system_default(bool is_auto, unsigned long bytes);
/*
 * The system default window in pages (at least 1); 0 when it is "auto" or
 * cannot be read, where a test that needs the window skips.
 */
unsigned long fa_system_default_pages(void);

/*
 * The window the kernel maps for a fault on page @idx with a window of @nr
 * pages, where [lo, hi) is the part of the page table the VMA covers: the
 * aligned window's start clamped up to lo, and its end to hi, as
 * do_fault_around() computes it (the start is clamped first, and the end
 * counts @nr from the clamped start).
 */
void fa_expected_window(unsigned long idx, unsigned long nr, unsigned long lo,
			unsigned long hi, unsigned long *first,
			unsigned long *count);

/* What fa_smaps_order() and fa_status_order() return for "auto". */
#define FA_ORDER_AUTO	(-3)

/*
 * The "FaultAroundOrder:" of the VMA containing @addr in /proc/self/smaps:
 * the order, FA_ORDER_AUTO, -1 when the VMA has no such line, -2 when
 * @addr is unmapped or smaps is unreadable.  @vma_start/@vma_end, if not
 * NULL, get the VMA.
 */
int fa_smaps_order(const void *addr, unsigned long *vma_start,
		   unsigned long *vma_end);

/*
 * The "FaultAroundOrder:" of /proc/self/status: the order, FA_ORDER_AUTO,
 * -1 for "unset", -2 when there is no such line.
 */
int fa_status_order(void);

/*
 * A file of @tables page tables' worth of pages on @fs, mapped aligned to
 * a page table: what the window tests fault on.
 */
struct fa_table_map {
	unsigned long table;	/* pages per page table */
	unsigned long pages;	/* @tables page tables */
	int fd;
	uint8_t *map;
};

/*
 * 0 when @m is ready; 1 when the test cannot run here and -1 (errno set)
 * when making the file or the mapping failed, *@why saying which.
 * fa_table_map_close() undoes whatever was done.
 */
int fa_table_map_open(struct fa_table_map *m, const char *fs, int map_flags,
		      unsigned long tables, const char **why);
void fa_table_map_close(struct fa_table_map *m);

/* fa_window_at() on all of @m. */
static inline bool fa_window_is(const struct fa_table_map *m, unsigned long idx,
				unsigned long nr)
{
	return fa_window_at(m->map, m->pages, 0, m->table, idx, nr);
}

/*
 * The page the window tests fault on: in @m's second page table, off any
 * window's edge.
 */
static inline unsigned long fa_probe(const struct fa_table_map *m)
{
	return m->table + m->table / 2 + 1;
}

/* The largest power of two not above @n, which is at least 1. */
static inline unsigned long fa_rounddown_pow2(unsigned long n)
{
	while (n & (n - 1))
		n &= n - 1;
	return n;
}

/*
 * The readahead window of @fd's device in pages (its bdi's read_ahead_kb),
 * which MADV_SEQUENTIAL maps around a fault; 0 when the file has no
 * backing device (tmpfs).
 */
unsigned long fa_readahead_pages(int fd);

#endif /* FA_UTIL_H */
