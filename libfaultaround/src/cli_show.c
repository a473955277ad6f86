// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * faultaround --show [PID]: the hinted mappings and the defaults of a
 * process.  faultaround --info: what the kernel offers.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faultaround.h"
#include "internal.h"
#include "cli.h"

static int show_cb(const struct faultaround_vma *vma, void *arg)
{
	size_t page = faultaround_page_size();
	int *count = arg;
	char sz[32];

	if (vma->order == FAULTAROUND_UNSET)
		return 0;
	if (vma->order == FAULTAROUND_AUTO) {
		printf("%08lx-%08lx %s order auto %6s %s\n", vma->start, vma->end,
		       vma->perms, "", vma->path[0] ? vma->path : "[anon]");
		(*count)++;
		return 0;
	}
	fa_format_bytes((unsigned long long)page << vma->order, sz, sizeof(sz));
	printf("%08lx-%08lx %s order %2d %6s %s\n", vma->start, vma->end,
	       vma->perms, vma->order, sz, vma->path[0] ? vma->path : "[anon]");
	(*count)++;
	return 0;
}

static void print_order_line(const char *what, const char *val)
{
	unsigned long order;
	char *end, sz[32];

	errno = 0;
	order = strtoul(val, &end, 10);
	if (!*val || *end || errno || order > FAULTAROUND_ORDER_LIMIT) {
		printf("%s: %s\n", what, val);
		return;
	}
	fa_format_bytes((unsigned long long)faultaround_page_size() << order, sz,
			sizeof(sz));
	printf("%s: order %lu (%s)\n", what, order, sz);
}

static void print_system_default(void)
{
	size_t bytes;
	char sz[32];

	if (faultaround_get_system_default_bytes(&bytes) < 0) {
		printf("system default: n/a (%s)\n", strerror(errno));
		return;
	}
	if (bytes == FAULTAROUND_AUTO_BYTES) {
		printf("system default: auto (the self-sizing window)\n");
		return;
	}
	fa_format_bytes(bytes, sz, sizeof(sz));
	printf("system default: %zu bytes (%s, order %d)\n", bytes, sz,
	       faultaround_bytes_to_order(bytes, faultaround_page_size(),
					  FAULTAROUND_ORDER_LIMIT));
}

int cli_show(const char *pidarg)
{
	struct fa_lines *lr;
	char file[64], *line, *end;
	long pid = 0;
	int count = 0, found = 0;

	if (pidarg) {
		errno = 0;
		pid = strtol(pidarg, &end, 10);
		if (!*pidarg || *end || errno || pid <= 0 || pid > INT_MAX)
			return cli_usage_error("--show: bad PID '%s'", pidarg);
	}
	if (!faultaround_supported()) {
		fprintf(stderr, "%s: %s\n", cli_prog, fa_unsupported_reason());
		return CLI_EXIT_FAILURE;
	}
	if (pid)
		printf("pid %ld\n", pid);
	if (faultaround_for_each_vma((pid_t)pid, show_cb, &count) < 0) {
		fprintf(stderr, "%s: cannot read smaps of %s: %s\n", cli_prog,
			pidarg ? pidarg : "self", strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	if (!count)
		printf("no mapping has a hint\n");

	snprintf(file, sizeof(file), pid ? "/proc/%ld/status" : "/proc/self/status",
		 pid);
	lr = malloc(sizeof(*lr));
	if (lr && fa_lines_open(lr, file) == 0) {
		while ((line = fa_lines_next(lr))) {
			if (strncmp(line, "FaultAroundOrder:", 17))
				continue;
			line += 17;
			while (*line == ' ' || *line == '\t')
				line++;
			print_order_line("process default", line);
			found = 1;
		}
		fa_lines_close(lr);
	}
	free(lr);
	if (!found)
		printf("process default: n/a\n");
	print_system_default();
	return 0;
}

static void print_mmu(void)
{
#if defined(__powerpc__) || defined(__powerpc64__)
	struct fa_lines *lr = malloc(sizeof(*lr));
	char *line, *p;
	const char *mmu = "unknown";

	if (lr && fa_lines_open(lr, "/proc/cpuinfo") == 0) {
		while ((line = fa_lines_next(lr))) {
			if (strncmp(line, "MMU", 3))
				continue;
			p = strchr(line, ':');
			if (!p)
				continue;
			for (p++; *p == ' ' || *p == '\t'; p++)
				;
			printf("mmu: %s\n", p);
			mmu = NULL;
			break;
		}
		fa_lines_close(lr);
	}
	free(lr);
	if (mmu)
		printf("mmu: %s\n", mmu);
#else
	printf("mmu: n/a\n");
#endif
}

int cli_info(void)
{
	int max = faultaround_max_order();
	char sz[32];

	printf("supported: %s\n", max >= 0 ? "yes" : "no");
	printf("page size: %zu\n", faultaround_page_size());
	print_mmu();
	if (max < 0) {
		printf("max order: n/a\n");
		printf("system default: n/a\n");
		return 0;
	}
	fa_format_bytes((unsigned long long)faultaround_page_size() << max,
			sz, sizeof(sz));
	printf("max order: %d (%s)\n", max, sz);
	print_system_default();
	return 0;
}
