/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabench: fault-around benchmarks.  What the stages share.
 *
 * The data flows one way, each stage given what it reads:
 *
 *   options   main.c parses the command line into a struct config
 *   plan      plan_make(config, machine) gives a struct plan: the sweep's
 *             points, the blocks (mode x workload) of each, their columns
 *   run       run_plan() (run.h) measures every cell of the plan
 *   stats     cell_finish() turns a cell's runs into means and stddevs
 *   report    the tables, CSV, JSON (struct report: config, machine,
 *             plan) and the raw data (struct raw_out)
 *
 * --from-raw takes the place of the probe and the run: raw_read() gives
 * the config, machine and plan back, and the same report follows.
 *
 *   main.c       the command line and the top level
 *   options.c    option values, of the command line and of raw data
 *   plan.c       the names, sweep points, blocks and columns
 *   run.c        running the cells, TAP (run.h)
 *   knobs.c      the machine: probing, the system default knob, hints,
 *                advice, populate and the self-sizing window (run.h)
 *   workloads.c  the measured workloads and their files (run.h)
 *   threads.c    the threaded workloads: threads faulting one mapping or
 *                one each (run.h)
 *   stats.c      mean, stddev, comparisons
 *   table.c      the human tables and their summary lines
 *   export.c     CSV and JSON (one line per cell)
 *   raw.c        the per-run raw CSV, written and read back (--from-raw)
 *   output.c     stdout, TAP, the copy of the tables
 */
#ifndef FABENCH_H
#define FABENCH_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include <faultaround.h>

#define EXEC_CHILD_ARG	"--exec-child"
#define MAX_COLS	24	/* columns of one block */
#define MAX_LIST	16	/* values of one sweep option */
#define NOTE_LEN	160
#define MAX_THREADS	64	/* --threads */

/* The threaded workloads (WL_MT_*) come last: "--workloads all" means the
 * single-threaded ones, "threads" these. */
enum { WL_SEQ, WL_RAND, WL_TOUCH, WL_EXEC, WL_SMALL, WL_MIXED,
       WL_MT_SLICES, WL_MT_INTERLEAVED, WL_MT_SEPARATE, NR_WL };
#define WL_FIRST_MT	WL_MT_SLICES

/* Tables are printed in this order: auto and auto-system last, they are
 * compared with the global and hint blocks of the same sweep point. */
enum { MODE_GLOBAL, MODE_HINT, MODE_POPULATE, MODE_ADVICE, MODE_AUTO,
       MODE_AUTO_SYSTEM, MODE_COST, NR_MODES };

enum col_kind {
	COL_BASELINE,		/* the system default, nothing set */
	COL_ORDER,		/* an order: global default or hint */
	COL_SPLIT,		/* mixed, hint: max order seq, 0 random */
	COL_POPULATE_READ,	/* madvise(MADV_POPULATE_READ), seq mapping */
	COL_MAP_POPULATE,	/* mmap(MAP_POPULATE), seq mapping */
	COL_ADVICE,		/* MADV_SEQUENTIAL / MADV_RANDOM as fits */
	COL_AUTO_PROCESS,	/* prctl(PR_SET_FAULTAROUND, AUTO) */
	COL_AUTO_MAPPING,	/* madvise(MADV_FAULTAROUND_AUTO) */
	COL_AUTO_SYSTEM,	/* system default: the self-sizing window */
};

struct column {
	enum col_kind kind;
	int order;		/* COL_ORDER; -1 otherwise */
	char label[16];
};

enum { ST_RAN, ST_SKIP, ST_ERROR };

struct cell {
	int status;
	char note[NOTE_LEN];
	int runs;
	long *faults;		/* per run: minor faults */
	long long *nsecs;	/* per run: elapsed nanoseconds */
	double fmean, fsd;	/* minor faults; sd of the mean, % of mean */
	double tmean, tsd;	/* seconds */
	long expected;		/* seq: the limit, or -1 */
};

struct mix {
	unsigned seq, rand;
};

/* One sweep point: the workload sizes its blocks ran with. */
struct params {
	unsigned long pages;		/* seq, rand: pages per mapping */
	unsigned long density;		/* rand, mixed: a lookup per DENSITY pages */
	struct mix mix;			/* mixed: seq:rand mapping sizes */
	unsigned long touch_pages;	/* touch: the region */
	unsigned long files;		/* smallfiles */
	unsigned threads;		/* WL_MT_*: threads, each faults pages */
};

struct point {
	struct params p;
	struct cell cells[NR_MODES][NR_WL][MAX_COLS];
	int have[NR_MODES][NR_WL];	/* the block ran (or was read back) */
};

/* What runs, and once it ran (or was read back) the results: the sweep's
 * points with their cells, and what the blocks' columns are. */
struct plan {
	struct point *points;
	int npoints;
	int nthreads;			/* values of the thread sweep */
	int orders[MAX_COLS];		/* the order columns of global and hint */
	int norders;
	int max_order;			/* of the split column */
	int baseline_order;		/* Baseline's window, -1 unknown */
};

/* The options: the command line's (main.c), or raw data's (raw.c). */
struct config {
	int modes[NR_MODES];
	int wl[NR_WL];
	int repeat;
	unsigned long pages[MAX_LIST];
	int npages;
	unsigned long size;		/* --size: bytes, sets pages */
	unsigned long density[MAX_LIST];
	int ndensity;
	struct mix mix[MAX_LIST];
	int nmix;
	unsigned threads[MAX_LIST];	/* ascending, no duplicates */
	int nthreads;
	unsigned long touch_pages;	/* 0: twice pages */
	unsigned long files;		/* 0: pages / 8, at least 8 */
	unsigned long execs;
	unsigned long child_pages;
	int orders[MAX_COLS];
	int norders;			/* 0: the default list */
	int all_orders;			/* --orders all: 0..max */
	const char *guest;
	char guest_read[64];		/* --from-raw: the raw data's guest */
	const char *clock;		/* --clock: what timed the runs, NULL: probed */
	char clock_read[16];		/* --from-raw: the raw data's clock */
	const char *dir;
	const char *csv, *json, *raw, *tables, *from_raw;
	int tap;
	int allow_knobs;
};

/* What the tables say about the machine; probed, or read from raw data. */
/* machine.knob_orig of a knob that reads "auto": the self-sizing window. */
#define KNOB_AUTO	(-2LL)

struct machine {
	char kernel[65], arch[65];
	size_t page;
	char mmu[32];
	int max_order, max_order_guessed;
	int supported;			/* the kernel has fault-around hints */
	long long knob_orig;		/* system default in bytes, -1 unknown, KNOB_AUTO */
	char knob[PATH_MAX];		/* its file, "" when none */
	int baseline_order;		/* from knob_orig, -1 unknown or auto */
	int knobs_allowed;
	int emulated;			/* EMU_* */
	int icount_shift;		/* qemu -icount shift: times are divided by 2^shift */
};

/* How the times were taken: on hardware, or in qemu TCG with -icount (a
 * nanosecond is an instruction), or in qemu MTTCG (parallel vCPUs, host
 * wall time). */
enum { EMU_NONE, EMU_ICOUNT, EMU_MTTCG };

/* What the tables and exports read: a run's results, or raw data's. */
struct report {
	const struct config *cfg;
	const struct machine *mach;
	const struct plan *plan;
	char header[2048];		/* the column labels printed last */
};

/* --raw: where the runner writes every run. */
struct raw_out {
	FILE *f;			/* NULL: no --raw */
	const char *path;
};

/* output.c */
void output_tap(int on);
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void tap_plan(int n);
void tap_result(int ok, const char *name, const char *directive);
int tap_failures(void);
const char *tables_text(size_t *len);

/* options.c: option values, of the command line and of raw data */
unsigned long parse_ul(const char *opt, const char *s);
int parse_ul_list(const char *opt, const char *s, unsigned long *v, int max);
void parse_modes(const char *opt, const char *s, int *flags);
void parse_workloads(const char *opt, const char *s, int *flags);
void parse_orders(struct config *cfg, const char *s);
void parse_threads(struct config *cfg, const char *opt, const char *s);
int parse_mix(const char *s, struct mix *m);
void parse_clock(const char *opt, const char *s, char *buf, size_t size);
const char *clock_name(const struct config *cfg, const struct machine *m);

/* plan.c */
const char *wl_name(int wl);
const char *mode_name(int mode);
int wl_index(const char *s);
int mode_index(const char *s);
int mode_has_limit(int mode);
int wl_is_threaded(int wl);
unsigned long mixed_seq_pages(const struct params *p);
unsigned long mixed_rand_pages(const struct params *p);
unsigned long lookups(unsigned long pages, unsigned long density);
void params_derive(const struct config *cfg, struct params *p);
void plan_init(struct plan *pl, const struct config *cfg, const struct machine *m);
void plan_make(struct plan *pl, const struct config *cfg, const struct machine *m);
void plan_free(struct plan *pl);
struct point *point_new(struct plan *pl);
struct point *point_find(const struct plan *pl, const struct params *p);
int block_runs(const struct point *pt, int mode, int wl);
int mode_in_point(const struct point *pt, int mode);
int block_columns(const struct plan *pl, int mode, int wl, struct column *cols);
int block_column_index(const struct plan *pl, int mode, int wl, enum col_kind kind);
long cell_expected(const struct plan *pl, const struct params *p, int mode, int wl,
		   const struct column *col);
void cell_alloc(struct cell *c, int repeat);
void cell_free(struct cell *c);

/* knobs.c: the machine's facts */
void machine_init(struct machine *m);
void probe_machine(struct machine *m, int allow_knobs);
void machine_derive(struct machine *m);

/* stats.c */
void stats(const double *v, int n, double *mean, double *sd_pct);
void cell_finish(struct cell *c);
double pct_change(const struct cell *c, const struct cell *base);
int fastest(const struct cell *cs, const struct column *cols, int n,
	    enum col_kind kind);

/* table.c */
void print_intro(const struct report *rep);
void print_point(const struct report *rep, const struct point *pt);
void print_mode(struct report *rep, int mode);
void print_block(struct report *rep, const struct point *pt, int mode, int wl);
int limit_check(const struct plan *pl, const struct point *pt, int mode, char *msg,
		size_t size);
void print_all(struct report *rep);

/* export.c */
void write_csv(const struct report *rep, const char *path);
void write_json(const struct report *rep, const char *path);
FILE *open_out(const char *path);
void close_out(FILE *f, const char *path);
void csv_string(FILE *f, const char *s);
void print_meta(const struct report *rep, FILE *f, const char *prefix);

/* raw.c */
void raw_open(struct raw_out *ro, const char *path, const struct config *cfg,
	      const struct machine *m);
void raw_cell(struct raw_out *ro, const struct params *p, int mode, int wl,
	      const struct column *col, const struct cell *c);
void raw_close(struct raw_out *ro);
void raw_read(const char *path, struct config *cfg, struct machine *m, struct plan *pl);

/* workloads.c: a child of the exec workload, and this program to exec */
int exec_child(const char *file, const char *npages);
const char *self_exe(void);

#endif /* FABENCH_H */
