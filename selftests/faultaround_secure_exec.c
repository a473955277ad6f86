// SPDX-License-Identifier: GPL-2.0
/*
 * An execve() that gains privilege clears the PR_SET_FAULTAROUND default,
 * as it clears PER_CLEAR_ON_SETID personality flags; one that gains none
 * keeps it.  Needs root (the guests run the tests as root): a copy of this
 * program owned by root is made set-user-ID or set-group-ID, and a child
 * sets a default, drops to nobody and executes the copy, which reports the
 * default it found in its exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "fa_util.h"

#define NOBODY		65534
#define CHILD_ORDER	3
/* An exit status no PR_GET_FAULTAROUND value can be (0-13, 254, 255). */
#define CHILD_FAILED	200

/* Copy this program to a root-owned file in @dir with @mode; its path. */
static char *copy_self(const char *dir, mode_t mode)
{
	char *path = NULL;
	struct stat st;
	int in, out;

	if (asprintf(&path, "%s/fa_secure_exec.XXXXXX", dir) < 0)
		return NULL;
	in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	out = mkostemp(path, O_CLOEXEC);
	if (in < 0 || out < 0 || fstat(in, &st) ||
	    sendfile(out, in, NULL, st.st_size) != st.st_size ||
	    fchown(out, 0, 0) || fchmod(out, mode) || close(out)) {
		if (out >= 0)
			unlink(path);
		free(path);
		path = NULL;
	}
	if (in >= 0)
		close(in);
	return path;
}

/*
 * Run @path as nobody after setting the default to CHILD_ORDER; returns what
 * it reported (the default after execve), or -1 with a message.
 */
static int default_after_exec_as_nobody(struct __test_metadata *_metadata,
					const char *path)
{
	int status;
	pid_t pid;

	pid = fork();
	if (!pid) {
		if (prctl(PR_SET_FAULTAROUND, CHILD_ORDER, 0, 0, 0))
			perror("PR_SET_FAULTAROUND");
		else if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			perror("dropping to nobody");
		else if (execl(path, path, "--report", (char *)NULL))
			perror("execl");
		_exit(CHILD_FAILED);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		TH_LOG("child did not exit normally");
		return -1;
	}
	if (WEXITSTATUS(status) == CHILD_FAILED) {
		TH_LOG("child failed before reporting (see its message)");
		return -1;
	}
	return WEXITSTATUS(status);
}

FIXTURE(secure_exec)
{
	char *path;
};

FIXTURE_SETUP(secure_exec)
{
	self->path = NULL;
	if (!fa_feature_present())
		SKIP(return, "kernel without PR_SET_FAULTAROUND");
	if (geteuid() != 0)
		SKIP(return, "needs root to make a set-ID copy and drop privilege");
}

FIXTURE_TEARDOWN(secure_exec)
{
	if (self->path)
		unlink(self->path);
	free(self->path);
}

static void run_case(struct __test_metadata *_metadata, char **path,
		     mode_t mode, int want)
{
	const char *dir = getenv("FA_TESTDIR") ?: "/tmp";
	struct statvfs sv;

	/* On a nosuid file system no exec gains privilege. */
	if (!statvfs(dir, &sv) && (sv.f_flag & ST_NOSUID))
		SKIP(return, "%s is mounted nosuid", dir);
	*path = copy_self(dir, mode);
	ASSERT_NE(*path, NULL) TH_LOG("copy to %s: %s", dir, strerror(errno));
	EXPECT_EQ(default_after_exec_as_nobody(_metadata, *path), want);
}

TEST_F(secure_exec, setuid_root_exec_clears_the_default)
{
	run_case(_metadata, &self->path, 04755, PR_FAULTAROUND_UNSET);
}

TEST_F(secure_exec, setgid_root_exec_clears_the_default)
{
	run_case(_metadata, &self->path, 02755, PR_FAULTAROUND_UNSET);
}

/* The same copy without a set-ID bit: no privilege gained, default kept. */
TEST_F(secure_exec, plain_exec_keeps_the_default)
{
	run_case(_metadata, &self->path, 0755, CHILD_ORDER);
}

int main(int argc, char **argv)
{
	/* The default after execve, 0-253 or PR_FAULTAROUND_UNSET. */
	if (argc > 1 && !strcmp(argv[1], "--report")) {
		int order = prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0);

		if (order < 0)
			perror("PR_GET_FAULTAROUND");
		return order < 0 ? CHILD_FAILED : order;
	}
	return test_harness_run(argc, argv);
}
