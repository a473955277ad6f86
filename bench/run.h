/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabench's run stage: what run.c measures the plan's cells with.
 *
 *   run.c        the cells of a plan, one after the other, and their TAP
 *   knobs.c      what each column sets: the system default knob, hints,
 *                advice, populate, the self-sizing window; what the
 *                kernel accepts
 *   workloads.c  the measured workloads and the files they read
 *   threads.c    the threaded workloads
 *
 * None of it is used by --from-raw, which runs nothing.
 */
#ifndef FABENCH_RUN_H
#define FABENCH_RUN_H

#include <limits.h>
#include <stddef.h>
#include <time.h>

#include "fabench.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ	22	/* Linux 5.14 */
#endif

/* How a mapping is read: decides which advice or split order it gets. */
enum part { PART_SEQ, PART_RAND };

/* Why a feature cannot be measured here, "" when it can (probe_features). */
struct features {
	char no_populate_read[NOTE_LEN];
	char no_auto_process[NOTE_LEN];
	char no_auto_mapping[NOTE_LEN];
};

/* The system default knob, which global cells write and put back. */
struct knob {
	const char *path;		/* the machine's knob, "" when none */
	long long orig;			/* its value before the run, -1 unknown */
	int dirty;			/* written and not restored */
};

/* The files the workloads read: setup_files() makes them. */
struct files {
	char workdir[PATH_MAX - 64];	/* "" when there is none to remove */
	char datafile[PATH_MAX];
	int datafd;
	unsigned long nfiles;		/* small files created */
};

/* What a workload runs with. */
struct wl_env {
	const struct machine *m;
	const struct files *files;
	unsigned long execs, child_pages;	/* exec */
};

/*
 * A live run: what the runner is given (the config, the machine, where the
 * results go) and what it sets up and changes on the machine.  main.c owns
 * it, so that its exit and signal handlers can put the machine back.
 */
struct run {
	const struct config *cfg;
	const struct machine *mach;
	struct report *rep;		/* each block's table once it is done */
	struct raw_out *raw;		/* each run's line */
	struct features feat;
	struct knob knob;
	struct files files;
	struct wl_env env;		/* of the above, for the workloads */
};

/* run.c */
void run_init(struct run *run, const struct config *cfg, const struct machine *m,
	      struct report *rep, struct raw_out *raw);
void run_plan(struct run *run, struct plan *pl);
int count_tests(const struct plan *pl, const struct config *cfg);
void check_raw_roundtrip(const char *exe, const char *raw);

/* knobs.c: what the columns set */
void features_init(struct features *f);
void probe_features(struct features *f, const struct machine *m, int datafd);
void knob_init(struct knob *k, const struct machine *m);
int write_knob(struct knob *k, long long bytes);
int write_knob_auto(struct knob *k, char *why, size_t size);
void restore_knob(struct knob *k);
const char *skip_reason(const struct machine *m, const struct features *f, int mode, int wl,
			const struct column *col);
int setting_map_flags(int mode, const struct column *col, enum part part);
int setting_mapping(const struct machine *m, int mode, int wl, const struct column *col,
		    void *addr, size_t len, enum part part);
int setting_process(int mode, int wl, const struct column *col);
int setting_process_end(int mode, int wl, const struct column *col);
void settings_reset(const struct machine *m);

/* workloads.c */
struct sample {
	long faults;
	long long nsecs;
};
struct meas {			/* the start of a timed region */
	long flt;
	struct timespec t;
};
void meas_begin(struct meas *m);
void meas_end(const struct meas *m, struct sample *s, int shift);
unsigned long touch_pages(const volatile char *p, unsigned long n, size_t page);
char *map_aligned(const struct machine *m, int fd, unsigned long pgoff, unsigned long pages,
		  int flags);
void files_init(struct files *f);
void setup_files(struct files *f, const struct plan *pl, const struct machine *m,
		 const char *dir);
void remove_files(struct files *f);
int run_single(const struct wl_env *env, int wl, const struct params *p, int mode,
	       const struct column *col, struct sample *smp);

/* threads.c */
int run_threaded(const struct wl_env *env, int wl, const struct params *p, int mode,
		 const struct column *col, struct sample *smp);

#endif /* FABENCH_RUN_H */
