// SPDX-License-Identifier: GPL-2.0
/*
 * fabench: fault-around benchmarks (see docs/benchmarks.md).
 *
 * Measures minor faults and elapsed time of small file-mapping workloads
 * for the system default ("Baseline") and, per mode, for fault-around
 * orders set system-wide (global) or per mapping / process (hint), for what
 * users can do on any kernel (populate, advice), and for the self-sizing
 * window per process or mapping (auto) and as the system default
 * (auto-system); cost runs Baseline only, to compare stock and patched
 * kernels.
 * Each cell is repeated --repeat times and reported as the mean and the
 * standard deviation of the mean in percent of the mean, the way
 * "perf stat --repeat" reports it.  Lists of --pages, --density and --mix
 * sweep.  The parts: see fabench.h.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabench.h"
#include "run.h"

/* The machine, and what a run sets up and changes on it: the exit and
 * signal handlers put them back, so they outlive main(). */
static struct machine mach;
static struct run run;

static void usage(int rc)
{
	printf("usage: fabench [options]\n"
	       "  --mode LIST        global,hint,populate,advice,auto,auto-system (default: all\n"
	       "                     of these), or cost alone\n"
	       "  --workloads LIST   seq,rand,touch,exec,smallfiles,mixed (default: all;\n"
	       "                     cost mode: seq,touch,exec); the threaded ones\n"
	       "                     mt-slices,mt-interleaved,mt-separate (\"threads\")\n"
	       "                     run only when named (global, hint, auto, cost)\n"
	       "  --repeat N         runs per cell (default 5)\n"
	       "  --pages LIST       pages per mapping (default 4096)\n"
	       "  --size BYTES       one mapping size in bytes (K, M, G suffixes)\n"
	       "  --density LIST     rand, mixed: one lookup per N pages (default 16)\n"
	       "  --mix LIST         mixed: seq:rand sizes of its two mappings, which\n"
	       "                     share 2 x pages (default 1:1)\n"
	       "  --touch-pages N    touch: pages of its region (default 2 x pages)\n"
	       "  --files N          smallfiles: number of files (default pages / 8, >= 8)\n"
	       "  --execs N          exec: processes per run (default 50)\n"
	       "  --child-pages N    exec: pages each child touches (default 16)\n"
	       "  --threads LIST     mt-*: threads, each reading --pages pages (default\n"
	       "                     1,2 and the number of CPUs if larger)\n"
	       "  --orders LIST|all  order columns (default 0,1,3,4,5,8,max; all: 0..max)\n"
	       "  --guest NAME       the name in the auto summary lines (default host)\n"
	       "  --clock NAME       what times the runs, in the auto-system lines (default:\n"
	       "                     icount in qemu -icount, mttcg in MTTCG, else wall)\n"
	       "  --dir DIR          where the files go (default $TMPDIR or /tmp)\n"
	       "  --csv FILE, --json FILE   one record per cell (- for stdout)\n"
	       "  --raw FILE         every run, one CSV line each\n"
	       "  --from-raw FILE    print the tables of raw data again (with --csv,\n"
	       "                     --json, --tables); runs nothing\n"
	       "  --tables FILE      also write the tables there\n"
	       "  --tap              TAP on stdout, tables as diagnostics; with --raw, a\n"
	       "                     last test checks that --from-raw prints the same tables\n"
	       "  --allow-knobs      as root, change the system default outside a\n"
	       "                     faultaround.test guest (global mode)\n"
	       "  --print-page-size  print the page size and exit\n"
	       "LISTs are comma-separated; several values of --pages, --density or --mix\n"
	       "run every combination, each workload only for the values it depends on.\n");
	exit(rc);
}

/* The command line, into @cfg: every option checked, the defaults filled in. */
static void parse_args(int argc, char **argv, struct config *cfg)
{
	const char *wls = NULL, *modes = "all";
	int i, w;

	*cfg = (struct config){
		.repeat = 5,
		.execs = 50,
		.child_pages = 16,
		.guest = "host",
	};

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int takes = 1;

		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			usage(0);
		else if (!strcmp(a, "--tap")) {
			/* From here on, die() bails out in TAP too. */
			output_tap(1);
			cfg->tap = 1, takes = 0;
		} else if (!strcmp(a, "--allow-knobs"))
			cfg->allow_knobs = 1, takes = 0;
		else if (!strcmp(a, "--print-page-size"))
			exit(printf("%ld\n", sysconf(_SC_PAGESIZE)) < 0);
		else if (!v)
			usage(2);
		else if (!strcmp(a, "--mode"))
			modes = v;
		else if (!strcmp(a, "--workloads"))
			wls = v;
		else if (!strcmp(a, "--repeat"))
			cfg->repeat = (int)parse_ul(a, v);
		else if (!strcmp(a, "--pages"))
			cfg->npages = parse_ul_list(a, v, cfg->pages, MAX_LIST);
		else if (!strcmp(a, "--size"))
			cfg->size = parse_ul(a, v);
		else if (!strcmp(a, "--density"))
			cfg->ndensity = parse_ul_list(a, v, cfg->density, MAX_LIST);
		else if (!strcmp(a, "--mix")) {
			char buf[512], *tok, *save = NULL;

			snprintf(buf, sizeof(buf), "%s", v);
			for (cfg->nmix = 0, tok = strtok_r(buf, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				if (cfg->nmix == MAX_LIST ||
				    parse_mix(tok, &cfg->mix[cfg->nmix++]) < 0)
					die("--mix: '%s' is not SEQ:RAND (1 to 1000 each; at most %d)",
					    tok, MAX_LIST);
			}
		} else if (!strcmp(a, "--touch-pages"))
			cfg->touch_pages = parse_ul(a, v);
		else if (!strcmp(a, "--files"))
			cfg->files = parse_ul(a, v);
		else if (!strcmp(a, "--execs"))
			cfg->execs = parse_ul(a, v);
		else if (!strcmp(a, "--child-pages"))
			cfg->child_pages = parse_ul(a, v);
		else if (!strcmp(a, "--threads"))
			parse_threads(cfg, a, v);
		else if (!strcmp(a, "--orders"))
			parse_orders(cfg, v);
		else if (!strcmp(a, "--guest"))
			cfg->guest = v;
		else if (!strcmp(a, "--clock")) {
			parse_clock(a, v, cfg->clock_read, sizeof(cfg->clock_read));
			cfg->clock = cfg->clock_read;
		}
		else if (!strcmp(a, "--dir"))
			cfg->dir = v;
		else if (!strcmp(a, "--csv"))
			cfg->csv = v;
		else if (!strcmp(a, "--json"))
			cfg->json = v;
		else if (!strcmp(a, "--raw"))
			cfg->raw = v;
		else if (!strcmp(a, "--from-raw"))
			cfg->from_raw = v;
		else if (!strcmp(a, "--tables"))
			cfg->tables = v;
		else
			usage(2);
		i += takes;
	}
	parse_modes("--mode", modes, cfg->modes);
	if (cfg->modes[MODE_COST]) {
		for (i = 0; i < NR_MODES; i++)
			if (i != MODE_COST && cfg->modes[i])
				die("--mode cost runs alone");
	}
	if (wls)
		parse_workloads("--workloads", wls, cfg->wl);
	else
		for (w = 0; w < NR_WL; w++)
			cfg->wl[w] = !cfg->modes[MODE_COST] || w == WL_SEQ ||
				     w == WL_TOUCH || w == WL_EXEC;
	if (cfg->repeat < 1 || cfg->repeat > 100000)
		die("--repeat must be 1 to 100000");
	if (!cfg->npages)
		cfg->pages[cfg->npages++] = 4096;
	if (!cfg->ndensity)
		cfg->density[cfg->ndensity++] = 16;
	for (i = 0; i < cfg->ndensity; i++)
		if (!cfg->density[i])
			die("--density must be at least 1");
	if (!cfg->nmix)
		cfg->mix[cfg->nmix++] = (struct mix){ 1, 1 };
	for (w = WL_FIRST_MT; w < NR_WL && !cfg->wl[w]; w++)
		;
	if (w == NR_WL) {
		/* No threaded workload: one thread, and nothing about threads
		 * in the output. */
		parse_threads(cfg, "--threads", "1");
	} else if (!cfg->nthreads) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		char list[64];

		snprintf(list, sizeof(list), "1,2,%ld",
			 cpus < 1 ? 1 : cpus > MAX_THREADS ? MAX_THREADS : cpus);
		parse_threads(cfg, "--threads", list);
	}
	if (cfg->execs < 1 || cfg->child_pages < 1)
		die("--execs and --child-pages must be at least 1");
	if (!cfg->dir) {
		cfg->dir = getenv("TMPDIR");
		if (!cfg->dir || !*cfg->dir)
			cfg->dir = "/tmp";
	}
}

static void cleanup(void)
{
	restore_knob(&run.knob);
	settings_reset(&mach);
	remove_files(&run.files);
}

static void on_signal(int sig)
{
	/* Best effort: put the system default back, then die of the signal. */
	restore_knob(&run.knob);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* --tables, --csv, --json: of a run or of raw data read back. */
static void write_outputs(const struct report *rep)
{
	const struct config *cfg = rep->cfg;
	size_t len;
	const char *text = tables_text(&len);
	FILE *f;

	if (cfg->tables) {
		f = open_out(cfg->tables);
		fwrite(text, 1, len, f);
		close_out(f, cfg->tables);
	}
	if (cfg->csv)
		write_csv(rep, cfg->csv);
	if (cfg->json)
		write_json(rep, cfg->json);
}

static int any_error(const struct plan *pl)
{
	int i, m, w, k;

	for (i = 0; i < pl->npoints; i++)
		for (m = 0; m < NR_MODES; m++)
			for (w = 0; w < NR_WL; w++)
				for (k = 0; k < MAX_COLS; k++)
					if (pl->points[i].have[m][w] &&
					    pl->points[i].cells[m][w][k].status == ST_ERROR)
						return 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct config cfg;
	struct plan plan;
	struct report rep = { .cfg = &cfg, .mach = &mach, .plan = &plan };
	struct raw_out raw = { .f = NULL };
	int rc;

	if (argc == 4 && !strcmp(argv[1], EXEC_CHILD_ARG))
		return exec_child(argv[2], argv[3]);
	parse_args(argc, argv, &cfg);
	machine_init(&mach);
	if (cfg.from_raw) {
		raw_read(cfg.from_raw, &cfg, &mach, &plan);
		print_all(&rep);
		write_outputs(&rep);
		plan_free(&plan);
		return 0;
	}

	probe_machine(&mach, cfg.allow_knobs);
	if (cfg.size) {
		cfg.npages = 1;
		cfg.pages[0] = (cfg.size + mach.page - 1) / mach.page;
	}
	plan_make(&plan, &cfg, &mach);
	run_init(&run, &cfg, &mach, &rep, &raw);
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	settings_reset(&mach);

	tap_plan(count_tests(&plan, &cfg));
	print_intro(&rep);
	setup_files(&run.files, &plan, &mach, cfg.dir);
	/*
	 * The probe sets a hint and a process default, which turns the
	 * kernel's hints on for good: the cost mode measures a kernel on
	 * which nothing has asked for a hint, so it must not probe.
	 */
	if (!cfg.modes[MODE_COST])
		probe_features(&run.feat, &mach, run.files.datafd);
	if (cfg.raw)
		raw_open(&raw, cfg.raw, &cfg, &mach);
	run_plan(&run, &plan);
	restore_knob(&run.knob);
	if (run.knob.dirty)
		fprintf(stderr, "fabench: WARNING: could not restore %s to %lld\n",
			mach.knob, mach.knob_orig);
	raw_close(&raw);
	write_outputs(&rep);
	if (cfg.raw && cfg.tap)
		check_raw_roundtrip(self_exe(), cfg.raw);
	rc = any_error(&plan) || tap_failures();
	plan_free(&plan);
	return rc;
}
