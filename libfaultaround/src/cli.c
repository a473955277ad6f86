// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * faultaround(1): run a command with fault-around hints, or inspect them.
 *
 *   faultaround [-s SIZE | -o ORDER] [-r RULES] [-v] [--] CMD [ARGS...]
 *   faultaround show [PID]
 *   faultaround info
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "faultaround.h"
#include "internal.h"

#define SHIM_NAME "libfaultaround-preload.so"
#ifndef FA_LIBDIR
#define FA_LIBDIR "/usr/local/lib"
#endif

static const char *prog = "faultaround";

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [-s SIZE | -o ORDER] [-r RULES] [-v] [--] CMD [ARGS...]\n"
		"       %s show [PID]\n"
		"       %s info\n"
		"\n"
		"Run CMD with fault-around hints, or show them.\n"
		"  -s, --size SIZE     process default window: bytes with optional K/M/G\n"
		"                      suffix (rounded down to a power-of-two number of\n"
		"                      pages, clamped to the maximum), order:N or unset\n"
		"  -o, --order ORDER   process default order (0..max) or 'unset'\n"
		"  -r, --rules RULES   per-file hints 'GLOB=SIZE;GLOB=SIZE' applied by the\n"
		"                      preload shim (first match wins)\n"
		"  -v, --verbose       explain what is done; the shim logs its decisions\n"
		"  -h, --help          this help\n"
		"  -V, --version       print the version\n"
		"The shim is found next to this program or in %s, unless\n"
		"FAULTAROUND_PRELOAD names it.  Exit status: that of CMD, 127 if CMD is\n"
		"not found, 126 if it cannot be run, 1 on usage or other errors.\n",
		prog, prog, prog, FA_LIBDIR);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	return 1;
}

/* --- show ----------------------------------------------------------- */

static int show_cb(const struct faultaround_vma *vma, void *arg)
{
	size_t page = faultaround_page_size();
	int *count = arg;
	char sz[32];

	if (vma->order == FAULTAROUND_UNSET)
		return 0;
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
	fa_format_bytes(bytes, sz, sizeof(sz));
	printf("system default: %zu bytes (%s, order %d)\n", bytes, sz,
	       faultaround_bytes_to_order(bytes, faultaround_page_size(),
					  FAULTAROUND_ORDER_LIMIT));
}

static int cmd_show(int argc, char **argv)
{
	struct fa_lines *lr;
	char file[64], *line, *end;
	const char *pidarg = argc > 1 ? argv[1] : NULL;
	long pid = 0;
	int count = 0, found = 0;

	if (argc > 2)
		return usage_error("show: too many arguments ('%s')", argv[2]);
	if (pidarg) {
		errno = 0;
		pid = strtol(pidarg, &end, 10);
		if (!*pidarg || *end || errno || pid <= 0 || pid > INT_MAX)
			return usage_error("show: bad PID '%s'", pidarg);
	}
	if (!faultaround_supported()) {
		fprintf(stderr, "%s: kernel lacks fault-around hints\n", prog);
		return 1;
	}
	if (pid)
		printf("pid %ld\n", pid);
	if (faultaround_for_each_vma((pid_t)pid, show_cb, &count) < 0) {
		fprintf(stderr, "%s: cannot read smaps of %s: %s\n", prog,
			pidarg ? pidarg : "self", strerror(errno));
		return 1;
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

/* --- info ----------------------------------------------------------- */

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

static int cmd_info(int argc, char **argv)
{
	int max;

	if (argc > 1)
		return usage_error("info: unexpected argument '%s'", argv[1]);
	max = faultaround_max_order();
	printf("supported: %s\n", max >= 0 ? "yes" : "no");
	printf("page size: %zu\n", faultaround_page_size());
	print_mmu();
	if (max < 0) {
		printf("max order: n/a\n");
		printf("system default: n/a\n");
		return 0;
	}
	{
		char sz[32];

		fa_format_bytes((unsigned long long)faultaround_page_size() << max,
				sz, sizeof(sz));
		printf("max order: %d (%s)\n", max, sz);
	}
	print_system_default();
	return 0;
}

/* --- run ------------------------------------------------------------ */

static int exists(const char *path)
{
	return access(path, R_OK) == 0;
}

/* Where is the shim?  $FAULTAROUND_PRELOAD, next to us, ../lib, LIBDIR. */
static int find_shim(char *buf, size_t size)
{
	const char *env = getenv("FAULTAROUND_PRELOAD");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return exists(buf) ? 0 : -1;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			if ((size_t)snprintf(buf, size, "%s/%s", self, SHIM_NAME) < size &&
			    exists(buf))
				return 0;
			if ((size_t)snprintf(buf, size, "%s/../lib/%s", self,
					     SHIM_NAME) < size && exists(buf))
				return 0;
		}
	}
	snprintf(buf, size, "%s/%s", FA_LIBDIR, SHIM_NAME);
	return exists(buf) ? 0 : -1;
}

/* Append the shim to LD_PRELOAD unless it is already there. */
static int add_preload(const char *shim)
{
	const char *old = getenv("LD_PRELOAD");
	char *val;
	int r;

	if (old && *old) {
		if (strstr(old, shim))
			return 0;
		if (asprintf(&val, "%s:%s", old, shim) < 0)
			return -1;
	} else if (!(val = strdup(shim))) {
		return -1;
	}
	r = setenv("LD_PRELOAD", val, 1);
	free(val);
	return r;
}

static int parse_order_arg(const char *s, int *order)
{
	unsigned long v;
	char *end;

	if (!strcmp(s, "unset")) {
		*order = FAULTAROUND_UNSET;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno || v > FAULTAROUND_ORDER_LIMIT)
		return -1;
	*order = (int)v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "order", required_argument, NULL, 'o' },
		{ "rules", required_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *size_s = NULL, *order_s = NULL, *rules_s = NULL;
	int verbose = 0, c, order = FAULTAROUND_UNSET;
	int supported;
	char err[256];

	if (argc > 0 && argv[0][0]) {
		const char *slash = strrchr(argv[0], '/');

		prog = slash ? slash + 1 : argv[0];
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:s:o:r:vhV", opts, NULL)) != -1) {
		switch (c) {
		case 's': size_s = optarg; break;
		case 'o': order_s = optarg; break;
		case 'r': rules_s = optarg; break;
		case 'v': verbose = 1; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("faultaround %s\n", LIBFAULTAROUND_VERSION); return 0;
		case ':':
			return usage_error("option '%s' needs an argument",
					   argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("%s", "missing command");
	/* Subcommands only when nothing else was given and no "--". */
	if (!size_s && !order_s && !rules_s && !verbose &&
	    strcmp(argv[optind - 1], "--")) {
		if (!strcmp(argv[optind], "show"))
			return cmd_show(argc - optind, argv + optind);
		if (!strcmp(argv[optind], "info"))
			return cmd_info(argc - optind, argv + optind);
	}
	if (size_s && order_s)
		return usage_error("%s", "-s and -o are mutually exclusive");

	supported = faultaround_supported();
	if (size_s || order_s) {
		struct faultaround_size size;

		if (order_s && parse_order_arg(order_s, &order) < 0)
			return usage_error("bad order '%s' (expected 0..254 or 'unset')",
					   order_s);
		if (size_s && faultaround_parse_size(size_s, &size, err, sizeof(err)) < 0)
			return usage_error("-s: %s", err);
		if (!supported) {
			fprintf(stderr, "%s: kernel lacks fault-around hints; running without a default\n",
				prog);
		} else {
			if (size_s)
				order = faultaround_size_to_order(&size);
			if (order < 0 || faultaround_set_default(order) < 0) {
				fprintf(stderr, "%s: cannot set process default order %d: %s\n",
					prog, order, errno == EINVAL ?
					"above the maximum" : strerror(errno));
				return 1;
			}
			if (verbose)
				fprintf(stderr, "%s: process default order %d%s\n", prog,
					order, order == FAULTAROUND_UNSET ? " (unset)" : "");
		}
	}
	if (rules_s) {
		struct faultaround_rules *rules = faultaround_rules_parse(rules_s, err,
									  sizeof(err));
		char shim[PATH_MAX];

		if (!rules)
			return usage_error("-r: %s", err);
		faultaround_rules_free(rules);
		if (!supported) {
			fprintf(stderr, "%s: kernel lacks fault-around hints; ignoring rules\n",
				prog);
		} else {
			if (find_shim(shim, sizeof(shim)) < 0) {
				fprintf(stderr, "%s: cannot find %s (tried %s); set FAULTAROUND_PRELOAD\n",
					prog, SHIM_NAME, shim);
				return 1;
			}
			if (setenv("FAULTAROUND_RULES", rules_s, 1) < 0 ||
			    add_preload(shim) < 0 ||
			    (verbose && setenv("FAULTAROUND_DEBUG", "1", 1) < 0)) {
				fprintf(stderr, "%s: %s\n", prog, strerror(errno));
				return 1;
			}
			if (verbose)
				fprintf(stderr, "%s: LD_PRELOAD=%s FAULTAROUND_RULES=%s\n",
					prog, getenv("LD_PRELOAD"), rules_s);
		}
	}
	if (verbose)
		fprintf(stderr, "%s: exec %s\n", prog, argv[optind]);
	fflush(stdout);
	execvp(argv[optind], argv + optind);
	c = errno;
	fprintf(stderr, "%s: %s: %s\n", prog, argv[optind], strerror(c));
	return c == ENOENT || c == ENOTDIR ? 127 : 126;
}
