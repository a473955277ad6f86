// SPDX-License-Identifier: GPL-2.0

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/magic.h>

#include "vm_util.h"
#include "fa_util.h"

size_t fa_page_size;

__attribute__((constructor)) static void fa_util_init(void)
{
	fa_page_size = (size_t)sysconf(_SC_PAGESIZE);
}

bool fa_feature_present(void)
{
	return access(FA_SYSFS_MAX_ORDER, R_OK) == 0;
}

int fa_max_order(void)
{
	unsigned long order;

	if (!fa_feature_present() || read_sysfs(FA_SYSFS_MAX_ORDER, &order))
		return -1;
	return (int)order;
}

unsigned long fa_table_pages(void)
{
	int order = fa_max_order();

	return order < 0 ? 0 : 1UL << order;
}

unsigned long fa_pte_table_pages(void)
{
	uint64_t pmd = read_pmd_pagesize();
	int order = fa_max_order();

	if (pmd)
		return pmd / fa_page_size;
	return order < 0 || order >= 9 ? 0 : 1UL << order;
}

bool fa_may_change_system(void)
{
	return geteuid() == 0 && !getenv("FA_KEEP_SYSTEM");
}

int fa_make_file(const char *dir, unsigned long pages)
{
	return fa_make_file_chunked(dir, pages, fa_page_size);
}

int fa_make_file_chunked(const char *dir, unsigned long pages, size_t chunk)
{
	size_t len = pages * fa_page_size;
	uint8_t *buf;
	size_t i;
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	if (fd < 0)
		return -1;
	buf = malloc(len);
	if (!buf)
		goto err;
	errno = 0;
	for (i = 0; i < len; i++)
		buf[i] = fa_pattern(i);
	for (i = 0; i < len; i += chunk) {
		size_t n = len - i < chunk ? len - i : chunk;

		if (pwrite(fd, buf + i, n, i) != (ssize_t)n) {
			if (!errno)
				errno = ENOSPC;
			free(buf);
			goto err;
		}
	}
	free(buf);
	return fd;
err:
	close(fd);
	return -1;
}

void *fa_map_aligned(int fd, unsigned long pages, unsigned long pgoff,
		     int flags, unsigned long align_pages, unsigned long skew)
{
	size_t align = align_pages * fa_page_size;
	size_t len = pages * fa_page_size;
	size_t resv = len + align + skew * fa_page_size;
	uint8_t *area, *start;
	void *map;

	/* Reserve, pick the aligned spot inside, give the rest back. */
	area = mmap(NULL, resv, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return MAP_FAILED;
	start = (uint8_t *)(((uintptr_t)area + align - 1) & ~(uintptr_t)(align - 1));
	start += skew * fa_page_size;
	map = mmap(start, len, PROT_READ, flags | MAP_FIXED, fd,
		   (off_t)(pgoff * fa_page_size));
	if (map == MAP_FAILED) {
		munmap(area, resv);
		return MAP_FAILED;
	}
	if (start > area)
		munmap(area, start - area);
	if (area + resv > start + len)
		munmap(start + len, area + resv - (start + len));
	return map;
}

/*
 * One read for the whole range, decoded with vm_util.h's bits: the
 * self-sizing window's tests read whole mappings around every fault,
 * some 1.2 million entries a test with 4K pages, too many to read one a
 * syscall with pagemap_get_entry() under the harness's 30 s in a TCG
 * guest.
 */
int fa_present(const void *addr, unsigned long pages, bool *present)
{
	uint64_t *ents;
	unsigned long i;
	ssize_t want = pages * sizeof(uint64_t);
	off_t off = (uintptr_t)addr / fa_page_size * sizeof(uint64_t);
	int fd, ret = -1;

	ents = malloc(want);
	if (!ents)
		return -1;
	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		goto out;
	if (pread(fd, ents, want, off) != want)
		goto out_close;
	for (i = 0; i < pages; i++)
		present[i] = ents[i] & PM_PRESENT;
	ret = 0;
out_close:
	close(fd);
out:
	free(ents);
	return ret;
}

bool fa_page_present(const void *addr)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	uint64_t ent;

	if (fd < 0)
		ksft_exit_fail_msg("opening pagemap failed\n");
	ent = pagemap_get_entry(fd, (char *)addr);
	close(fd);
	return ent & PM_PRESENT;
}

long fa_count_present(const void *addr, unsigned long pages)
{
	bool *p = calloc(pages, sizeof(*p));
	unsigned long i;
	long n = 0;

	if (!p || fa_present(addr, pages, p)) {
		free(p);
		return -1;
	}
	for (i = 0; i < pages; i++)
		n += p[i];
	free(p);
	return n;
}

long fa_fault_maps(uint8_t *map, unsigned long pages, unsigned long idx)
{
	long before = fa_count_present(map, pages), after;

	if (before < 0)
		return -1;
	if (fa_touch(map + idx * fa_page_size) != fa_pattern(idx * fa_page_size))
		return -1;
	after = fa_count_present(map, pages);
	return after < 0 ? -1 : after - before;
}

long fa_scan(uint8_t *map, unsigned long pages, unsigned long table,
	     unsigned long from, int dir, long *first_full)
{
	unsigned long idx;
	long faults = 0, n;

	*first_full = 0;
	/* Going down, idx wraps past 0 to above @pages, which ends the scan. */
	for (idx = from; idx < pages; idx += dir) {
		if (fa_page_present(map + idx * fa_page_size))
			continue;
		n = fa_fault_maps(map, pages, idx);
		if (n < 0)
			return -1;
		if (!n)
			continue;
		faults++;
		if (!*first_full && (unsigned long)n == table)
			*first_full = faults;
	}
	return faults;
}

bool fa_present_exactly(const void *addr, unsigned long pages,
			unsigned long first, unsigned long count)
{
	bool *p = calloc(pages, sizeof(*p));
	bool ok = true;
	unsigned long i;

	if (!p || fa_present(addr, pages, p)) {
		free(p);
		return false;
	}
	for (i = 0; i < pages; i++) {
		bool want = i >= first && i < first + count;

		if (p[i] != want) {
			fprintf(stderr, "# page %lu: present %d, expected %d (window %lu+%lu)\n",
				i, p[i], want, first, count);
			ok = false;
			break;
		}
	}
	free(p);
	return ok;
}

int fa_set_hint(void *addr, unsigned long pages, int order)
{
	return madvise(addr, pages * fa_page_size,
		       order < 0 ? MADV_FAULTAROUND_UNSET :
				   MADV_FAULTAROUND_ORDER(order));
}

bool fa_window_at(uint8_t *map, unsigned long pages, unsigned long pgoff,
		  unsigned long table, unsigned long idx, unsigned long nr)
{
	unsigned long t0 = idx / table * table, first, count;

	if (fa_zap(map, pages) || fa_count_present(map, pages) != 0)
		return false;
	if (fa_touch(map + idx * fa_page_size) !=
	    fa_pattern((pgoff + idx) * fa_page_size))
		return false;
	fa_expected_window(idx, nr, t0, t0 + table < pages ? t0 + table : pages,
			   &first, &count);
	return fa_present_exactly(map, pages, first, count);
}

int fa_zap(void *addr, unsigned long pages)
{
	return madvise(addr, pages * fa_page_size, MADV_DONTNEED);
}

long fa_minor_faults(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return -1;
	return ru.ru_minflt;
}

int fa_write_str(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, saved;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, text, len);
	saved = errno;
	close(fd);
	errno = saved;
	return n == (ssize_t)len ? 0 : -1;
}

int fa_write_ulong(const char *path, unsigned long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu\n", val);
	return fa_write_str(path, buf);
}

unsigned long fa_system_default_pages(void)
{
	unsigned long bytes;
	bool is_auto;

	if (fa_system_default(&bytes, &is_auto) || is_auto)
		return 0;
	return bytes / fa_page_size ?: 1;
}

int fa_system_default(unsigned long *bytes, bool *is_auto)
{
	char buf[32], *end;
	ssize_t n;
	int fd;

	fd = open(FA_SYSFS_DEFAULT_BYTES, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	*is_auto = !strcmp(buf, "auto\n");
	*bytes = 0;
	if (*is_auto)
		return 0;
	errno = 0;
	*bytes = strtoul(buf, &end, 10);
	return errno || end == buf || *end != '\n' ? -1 : 0;
}

int fa_restore_system_default(bool is_auto, unsigned long bytes)
{
	if (is_auto)
		return fa_write_str(FA_SYSFS_DEFAULT_BYTES, "auto\n");
	return fa_write_ulong(FA_SYSFS_DEFAULT_BYTES, bytes);
}

void fa_expected_window(unsigned long idx, unsigned long nr, unsigned long lo,
			unsigned long hi, unsigned long *first,
			unsigned long *count)
{
	unsigned long start = idx / nr * nr, end;

	if (start < lo)
		start = lo;
	end = start + nr;
	if (end > hi)
		end = hi;
	*first = start;
	*count = end - start;
}

/* The value of a "FaultAroundOrder:" line, as fa_status_order() returns it. */
static int fa_parse_order(const char *val)
{
	char *end;
	long order;

	val += strspn(val, " \t");
	if (!strncmp(val, "auto", 4))
		return FA_ORDER_AUTO;
	if (!strncmp(val, "unset", 5))
		return -1;
	order = strtol(val, &end, 10);
	return end != val ? (int)order : -2;
}

int fa_smaps_order(const void *addr, unsigned long *vma_start,
		   unsigned long *vma_end)
{
	unsigned long a = (uintptr_t)addr, start, end;
	char line[512];
	bool in = false;
	int order = -2;
	FILE *f;

	f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -2;
	while (fgets(line, sizeof(line), f)) {
		/* A VMA header: "start-end perms ...". */
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			if (in)
				break;
			in = a >= start && a < end;
			if (in) {
				order = -1;
				if (vma_start)
					*vma_start = start;
				if (vma_end)
					*vma_end = end;
			}
			continue;
		}
		if (in && !strncmp(line, "FaultAroundOrder:", 17)) {
			order = fa_parse_order(line + 17);
			break;
		}
	}
	fclose(f);
	return order;
}

bool fa_dir_is(const char *dir, const char *fs)
{
	struct statfs sf;

	if (statfs(dir, &sf))
		return false;
	if (!strcmp(fs, "tmpfs"))
		return sf.f_type == TMPFS_MAGIC;
	if (!strcmp(fs, "ext4"))
		return sf.f_type == EXT4_SUPER_MAGIC;
	return true;
}

const char *fa_fs_dir(const char *fs)
{
	if (!strcmp(fs, "ext4"))
		return getenv("FA_EXT4DIR");
	return getenv("FA_TESTDIR") ?: "/tmp";
}

int fa_status_order(void)
{
	char line[256];
	int order = -2;
	FILE *f;

	f = fopen("/proc/self/status", "r");
	if (!f)
		return -2;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "FaultAroundOrder:", 17))
			order = fa_parse_order(line + 17);
	fclose(f);
	return order;
}

/*
 * Whether @pages pages at @map cross the span of one PMD table, which maps
 * at least 512 page tables of @table pages on the MMUs we test (x86_64 and
 * pseries radix: 512, 1G; pseries hash 64K: 1024, 16G, so an 8G boundary
 * is a multiple of it); where @table is the 512-page cap and a page table
 * is larger, the span tested divides the real one.  fa_table_map_open() keeps a mapping inside one
 * span, so that all its page tables hang off one PMD table.  The
 * self-sizing window reads no page table for its decision, so a scan no
 * longer starts its ramp again there; the placement is kept as it was.
 */
static bool fa_crosses_pmd_table(const void *map, unsigned long pages,
				 unsigned long table)
{
	uintptr_t span = 512UL * table * fa_page_size;
	uintptr_t start = (uintptr_t)map;
	uintptr_t last = start + pages * fa_page_size - 1;

	return start / span != last / span;
}

int fa_table_map_open(struct fa_table_map *m, const char *fs, int map_flags,
		      unsigned long tables, const char **why)
{
	const char *dir = fa_fs_dir(fs);

	m->fd = -1;
	m->map = MAP_FAILED;
	m->table = fa_table_pages();
	if (!m->table) {
		*why = "kernel without fault-around hints";
		return 1;
	}
	if (!dir) {
		*why = "no directory for this file system (FA_EXT4DIR)";
		return 1;
	}
	if (!fa_dir_is(dir, fs)) {
		*why = "the directory is on another file system (FA_TESTDIR)";
		return 1;
	}
	m->pages = tables * m->table;
	m->fd = fa_make_file(dir, m->pages);
	if (m->fd < 0) {
		*why = "cannot make the file";
		return -1;
	}
	m->map = fa_map_aligned(m->fd, m->pages, 0, map_flags, m->table, 0);
	/* Seldom, as the mapping lands: then place it inside one span. */
	if (m->map != MAP_FAILED &&
	    fa_crosses_pmd_table(m->map, m->pages, m->table)) {
		munmap(m->map, m->pages * fa_page_size);
		m->map = fa_map_aligned(m->fd, m->pages, 0, map_flags,
					512UL * m->table, 0);
	}
	if (m->map == MAP_FAILED) {
		*why = "cannot map the file";
		return -1;
	}
	return 0;
}

void fa_table_map_close(struct fa_table_map *m)
{
	if (m->map != MAP_FAILED)
		munmap(m->map, m->pages * fa_page_size);
	if (m->fd >= 0)
		close(m->fd);
	m->map = MAP_FAILED;
	m->fd = -1;
}

unsigned long fa_readahead_pages(int fd)
{
	char path[64];
	unsigned long kb;
	struct stat st;

	if (fstat(fd, &st))
		return 0;
	snprintf(path, sizeof(path), "/sys/class/bdi/%u:%u/read_ahead_kb",
		 major(st.st_dev), minor(st.st_dev));
	if (access(path, R_OK) || read_sysfs(path, &kb))
		return 0;
	return kb * 1024 / fa_page_size;
}
