// SPDX-License-Identifier: GPL-2.0
/*
 * What a fabench run consists of: sweep points (pages x density x mix), in
 * each the blocks (mode x workload) that apply, in each block its columns.
 * The same functions describe a live run and raw data read back, so both
 * print the same tables.
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
	"global", "hint", "populate", "advice", "auto", "cost",
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

struct point *points;
int npoints;

/* Larger runs are not what this benchmark is for, and the product with the
 * page size must not overflow. */
#define MAX_PAGES	(1UL << 24)

int ilog2ull(unsigned long long v)
{
	int o = 0;

	while (v > 1) {
		v >>= 1;
		o++;
	}
	return o;
}

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

/* Workloads whose timed region is one mapping's whole life. */
int wl_is_mapped(int wl)
{
	return wl == WL_SEQ || wl == WL_RAND || wl == WL_TOUCH || wl == WL_MIXED;
}

/* Which sweep dimension a workload depends on: it runs at the first value
 * of every other dimension only, so a density sweep does not repeat seq. */
static int wl_uses_pages(int wl)
{
	if (wl == WL_TOUCH)
		return !cfg.touch_pages;
	if (wl == WL_SMALL)
		return !cfg.files;
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

void params_derive(struct params *p)
{
	p->touch_pages = cfg.touch_pages ? cfg.touch_pages : p->pages * 2;
	p->files = cfg.files ? cfg.files : p->pages / 8 < 8 ? 8 : p->pages / 8;
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

/* A new, empty point at the end of the list. */
struct point *point_new(void)
{
	struct point *p = realloc(points, (size_t)(npoints + 1) * sizeof(*points));

	if (!p)
		die("out of memory");
	points = p;
	memset(&points[npoints], 0, sizeof(*points));
	return &points[npoints++];
}

void points_free(void)
{
	int i, m, w, c;

	for (i = 0; i < npoints; i++)
		for (m = 0; m < NR_MODES; m++)
			for (w = 0; w < NR_WL; w++)
				for (c = 0; c < MAX_COLS; c++)
					cell_free(&points[i].cells[m][w][c]);
	free(points);
	points = NULL;
	npoints = 0;
}

/* One point of the sweep, if any workload runs in it. */
static void plan_point(int pi, int di, int mi, int ti)
{
	struct point *pt;
	int runs[NR_WL], w, m, any = 0;

	for (w = 0; w < NR_WL; w++) {
		runs[w] = cfg.wl[w] && (!pi || wl_uses_pages(w)) &&
			  (!di || wl_uses_density(w)) && (!mi || w == WL_MIXED) &&
			  (!ti || wl_is_threaded(w));
		for (m = 0; m < NR_MODES; m++)
			any |= runs[w] && cfg.modes[m] && mode_applies(m, w);
	}
	if (!any)
		return;
	pt = point_new();
	pt->p.pages = cfg.pages[pi];
	pt->p.density = cfg.density[di];
	pt->p.mix = cfg.mix[mi];
	pt->p.threads = cfg.threads[ti];
	params_derive(&pt->p);
	check_params(&pt->p, runs);
	for (w = 0; w < NR_WL; w++)
		for (m = 0; m < NR_MODES; m++)
			pt->have[m][w] = runs[w] && cfg.modes[m] && mode_applies(m, w);
}

void plan_points(void)
{
	int pi, di, mi, ti;

	for (pi = 0; pi < cfg.npages; pi++)
		for (di = 0; di < cfg.ndensity; di++)
			for (mi = 0; mi < cfg.nmix; mi++)
				for (ti = 0; ti < cfg.nthreads; ti++)
					plan_point(pi, di, mi, ti);
	if (!npoints)
		die("nothing to run: no workload of --workloads runs in --mode");
}

/* Planned, and after a run or a read, done: the block has cells. */
int block_runs(const struct point *pt, int mode, int wl)
{
	return pt->have[mode][wl];
}

static void order_columns(struct column *cols, int *n)
{
	static const int deflist[] = { 0, 1, 3, 4, 5, 8 };
	int i, k = *n;

	if (cfg.all_orders) {
		for (i = 0; i <= mach.max_order && k < MAX_COLS - 1; i++)
			cols[k++].order = i;
	} else if (cfg.norders) {
		for (i = 0; i < cfg.norders && k < MAX_COLS - 1; i++)
			if (cfg.orders[i] <= mach.max_order)
				cols[k++].order = cfg.orders[i];
	} else {
		for (i = 0; i < (int)(sizeof(deflist) / sizeof(deflist[0])); i++)
			if (deflist[i] <= mach.max_order)
				cols[k++].order = deflist[i];
		if (k == *n || cols[k - 1].order != mach.max_order)
			cols[k++].order = mach.max_order;
	}
	for (i = *n; i < k; i++) {
		cols[i].kind = COL_ORDER;
		snprintf(cols[i].label, sizeof(cols[i].label), "%d", cols[i].order);
	}
	*n = k;
}

static void add(struct column *cols, int *n, enum col_kind kind, const char *label)
{
	cols[*n].kind = kind;
	cols[*n].order = -1;
	snprintf(cols[*n].label, sizeof(cols[*n].label), "%s", label);
	(*n)++;
}

int block_columns(int mode, int wl, struct column *cols)
{
	char lb[16];
	int n = 0;

	add(cols, &n, COL_BASELINE, "Baseline");
	switch (mode) {
	case MODE_GLOBAL:
	case MODE_HINT:
		order_columns(cols, &n);
		if (mode == MODE_HINT && wl == WL_MIXED) {
			snprintf(lb, sizeof(lb), "seq=%d/rand=0", mach.max_order);
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
	}
	return n;
}

int block_column_index(int mode, int wl, enum col_kind kind)
{
	struct column cols[MAX_COLS];
	int i, n = block_columns(mode, wl, cols);

	for (i = 0; i < n; i++)
		if (cols[i].kind == kind)
			return i;
	return -1;
}

/* seq: a scan of a mapping aligned to the largest window takes exactly
 * ceil(pages / 2^order) faults where the order is known. */
long cell_expected(const struct params *p, int mode, int wl, const struct column *col)
{
	int o = -1;

	if (wl != WL_SEQ)
		return -1;
	if (col->kind == COL_BASELINE)
		o = mach.baseline_order;
	else if (col->kind == COL_ORDER && mode_has_limit(mode))
		o = col->order;
	if (o < 0)
		return -1;
	return (long)((p->pages + (1UL << o) - 1) >> o);
}

struct point *point_find(const struct params *p)
{
	int i;

	for (i = 0; i < npoints; i++)
		if (points[i].p.pages == p->pages && points[i].p.density == p->density &&
		    points[i].p.mix.seq == p->mix.seq && points[i].p.mix.rand == p->mix.rand &&
		    points[i].p.threads == p->threads)
			return &points[i];
	return NULL;
}
