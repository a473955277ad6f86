// SPDX-License-Identifier: LGPL-2.1-or-later
/* The preload shim's debug log (FAULTAROUND_DEBUG). */
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "preload.h"

/*
 * The log goes to a copy of the descriptor that was stderr at load, made
 * at a high number and close-on-exec, never to whatever descriptor 2 is
 * later: a program started with stderr closed (a daemon) gets 2 for the
 * first file it opens, and the log would end up in its data.  No stderr at
 * load, no log.  The copy is checked against the file it was made from
 * before each write, in case the program closed it (closefrom()) and the
 * number now names another file.
 */
#define FA_LOG_FD_MIN	100

static int fa_log_fd = -1;
static dev_t fa_log_dev;
static ino_t fa_log_ino;

void fa_log_open(void)
{
	struct stat st;
	int fd;

	if (fcntl(STDERR_FILENO, F_GETFD) < 0 || fstat(STDERR_FILENO, &st) < 0)
		return;
	fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, FA_LOG_FD_MIN);
	if (fd < 0)	/* RLIMIT_NOFILE below the minimum */
		fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return;
	fa_log_dev = st.st_dev;
	fa_log_ino = st.st_ino;
	fa_log_fd = fd;
}

void fa_log(const char *fmt, ...)
{
	char buf[PATH_MAX + 256];
	struct stat st;
	va_list ap;
	int n;

	if (fa_log_fd < 0 || fstat(fa_log_fd, &st) < 0 ||
	    st.st_dev != fa_log_dev || st.st_ino != fa_log_ino)
		return;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	if (write(fa_log_fd, buf, (size_t)n) < 0)
		return;
}
