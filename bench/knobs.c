// SPDX-License-Identifier: GPL-2.0
/*
 * The machine and what fabench sets on it: probing (page size, MMU, qemu,
 * the feature, the maximum order), the system default knob (sysfs
 * default_bytes, or debugfs fault_around_bytes on stock kernels), and the
 * per-mapping and per-process settings of each column: hints, the
 * self-sizing window, madvise advice and populating.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "fabench.h"
#include "run.h"

#define SYSFS_DIR		"/sys/kernel/mm/faultaround"
#define SYSFS_DEFAULT_BYTES	SYSFS_DIR "/default_bytes"
#define SYSFS_MAX_ORDER		SYSFS_DIR "/max_order"
#define DEBUGFS_BYTES		"/sys/kernel/debug/fault_around_bytes"

static int ilog2ull(unsigned long long v)
{
	int o = 0;

	while (v > 1) {
		v >>= 1;
		o++;
	}
	return o;
}

static int read_small_file(const char *path, char *buf, size_t size)
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

static long long read_knob(const char *path)
{
	char buf[64], *end;
	long long v;

	if (!path[0] || read_small_file(path, buf, sizeof(buf)) < 0)
		return -1;
	if (!strcmp(buf, "auto"))
		return KNOB_AUTO;
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (errno || end == buf)
		return -1;
	return v;
}

/* The machine's knob, as it was before the run. */
void knob_init(struct knob *k, const struct machine *m)
{
	k->path = m->knob;
	k->orig = m->knob_orig;
	k->dirty = 0;
}

static int write_text(const char *path, const char *buf)
{
	size_t len = strlen(buf);
	int fd, ret = 0;

	/* O_TRUNC, as a shell's echo: for FABENCH_KNOB's stand-in file. */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, buf, len) != (ssize_t)len)
		ret = -1;
	if (close(fd) < 0 && !ret)
		ret = -1;
	return ret;
}

int write_knob(struct knob *k, long long bytes)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld\n", bytes);
	if (write_text(k->path, buf) < 0)
		return -1;
	k->dirty = bytes != k->orig;
	return 0;
}

/*
 * The self-sizing window as the system default: "auto" written to the knob,
 * which must read it back.  -1 with errno set when the kernel refuses it
 * (EINVAL where the knob takes only numbers), or with @why when it reads
 * back something else; the knob is then put back.
 */
int write_knob_auto(struct knob *k, char *why, size_t size)
{
	char buf[64] = "";
	int e;

	why[0] = '\0';
	if (write_text(k->path, "auto\n") < 0) {
		e = errno;
		snprintf(why, size, "%.80s refuses auto: %.40s", k->path, strerror(e));
		errno = e;
		return -1;
	}
	k->dirty = k->orig != KNOB_AUTO;
	if (read_small_file(k->path, buf, sizeof(buf)) < 0 || strcmp(buf, "auto")) {
		k->dirty = 1;
		snprintf(why, size, "%.80s reads back '%.20s' after auto", k->path, buf);
		restore_knob(k);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* Also called, best effort, from the signal handler. */
void restore_knob(struct knob *k)
{
	if (!k->dirty)
		return;
	if (k->orig == KNOB_AUTO) {
		if (write_text(k->path, "auto\n") == 0)
			k->dirty = 0;
	} else if (k->orig >= 0 && write_knob(k, k->orig) == 0) {
		k->dirty = 0;
	}
}

static int cmdline_has(const char *word)
{
	char buf[4096], *tok, *save = NULL;

	if (read_small_file("/proc/cmdline", buf, sizeof(buf)) < 0)
		return 0;
	for (tok = strtok_r(buf, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
		if (!strcmp(tok, word))
			return 1;
	return 0;
}

static void probe_cpu(struct machine *m)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");
	const char *env = getenv("FA_EMULATED");
	const char *shift;

	if (f) {
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "MMU", 3) && strchr(line, ':')) {
				char *v = strchr(line, ':') + 1;

				v += strspn(v, " \t");
				v[strcspn(v, "\n")] = '\0';
				snprintf(m->mmu, sizeof(m->mmu), "%s", v);
			}
			if (strstr(line, "emulated by qemu") || strstr(line, "QEMU TCG"))
				m->emulated = EMU_ICOUNT;
		}
		fclose(f);
	}
	/* FA_EMULATED=mttcg: qemu without -icount, vCPUs in parallel. */
	if (env && !strcmp(env, "mttcg"))
		m->emulated = EMU_MTTCG;
	else if (env && *env && strcmp(env, "0"))
		m->emulated = EMU_ICOUNT;
	/*
	 * FA_ICOUNT_SHIFT=N: qemu -icount shift=N, where an instruction is
	 * 2^N ns of guest time.  Times are divided by 2^N so that a
	 * nanosecond in every table is still one instruction.
	 */
	shift = getenv("FA_ICOUNT_SHIFT");
	if (m->emulated == EMU_ICOUNT && shift && *shift) {
		char *end;
		long n = strtol(shift, &end, 10);

		if (*end || n < 0 || n > 10)
			die("FA_ICOUNT_SHIFT: '%s' is not a shift from 0 to 10", shift);
		m->icount_shift = (int)n;
	}
}

/* The facts nothing has been probed or read for. */
void machine_init(struct machine *m)
{
	memset(m, 0, sizeof(*m));
	m->knob_orig = -1;
	m->baseline_order = -1;
	snprintf(m->mmu, sizeof(m->mmu), "n/a");
}

/* This machine; @allow_knobs: --allow-knobs. */
void probe_machine(struct machine *m, int allow_knobs)
{
	const char *env = getenv("FABENCH_KNOB");
	struct utsname u;
	char buf[64];

	m->page = (size_t)sysconf(_SC_PAGESIZE);
	if (uname(&u) == 0) {
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
		snprintf(m->arch, sizeof(m->arch), "%s", u.machine);
	}
	probe_cpu(m);
	m->supported = faultaround_supported();
	if (m->supported) {
		m->max_order = faultaround_max_order();
	} else if (read_small_file(SYSFS_MAX_ORDER, buf, sizeof(buf)) == 0) {
		m->max_order = atoi(buf);
	} else {
		/* Stock kernel: one page table of PTEs, as fault_around_bytes
		 * allows (64K pages: radix 32 PTEs, hash 256). */
		m->max_order_guessed = 1;
		if (m->page == 65536)
			m->max_order = strstr(m->mmu, "Hash") ? 8 : 5;
		else
			m->max_order = ilog2ull(m->page / 8);
	}

	/* FABENCH_KNOB: a stand-in file, to test the global-mode code paths. */
	if (env && *env)
		snprintf(m->knob, sizeof(m->knob), "%s", env);
	else if (access(SYSFS_DEFAULT_BYTES, F_OK) == 0)
		snprintf(m->knob, sizeof(m->knob), "%s", SYSFS_DEFAULT_BYTES);
	else if (access(DEBUGFS_BYTES, F_OK) == 0)
		snprintf(m->knob, sizeof(m->knob), "%s", DEBUGFS_BYTES);
	m->knob_orig = read_knob(m->knob);
	machine_derive(m);
	m->knobs_allowed = geteuid() == 0 &&
			   (allow_knobs || cmdline_has("faultaround.test"));
}

/* What follows from the probed (or read back) facts. */
void machine_derive(struct machine *m)
{
	m->baseline_order = -1;
	if (m->knob_orig >= 0 && m->page)
		m->baseline_order = m->knob_orig < (long long)m->page ? 0 :
			ilog2ull((unsigned long long)m->knob_orig / m->page);
}

static int prctl_auto(int on)
{
	return prctl(PR_SET_FAULTAROUND, on ? PR_FAULTAROUND_AUTO : PR_FAULTAROUND_UNSET,
		     0, 0, 0);
}

/* Nothing probed yet: the self-sizing window is not tried in cost mode. */
void features_init(struct features *f)
{
	f->no_populate_read[0] = '\0';
	snprintf(f->no_auto_process, sizeof(f->no_auto_process), "not probed");
	snprintf(f->no_auto_mapping, sizeof(f->no_auto_mapping), "not probed");
}

/* What the kernel accepts, tried once on a page of the data file. */
void probe_features(struct features *f, const struct machine *m, int datafd)
{
	void *p = mmap(NULL, m->page, PROT_READ, MAP_PRIVATE, datafd, 0);

	if (p == MAP_FAILED)
		die("mmap of the data file: %s", strerror(errno));
	if (madvise(p, m->page, MADV_POPULATE_READ) < 0)
		snprintf(f->no_populate_read, sizeof(f->no_populate_read),
			 "MADV_POPULATE_READ refused (%s); it needs Linux 5.14",
			 strerror(errno));
	if (!m->supported) {
		snprintf(f->no_auto_process, sizeof(f->no_auto_process), "no kernel support");
		snprintf(f->no_auto_mapping, sizeof(f->no_auto_mapping), "no kernel support");
	} else {
		f->no_auto_process[0] = f->no_auto_mapping[0] = '\0';
		if (prctl_auto(1) < 0)
			snprintf(f->no_auto_process, sizeof(f->no_auto_process),
				 "kernel refuses PR_FAULTAROUND_AUTO (%s): no adaptive order",
				 strerror(errno));
		else
			prctl_auto(0);
		if (madvise(p, m->page, MADV_FAULTAROUND_AUTO) < 0)
			snprintf(f->no_auto_mapping, sizeof(f->no_auto_mapping),
				 "kernel refuses MADV_FAULTAROUND_AUTO (%s): no adaptive order",
				 strerror(errno));
	}
	munmap(p, m->page);
}

/* Why the column cannot run here, NULL when it can. */
const char *skip_reason(const struct machine *m, const struct features *f, int mode, int wl,
			const struct column *col)
{
	switch (col->kind) {
	case COL_BASELINE:
	case COL_MAP_POPULATE:
	case COL_ADVICE:
		return NULL;
	case COL_ORDER:
	case COL_SPLIT:
	case COL_AUTO_SYSTEM:
		/* auto-system is tried on any kernel: one that refuses auto
		 * says why when the run writes it. */
		if (mode == MODE_HINT)
			return m->supported ? NULL : "no kernel support";
		if (!m->knob[0])
			return "no fault-around knob (no sysfs default_bytes, debugfs not mounted)";
		if (m->knob_orig < 0 && m->knob_orig != KNOB_AUTO)
			return "fault-around knob not readable";
		if (!m->knobs_allowed)
			return "system default left alone (not root in a faultaround.test guest; see --allow-knobs)";
		return NULL;
	case COL_POPULATE_READ:
		return f->no_populate_read[0] ? f->no_populate_read : NULL;
	case COL_AUTO_PROCESS:
		return f->no_auto_process[0] ? f->no_auto_process : NULL;
	case COL_AUTO_MAPPING:
		if (wl == WL_EXEC)
			return "exec: the children make the mappings (see the auto column)";
		return f->no_auto_mapping[0] ? f->no_auto_mapping : NULL;
	}
	return NULL;
}

/* exec and smallfiles get an order as the process default, which the
 * exec'd children inherit; the others as a hint on their own mappings. */
static int hint_per_process(int mode, int wl)
{
	return mode == MODE_HINT && (wl == WL_EXEC || wl == WL_SMALL);
}

/* Extra mmap() flags of a mapping read as @part. */
int setting_map_flags(int mode, const struct column *col, enum part part)
{
	(void)mode;
	return col->kind == COL_MAP_POPULATE && part == PART_SEQ ? MAP_POPULATE : 0;
}

/* What the column does to one mapping read as @part, right after mmap(). */
int setting_mapping(const struct machine *m, int mode, int wl, const struct column *col,
		    void *addr, size_t len, enum part part)
{
	switch (col->kind) {
	case COL_ORDER:
		if (mode != MODE_HINT || hint_per_process(mode, wl))
			return 0;
		return faultaround_set(addr, len, col->order);
	case COL_SPLIT:
		return faultaround_set(addr, len, part == PART_SEQ ? m->max_order : 0);
	case COL_POPULATE_READ:
		return part == PART_SEQ ? madvise(addr, len, MADV_POPULATE_READ) : 0;
	case COL_ADVICE:
		return madvise(addr, len, part == PART_SEQ ? MADV_SEQUENTIAL : MADV_RANDOM);
	case COL_AUTO_MAPPING:
		return madvise(addr, len, MADV_FAULTAROUND_AUTO);
	default:
		return 0;
	}
}

/* The process default of the column, set before a run, removed after. */
int setting_process(int mode, int wl, const struct column *col)
{
	if (col->kind == COL_AUTO_PROCESS)
		return prctl_auto(1);
	if (col->kind == COL_ORDER && hint_per_process(mode, wl))
		return faultaround_set_default(col->order);
	return 0;
}

int setting_process_end(int mode, int wl, const struct column *col)
{
	if (col->kind == COL_AUTO_PROCESS ||
	    (col->kind == COL_ORDER && hint_per_process(mode, wl)))
		return faultaround_set_default(FAULTAROUND_UNSET);
	return 0;
}

/* No process default: one inherited from our parent would skew Baseline. */
void settings_reset(const struct machine *m)
{
	if (m->supported && faultaround_get_default() != FAULTAROUND_UNSET)
		faultaround_set_default(FAULTAROUND_UNSET);
}
