// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics of a cell: from its per-run samples to the mean and the
 * standard deviation of the mean, and the comparisons between cells.  A
 * live run and raw data read back go through the same arithmetic on the
 * same integers, so they print the same digits.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fabench.h"

/* Mean and the standard deviation of the mean in percent of the mean, as
 * perf stat --repeat prints it (tools/perf/util/stat.c). */
void stats(const double *v, int n, double *mean, double *sd_pct)
{
	double m = 0, m2 = 0;
	int i;

	for (i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (i = 0; i < n; i++)
		m2 += (v[i] - m) * (v[i] - m);
	*mean = m;
	*sd_pct = (n > 1 && m != 0) ? 100.0 * sqrt(m2 / (n - 1) / n) / m : 0.0;
}

/* Means and stddevs of a cell that ran. */
void cell_finish(struct cell *c)
{
	double *f, *t;
	int i;

	if (c->status != ST_RAN || c->runs < 1)
		return;
	f = calloc((size_t)c->runs, sizeof(*f));
	t = calloc((size_t)c->runs, sizeof(*t));
	if (!f || !t)
		die("out of memory");
	for (i = 0; i < c->runs; i++) {
		f[i] = (double)c->faults[i];
		t[i] = (double)c->nsecs[i] / 1e9;
	}
	stats(f, c->runs, &c->fmean, &c->fsd);
	stats(t, c->runs, &c->tmean, &c->tsd);
	free(f);
	free(t);
}

/* Time of @c relative to @base in percent; NAN when either did not run. */
double pct_change(const struct cell *c, const struct cell *base)
{
	if (!c || !base || c->status != ST_RAN || base->status != ST_RAN ||
	    base->tmean <= 0)
		return NAN;
	return 100.0 * (c->tmean - base->tmean) / base->tmean;
}

/* The fastest cell of @kind that ran, or -1. */
int fastest(const struct cell *cs, const struct column *cols, int n, enum col_kind kind)
{
	int i, best = -1;

	for (i = 0; i < n; i++)
		if (cols[i].kind == kind && cs[i].status == ST_RAN &&
		    (best < 0 || cs[i].tmean < cs[best].tmean))
			best = i;
	return best;
}
