// SPDX-License-Identifier: GPL-2.0
/*
 * The results as data: CSV and JSON with one record per cell (mean and
 * stddev), and the description of the machine they share with the tables.
 * The per-run data is raw.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabench.h"

FILE *open_out(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "we") : stdout;

	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

void close_out(FILE *f, const char *path)
{
	if (f == stdout ? fflush(f) : fclose(f))
		die("writing %s: %s", path, strerror(errno));
}

void csv_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

void print_meta(const struct report *rep, FILE *f, const char *prefix)
{
	const struct machine *m = rep->mach;
	const struct config *cfg = rep->cfg;
	char dflt[32] = "unknown";
	int i;

	if (m->knob_orig >= 0)
		snprintf(dflt, sizeof(dflt), "%lld bytes", m->knob_orig);
	else if (m->knob_orig == KNOB_AUTO)
		snprintf(dflt, sizeof(dflt), "auto");
	fprintf(f, "%skernel %s %s, page size %zu, MMU %s, max order %d%s, feature %s,"
		" system default %s (%s), repeat %d, pages ", prefix, m->kernel, m->arch,
		m->page, m->mmu, m->max_order, m->max_order_guessed ? " (guessed)" : "",
		m->supported ? "yes" : "no", dflt, m->knob[0] ? m->knob : "no knob",
		cfg->repeat);
	for (i = 0; i < cfg->npages; i++)
		fprintf(f, "%s%lu", i ? "," : "", cfg->pages[i]);
	if (cfg->nthreads > 1 || cfg->threads[0] > 1)
		for (i = 0; i < cfg->nthreads; i++)
			fprintf(f, "%s%u", i ? "," : ", threads ", cfg->threads[i]);
	fprintf(f, ", guest %s%s, clock %s\n", cfg->guest, m->emulated == EMU_MTTCG ?
		", emulated (MTTCG, wall time)" : m->emulated ? ", emulated" : "",
		clock_name(cfg, m));
}

typedef void cell_fn(void *arg, const struct params *p, int mode, int wl,
		     const struct column *col, const struct cell *c, const struct cell *base);

static void for_each_cell(const struct plan *pl, cell_fn *fn, void *arg)
{
	struct column cols[MAX_COLS];
	int i, m, w, k, n;

	for (i = 0; i < pl->npoints; i++)
		for (m = 0; m < NR_MODES; m++)
			for (w = 0; w < NR_WL; w++) {
				const struct point *pt = &pl->points[i];
				const struct cell *cs = pt->cells[m][w];

				if (!block_runs(pt, m, w))
					continue;
				n = block_columns(pl, m, w, cols);
				for (k = 0; k < n; k++)
					fn(arg, &pt->p, m, w, &cols[k], &cs[k], &cs[0]);
			}
}

/* The CSV's order field: the order, -1 for Baseline, -2 for the split
 * (as before the other columns existed), empty for the rest. */
static void csv_order(FILE *f, const struct column *col)
{
	if (col->kind == COL_ORDER)
		fprintf(f, "%d", col->order);
	else if (col->kind == COL_BASELINE)
		fputs("-1", f);
	else if (col->kind == COL_SPLIT)
		fputs("-2", f);
}

static const char *status_name(int st)
{
	return st == ST_RAN ? "ok" : st == ST_SKIP ? "skip" : "error";
}

static void csv_cell(void *arg, const struct params *p, int mode, int wl,
		     const struct column *col, const struct cell *c, const struct cell *base)
{
	FILE *f = arg;
	double chg = c == base ? NAN : pct_change(c, base);

	fprintf(f, "%s,%s,%s,", mode_name(mode), wl_name(wl), col->label);
	csv_order(f, col);
	fprintf(f, ",%s,%d,%lu,", status_name(c->status), c->runs, p->pages);
	if (c->status == ST_RAN)
		fprintf(f, "%.1f,%.2f,%.9f,%.2f,", c->fmean, c->fsd, c->tmean, c->tsd);
	else
		fprintf(f, ",,,,");
	if (!isnan(chg))
		fprintf(f, "%.2f", chg);
	fputc(',', f);
	if (c->expected >= 0)
		fprintf(f, "%ld", c->expected);
	fprintf(f, ",%lu,%u:%u,%u,", p->density, p->mix.seq, p->mix.rand, p->threads);
	csv_string(f, c->note);
	fputc('\n', f);
}

void write_csv(const struct report *rep, const char *path)
{
	FILE *f = open_out(path);

	print_meta(rep, f, "# ");
	fprintf(f, "mode,workload,column,order,status,runs,pages,faults_mean,faults_stddev_pct,"
		"time_mean_s,time_stddev_pct,time_chg_pct,faults_expected,density,mix,threads,note\n");
	for_each_cell(rep->plan, csv_cell, f);
	close_out(f, path);
}

struct json_state {
	FILE *f;
	int first;
};

static void json_cell(void *arg, const struct params *p, int mode, int wl,
		      const struct column *col, const struct cell *c, const struct cell *base)
{
	struct json_state *js = arg;
	FILE *f = js->f;
	double chg = c == base ? NAN : pct_change(c, base);

	fprintf(f, "%s\n    {\"mode\": \"%s\", \"workload\": \"%s\", \"column\": ",
		js->first ? "" : ",", mode_name(mode), wl_name(wl));
	json_string(f, col->label);
	fprintf(f, ", \"order\": ");
	if (col->kind == COL_ORDER || col->kind == COL_BASELINE || col->kind == COL_SPLIT)
		csv_order(f, col);
	else
		fputs("null", f);
	fprintf(f, ", \"status\": \"%s\", \"runs\": %d, \"pages\": %lu, \"density\": %lu,"
		" \"mix\": \"%u:%u\", \"threads\": %u", status_name(c->status), c->runs, p->pages,
		p->density, p->mix.seq, p->mix.rand, p->threads);
	if (c->status == ST_RAN)
		fprintf(f, ", \"faults_mean\": %.1f, \"faults_stddev_pct\": %.2f,"
			" \"time_mean_s\": %.9f, \"time_stddev_pct\": %.2f",
			c->fmean, c->fsd, c->tmean, c->tsd);
	if (!isnan(chg))
		fprintf(f, ", \"time_chg_pct\": %.2f", chg);
	if (c->expected >= 0)
		fprintf(f, ", \"faults_expected\": %ld", c->expected);
	fprintf(f, ", \"note\": ");
	json_string(f, c->note);
	fputc('}', f);
	js->first = 0;
}

void write_json(const struct report *rep, const char *path)
{
	const struct machine *m = rep->mach;
	struct json_state js = { .f = open_out(path), .first = 1 };
	FILE *f = js.f;

	fprintf(f, "{\n  \"kernel\": ");
	json_string(f, m->kernel);
	fprintf(f, ",\n  \"machine\": ");
	json_string(f, m->arch);
	fprintf(f, ",\n  \"guest\": ");
	json_string(f, rep->cfg->guest);
	fprintf(f, ",\n  \"page_size\": %zu,\n  \"mmu\": ", m->page);
	json_string(f, m->mmu);
	fprintf(f, ",\n  \"max_order\": %d,\n  \"max_order_guessed\": %s,\n"
		"  \"feature\": %s,\n  \"system_default_bytes\": %lld,\n"
		"  \"emulated\": %s,\n  \"repeat\": %d,\n  \"results\": [",
		m->max_order, m->max_order_guessed ? "true" : "false",
		m->supported ? "true" : "false", m->knob_orig,
		m->emulated ? "true" : "false", rep->cfg->repeat);
	for_each_cell(rep->plan, json_cell, &js);
	fprintf(f, "\n  ]\n}\n");
	close_out(f, path);
}
