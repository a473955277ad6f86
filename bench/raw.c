// SPDX-License-Identifier: GPL-2.0
/*
 * The raw data: every run of every cell, one CSV line each, after "# key=value"
 * lines that describe the machine and the options.  --raw FILE writes it;
 * --from-raw FILE reads it back and prints the same tables (and CSV, JSON),
 * so means and stddevs can be recomputed and checked.
 *
 *   mode,workload,column,order,pages,density,mix,threads,run,status,minor_faults,seconds,note
 *
 * (v1, before the threaded workloads, had no threads field: it reads as 1.)
 * status is ok (one line per run: run 1..N, minor faults, seconds with
 * nanosecond digits), or skip / error (one line for the cell, with the reason
 * in note; an error line follows the runs that completed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabench.h"

#define RAW_MAGIC	"# fabench raw data v2"
#define RAW_MAGIC_V1	"# fabench raw data v1"
#define RAW_HEADER	"mode,workload,column,order,pages,density,mix,threads,run,status,minor_faults,seconds,note"
#define RAW_HEADER_V1	"mode,workload,column,order,pages,density,mix,run,status,minor_faults,seconds,note"

static FILE *raw;
static const char *raw_path;

static void list_names(FILE *f, const char *key, const int *flags,
		       const char *(*name)(int), int n)
{
	int i, first = 1;

	fprintf(f, "# %s=", key);
	for (i = 0; i < n; i++)
		if (flags[i]) {
			fprintf(f, "%s%s", first ? "" : ",", name(i));
			first = 0;
		}
	fputc('\n', f);
}

void raw_open(const char *path)
{
	int i;

	raw = open_out(path);
	raw_path = path;
	fprintf(raw, "%s: one line per run; fabench --from-raw FILE prints the tables again\n",
		RAW_MAGIC);
	fprintf(raw, "# guest=%s\n# kernel=%s\n# arch=%s\n# page_size=%zu\n# mmu=%s\n"
		"# max_order=%d\n# max_order_guessed=%d\n# feature=%d\n"
		"# system_default_bytes=%lld\n# knob=%s\n# knobs_allowed=%d\n# emulated=%d\n"
		"# repeat=%d\n", cfg.guest, mach.kernel, mach.arch, mach.page, mach.mmu,
		mach.max_order, mach.max_order_guessed, mach.supported, mach.knob_orig,
		mach.knob, mach.knobs_allowed, mach.emulated, cfg.repeat);
	if (mach.icount_shift)
		fprintf(raw, "# icount_shift=%d\n", mach.icount_shift);
	list_names(raw, "modes", cfg.modes, mode_name, NR_MODES);
	list_names(raw, "workloads", cfg.wl, wl_name, NR_WL);
	fprintf(raw, "# orders=");
	if (cfg.all_orders)
		fprintf(raw, "all");
	else if (!cfg.norders)
		fprintf(raw, "default");
	for (i = 0; !cfg.all_orders && i < cfg.norders; i++)
		fprintf(raw, "%s%d", i ? "," : "", cfg.orders[i]);
	fprintf(raw, "\n# pages=");
	for (i = 0; i < cfg.npages; i++)
		fprintf(raw, "%s%lu", i ? "," : "", cfg.pages[i]);
	fprintf(raw, "\n# threads=");
	for (i = 0; i < cfg.nthreads; i++)
		fprintf(raw, "%s%u", i ? "," : "", cfg.threads[i]);
	fprintf(raw, "\n# touch_pages=%lu\n# files=%lu\n# execs=%lu\n# child_pages=%lu\n%s\n",
		cfg.touch_pages, cfg.files, cfg.execs, cfg.child_pages, RAW_HEADER);
}

static void raw_prefix(const struct params *p, int mode, int wl, const struct column *col)
{
	fprintf(raw, "%s,%s,%s,", mode_name(mode), wl_name(wl), col->label);
	if (col->kind == COL_ORDER)
		fprintf(raw, "%d", col->order);
	fprintf(raw, ",%lu,%lu,%u:%u,%u,", p->pages, p->density, p->mix.seq, p->mix.rand,
		p->threads);
}

void raw_cell(const struct params *p, int mode, int wl, const struct column *col,
	      const struct cell *c)
{
	int r;

	if (!raw)
		return;
	for (r = 0; r < c->runs; r++) {
		raw_prefix(p, mode, wl, col);
		fprintf(raw, "%d,ok,%ld,%lld.%09lld,\"\"\n", r + 1, c->faults[r],
			c->nsecs[r] / 1000000000LL, c->nsecs[r] % 1000000000LL);
	}
	if (c->status != ST_RAN) {
		raw_prefix(p, mode, wl, col);
		fprintf(raw, ",%s,,,", c->status == ST_SKIP ? "skip" : "error");
		csv_string(raw, c->note);
		fputc('\n', raw);
	}
}

void raw_close(void)
{
	if (raw)
		close_out(raw, raw_path);
	raw = NULL;
}

/* --- reading ------------------------------------------------------------ */

static const char *raw_file;
static int raw_line;
static int raw_v1;		/* no threads field */

static void bad(const char *what) __attribute__((noreturn));
static void bad(const char *what)
{
	die("%s:%d: %s", raw_file, raw_line, what);
}

/* @i, a mode's or workload's index, or -1. */
static int known(int i)
{
	if (i < 0)
		bad("unknown mode or workload");
	return i;
}

static unsigned long num(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end)
		bad("bad number");
	return v;
}

/* "S.NNNNNNNNN" to nanoseconds, exactly. */
static long long nanoseconds(const char *s)
{
	const char *dot = strchr(s, '.');
	long long ns = 0;
	int d = 0;
	char whole[32];

	if (!dot || (size_t)(dot - s) >= sizeof(whole))
		bad("bad seconds");
	snprintf(whole, sizeof(whole), "%.*s", (int)(dot - s), s);
	for (s = dot + 1; *s >= '0' && *s <= '9' && d < 9; s++, d++)
		ns = ns * 10 + (*s - '0');
	if (*s)
		bad("bad seconds");
	for (; d < 9; d++)
		ns *= 10;
	return (long long)num(whole) * 1000000000LL + ns;
}

/* A CSV string field, quotes removed. */
static void unquote(const char *s, char *out, size_t size)
{
	size_t n = 0;

	if (*s == '"')
		for (s++; *s && !(s[0] == '"' && s[1] != '"'); s++) {
			if (*s == '"')
				s++;
			if (n + 1 < size)
				out[n++] = *s;
		}
	else
		while (*s && n + 1 < size)
			out[n++] = *s++;
	out[n] = '\0';
}

static void meta(const char *key, const char *v)
{
	static char guest[64];

	if (!strcmp(key, "guest")) {
		snprintf(guest, sizeof(guest), "%s", v);
		cfg.guest = guest;
	} else if (!strcmp(key, "kernel")) {
		snprintf(mach.kernel, sizeof(mach.kernel), "%s", v);
	} else if (!strcmp(key, "arch")) {
		snprintf(mach.arch, sizeof(mach.arch), "%s", v);
	} else if (!strcmp(key, "page_size")) {
		mach.page = num(v);
	} else if (!strcmp(key, "mmu")) {
		snprintf(mach.mmu, sizeof(mach.mmu), "%s", v);
	} else if (!strcmp(key, "max_order")) {
		mach.max_order = (int)num(v);
	} else if (!strcmp(key, "max_order_guessed")) {
		mach.max_order_guessed = (int)num(v);
	} else if (!strcmp(key, "feature")) {
		mach.supported = (int)num(v);
	} else if (!strcmp(key, "system_default_bytes")) {
		mach.knob_orig = strtoll(v, NULL, 10);
	} else if (!strcmp(key, "knob")) {
		snprintf(mach.knob, sizeof(mach.knob), "%s", v);
	} else if (!strcmp(key, "knobs_allowed")) {
		mach.knobs_allowed = (int)num(v);
	} else if (!strcmp(key, "emulated")) {
		mach.emulated = (int)num(v);
	} else if (!strcmp(key, "icount_shift")) {
		mach.icount_shift = (int)num(v);
	} else if (!strcmp(key, "repeat")) {
		cfg.repeat = (int)num(v);
	} else if (!strcmp(key, "modes")) {
		parse_modes("modes", v, cfg.modes);
	} else if (!strcmp(key, "workloads")) {
		parse_workloads("workloads", v, cfg.wl);
	} else if (!strcmp(key, "orders")) {
		parse_orders(&cfg, v);
	} else if (!strcmp(key, "pages")) {
		cfg.npages = parse_ul_list("pages", v, cfg.pages, MAX_LIST);
	} else if (!strcmp(key, "threads")) {
		parse_threads(&cfg, "threads", v);
	} else if (!strcmp(key, "touch_pages")) {
		cfg.touch_pages = num(v);
	} else if (!strcmp(key, "files")) {
		cfg.files = num(v);
	} else if (!strcmp(key, "execs")) {
		cfg.execs = num(v);
	} else if (!strcmp(key, "child_pages")) {
		cfg.child_pages = num(v);
	}
}

/* The fields after mix (v1 has no threads field). */
enum { F_THREADS = 7, F_RUN, F_STATUS, F_FAULTS, F_SECONDS, F_NOTE, NR_F };

static void row(struct plan *pl, char *line)
{
	char *f[NR_F], note[NOTE_LEN];
	struct column cols[MAX_COLS];
	struct params p = { 0 };
	struct point *pt;
	struct cell *c;
	int i, mode, wl, n, k;

	for (i = 0; i < NR_F - 1; i++) {
		if (raw_v1 && i == F_THREADS) {
			f[i] = "1";
			continue;
		}
		f[i] = strsep(&line, ",");
		if (!line)
			bad("too few fields");
	}
	f[NR_F - 1] = line;
	mode = known(mode_index(f[0]));
	wl = known(wl_index(f[1]));
	p.pages = num(f[4]);
	p.density = num(f[5]);
	p.threads = (unsigned)num(f[F_THREADS]);
	if (parse_mix(f[6], &p.mix) < 0 || !p.density || cfg.repeat < 1 || !mach.page ||
	    p.threads < 1 || p.threads > MAX_THREADS)
		bad("bad density, mix, threads, repeat or page size");
	pt = point_find(pl, &p);
	if (!pt) {
		pt = point_new(pl);
		pt->p = p;
		params_derive(&cfg, &pt->p);
	}
	n = block_columns(pl, mode, wl, cols);
	for (k = 0; k < n && strcmp(cols[k].label, f[2]); k++)
		;
	if (k == n)
		bad("column not in this block (other max_order or orders?)");
	c = &pt->cells[mode][wl][k];
	if (!c->faults)
		cell_alloc(c, cfg.repeat);
	pt->have[mode][wl] = 1;
	unquote(f[F_NOTE], note, sizeof(note));
	if (!strcmp(f[F_STATUS], "ok")) {
		if (c->runs >= cfg.repeat || c->status != ST_RAN)
			bad("more runs than repeat, or a run after skip/error");
		c->faults[c->runs] = (long)num(f[F_FAULTS]);
		c->nsecs[c->runs++] = nanoseconds(f[F_SECONDS]);
	} else if (!strcmp(f[F_STATUS], "skip") || !strcmp(f[F_STATUS], "error")) {
		c->status = f[F_STATUS][0] == 's' ? ST_SKIP : ST_ERROR;
		snprintf(c->note, sizeof(c->note), "%s", note);
	} else {
		bad("bad status");
	}
}

/* Means and limits of everything read; a column without a line is an error. */
static void finish(struct plan *pl)
{
	struct column cols[MAX_COLS];
	int i, m, w, k, n;

	for (i = 0; i < pl->npoints; i++)
		for (m = 0; m < NR_MODES; m++)
			for (w = 0; w < NR_WL; w++) {
				struct point *pt = &pl->points[i];

				if (!pt->have[m][w])
					continue;
				n = block_columns(pl, m, w, cols);
				for (k = 0; k < n; k++) {
					struct cell *c = &pt->cells[m][w][k];

					if (!c->faults)
						cell_alloc(c, cfg.repeat);
					if (c->status == ST_RAN && !c->runs) {
						c->status = ST_ERROR;
						snprintf(c->note, sizeof(c->note), "no data in the raw file");
					}
					cell_finish(c);
					c->expected = cell_expected(pl, &pt->p, m, w, &cols[k]);
				}
			}
}

void raw_read(const char *path, struct plan *pl)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, *eq;
	size_t cap = 0;
	ssize_t len;
	int header = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	memset(pl, 0, sizeof(*pl));
	raw_file = path;
	while ((len = getline(&line, &cap, f)) >= 0) {
		raw_line++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (raw_line == 1) {
			raw_v1 = !strncmp(line, RAW_MAGIC_V1, strlen(RAW_MAGIC_V1));
			if (!raw_v1 && strncmp(line, RAW_MAGIC, strlen(RAW_MAGIC)))
				bad("not fabench raw data (no \"" RAW_MAGIC "\" line)");
			if (raw_v1)
				parse_threads(&cfg, "threads", "1");
		}
		if (header) {
			row(pl, line);
		} else if (!strcmp(line, raw_v1 ? RAW_HEADER_V1 : RAW_HEADER)) {
			/* The options and the machine come first: the columns
			 * of the rows follow from them. */
			header = 1;
			machine_derive();
			plan_init(pl, &cfg, &mach);
		}
		else if (!strncmp(line, "# ", 2) && (eq = strchr(line, '=')))
			*eq = '\0', meta(line + 2, eq + 1);
	}
	free(line);
	fclose(f);
	if (!header)
		bad("no header line");
	finish(pl);
	if (!pl->npoints)
		die("%s: no data", path);
}
