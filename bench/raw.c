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

/* The file and what describes the runs to come: the machine, the options. */
void raw_open(struct raw_out *ro, const char *path, const struct config *cfg,
	      const struct machine *m)
{
	FILE *raw = open_out(path);
	int i;

	ro->f = raw;
	ro->path = path;
	fprintf(raw, "%s: one line per run; fabench --from-raw FILE prints the tables again\n",
		RAW_MAGIC);
	fprintf(raw, "# guest=%s\n# kernel=%s\n# arch=%s\n# page_size=%zu\n# mmu=%s\n"
		"# max_order=%d\n# max_order_guessed=%d\n# feature=%d\n"
		"# system_default_bytes=%lld\n# knob=%s\n# knobs_allowed=%d\n# emulated=%d\n"
		"# repeat=%d\n", cfg->guest, m->kernel, m->arch, m->page, m->mmu,
		m->max_order, m->max_order_guessed, m->supported, m->knob_orig,
		m->knob, m->knobs_allowed, m->emulated, cfg->repeat);
	if (m->icount_shift)
		fprintf(raw, "# icount_shift=%d\n", m->icount_shift);
	fprintf(raw, "# clock=%s\n", clock_name(cfg, m));
	list_names(raw, "modes", cfg->modes, mode_name, NR_MODES);
	list_names(raw, "workloads", cfg->wl, wl_name, NR_WL);
	fprintf(raw, "# orders=");
	if (cfg->all_orders)
		fprintf(raw, "all");
	else if (!cfg->norders)
		fprintf(raw, "default");
	for (i = 0; !cfg->all_orders && i < cfg->norders; i++)
		fprintf(raw, "%s%d", i ? "," : "", cfg->orders[i]);
	fprintf(raw, "\n# pages=");
	for (i = 0; i < cfg->npages; i++)
		fprintf(raw, "%s%lu", i ? "," : "", cfg->pages[i]);
	fprintf(raw, "\n# threads=");
	for (i = 0; i < cfg->nthreads; i++)
		fprintf(raw, "%s%u", i ? "," : "", cfg->threads[i]);
	fprintf(raw, "\n# touch_pages=%lu\n# files=%lu\n# execs=%lu\n# child_pages=%lu\n%s\n",
		cfg->touch_pages, cfg->files, cfg->execs, cfg->child_pages, RAW_HEADER);
}

static void raw_prefix(FILE *raw, const struct params *p, int mode, int wl,
		       const struct column *col)
{
	fprintf(raw, "%s,%s,%s,", mode_name(mode), wl_name(wl), col->label);
	if (col->kind == COL_ORDER)
		fprintf(raw, "%d", col->order);
	fprintf(raw, ",%lu,%lu,%u:%u,%u,", p->pages, p->density, p->mix.seq, p->mix.rand,
		p->threads);
}

/* The runs of a cell as they were measured: its own digits, no statistics. */
void raw_cell(struct raw_out *ro, const struct params *p, int mode, int wl,
	      const struct column *col, const struct cell *c)
{
	FILE *raw = ro->f;
	int r;

	if (!raw)
		return;
	for (r = 0; r < c->runs; r++) {
		raw_prefix(raw, p, mode, wl, col);
		fprintf(raw, "%d,ok,%ld,%lld.%09lld,\"\"\n", r + 1, c->faults[r],
			c->nsecs[r] / 1000000000LL, c->nsecs[r] % 1000000000LL);
	}
	if (c->status != ST_RAN) {
		raw_prefix(raw, p, mode, wl, col);
		fprintf(raw, ",%s,,,", c->status == ST_SKIP ? "skip" : "error");
		csv_string(raw, c->note);
		fputc('\n', raw);
	}
}

void raw_close(struct raw_out *ro)
{
	if (ro->f)
		close_out(ro->f, ro->path);
	ro->f = NULL;
}

/* --- reading ------------------------------------------------------------ */

/* A raw file being read, and what it gives back. */
struct raw_in {
	const char *file;
	int line;
	int v1;				/* no threads field */
	struct config *cfg;
	struct machine *m;
	struct plan *pl;
};

static void bad(const struct raw_in *in, const char *what) __attribute__((noreturn));
static void bad(const struct raw_in *in, const char *what)
{
	die("%s:%d: %s", in->file, in->line, what);
}

/* @i, a mode's or workload's index, or -1. */
static int known(const struct raw_in *in, int i)
{
	if (i < 0)
		bad(in, "unknown mode or workload");
	return i;
}

static unsigned long num(const struct raw_in *in, const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end)
		bad(in, "bad number");
	return v;
}

/* "S.NNNNNNNNN" to nanoseconds, exactly. */
static long long nanoseconds(const struct raw_in *in, const char *s)
{
	const char *dot = strchr(s, '.');
	long long ns = 0;
	int d = 0;
	char whole[32];

	if (!dot || (size_t)(dot - s) >= sizeof(whole))
		bad(in, "bad seconds");
	snprintf(whole, sizeof(whole), "%.*s", (int)(dot - s), s);
	for (s = dot + 1; *s >= '0' && *s <= '9' && d < 9; s++, d++)
		ns = ns * 10 + (*s - '0');
	if (*s)
		bad(in, "bad seconds");
	for (; d < 9; d++)
		ns *= 10;
	return (long long)num(in, whole) * 1000000000LL + ns;
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

static void meta(struct raw_in *in, const char *key, const char *v)
{
	struct config *cfg = in->cfg;
	struct machine *m = in->m;

	if (!strcmp(key, "guest")) {
		snprintf(cfg->guest_read, sizeof(cfg->guest_read), "%s", v);
		cfg->guest = cfg->guest_read;
	} else if (!strcmp(key, "clock")) {
		parse_clock("clock", v, cfg->clock_read, sizeof(cfg->clock_read));
		cfg->clock = cfg->clock_read;
	} else if (!strcmp(key, "kernel")) {
		snprintf(m->kernel, sizeof(m->kernel), "%s", v);
	} else if (!strcmp(key, "arch")) {
		snprintf(m->arch, sizeof(m->arch), "%s", v);
	} else if (!strcmp(key, "page_size")) {
		m->page = num(in, v);
	} else if (!strcmp(key, "mmu")) {
		snprintf(m->mmu, sizeof(m->mmu), "%s", v);
	} else if (!strcmp(key, "max_order")) {
		m->max_order = (int)num(in, v);
	} else if (!strcmp(key, "max_order_guessed")) {
		m->max_order_guessed = (int)num(in, v);
	} else if (!strcmp(key, "feature")) {
		m->supported = (int)num(in, v);
	} else if (!strcmp(key, "system_default_bytes")) {
		m->knob_orig = strtoll(v, NULL, 10);
	} else if (!strcmp(key, "knob")) {
		snprintf(m->knob, sizeof(m->knob), "%s", v);
	} else if (!strcmp(key, "knobs_allowed")) {
		m->knobs_allowed = (int)num(in, v);
	} else if (!strcmp(key, "emulated")) {
		m->emulated = (int)num(in, v);
	} else if (!strcmp(key, "icount_shift")) {
		m->icount_shift = (int)num(in, v);
	} else if (!strcmp(key, "repeat")) {
		cfg->repeat = (int)num(in, v);
	} else if (!strcmp(key, "modes")) {
		parse_modes("modes", v, cfg->modes);
	} else if (!strcmp(key, "workloads")) {
		parse_workloads("workloads", v, cfg->wl);
	} else if (!strcmp(key, "orders")) {
		parse_orders(cfg, v);
	} else if (!strcmp(key, "pages")) {
		cfg->npages = parse_ul_list("pages", v, cfg->pages, MAX_LIST);
	} else if (!strcmp(key, "threads")) {
		parse_threads(cfg, "threads", v);
	} else if (!strcmp(key, "touch_pages")) {
		cfg->touch_pages = num(in, v);
	} else if (!strcmp(key, "files")) {
		cfg->files = num(in, v);
	} else if (!strcmp(key, "execs")) {
		cfg->execs = num(in, v);
	} else if (!strcmp(key, "child_pages")) {
		cfg->child_pages = num(in, v);
	}
}

/* The fields after mix (v1 has no threads field). */
enum { F_THREADS = 7, F_RUN, F_STATUS, F_FAULTS, F_SECONDS, F_NOTE, NR_F };

static void row(struct raw_in *in, char *line)
{
	const struct config *cfg = in->cfg;
	struct plan *pl = in->pl;
	char *f[NR_F], note[NOTE_LEN];
	struct column cols[MAX_COLS];
	struct params p = { 0 };
	struct point *pt;
	struct cell *c;
	int i, mode, wl, n, k;

	for (i = 0; i < NR_F - 1; i++) {
		if (in->v1 && i == F_THREADS) {
			f[i] = "1";
			continue;
		}
		f[i] = strsep(&line, ",");
		if (!line)
			bad(in, "too few fields");
	}
	f[NR_F - 1] = line;
	mode = known(in, mode_index(f[0]));
	wl = known(in, wl_index(f[1]));
	p.pages = num(in, f[4]);
	p.density = num(in, f[5]);
	p.threads = (unsigned)num(in, f[F_THREADS]);
	if (parse_mix(f[6], &p.mix) < 0 || !p.density || cfg->repeat < 1 || !in->m->page ||
	    p.threads < 1 || p.threads > MAX_THREADS)
		bad(in, "bad density, mix, threads, repeat or page size");
	pt = point_find(pl, &p);
	if (!pt) {
		pt = point_new(pl);
		pt->p = p;
		params_derive(cfg, &pt->p);
	}
	n = block_columns(pl, mode, wl, cols);
	for (k = 0; k < n && strcmp(cols[k].label, f[2]); k++)
		;
	if (k == n)
		bad(in, "column not in this block (other max_order or orders?)");
	c = &pt->cells[mode][wl][k];
	if (!c->faults)
		cell_alloc(c, cfg->repeat);
	pt->have[mode][wl] = 1;
	unquote(f[F_NOTE], note, sizeof(note));
	if (!strcmp(f[F_STATUS], "ok")) {
		if (c->runs >= cfg->repeat || c->status != ST_RAN)
			bad(in, "more runs than repeat, or a run after skip/error");
		c->faults[c->runs] = (long)num(in, f[F_FAULTS]);
		c->nsecs[c->runs++] = nanoseconds(in, f[F_SECONDS]);
	} else if (!strcmp(f[F_STATUS], "skip") || !strcmp(f[F_STATUS], "error")) {
		c->status = f[F_STATUS][0] == 's' ? ST_SKIP : ST_ERROR;
		snprintf(c->note, sizeof(c->note), "%s", note);
	} else {
		bad(in, "bad status");
	}
}

/* Means and limits of everything read; a column without a line is an error. */
static void finish(const struct config *cfg, struct plan *pl)
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
						cell_alloc(c, cfg->repeat);
					if (c->status == ST_RAN && !c->runs) {
						c->status = ST_ERROR;
						snprintf(c->note, sizeof(c->note), "no data in the raw file");
					}
					cell_finish(c);
					c->expected = cell_expected(pl, &pt->p, m, w, &cols[k]);
				}
			}
}

/* Raw data as a live run would have left it: @cfg (the command line's) and
 * @m take the options and the machine the file records, @pl its cells. */
void raw_read(const char *path, struct config *cfg, struct machine *m, struct plan *pl)
{
	struct raw_in in = { .file = path, .cfg = cfg, .m = m, .pl = pl };
	FILE *f = fopen(path, "re");
	char *line = NULL, *eq;
	size_t cap = 0;
	ssize_t len;
	int header = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	memset(pl, 0, sizeof(*pl));
	while ((len = getline(&line, &cap, f)) >= 0) {
		in.line++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (in.line == 1) {
			in.v1 = !strncmp(line, RAW_MAGIC_V1, strlen(RAW_MAGIC_V1));
			if (!in.v1 && strncmp(line, RAW_MAGIC, strlen(RAW_MAGIC)))
				bad(&in, "not fabench raw data (no \"" RAW_MAGIC "\" line)");
			if (in.v1)
				parse_threads(cfg, "threads", "1");
		}
		if (header) {
			row(&in, line);
		} else if (!strcmp(line, in.v1 ? RAW_HEADER_V1 : RAW_HEADER)) {
			/* The options and the machine come first: the rows'
			 * columns follow from them. */
			header = 1;
			machine_derive(m);
			plan_init(pl, cfg, m);
		} else if (!strncmp(line, "# ", 2) && (eq = strchr(line, '='))) {
			*eq = '\0';
			meta(&in, line + 2, eq + 1);
		}
	}
	free(line);
	fclose(f);
	if (!header)
		bad(&in, "no header line");
	finish(cfg, pl);
	if (!pl->npoints)
		die("%s: no data", path);
}
