// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * faultaround(1): run a command with fault-around hints, or inspect them.
 *
 *   faultaround [-s SIZE | -o ORDER | -a] [-r RULES | -R FILE] [-q | -v] [--] CMD [ARGS...]
 *   faultaround --show [PID]
 *   faultaround --info
 *
 * Options decide what is done; the first operand is always the command.
 * "show" and "info" were once subcommands, so a command by either name is
 * refused unless "--" comes before it.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "faultaround.h"
#include "internal.h"
#include "cli.h"

#define SHIM_NAME "libfaultaround-preload.so"
#ifndef FA_LIBDIR
#define FA_LIBDIR "/usr/local/lib"
#endif

const char *cli_prog = "faultaround";
static int verbose, quiet;

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [-s SIZE | -o ORDER | -a] [-r RULES | -R FILE] [-q | -v]\n"
		"         [--] CMD [ARGS...]\n"
		"       %s --show [PID]\n"
		"       %s --info\n"
		"\n"
		"Run CMD with fault-around hints, or show them.\n"
		"  -s, --size SIZE     process default window: bytes with optional K/M/G/T\n"
		"                      suffix (rounded down to a power-of-two number of\n"
		"                      pages, clamped to the maximum), order:N, auto or\n"
		"                      unset\n"
		"  -o, --order ORDER   process default order, the same as -s order:ORDER;\n"
		"                      or 'auto' or 'unset'\n"
		"  -a, --auto          the self-sizing window, the same as -s auto: each\n"
		"                      mapping sizes its window from its own faults;\n"
		"                      -s, -o and -a exclude each other\n"
		"  -r, --rules RULES   per-file hints 'GLOB=SIZE;GLOB=SIZE' applied by the\n"
		"                      preload shim (first match wins)\n"
		"  -R, --rules-file FILE\n"
		"                      the same rules from FILE, one or more a line; '#'\n"
		"                      starts a comment line\n"
		"  -q, --quiet         say nothing when the kernel lacks the feature\n"
		"  -v, --verbose       explain what is done; the shim logs its decisions\n"
		"      --show [PID]    the hints of PID (default: this process)\n"
		"      --info          what the kernel supports\n"
		"  -h, --help          this help\n"
		"  -V, --version       print the version\n"
		"A command named 'show' or 'info' needs '--' before it.\n"
		"The shim is found next to this program, in ../lib relative to it, or in\n"
		"  %s,\n"
		"unless FAULTAROUND_PRELOAD names it; it is needed only with -r or -R,\n"
		"and only on a kernel with the feature.\n"
		"Exit status: that of CMD; 125 if %s itself fails; 126 if CMD cannot\n"
		"be run; 127 if it is not found.\n",
		cli_prog, cli_prog, cli_prog, FA_LIBDIR, cli_prog);
}

int cli_usage_error(const char *fmt, const char *arg)
{
	char q[256];

	fprintf(stderr, "%s: ", cli_prog);
	fprintf(stderr, fmt, fa_quote(arg, q, sizeof(q)));
	fprintf(stderr, "\nTry '%s --help'.\n", cli_prog);
	return CLI_EXIT_FAILURE;
}

/* --- the shim ------------------------------------------------------- */

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

/* Whether the list (entries separated by blanks or colons, as ld.so(8)
 * reads LD_PRELOAD) has an entry that is exactly path. */
static int in_preload(const char *list, const char *path)
{
	size_t len = strlen(path), n;

	while (*list) {
		n = strcspn(list, ": \t");
		if (n == len && !strncmp(list, path, len))
			return 1;
		list += n;
		list += strspn(list, ": \t");
	}
	return 0;
}

/* Append the shim to LD_PRELOAD unless it is already there. */
static int add_preload(const char *shim)
{
	const char *old = getenv("LD_PRELOAD");
	char *val;
	int r;

	if (old && *old) {
		if (in_preload(old, shim))
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

static int preload_shim(void)
{
	char shim[PATH_MAX];

	if (find_shim(shim, sizeof(shim)) < 0) {
		fprintf(stderr, "%s: cannot find %s (tried %s); set FAULTAROUND_PRELOAD\n",
			cli_prog, SHIM_NAME, shim);
		return -1;
	}
	if (add_preload(shim) < 0 ||
	    (verbose && setenv("FAULTAROUND_DEBUG", "1", 1) < 0)) {
		fprintf(stderr, "%s: %s\n", cli_prog, strerror(errno));
		return -1;
	}
	if (verbose)
		fprintf(stderr, "%s: LD_PRELOAD=%s %s=%s\n", cli_prog, getenv("LD_PRELOAD"),
			getenv("FAULTAROUND_RULES_FILE") ? "FAULTAROUND_RULES_FILE" :
			"FAULTAROUND_RULES", getenv("FAULTAROUND_RULES_FILE") ?
			getenv("FAULTAROUND_RULES_FILE") : getenv("FAULTAROUND_RULES"));
	return 0;
}

/* --- run ------------------------------------------------------------ */

/* A non-empty variable from the environment (the shim ignores empty ones). */
static const char *inherited(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/* The default of -s, -o or -a (opt) with its value (val). */
static int set_default(const char *opt, const char *val, int supported)
{
	struct faultaround_size size;
	char q[256];
	int order;

	if (!strcmp(opt, "-o") ? cli_parse_order(val, &size) : cli_parse_size(opt, val, &size))
		return -1;
	/* The launcher's default wins over one the shim would set. */
	if (verbose && inherited("FAULTAROUND"))
		fprintf(stderr, "%s: FAULTAROUND=%s from the environment dropped for %s\n",
			cli_prog, fa_quote(inherited("FAULTAROUND"), q, sizeof(q)), opt);
	if (unsetenv("FAULTAROUND") < 0)
		return -1;
	if (!supported) {
		if (!quiet)
			fprintf(stderr, "%s: %s; running without a default\n", cli_prog,
				fa_unsupported_reason());
		return 0;
	}
	order = faultaround_size_to_order(&size);
	if (order < 0 || faultaround_set_default(order) < 0) {
		fprintf(stderr, "%s: %s %s: order %d: %s\n", cli_prog,
			opt, fa_quote(val, q, sizeof(q)), order,
			errno != EINVAL ? strerror(errno) :
			order == FAULTAROUND_AUTO ? "this kernel has no self-sizing window" :
			"above this kernel's maximum");
		return -1;
	}
	if (verbose)
		fprintf(stderr, "%s: process default order %d%s\n", cli_prog, order,
			order == FAULTAROUND_UNSET ? " (unset)" :
			order == FAULTAROUND_AUTO ? " (auto)" : "");
	return 0;
}

/* Pass the rules on to the shim in the one variable that names them. */
static int pass_rules(const char *rules_s, const char *rules_file)
{
	char path[PATH_MAX], q[256];

	if (rules_file) {
		/* Absolute: the command may change directory and run others. */
		if (!realpath(rules_file, path)) {
			fprintf(stderr, "%s: -R: %s: %s\n", cli_prog,
				fa_quote(rules_file, q, sizeof(q)), strerror(errno));
			return -1;
		}
		if (setenv("FAULTAROUND_RULES_FILE", path, 1) < 0 ||
		    unsetenv("FAULTAROUND_RULES") < 0)
			goto fail;
	} else if (setenv("FAULTAROUND_RULES", rules_s, 1) < 0 ||
		   unsetenv("FAULTAROUND_RULES_FILE") < 0) {
		goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "%s: %s\n", cli_prog, strerror(errno));
	return -1;
}

/* def_opt is "-s", "-o", "-a" or NULL; def_val its value; rules_s the
 * rules of -r, rules_file the file of -R (not both). */
static int run(const char *def_opt, const char *def_val, const char *rules_s,
	       const char *rules_file, char **cmd)
{
	int supported = faultaround_supported();
	struct faultaround_size size;
	const char *v;
	char q[256];
	int e;

	/*
	 * Everything the command gets is checked before anything is set:
	 * -s/-o replace an inherited FAULTAROUND and -r FAULTAROUND_RULES,
	 * otherwise the inherited value is what the shim will read.
	 */
	if (!def_opt && (v = inherited("FAULTAROUND"))) {
		if (cli_parse_size("FAULTAROUND (from the environment)", v, &size) < 0 ||
		    (supported &&
		     cli_check_order("FAULTAROUND (from the environment)", &size) < 0))
			return CLI_EXIT_FAILURE;
	}
	if (rules_s || rules_file) {
		if (cli_check_rules(rules_file ? "-R" : "-r", rules_file ? rules_file : rules_s,
				    !!rules_file, supported) < 0)
			return CLI_EXIT_FAILURE;
	} else if (inherited("FAULTAROUND_RULES") && inherited("FAULTAROUND_RULES_FILE")) {
		fprintf(stderr, "%s: FAULTAROUND_RULES and FAULTAROUND_RULES_FILE (from the environment) exclude each other\n",
			cli_prog);
		return CLI_EXIT_FAILURE;
	} else if ((v = inherited("FAULTAROUND_RULES"))) {
		if (cli_check_rules("FAULTAROUND_RULES (from the environment)", v, 0,
				    supported) < 0)
			return CLI_EXIT_FAILURE;
	} else if ((v = inherited("FAULTAROUND_RULES_FILE"))) {
		if (cli_check_rules("FAULTAROUND_RULES_FILE (from the environment)", v, 1,
				    supported) < 0)
			return CLI_EXIT_FAILURE;
	}

	if (def_opt && set_default(def_opt, def_val, supported) < 0)
		return CLI_EXIT_FAILURE;
	if (rules_s || rules_file) {
		if (pass_rules(rules_s, rules_file) < 0)
			return CLI_EXIT_FAILURE;
		if (!supported && !quiet)
			fprintf(stderr, "%s: %s; ignoring rules\n", cli_prog,
				fa_unsupported_reason());
		else if (supported && preload_shim() < 0)
			return CLI_EXIT_FAILURE;
	}
	if (verbose)
		fprintf(stderr, "%s: exec %s\n", cli_prog, fa_quote(cmd[0], q, sizeof(q)));
	fflush(stdout);
	execvp(cmd[0], cmd);
	e = errno;
	fprintf(stderr, "%s: %s: %s\n", cli_prog, fa_quote(cmd[0], q, sizeof(q)),
		strerror(e));
	/* One string of the environment is limited to 128 KiB (32 pages). */
	if (e == E2BIG && rules_s)
		fprintf(stderr, "%s: the rules of -r may be too long for the environment;\n"
			"-R FILE reads them from a file\n", cli_prog);
	return e == ENOENT || e == ENOTDIR ? 127 : 126;
}

int main(int argc, char **argv)
{
	enum { OPT_SHOW = 256, OPT_INFO };
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "order", required_argument, NULL, 'o' },
		{ "auto", no_argument, NULL, 'a' },
		{ "rules", required_argument, NULL, 'r' },
		{ "rules-file", required_argument, NULL, 'R' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "show", no_argument, NULL, OPT_SHOW },
		{ "info", no_argument, NULL, OPT_INFO },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *def_opt = NULL, *def_val = NULL, *rules_s = NULL, *rules_file = NULL;
	const char *last_arg = NULL, *opt, *eq;
	int show = 0, info = 0, help = 0, version = 0, c, i, dashdash;

	if (argc > 0 && argv[0][0]) {
		const char *slash = strrchr(argv[0], '/');

		cli_prog = slash ? slash + 1 : argv[0];
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:s:o:r:R:aqvhV", opts, NULL)) != -1) {
		last_arg = optarg;
		switch (c) {
		case 's':
		case 'o':
		case 'a':
			/* One default: a second option for it is refused, not
			 * silently preferred; the same one again replaces it. */
			opt = c == 's' ? "-s" : c == 'o' ? "-o" : "-a";
			if (def_opt && strcmp(def_opt, opt)) {
				fprintf(stderr, "%s: %s and %s exclude each other\n"
					"Try '%s --help'.\n", cli_prog, def_opt, opt,
					cli_prog);
				return CLI_EXIT_FAILURE;
			}
			def_opt = opt;
			def_val = c == 'a' ? "auto" : optarg;
			break;
		case 'r': rules_s = optarg; break;
		case 'R': rules_file = optarg; break;
		case 'q': quiet = 1; break;
		case 'v': verbose = 1; break;
		case OPT_SHOW: show = 1; break;
		case OPT_INFO: info = 1; break;
		case 'h': help = 1; break;
		case 'V': version = 1; break;
		case ':':
			return cli_usage_error("option '%s' needs an argument",
					       argv[optind - 1]);
		default:
			/* getopt names in optopt a known long option given
			 * "=VALUE" that it takes none of. */
			eq = strchr(argv[optind - 1], '=');
			if (optopt == OPT_SHOW && eq)
				return cli_usage_error("option '--show' takes no '=': use '--show %s'",
						       eq + 1);
			for (i = 0; optopt && opts[i].name; i++)
				if (opts[i].val == optopt &&
				    !strncmp(argv[optind - 1], "--", 2))
					return cli_usage_error("option '--%s' takes no argument",
							       opts[i].name);
			return cli_usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	/* Like --info, -h and -V take no operand: one is a mistake. */
	if (help || version) {
		if (optind < argc)
			return cli_usage_error(help ? "--help: unexpected argument '%s'" :
					       "--version: unexpected argument '%s'",
					       argv[optind]);
		if (help)
			usage(stdout);
		else
			printf("faultaround %s\n", LIBFAULTAROUND_VERSION);
		return 0;
	}
	/* Did getopt stop at a "--" of its own (not an option's argument)? */
	if (rules_s && rules_file)
		return cli_usage_error("%s", "-r and -R exclude each other");
	if (quiet && verbose)
		return cli_usage_error("%s", "-q and -v exclude each other");
	dashdash = optind > 1 && !strcmp(argv[optind - 1], "--") &&
		   argv[optind - 1] != last_arg;

	if (show || info) {
		if (show && info)
			return cli_usage_error("%s", "--show and --info exclude each other");
		if (def_opt || rules_s || rules_file)
			return cli_usage_error("%s", "--show and --info take no -s, -o, -a, -r or -R");
		if (info && optind < argc)
			return cli_usage_error("--info: unexpected argument '%s'", argv[optind]);
		if (show && optind + 1 < argc)
			return cli_usage_error("--show: too many arguments ('%s')",
					       argv[optind + 1]);
		return show ? cli_show(argv[optind]) : cli_info();
	}
	if (optind >= argc)
		return cli_usage_error("%s", "missing command");
	if (!dashdash && (!strcmp(argv[optind], "show") || !strcmp(argv[optind], "info"))) {
		fprintf(stderr, "%s: is '%s' a command?  For %s use --%s;\n"
			"to run a command named %s, put '--' before it.\n", cli_prog,
			argv[optind], argv[optind][0] == 's' ? "the hints" :
			"what the kernel supports", argv[optind], argv[optind]);
		return CLI_EXIT_FAILURE;
	}
	return run(def_opt, def_val, rules_s, rules_file, argv + optind);
}
