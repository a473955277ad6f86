// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fork_private CHILDREN THREADS: does fork() keep memory private here?
 *
 * THREADS threads each keep a counter in its own cache line of private
 * memory, storing it and reading it back, while the main thread forks
 * CHILDREN children, one after the other, that overwrite every counter at
 * once.  A counter that does not read back what its thread stored last
 * (an older value: the parent's store was lost; a child's: the child wrote
 * the parent's page) is a broken fork().  qemu 7.2's TCG showed both in a
 * POWER guest with two vCPUs.  test_shim_fork.sh runs it first: the shim's
 * fork test means nothing on a machine that fails it.  Prints the count;
 * exit status 1 when it is not 0.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_THREADS	8
#define STRIDE		16		/* longs: a cache line of 128 bytes */
#define CHILD_MARK	0xc11dL		/* the upper half of a child's store */

static volatile long counter[MAX_THREADS * STRIDE];
static int stop;
static long wrong;

static void *worker(void *arg)
{
	volatile long *mine = &counter[(long)arg * STRIDE];
	long stored = 0;

	*mine = 0;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		long got = *mine;

		if (got != stored) {
			printf("# thread %ld stored %#lx, read %#lx%s\n",
			       (long)arg, stored, got,
			       got >> 32 == CHILD_MARK ? " (a child's)" : "");
			__atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
			stored = got;
		}
		*mine = ++stored;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_THREADS];
	int children, threads, i;

	if (argc != 3 || (children = atoi(argv[1])) <= 0 ||
	    (threads = atoi(argv[2])) <= 0 || threads > MAX_THREADS) {
		fprintf(stderr, "usage: %s CHILDREN THREADS (1-%d)\n", argv[0],
			MAX_THREADS);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < threads; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(long)i)) {
			fprintf(stderr, "pthread_create failed\n");
			return 2;
		}
	for (i = 0; i < children; i++) {
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			for (int k = 0; k < MAX_THREADS; k++)
				counter[k * STRIDE] = CHILD_MARK << 32 | getpid();
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid) {
			perror("fork");
			return 2;
		}
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	printf("%d forks, %ld wrong reads\n", children, wrong);
	return wrong ? 1 : 0;
}
