// SPDX-License-Identifier: GPL-2.0
/*
 * The threaded workloads: --threads T threads of one process fault file
 * pages at the same time, each of them --pages pages, so a run with T
 * threads does T times the work of a run with one.
 *
 *   mt-slices       one shared mapping of T x pages; thread i reads its own
 *                   contiguous slice in order.  The threads share the VMA
 *                   and the mm, but (slices being whole page tables apart)
 *                   no page table.
 *   mt-interleaved  one shared mapping of T x pages; thread i reads pages
 *                   i, i + T, i + 2T, ...  The threads fault in the same
 *                   page tables (the same page-table lock) and into each
 *                   other's fault-around windows: who maps a page depends
 *                   on who gets there first.
 *   mt-separate     each thread maps its own slice of the file (its own
 *                   VMA), sets the column's hint on it, reads it in order
 *                   and unmaps it: mmap and munmap write-lock mmap_lock
 *                   while the other threads fault.
 *
 * Threads are created and pinned (thread i to the i-th CPU the process may
 * use, round robin) before the timed region and wait at a gate (a
 * condition variable, so that waiting costs no CPU time: under qemu
 * -icount a spinning vCPU would count as time).  The
 * timed region runs from before the shared mapping is made (mt-separate:
 * before the threads are released) until the last thread is done and the
 * shared mapping unmapped.  Faults are the whole process's (getrusage
 * RUSAGE_SELF counts every thread).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fabench.h"
#include "run.h"

static volatile unsigned long sink;

struct mt_run {
	const struct wl_env *env;
	int wl, mode;
	const struct column *col;
	unsigned long pages;		/* per thread */
	unsigned threads;
	char *shared;			/* mt-slices, mt-interleaved */
	/* The start gate and the count of threads done, under lock. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int go;				/* 1: run, -1: do nothing */
	unsigned finished;
};

struct mt_worker {
	struct mt_run *run;
	unsigned id;
	int cpu;			/* -1: not pinned */
	int err;			/* errno of a failed step, else 0 */
	unsigned long sum;
	pthread_t tid;
};

/* The @n-th CPU this process may run on, round robin; -1 if unknown. */
static int nth_cpu(unsigned n)
{
	cpu_set_t set;
	int cpu, count;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	count = CPU_COUNT(&set);
	if (count < 1)
		return -1;
	n %= (unsigned)count;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set) && !n--)
			return cpu;
	return -1;
}

/* mt-separate: the thread's own mapping, from mmap to munmap. */
static int read_own_mapping(const struct mt_worker *w, unsigned long *sum)
{
	struct mt_run *r = w->run;
	const struct machine *mc = r->env->m;
	size_t len = r->pages * mc->page;
	char *a;
	int ret = 0;

	a = map_aligned(mc, r->env->files->datafd, w->id * r->pages, r->pages,
			setting_map_flags(r->mode, r->col, PART_SEQ));
	if (!a)
		return -1;
	if (setting_mapping(mc, r->mode, r->wl, r->col, a, len, PART_SEQ) < 0)
		ret = -1;
	else
		*sum = touch_pages(a, r->pages, mc->page);
	if (munmap(a, len) < 0)
		ret = -1;
	return ret;
}

static void *worker(void *arg)
{
	struct mt_worker *w = arg;
	struct mt_run *r = w->run;
	const size_t pg = r->env->m->page;
	const volatile char *s;
	unsigned long i, sum = 0;
	int go, ret = 0;

	pthread_mutex_lock(&r->lock);
	while (!(go = r->go))
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
	s = r->shared;
	if (go > 0) {
		switch (r->wl) {
		case WL_MT_SLICES:
			sum = touch_pages(s + w->id * r->pages * pg, r->pages, pg);
			break;
		case WL_MT_INTERLEAVED:
			for (i = w->id; i < r->pages * r->threads; i += r->threads)
				sum += (unsigned char)s[i * pg];
			break;
		case WL_MT_SEPARATE:
			ret = read_own_mapping(w, &sum);
			break;
		}
		if (ret < 0)
			w->err = errno ? errno : EIO;
	}
	w->sum = sum;
	pthread_mutex_lock(&r->lock);
	if (++r->finished == r->threads)
		pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* Open the gate: @go 1 runs the threads, -1 lets them return at once. */
static void release(struct mt_run *r, int go)
{
	pthread_mutex_lock(&r->lock);
	r->go = go;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

static void wait_finished(struct mt_run *r)
{
	pthread_mutex_lock(&r->lock);
	while (r->finished < r->threads)
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
}

/* Start the threads, pinned, waiting at the gate.  On failure the threads
 * that did start are let go and joined; -1 with errno. */
static int start_workers(struct mt_run *r, struct mt_worker *ws)
{
	pthread_attr_t attr;
	cpu_set_t set;
	unsigned i;
	int e = 0;

	for (i = 0; i < r->threads; i++) {
		ws[i] = (struct mt_worker){ .run = r, .id = i, .cpu = nth_cpu(i) };
		if ((e = pthread_attr_init(&attr)))
			break;
		if (ws[i].cpu >= 0) {
			CPU_ZERO(&set);
			CPU_SET(ws[i].cpu, &set);
			/* Best effort: an unpinned thread still runs. */
			pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		}
		e = pthread_create(&ws[i].tid, &attr, worker, &ws[i]);
		pthread_attr_destroy(&attr);
		if (e)
			break;
	}
	if (i == r->threads)
		return 0;
	release(r, -1);
	while (i--)
		pthread_join(ws[i].tid, NULL);
	errno = e;
	return -1;
}

int run_threaded(const struct wl_env *env, int wl, const struct params *p, int mode,
		 const struct column *col, struct sample *smp)
{
	const struct machine *mc = env->m;
	struct mt_run r = {
		.env = env, .wl = wl, .mode = mode, .col = col, .pages = p->pages,
		.threads = p->threads, .lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
	};
	size_t len = (size_t)p->pages * p->threads * mc->page;
	struct mt_worker *ws = calloc(p->threads, sizeof(*ws));
	unsigned long sum = 0;
	struct meas m;
	unsigned i;
	int e = 0;

	if (!ws)
		return -1;
	if (start_workers(&r, ws) < 0) {
		e = errno;
		free(ws);
		errno = e;
		return -1;
	}
	meas_begin(&m);
	if (wl != WL_MT_SEPARATE) {
		r.shared = map_aligned(mc, env->files->datafd, 0, p->pages * p->threads,
				       setting_map_flags(mode, col, PART_SEQ));
		if (!r.shared)
			e = errno;
		else if (setting_mapping(mc, mode, wl, col, r.shared, len, PART_SEQ) < 0)
			e = errno;
	}
	release(&r, e ? -1 : 1);
	wait_finished(&r);
	if (r.shared && munmap(r.shared, len) < 0 && !e)
		e = errno;
	meas_end(&m, smp, mc->icount_shift);
	for (i = 0; i < p->threads; i++) {
		pthread_join(ws[i].tid, NULL);
		sum += ws[i].sum;
		if (!e)
			e = ws[i].err;
	}
	free(ws);
	sink = sum;
	errno = e;
	return e ? -1 : 0;
}
