// SPDX-License-Identifier: GPL-2.0
/*
 * fabench output streams: the human text goes to stdout (as TAP diagnostics
 * with --tap) and into a copy, which --tables writes and the raw-data check
 * compares with what --from-raw prints; TAP results go to stdout only.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabench.h"

static FILE *copy;
static char *copy_buf;
static size_t copy_len;
static int tap, tap_n, tap_failed;

void say(const char *fmt, ...)
{
	char *buf = NULL, *line, *save = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	if (!copy)
		copy = open_memstream(&copy_buf, &copy_len);
	if (copy)
		fputs(buf, copy);
	if (!tap) {
		fputs(buf, stdout);
	} else {
		/* TAP: human output becomes diagnostics. */
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			printf("# %s\n", line);
	}
	fflush(stdout);
	free(buf);
}

void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(tap ? "Bail out! fabench: " : "fabench: ", stdout);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	exit(1);	/* the atexit handler puts the system back */
}

/* The text printed so far (never NULL). */
const char *tables_text(size_t *len)
{
	if (!copy || fflush(copy)) {
		*len = 0;
		return "";
	}
	*len = copy_len;
	return copy_buf;
}

/* With @on, results are TAP and the human text its diagnostics. */
void output_tap(int on)
{
	tap = on;
}

void tap_plan(int n)
{
	if (!tap)
		return;
	printf("TAP version 13\n1..%d\n", n);
	fflush(stdout);
}

void tap_result(int ok, const char *name, const char *directive)
{
	if (!tap)
		return;
	tap_failed += !ok;
	printf("%sok %d %s%s%s\n", ok ? "" : "not ", ++tap_n, name,
	       directive ? " # " : "", directive ? directive : "");
	fflush(stdout);
}

int tap_failures(void)
{
	return tap_failed;
}
