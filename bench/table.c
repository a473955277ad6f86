// SPDX-License-Identifier: GPL-2.0
/*
 * The human tables, in the layout of the 2014 FAULT_AROUND_ORDER threads:
 * one block per workload and mode, one column per setting, rows of minor
 * faults, time and their stddev, %chg against Baseline; then the lines
 * that compare blocks (the seq limit, the per-mapping split, auto).
 * Everything here is computed from the cells, so --from-raw prints it
 * again exactly.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabench.h"

#define LW	24	/* label width */
#define CW	16	/* column width */

/* What a table of emulated times cannot say, on every table header. */
#define QEMU_CAVEAT \
	"caveat: qemu -icount: a nanosecond is one guest instruction, not hardware time;" \
	" the hash MMU's H_ENTER/H_REMOVE hcalls run in qemu outside that count," \
	" so hash PTE inserts are nearly free"
#define MTTCG_CAVEAT \
	"caveat: qemu MTTCG (no -icount): times are host wall time of emulated code," \
	" with the host's other load in them, not hardware time; the hash MMU's hcalls" \
	" run in qemu; fault counts are exact"

static const char *caveat(const struct machine *m)
{
	return m->emulated == EMU_MTTCG ? MTTCG_CAVEAT : QEMU_CAVEAT;
}

void print_intro(const struct report *rep)
{
	const struct machine *m = rep->mach;
	const struct config *cfg = rep->cfg;
	char meta[1024] = "";
	FILE *mf = fmemopen(meta, sizeof(meta), "w");

	say("fabench: fault-around orders, minor faults and time per cell; mean of %d run(s),\n"
	    "stddev = standard deviation of the mean in %% of the mean (as perf stat --repeat)\n",
	    cfg->repeat);
	if (mf) {
		print_meta(rep, mf, "");
		fclose(mf);
		say("%s", meta);
	}
	if (m->emulated == EMU_MTTCG)
		say("NOTE: times are host wall time of qemu TCG with parallel vCPUs (MTTCG, no -icount):"
		    " noisy; compare columns, not machines\n");
	else if (m->emulated)
		say("NOTE: absolute times are emulated (qemu TCG with -icount): compare columns, not machines\n");
	if (m->emulated == EMU_ICOUNT && m->icount_shift)
		say("NOTE: qemu ran with -icount shift=%d (an instruction is %d ns of guest time);"
		    " times are divided by %d, so a nanosecond here is still one instruction\n",
		    m->icount_shift, 1 << m->icount_shift, 1 << m->icount_shift);
	if (!m->supported && (cfg->modes[MODE_HINT] || cfg->modes[MODE_AUTO]))
		say("NOTE: no per-VMA fault-around support in this kernel: hint and auto cells are skipped\n");
	if (cfg->modes[MODE_GLOBAL] && !m->knobs_allowed)
		say("NOTE: global mode leaves the system default alone here: only its Baseline runs\n");
	say("\n");
}

void print_point(const struct report *rep, const struct point *pt)
{
	char threads[32] = "";

	if (rep->plan->nthreads > 1)
		snprintf(threads, sizeof(threads), ", threads %u", pt->p.threads);
	if (rep->plan->npoints > 1)
		say("=== sweep point: pages %lu, density 1/%lu, mix seq:rand %u:%u%s\n\n",
		    pt->p.pages, pt->p.density, pt->p.mix.seq, pt->p.mix.rand, threads);
}

void print_mode(struct report *rep, int mode)
{
	static const char *const what[NR_MODES] = {
		[MODE_GLOBAL] = "the order is the system default (all mappings)",
		[MODE_HINT] = "the order is a per-mapping hint (exec, smallfiles: per-process default)",
		[MODE_POPULATE] = "MADV_POPULATE_READ or MAP_POPULATE on the mapping read in order (any kernel)",
		[MODE_ADVICE] = "MADV_SEQUENTIAL on the mapping read in order, MADV_RANDOM on the one probed at random (any kernel)",
		[MODE_AUTO] = "the adaptive order: auto = process default (PR_FAULTAROUND_AUTO), madv-auto = per mapping (MADV_FAULTAROUND_AUTO)",
		[MODE_AUTO_SYSTEM] = "the adaptive order as the system default (\"auto\" in default_bytes), Baseline = the stock default",
		[MODE_COST] = "no hint, system default untouched (stock vs patched cost)",
	};

	say("== mode %s: %s\n", mode_name(mode), what[mode]);
	rep->header[0] = '\0';
}

static void trim(char *line, int len)
{
	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
}

/* The column labels, again whenever they change within a mode. */
static void print_header(struct report *rep, int mode, const struct column *cols, int n)
{
	static const char *const first[NR_MODES] = {
		[MODE_GLOBAL] = "FAULT_AROUND_ORDER", [MODE_HINT] = "FAULT_AROUND_ORDER",
		[MODE_COST] = "FAULT_AROUND_ORDER", [MODE_POPULATE] = "POPULATE",
		[MODE_ADVICE] = "MADVISE", [MODE_AUTO] = "ADAPTIVE_ORDER",
		[MODE_AUTO_SYSTEM] = "SYSTEM_DEFAULT",
	};
	char line[2048];
	int i, len;

	len = snprintf(line, sizeof(line), "%-*s", LW, first[mode]);
	for (i = 0; i < n; i++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%-*s", CW, cols[i].label);
	trim(line, len);
	if (!strcmp(line, rep->header))
		return;
	snprintf(rep->header, sizeof(rep->header), "%s", line);
	if (rep->mach->emulated)
		say("%s\n", caveat(rep->mach));
	say("%s\n", line);
}

enum row { ROW_FAULTS, ROW_FSD, ROW_TIME, ROW_TSD, ROW_CHG, ROW_LIMIT, ROW_SCALE };

/* @one: ROW_SCALE's cells of the same block with one thread. */
static void print_row(const char *label, const struct cell *cs, int n, enum row what,
		      const struct cell *one)
{
	char line[2048], cb[64];
	int i, len;

	len = snprintf(line, sizeof(line), "%-*s", LW, label);
	for (i = 0; i < n; i++) {
		const struct cell *c = &cs[i];
		double p;

		if (c->status == ST_SKIP)
			snprintf(cb, sizeof(cb), "skip");
		else if (c->status == ST_ERROR)
			snprintf(cb, sizeof(cb), "error");
		else if (what == ROW_FAULTS)
			snprintf(cb, sizeof(cb), "%.0f", c->fmean);
		else if (what == ROW_FSD)
			snprintf(cb, sizeof(cb), "( +-%6.2f%% )", c->fsd);
		else if (what == ROW_TIME)
			snprintf(cb, sizeof(cb), "%.9f", c->tmean);
		else if (what == ROW_TSD)
			snprintf(cb, sizeof(cb), "( +-%6.2f%% )", c->tsd);
		else if (what == ROW_CHG)
			/* nothing for Baseline itself */
			snprintf(cb, sizeof(cb), "%s", "");
		else if (what == ROW_SCALE && one[i].status == ST_RAN && one[i].tmean > 0)
			snprintf(cb, sizeof(cb), "%.2fx", c->tmean / one[i].tmean);
		else if (what == ROW_SCALE)
			snprintf(cb, sizeof(cb), "n/a");
		else if (c->expected < 0)
			snprintf(cb, sizeof(cb), "n/a");
		else if ((long)c->fmean == c->expected && c->fsd == 0)
			snprintf(cb, sizeof(cb), "ok");
		else
			snprintf(cb, sizeof(cb), "%.0f!=%ld", c->fmean, c->expected);
		if (what == ROW_CHG && i > 0 && !isnan(p = pct_change(c, &cs[0])))
			snprintf(cb, sizeof(cb), "%.1f%%", p);
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%-*s", CW, cb);
	}
	trim(line, len);
	say("%s\n", line);
}

/* The threaded workloads, as threads.c runs them. */
static const char *threaded_desc(int wl)
{
	switch (wl) {
	case WL_MT_SLICES:	return "one slice each of one shared mapping, in order";
	case WL_MT_INTERLEAVED:	return "every T-th page each of one shared mapping";
	case WL_MT_SEPARATE:	return "a mapping each (mmap, hint, read in order, munmap)";
	}
	return "?";
}

static const char *wl_desc(const struct config *cfg, int wl, const struct params *p,
			   char *buf, size_t size)
{
	switch (wl) {
	case WL_SEQ:
		snprintf(buf, size, "one byte per page, %lu pages, in order, mmap and unmap included",
			 p->pages);
		break;
	case WL_RAND:
		snprintf(buf, size, "%lu random lookups in %lu pages, fixed seed, mmap and unmap included",
			 lookups(p->pages, p->density), p->pages);
		break;
	case WL_TOUCH:
		snprintf(buf, size, "one byte per page of %lu pages, unaligned mapping, mmap and unmap included",
			 p->touch_pages);
		break;
	case WL_EXEC:
		snprintf(buf, size, "%lu fork+exec, each touches %lu pages", cfg->execs,
			 cfg->child_pages);
		break;
	case WL_SMALL:
		snprintf(buf, size, "mmap and read %lu files of 512B-128K", p->files);
		break;
	case WL_MIXED:
		snprintf(buf, size, "%lu pages in order on one mapping, %lu random lookups in another of %lu pages,"
			 " mmap and unmap included", mixed_seq_pages(p),
			 lookups(mixed_rand_pages(p), p->density), mixed_rand_pages(p));
		break;
	default:
		snprintf(buf, size, "%u thread%s x %lu pages: %s, mmap and unmap included",
			 p->threads, p->threads > 1 ? "s" : "", p->pages, threaded_desc(wl));
		break;
	}
	return buf;
}

/* mixed, hint: the per-mapping split against every single order. */
static void print_split(const struct plan *pl, const struct point *pt)
{
	const struct cell *cs = pt->cells[MODE_HINT][WL_MIXED];
	const struct cell *sp, *ref = pt->cells[MODE_GLOBAL][WL_MIXED];
	const char *refname = "global";
	struct column cols[MAX_COLS];
	char line[2048], cb[64];
	int i, len, n, b;

	n = block_columns(pl, MODE_GLOBAL, WL_MIXED, cols);
	sp = &cs[block_column_index(pl, MODE_HINT, WL_MIXED, COL_SPLIT)];
	if (!block_runs(pt, MODE_GLOBAL, WL_MIXED) || fastest(ref, cols, n, COL_ORDER) < 0) {
		ref = cs;
		refname = "hint, both mappings";
	}
	len = snprintf(line, sizeof(line), "%-*s", LW, " %chg split vs column");
	for (i = 0; i < n; i++) {
		double p = pct_change(sp, &ref[i]);

		if (!isnan(p))
			snprintf(cb, sizeof(cb), "%.1f%%", p);
		else
			snprintf(cb, sizeof(cb), "%s", ref[i].status == ST_RAN ? "" : "skip");
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%-*s", CW, cb);
	}
	trim(line, len);
	say("%s    (columns: single order, %s)\n", line, refname);
	b = fastest(ref, cols, n, COL_ORDER);
	if (sp->status == ST_RAN && b >= 0 && ref[b].fmean > 0 && ref[b].tmean > 0)
		say("mixed: per-mapping hints (seq %d, rand 0): %.9f s ( +-%6.2f%% ), %.0f faults;"
		    " best single order (%s) %s: %.9f s ( +-%6.2f%% ), %.0f faults;"
		    " time %+.1f%%, faults %+.1f%%\n",
		    pl->max_order, sp->tmean, sp->tsd, sp->fmean, refname, cols[b].label,
		    ref[b].tmean, ref[b].tsd, ref[b].fmean, pct_change(sp, &ref[b]),
		    100.0 * (sp->fmean - ref[b].fmean) / ref[b].fmean);
	else
		say("mixed: per-mapping hints vs best single order: not measured (%s)\n",
		    sp->status != ST_RAN ? sp->note : b < 0 ? "no single order ran" :
		    "no time measured: clock too coarse?");
}

/* The best global order of @wl at this point, -1 with @why when none ran. */
static int best_global(const struct plan *pl, const struct point *pt, int wl,
		       struct column *cols, const char **why)
{
	int n = block_columns(pl, MODE_GLOBAL, wl, cols), b, i;

	*why = "global mode not run";
	if (!block_runs(pt, MODE_GLOBAL, wl))
		return -1;
	b = fastest(pt->cells[MODE_GLOBAL][wl], cols, n, COL_ORDER);
	if (b >= 0 && pt->cells[MODE_GLOBAL][wl][b].tmean <= 0) {
		*why = "no time measured: clock too coarse?";
		return -1;
	}
	for (i = 0; b < 0 && i < n; i++)
		if (cols[i].kind == COL_ORDER) {
			*why = pt->cells[MODE_GLOBAL][wl][i].note;
			break;
		}
	return b;
}

/* auto: one line per workload in the fixed form of docs/benchmarks.md (the
 * programs' report prints the same), then madv-auto's. */
static void print_auto(const struct report *rep, const struct point *pt, int wl)
{
	static const enum col_kind kinds[] = { COL_AUTO_PROCESS, COL_AUTO_MAPPING };
	static const char *const names[] = { "auto", "madv-auto" };
	const struct cell *cs = pt->cells[MODE_AUTO][wl], *g = pt->cells[MODE_GLOBAL][wl];
	const struct plan *pl = rep->plan;
	const char *guest = rep->cfg->guest;
	struct column gc[MAX_COLS];
	const char *why;
	int k, b = best_global(pl, pt, wl, gc, &why);

	for (k = 0; k < 2; k++) {
		const struct cell *a = &cs[block_column_index(pl, MODE_AUTO, wl, kinds[k])];

		if (a->status != ST_RAN)
			say("%s: %s %s not measured (%s)\n", names[k], wl_name(wl), guest,
			    a->note[0] ? a->note : "error");
		else if (b < 0)
			say("%s: %s %s not compared with a fixed order (%s)\n", names[k],
			    wl_name(wl), guest, why);
		else
			say("%s: %s %s %+.1f%% vs best fixed order %d (stddev %.1f%%)\n", names[k],
			    wl_name(wl), guest, pct_change(a, &g[b]), gc[b].order, a->tsd);
	}
	if (wl == WL_MIXED) {
		const struct cell *a = &cs[block_column_index(pl, MODE_AUTO, wl, COL_AUTO_PROCESS)];
		const struct cell *sp = &pt->cells[MODE_HINT][WL_MIXED]
			[block_column_index(pl, MODE_HINT, WL_MIXED, COL_SPLIT)];

		char line[512];
		int len;

		if (a->status != ST_RAN)
			return;
		if (!block_runs(pt, MODE_HINT, WL_MIXED) || sp->status != ST_RAN || sp->tmean <= 0) {
			say("mixed auto: %s not compared with the per-mapping split (%s)\n", guest,
			    !block_runs(pt, MODE_HINT, WL_MIXED) ? "hint mode not run" :
			    sp->status != ST_RAN ? sp->note : "no time measured: clock too coarse?");
			return;
		}
		len = snprintf(line, sizeof(line), "mixed auto: %s %+.1f%% vs hand-tuned split seq=%d/rand=0",
			       guest, pct_change(a, sp), pl->max_order);
		if (b >= 0)
			snprintf(line + len, sizeof(line) - (size_t)len,
				 ", %+.1f%% vs best single global order %d", pct_change(a, &g[b]),
				 gc[b].order);
		say("%s (stddev %.1f%%)\n", line, a->tsd);
	}
}

/*
 * auto-system: one line per workload in the fixed form of docs/benchmarks.md
 * (the programs' report prints the same): the self-sizing window as the
 * system default and the fastest global order, both against this block's
 * Baseline, the stock default.
 */
static void print_auto_system(const struct report *rep, const struct point *pt, int wl)
{
	const struct plan *pl = rep->plan;
	const struct cell *cs = pt->cells[MODE_AUTO_SYSTEM][wl], *g = pt->cells[MODE_GLOBAL][wl];
	const struct cell *a = &cs[block_column_index(pl, MODE_AUTO_SYSTEM, wl, COL_AUTO_SYSTEM)];
	const char *guest = rep->cfg->guest, *clock = clock_name(rep->cfg, rep->mach), *why;
	struct column gc[MAX_COLS];
	int b = best_global(pl, pt, wl, gc, &why);

	if (a->status == ST_SKIP)
		say("auto-system: %s %s %s SKIP (%s)\n", wl_name(wl), guest, clock, a->note);
	else if (a->status != ST_RAN || cs[0].status != ST_RAN || cs[0].tmean <= 0)
		say("auto-system: %s %s %s not measured (%s)\n", wl_name(wl), guest, clock,
		    a->status != ST_RAN ? a->note : cs[0].status != ST_RAN ? cs[0].note :
		    "no time measured: clock too coarse?");
	else if (b < 0)
		say("auto-system: %s %s %s %+.1f%% vs stock default (stddev %.1f%%),"
		    " best fixed order not measured (%s)\n", wl_name(wl), guest, clock,
		    pct_change(a, &cs[0]), a->tsd, why);
	else
		say("auto-system: %s %s %s %+.1f%% vs stock default (stddev %.1f%%),"
		    " best fixed order %d %+.1f%%\n", wl_name(wl), guest, clock,
		    pct_change(a, &cs[0]), a->tsd, gc[b].order, pct_change(&g[b], &cs[0]));
}

/* seq: 1 when every column with a known limit took exactly ceil(pages /
 * 2^order) faults in every run, 0 when one did not, -1 when none had a
 * known limit; @msg says which. */
int limit_check(const struct plan *pl, const struct point *pt, int mode, char *msg,
		size_t size)
{
	const struct cell *cs = pt->cells[mode][WL_SEQ];
	struct column cols[MAX_COLS];
	char bad_cols[1024] = "";
	int i, n = block_columns(pl, mode, WL_SEQ, cols), checked = 0, bad = 0, len = 0, m = 0;

	for (i = 0; i < n; i++) {
		const struct cell *c = &cs[i];

		if (c->status != ST_RAN || c->expected < 0)
			continue;
		checked++;
		if ((long)c->fmean != c->expected || c->fsd != 0) {
			bad++;
			len += snprintf(bad_cols + len, sizeof(bad_cols) - (size_t)len,
					" %s: %.0f faults (+-%.2f%%), expected %ld;",
					cols[i].label, c->fmean, c->fsd, c->expected);
		}
	}
	msg[0] = '\0';
	if (cs[0].status == ST_RAN && cs[0].expected < 0 && cs[0].fmean > 0)
		m = snprintf(msg, size, "seq (%s): system default unknown; Baseline took %.0f faults"
			     " for %lu pages, a window of about %.0f pages\n", mode_name(mode),
			     cs[0].fmean, pt->p.pages, (double)pt->p.pages / cs[0].fmean);
	if (m < 0 || (size_t)m >= size)
		m = 0;
	if (!checked)
		snprintf(msg + m, size - (size_t)m, "seq (%s): limit not checked (no column with a known order ran)\n",
			 mode_name(mode));
	else if (!bad)
		snprintf(msg + m, size - (size_t)m, "seq (%s): limit ok: minor faults == ceil(%lu / 2^order) in %d column(s)\n",
			 mode_name(mode), pt->p.pages, checked);
	else
		snprintf(msg + m, size - (size_t)m, "seq (%s): limit MISMATCH:%s\n", mode_name(mode), bad_cols);
	return !checked ? -1 : !bad;
}

void print_block(struct report *rep, const struct point *pt, int mode, int wl)
{
	const struct cell *cs = pt->cells[mode][wl];
	struct column cols[MAX_COLS];
	int n = block_columns(rep->plan, mode, wl, cols), i;
	char desc[256], msg[2048];

	print_header(rep, mode, cols, n);
	say("%s (%s)    [%s]\n", wl_name(wl), mode_name(mode),
	    wl_desc(rep->cfg, wl, &pt->p, desc, sizeof(desc)));
	for (i = 0; i < n; i++)
		if (cs[i].status == ST_ERROR)
			say("error: %s: %s\n", cols[i].label, cs[i].note);
	print_row("minor-faults", cs, n, ROW_FAULTS, NULL);
	print_row(" stddev", cs, n, ROW_FSD, NULL);
	print_row("times in seconds", cs, n, ROW_TIME, NULL);
	print_row(" stddev for time", cs, n, ROW_TSD, NULL);
	if (mode != MODE_COST)
		print_row(" %chg time to baseline", cs, n, ROW_CHG, NULL);
	if (wl == WL_SEQ && mode_has_limit(mode))
		print_row(" limit ceil(pages/2^k)", cs, n, ROW_LIMIT, NULL);
	if (wl_is_threaded(wl) && pt->p.threads > 1) {
		struct params one = pt->p;
		const struct point *p1;

		one.threads = 1;
		p1 = point_find(rep->plan, &one);
		if (p1 && block_runs(p1, mode, wl))
			print_row(" x time of 1 thread", cs, n, ROW_SCALE,
				  p1->cells[mode][wl]);
	}
	if (mode == MODE_HINT && wl == WL_MIXED)
		print_split(rep->plan, pt);
	if (mode == MODE_AUTO)
		print_auto(rep, pt, wl);
	if (mode == MODE_AUTO_SYSTEM)
		print_auto_system(rep, pt, wl);
	say("\n");
	if (wl == WL_SEQ && mode_has_limit(mode)) {
		limit_check(rep->plan, pt, mode, msg, sizeof(msg));
		say("%s\n", msg);
	}
}

/* Every table of data read back, in the order a run prints them. */
void print_all(struct report *rep)
{
	int i, m, w;

	print_intro(rep);
	for (i = 0; i < rep->plan->npoints; i++) {
		const struct point *pt = &rep->plan->points[i];

		print_point(rep, pt);
		for (m = 0; m < NR_MODES; m++) {
			if (!mode_in_point(pt, m))
				continue;
			print_mode(rep, m);
			for (w = 0; w < NR_WL; w++)
				if (block_runs(pt, m, w))
					print_block(rep, pt, m, w);
		}
	}
}
