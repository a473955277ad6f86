// SPDX-License-Identifier: GPL-2.0
/*
 * Option values: numbers with K, M, G suffixes, lists of them, of modes,
 * workloads, orders and thread counts.  main.c parses the command line with
 * these, and raw.c the options a raw file records, into a struct config.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabench.h"

unsigned long parse_ul(const char *opt, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		die("%s: bad number '%s'", opt, s);
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (*end)
		die("%s: bad number '%s'", opt, s);
	return (unsigned long)v;
}

int parse_ul_list(const char *opt, const char *s, unsigned long *v, int max)
{
	char buf[512], *tok, *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == max)
			die("%s: at most %d values", opt, max);
		v[n++] = parse_ul(opt, tok);
	}
	if (!n)
		die("%s: empty list", opt);
	return n;
}

static void parse_names(const char *opt, const char *s, int modes, int *flags)
{
	char buf[256], *tok, *save = NULL;
	int i, n = modes ? NR_MODES : NR_WL;

	snprintf(buf, sizeof(buf), "%s", s);
	memset(flags, 0, sizeof(int) * (size_t)n);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		/* all: every mode but cost; every workload of one thread. */
		if (!strcmp(tok, "all")) {
			for (i = 0; i < n; i++)
				flags[i] |= modes ? i != MODE_COST : !wl_is_threaded(i);
			continue;
		}
		if (!modes && !strcmp(tok, "threads")) {
			for (i = 0; i < n; i++)
				flags[i] |= wl_is_threaded(i);
			continue;
		}
		if (modes && !strcmp(tok, "both")) {	/* the seed's two modes */
			flags[MODE_GLOBAL] = flags[MODE_HINT] = 1;
			continue;
		}
		i = modes ? mode_index(tok) : wl_index(tok);
		if (i < 0)
			die("%s: unknown '%s'", opt, tok);
		flags[i] = 1;
	}
}

void parse_modes(const char *opt, const char *s, int *flags)
{
	parse_names(opt, s, 1, flags);
}

void parse_workloads(const char *opt, const char *s, int *flags)
{
	parse_names(opt, s, 0, flags);
}

void parse_orders(struct config *cfg, const char *s)
{
	unsigned long v[MAX_COLS - 2];
	int i;

	cfg->all_orders = !strcmp(s, "all");
	cfg->norders = 0;
	if (cfg->all_orders || !strcmp(s, "default"))
		return;
	cfg->norders = parse_ul_list("--orders", s, v, MAX_COLS - 2);
	for (i = 0; i < cfg->norders; i++) {
		if (v[i] > FAULTAROUND_ORDER_LIMIT)
			die("--orders: %lu is not an order", v[i]);
		cfg->orders[i] = (int)v[i];
	}
}

int parse_mix(const char *s, struct mix *m)
{
	char *end;
	unsigned long a, b;

	a = strtoul(s, &end, 10);
	if (end == s || *end != ':')
		return -1;
	s = end + 1;
	b = strtoul(s, &end, 10);
	if (end == s || *end || !a || !b || a > 1000 || b > 1000)
		return -1;
	m->seq = (unsigned)a;
	m->rand = (unsigned)b;
	return 0;
}

/* --clock: a name of letters, digits and '-', copied into @buf. */
void parse_clock(const char *opt, const char *s, char *buf, size_t size)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-");

	if (!n || s[n] || n >= size)
		die("%s: '%s' is not a clock name (a-z, 0-9, '-', at most %zu)", opt, s,
		    size - 1);
	memcpy(buf, s, n + 1);
}

/* What timed the runs, for the summary lines: --clock, or what the machine
 * says (qemu -icount counts instructions, MTTCG and hardware wall time). */
const char *clock_name(const struct config *cfg, const struct machine *m)
{
	if (cfg->clock)
		return cfg->clock;
	return m->emulated == EMU_ICOUNT ? "icount" : m->emulated == EMU_MTTCG ? "mttcg" : "wall";
}

/* --threads: ascending without duplicates, so that a run prints the one
 * thread blocks, which the others are compared with, first. */
void parse_threads(struct config *cfg, const char *opt, const char *s)
{
	unsigned long v[MAX_LIST];
	int n = parse_ul_list(opt, s, v, MAX_LIST), i, j;

	cfg->nthreads = 0;
	for (i = 0; i < n; i++) {
		if (v[i] < 1 || v[i] > MAX_THREADS)
			die("%s: %lu: must be 1 to %d", opt, v[i], MAX_THREADS);
		for (j = cfg->nthreads; j > 0 && cfg->threads[j - 1] > v[i]; j--)
			;
		if (j > 0 && cfg->threads[j - 1] == v[i])
			continue;
		memmove(&cfg->threads[j + 1], &cfg->threads[j],
			(size_t)(cfg->nthreads - j) * sizeof(cfg->threads[0]));
		cfg->threads[j] = (unsigned)v[i];
		cfg->nthreads++;
	}
}
