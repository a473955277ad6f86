// SPDX-License-Identifier: GPL-2.0
/*
 * Running the planned cells: for each sweep point, mode and workload, one
 * unmeasured warm-up run, then every column --repeat times, with the
 * system default set around global cells.  Each cell becomes a TAP test,
 * its runs raw data, and each block its table as soon as it is done.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fabench.h"
#include "run.h"

static const char *col_tap_name(const struct plan *pl, const struct column *col, char *buf,
				size_t size)
{
	switch (col->kind) {
	case COL_BASELINE:	return "baseline";
	case COL_ORDER:		snprintf(buf, size, "order-%d", col->order); return buf;
	case COL_SPLIT:		snprintf(buf, size, "split-%d/0", pl->max_order); return buf;
	case COL_POPULATE_READ:	return "populate-read";
	case COL_MAP_POPULATE:	return "map-populate";
	case COL_ADVICE:	return "advice";
	case COL_AUTO_PROCESS:	return "auto";
	case COL_AUTO_MAPPING:	return "madv-auto";
	case COL_AUTO_SYSTEM:	return "auto-system";
	}
	return "?";
}

static void tap_name(char *buf, size_t size, const struct plan *pl, const struct point *pt,
		     int mode, int wl, const char *what)
{
	int n = snprintf(buf, size, "%s %s %s", wl_name(wl), mode_name(mode), what);

	if (pl->npoints > 1 && n > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " [pages %lu, density %lu, mix %u:%u",
			      pt->p.pages, pt->p.density, pt->p.mix.seq, pt->p.mix.rand);
	if (pl->npoints > 1 && n > 0 && (size_t)n < size && pl->nthreads > 1)
		n += snprintf(buf + n, size - (size_t)n, ", threads %u", pt->p.threads);
	if (pl->npoints > 1 && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "]");
}

/* One run: the column's process default around the workload, untimed. */
static int run_workload(const struct wl_env *env, int wl, const struct params *p, int mode,
			const struct column *col, struct sample *smp)
{
	int ret, e;

	if (setting_process(mode, wl, col) < 0)
		return -1;
	if (wl_is_threaded(wl))
		ret = run_threaded(env, wl, p, mode, col, smp);
	else
		ret = run_single(env, wl, p, mode, col, smp);
	e = errno;
	if (setting_process_end(mode, wl, col) < 0 && !ret)
		return -1;
	errno = e;
	return ret;
}

/* Nothing set up yet: the config and machine it runs with, where the
 * results go. */
void run_init(struct run *run, const struct config *cfg, const struct machine *m,
	      struct report *rep, struct raw_out *raw)
{
	run->cfg = cfg;
	run->mach = m;
	run->rep = rep;
	run->raw = raw;
	features_init(&run->feat);
	knob_init(&run->knob, m);
	files_init(&run->files);
	run->env = (struct wl_env){
		.m = m, .files = &run->files,
		.execs = cfg->execs, .child_pages = cfg->child_pages,
	};
}

/* A cell: its runs and their statistics, its raw data, its TAP test. */
static void run_cell(struct run *run, const struct plan *pl, struct point *pt, int mode,
		     int wl, int k, const struct column *col)
{
	const struct machine *m = run->mach;
	struct cell *c = &pt->cells[mode][wl][k];
	const char *why = skip_reason(m, &run->feat, mode, wl, col);
	int knob = (mode == MODE_GLOBAL && col->kind == COL_ORDER) ||
		   col->kind == COL_AUTO_SYSTEM;
	char name[160], cb[32], dir[NOTE_LEN + 8];
	struct sample smp;
	int r;

	cell_alloc(c, run->cfg->repeat);
	c->expected = cell_expected(pl, &pt->p, mode, wl, col);
	if (why) {
		c->status = ST_SKIP;
		snprintf(c->note, sizeof(c->note), "%s", why);
	} else if (col->kind == COL_AUTO_SYSTEM &&
		   write_knob_auto(&run->knob, c->note, sizeof(c->note)) < 0) {
		c->status = ST_SKIP;
	} else if (col->kind == COL_ORDER && knob &&
		   write_knob(&run->knob, (long long)m->page << col->order) < 0) {
		c->status = ST_SKIP;
		snprintf(c->note, sizeof(c->note), "%.80s refused %zu bytes: %.40s",
			 m->knob, m->page << col->order, strerror(errno));
	} else {
		for (r = 0; r < run->cfg->repeat; r++) {
			if (run_workload(&run->env, wl, &pt->p, mode, col, &smp) < 0) {
				c->status = ST_ERROR;
				snprintf(c->note, sizeof(c->note), "run %d failed: %s", r + 1,
					 strerror(errno));
				break;
			}
			c->faults[r] = smp.faults;
			c->nsecs[r] = smp.nsecs;
			c->runs++;
		}
		if (knob)
			restore_knob(&run->knob);
		cell_finish(c);
	}
	raw_cell(run->raw, &pt->p, mode, wl, col, c);

	tap_name(name, sizeof(name), pl, pt, mode, wl, col_tap_name(pl, col, cb, sizeof(cb)));
	if (c->status == ST_SKIP) {
		snprintf(dir, sizeof(dir), "SKIP %s", c->note);
		tap_result(1, name, dir);
	} else {
		tap_result(c->status == ST_RAN, name, NULL);
	}
}

/* A point's blocks, each table printed as soon as its block is done. */
static void run_point(struct run *run, const struct plan *pl, struct point *pt)
{
	const struct column baseline = { .kind = COL_BASELINE, .order = -1 };
	struct column cols[MAX_COLS];
	char name[160], msg[2048];
	struct sample smp;
	int m, w, k, n, r;

	print_point(run->rep, pt);
	for (m = 0; m < NR_MODES; m++) {
		if (!mode_in_point(pt, m))
			continue;
		print_mode(run->rep, m);
		for (w = 0; w < NR_WL; w++) {
			if (!block_runs(pt, m, w))
				continue;
			/* One unmeasured run to warm caches and the binary. */
			run_workload(&run->env, w, &pt->p, m, &baseline, &smp);
			n = block_columns(pl, m, w, cols);
			for (k = 0; k < n; k++)
				run_cell(run, pl, pt, m, w, k, &cols[k]);
			print_block(run->rep, pt, m, w);
			if (w == WL_SEQ && mode_has_limit(m)) {
				r = limit_check(pl, pt, m, msg, sizeof(msg));
				snprintf(msg, sizeof(msg), "%s", "limit");
				tap_name(name, sizeof(name), pl, pt, m, w, msg);
				tap_result(r != 0, name,
					   r < 0 ? "SKIP no column with a known order ran" : NULL);
			}
		}
	}
}

/* Every cell of @pl, measured point after point. */
void run_plan(struct run *run, struct plan *pl)
{
	int i;

	for (i = 0; i < pl->npoints; i++)
		run_point(run, pl, &pl->points[i]);
}

/* The number of TAP tests a run of @pl with @cfg prints. */
int count_tests(const struct plan *pl, const struct config *cfg)
{
	struct column cols[MAX_COLS];
	int i, m, w, n = 0;

	for (i = 0; i < pl->npoints; i++)
		for (m = 0; m < NR_MODES; m++)
			for (w = 0; w < NR_WL; w++) {
				if (!block_runs(&pl->points[i], m, w))
					continue;
				n += block_columns(pl, m, w, cols);
				n += w == WL_SEQ && mode_has_limit(m);
			}
	return n + (cfg->raw && cfg->tap);
}

/* The tables printed so far must come back, byte for byte, from the raw
 * file through "fabench --from-raw": the data is complete. */
void check_raw_roundtrip(const char *exe, const char *raw)
{
	const char *name = "tables regenerate from the raw data (--from-raw)";
	size_t want_len, len = 0, cap = 0;
	const char *want = tables_text(&want_len);
	char *got = NULL;
	int fds[2], st = -1, ok;
	ssize_t n;
	pid_t pid;

	fflush(stdout);
	if (pipe2(fds, O_CLOEXEC) < 0 || (pid = fork()) < 0)
		die("check_raw_roundtrip: %s", strerror(errno));
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		execl(exe, exe, "--from-raw", raw, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		if (len + 4096 > cap) {
			char *g = realloc(got, cap = len + 65536);

			if (!g)
				die("out of memory");
			got = g;
		}
		n = read(fds[0], got + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fds[0]);
	ok = waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st) &&
	     len == want_len && !memcmp(got, want, len);
	tap_result(ok, name, NULL);
	if (!ok) {
		size_t i = 0, line = 1;

		while (i < len && i < want_len && got[i] == want[i])
			line += got[i++] == '\n';
		printf("# --from-raw %s differs from the run's tables at line %zu"
		       " (%zu vs %zu bytes, exit status %d)\n", raw, line, len, want_len, st);
	}
	free(got);
}
