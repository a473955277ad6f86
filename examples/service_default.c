// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * service_default: a service manager sets a process default (inherited by
 * fork, kept across execve) and starts a child, which reports what it got
 * with prctl(PR_GET_FAULTAROUND).
 */
#include "example.h"	/* first: it defines _GNU_SOURCE */
#include <sys/prctl.h>
#include <sys/wait.h>

static int child(void)
{
	long r = prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0);

	if (r < 0) {
		perror("child: prctl(PR_GET_FAULTAROUND)");
		return 1;
	}
	if (r == PR_FAULTAROUND_UNSET)
		printf("child %d after execve: PR_GET_FAULTAROUND = unset\n", (int)getpid());
	else
		printf("child %d after execve: PR_GET_FAULTAROUND = %ld (%zu bytes)\n",
		       (int)getpid(), r, faultaround_page_size() << r);
	return 0;
}

int main(int argc, char **argv)
{
	size_t bytes;
	pid_t pid;
	int st;

	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child();
	if (!example_supported())
		return 0;
	/* 32K: order 3 with 4K pages, order 0 with 64K pages. */
	if (faultaround_set_default_bytes(32 << 10) < 0) {
		perror("faultaround_set_default_bytes");
		return 1;
	}
	faultaround_get_default_bytes(&bytes);
	printf("parent %d: default order %d (%zu bytes)\n", (int)getpid(),
	       faultaround_get_default(), bytes);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "--child", (char *)NULL);
		perror("execl");
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return 1;
	return 0;
}
