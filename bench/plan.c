// SPDX-License-Identifier: GPL-2.0
/*
 * What a fabench run consists of: sweep points (pages x density x mix x
 * threads), in each the blocks (mode x workload) that apply, in each block
 * its columns.  plan_make() makes the plan of a config on a machine; the
 * runner fills its cells, raw.c makes one from raw data, and the tables and
 * exports read it.  The same functions describe a live run and raw data read
 * back, so both print the same tables.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabench.h"

/* The names of the options, tables, CSV and raw data. */
static const char *const wl_names[NR_WL] = {
	"seq", "rand", "touch", "exec", "smallfiles", "mixed",
	"mt-slices", "mt-interleaved", "mt-separate",
};

static const char *const mode_names[NR_MODES] = {
	"global", "hint", "populate", "advice", "auto", "auto-system", "cost",
};

const char *wl_name(int wl)
{
	return wl_names[wl];
}

const char *mode_name(int mode)
{
	return mode_names[mode];
}

static int name_index(const char *s, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* The workload or mode called @s, or -1. */
int wl_index(const char *s)
{
	return name_index(s, wl_names, NR_WL);
}

int mode_index(const char *s)
{
	return name_index(s, mode_names, NR_MODES);
}

/* Larger runs are not what this benchmark is for, and the product with the
 * page size must not overflow. */
#define MAX_PAGES	(1UL << 24)

/* Which workloads each mode has a setting for.  populate and advice are
 * what a user can do today on any kernel: populate the mapping read in
 * order, or say how each mapping is read. */
static int mode_applies(int mode, int wl)
{
	switch (mode) {
	case MODE_POPULATE:
		return wl == WL_SEQ || wl == WL_MIXED;
	case MODE_ADVICE:
		return wl == WL_SEQ || wl == WL_RAND || wl == WL_MIXED;
	default:
		return 1;
	}
}

int mode_has_limit(int mode)
{
	return mode == MODE_GLOBAL || mode == MODE_HINT;
}

int wl_is_threaded(int wl)
{
	return wl >= WL_FIRST_MT;
}

/* Which sweep dimension a workload depends on: it runs at the first value
 * of every other dimension only, so a density sweep does not repeat seq. */
static int wl_uses_pages(const struct config *cfg, int wl)
{
	if (wl == WL_TOUCH)
		return !cfg->touch_pages;
	if (wl == WL_SMALL)
		return !cfg->files;
	return wl != WL_EXEC;
}

static int wl_uses_density(int wl)
{
	return wl == WL_RAND || wl == WL_MIXED;
}

unsigned long lookups(unsigned long pages, unsigned long density)
{
	return pages / density;
}

/* mixed: the two mappings share 2 x pages in the ratio of --mix, so a mix
 * sweep keeps the file size; 1:1 is the seed's mixed (pages each). */
unsigned long mixed_seq_pages(const struct params *p)
{
	unsigned long long s = 2ULL * p->pages * p->mix.seq /
			       (p->mix.seq + p->mix.rand);

	return s ? (unsigned long)s : 1;
}

unsigned long mixed_rand_pages(const struct params *p)
{
	return 2 * p->pages - mixed_seq_pages(p);
}

/* The sizes that follow from pages, unless the options fix them. */
void params_derive(const struct config *cfg, struct params *p)
{
	p->touch_pages = cfg->touch_pages ? cfg->touch_pages : p->pages * 2;
	p->files = cfg->files ? cfg->files : p->pages / 8 < 8 ? 8 : p->pages / 8;
}

/* A point's workloads must have something to measure. */
static void check_params(const struct params *p, const int *runs)
{
	if (p->pages < 1 || p->pages > MAX_PAGES)
		die("--pages %lu: must be 1 to %lu", p->pages, MAX_PAGES);
	if (p->touch_pages < 1 || p->touch_pages > MAX_PAGES)
		die("--touch-pages %lu: must be 1 to %lu", p->touch_pages, MAX_PAGES);
	if (runs[WL_RAND] && !lookups(p->pages, p->density))
		die("rand: --pages %lu with --density %lu leaves no lookup"
		    " (pages must be at least the density)", p->pages, p->density);
	if (runs[WL_MIXED] && !lookups(mixed_rand_pages(p), p->density))
		die("mixed: --pages %lu, --mix %u:%u gives the random mapping %lu"
		    " pages, fewer than --density %lu: no lookup", p->pages,
		    p->mix.seq, p->mix.rand, mixed_rand_pages(p), p->density);
	if ((runs[WL_MT_SLICES] || runs[WL_MT_INTERLEAVED] || runs[WL_MT_SEPARATE]) &&
	    p->pages * p->threads > MAX_PAGES)
		die("--pages %lu x --threads %u: more than %lu pages", p->pages,
		    p->threads, MAX_PAGES);
}

/* The cells' per-run arrays, empty. */
void cell_alloc(struct cell *c, int repeat)
{
	cell_free(c);
	memset(c, 0, sizeof(*c));
	c->expected = -1;
	c->faults = calloc((size_t)repeat, sizeof(*c->faults));
	c->nsecs = calloc((size_t)repeat, sizeof(*c->nsecs));
	if (!c->faults || !c->nsecs)
		die("out of memory");
}

void cell_free(struct cell *c)
{
	free(c->faults);
	free(c->nsecs);
	c->faults = NULL;
	c->nsecs = NULL;
}

/* A new, empty point at the end of the plan. */
struct point *point_new(struct plan *pl)
{
	struct point *p = realloc(pl->points, (size_t)(pl->npoints + 1) * sizeof(*p));

	if (!p)
		die("out of memory");
	pl->points = p;
	memset(&p[pl->npoints], 0, sizeof(*p));
	return &p[pl->npoints++];
}

struct point *point_find(const struct plan *pl, const struct params *p)
{
	int i;

	for (i = 0; i < pl->npoints; i++) {
		struct point *pt = &pl->points[i];

		if (pt->p.pages == p->pages && pt->p.density == p->density &&
		    pt->p.mix.seq == p->mix.seq && pt->p.mix.rand == p->mix.rand &&
		    pt->p.threads == p->threads)
			return pt;
	}
	return NULL;
}

void plan_free(struct plan *pl)
{
	int i, m, w, c;

	for (i = 0; i < pl->npoints; i++)
		for (m = 0; m < NR_MODES; m++)
			for (w = 0; w < NR_WL; w++)
				for (c = 0; c < MAX_COLS; c++)
					cell_free(&pl->points[i].cells[m][w][c]);
	free(pl->points);
	pl->points = NULL;
	pl->npoints = 0;
}

/* One point of the sweep, if any workload runs in it. */
static void plan_point(struct plan *pl, const struct config *cfg, int pi, int di,
		       int mi, int ti)
{
	struct point *pt;
	int runs[NR_WL], w, m, any = 0;

	for (w = 0; w < NR_WL; w++) {
		runs[w] = cfg->wl[w] && (!pi || wl_uses_pages(cfg, w)) &&
			  (!di || wl_uses_density(w)) && (!mi || w == WL_MIXED) &&
			  (!ti || wl_is_threaded(w));
		for (m = 0; m < NR_MODES; m++)
			any |= runs[w] && cfg->modes[m] && mode_applies(m, w);
	}
	if (!any)
		return;
	pt = point_new(pl);
	pt->p.pages = cfg->pages[pi];
	pt->p.density = cfg->density[di];
	pt->p.mix = cfg->mix[mi];
	pt->p.threads = cfg->threads[ti];
	params_derive(cfg, &pt->p);
	check_params(&pt->p, runs);
	for (w = 0; w < NR_WL; w++)
		for (m = 0; m < NR_MODES; m++)
			pt->have[m][w] = runs[w] && cfg->modes[m] && mode_applies(m, w);
}

/* The order columns of global and hint blocks: those of --orders, all, or
 * the default list and the maximum, none above the maximum. */
static void plan_orders(struct plan *pl, const struct config *cfg)
{
	static const int deflist[] = { 0, 1, 3, 4, 5, 8 };
	const int room = MAX_COLS - 2;	/* Baseline before, the split after */
	int i, k = 0;

	if (cfg->all_orders) {
		for (i = 0; i <= pl->max_order && k < room; i++)
			pl->orders[k++] = i;
	} else if (cfg->norders) {
		for (i = 0; i < cfg->norders && k < room; i++)
			if (cfg->orders[i] <= pl->max_order)
				pl->orders[k++] = cfg->orders[i];
	} else {
		for (i = 0; i < (int)(sizeof(deflist) / sizeof(deflist[0])); i++)
			if (deflist[i] <= pl->max_order)
				pl->orders[k++] = deflist[i];
		if (!k || pl->orders[k - 1] != pl->max_order)
			pl->orders[k++] = pl->max_order;
	}
	pl->norders = k;
}

/* An empty plan of @cfg's columns on @m: raw data adds its points. */
void plan_init(struct plan *pl, const struct config *cfg, const struct machine *m)
{
	memset(pl, 0, sizeof(*pl));
	pl->nthreads = cfg->nthreads;
	pl->max_order = m->max_order;
	pl->baseline_order = m->baseline_order;
	plan_orders(pl, cfg);
}

/* What @cfg runs on @m: every point of the sweep in which a block runs. */
void plan_make(struct plan *pl, const struct config *cfg, const struct machine *m)
{
	int pi, di, mi, ti;

	plan_init(pl, cfg, m);
	for (pi = 0; pi < cfg->npages; pi++)
		for (di = 0; di < cfg->ndensity; di++)
			for (mi = 0; mi < cfg->nmix; mi++)
				for (ti = 0; ti < cfg->nthreads; ti++)
					plan_point(pl, cfg, pi, di, mi, ti);
	if (!pl->npoints)
		die("nothing to run: no workload of --workloads runs in --mode");
}

/* Planned, and after a run or a read, done: the block has cells. */
int block_runs(const struct point *pt, int mode, int wl)
{
	return pt->have[mode][wl];
}

/* The point has a block of @mode. */
int mode_in_point(const struct point *pt, int mode)
{
	int w;

	for (w = 0; w < NR_WL; w++)
		if (block_runs(pt, mode, w))
			return 1;
	return 0;
}

static void add(struct column *cols, int *n, enum col_kind kind, const char *label)
{
	cols[*n].kind = kind;
	cols[*n].order = -1;
	snprintf(cols[*n].label, sizeof(cols[*n].label), "%s", label);
	(*n)++;
}

int block_columns(const struct plan *pl, int mode, int wl, struct column *cols)
{
	char lb[16];
	int n = 0, i;

	add(cols, &n, COL_BASELINE, "Baseline");
	switch (mode) {
	case MODE_GLOBAL:
	case MODE_HINT:
		for (i = 0; i < pl->norders; i++) {
			snprintf(lb, sizeof(lb), "%d", pl->orders[i]);
			add(cols, &n, COL_ORDER, lb);
			cols[n - 1].order = pl->orders[i];
		}
		if (mode == MODE_HINT && wl == WL_MIXED) {
			snprintf(lb, sizeof(lb), "seq=%d/rand=0", pl->max_order);
			add(cols, &n, COL_SPLIT, lb);
		}
		break;
	case MODE_POPULATE:
		add(cols, &n, COL_POPULATE_READ, "POPULATE_READ");
		add(cols, &n, COL_MAP_POPULATE, "MAP_POPULATE");
		break;
	case MODE_ADVICE:
		add(cols, &n, COL_ADVICE, wl == WL_SEQ ? "MADV_SEQUENTIAL" :
			  wl == WL_RAND ? "MADV_RANDOM" : "SEQ+RANDOM");
		break;
	case MODE_AUTO:
		add(cols, &n, COL_AUTO_PROCESS, "auto");
		add(cols, &n, COL_AUTO_MAPPING, "madv-auto");
		break;
	case MODE_AUTO_SYSTEM:
		add(cols, &n, COL_AUTO_SYSTEM, "auto-system");
		break;
	}
	return n;
}

int block_column_index(const struct plan *pl, int mode, int wl, enum col_kind kind)
{
	struct column cols[MAX_COLS];
	int i, n = block_columns(pl, mode, wl, cols);

	for (i = 0; i < n; i++)
		if (cols[i].kind == kind)
			return i;
	return -1;
}

/* seq: a scan of a mapping aligned to the largest window takes exactly
 * ceil(pages / 2^order) faults where the order is known. */
long cell_expected(const struct plan *pl, const struct params *p, int mode, int wl,
		   const struct column *col)
{
	int o = -1;

	if (wl != WL_SEQ)
		return -1;
	if (col->kind == COL_BASELINE)
		o = pl->baseline_order;
	else if (col->kind == COL_ORDER && mode_has_limit(mode))
		o = col->order;
	if (o < 0)
		return -1;
	return (long)((p->pages + (1UL << o) - 1) >> o);
}
