// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * faultaround(1): run a command with fault-around hints, or inspect them.
 *
 *   faultaround [-s SIZE | -o ORDER | -a] [-r RULES] [-v] [--] CMD [ARGS...]
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
static int verbose;

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [-s SIZE | -o ORDER | -a] [-r RULES] [-v] [--] CMD [ARGS...]\n"
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
		"  -a, --auto          the adaptive order, the same as -s auto: the kernel\n"
		"                      sizes each fault's window from the pages around it;\n"
		"                      -s, -o and -a exclude each other\n"
		"  -r, --rules RULES   per-file hints 'GLOB=SIZE;GLOB=SIZE' applied by the\n"
		"                      preload shim (first match wins)\n"
		"  -v, --verbose       explain what is done; the shim logs its decisions\n"
		"      --show [PID]    the hints of PID (default: this process)\n"
		"      --info          what the kernel supports\n"
		"  -h, --help          this help\n"
		"  -V, --version       print the version\n"
		"A command named 'show' or 'info' needs '--' before it.  The shim is found\n"
		"next to this program or in %s, unless FAULTAROUND_PRELOAD names it.\n"
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

/* --- checking what is set and passed on ---------------------------- */

/*
 * Every SIZE the launcher takes or passes on (-s, -o, each rule of -r or
 * FAULTAROUND_RULES, FAULTAROUND) goes through the library's parser, and
 * on a kernel with the feature its order through the library's and the
 * kernel's own check, the one faultaround_set() and faultaround_set_default()
 * share: -o is applied for real, the others on a scratch mapping.  So a
 * value the shim would drop (silently, as it must) is refused here.
 */
static int check_order(const char *what, const struct faultaround_size *size)
{
	size_t page = faultaround_page_size();
	int order = faultaround_size_to_order(size), r, err;
	void *scratch;

	if (order == FAULTAROUND_UNSET)
		return 0;
	scratch = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (scratch == MAP_FAILED) {
		fprintf(stderr, "%s: %s\n", cli_prog, strerror(errno));
		return -1;
	}
	r = order < 0 ? -1 : faultaround_set(scratch, page, order);
	err = errno;
	munmap(scratch, page);
	if (r < 0) {
		fprintf(stderr, "%s: %s: order %d: %s\n", cli_prog, what, order,
			err != EINVAL ? strerror(err) :
			order == FAULTAROUND_AUTO ? "this kernel has no adaptive order" :
			"above this kernel's maximum");
		return -1;
	}
	return 0;
}

static int parse_size(const char *what, const char *s, struct faultaround_size *size)
{
	char err[256];

	if (faultaround_parse_size(s, size, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "%s: %s: %s\n", cli_prog, what, err);
	return -1;
}

/* -o ORDER is -s order:ORDER, checked by the library's parser; the
 * message quotes what the user gave. */
static int parse_order(const char *s, struct faultaround_size *size)
{
	char *as_size, q[256];
	int r;

	if (!strcmp(s, "unset") || !strcmp(s, "auto"))
		return parse_size("-o", s, size);
	if (asprintf(&as_size, "order:%s", s) < 0) {
		fprintf(stderr, "%s: %s\n", cli_prog, strerror(errno));
		return -1;
	}
	r = faultaround_parse_size(as_size, size, NULL, 0);
	free(as_size);
	if (r < 0)
		fprintf(stderr, "%s: -o: bad order '%s': expected a number from 0 to %d, 'auto' or 'unset'\n",
			cli_prog, fa_quote(s, q, sizeof(q)), FAULTAROUND_ORDER_LIMIT);
	return r;
}

/* Parse RULES and, with the feature, check each rule's order. */
static int check_rules(const char *what, const char *s, int supported)
{
	struct faultaround_rules *rules;
	const struct faultaround_size *size;
	const char *glob;
	char err[256], rule[320], q[128];
	size_t i;
	int r = 0;

	rules = faultaround_rules_parse(s, err, sizeof(err));
	if (!rules) {
		fprintf(stderr, "%s: %s: %s\n", cli_prog, what, err);
		return -1;
	}
	for (i = 0; supported && !r && (size = fa_rules_size(rules, i, &glob)); i++) {
		snprintf(rule, sizeof(rule), "%s: rule %zu ('%s')", what, i + 1,
			 fa_quote(glob, q, sizeof(q)));
		r = check_order(rule, size);
	}
	faultaround_rules_free(rules);
	return r;
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
		fprintf(stderr, "%s: LD_PRELOAD=%s FAULTAROUND_RULES=%s\n", cli_prog,
			getenv("LD_PRELOAD"), getenv("FAULTAROUND_RULES"));
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

	if (!strcmp(opt, "-o") ? parse_order(val, &size) : parse_size(opt, val, &size))
		return -1;
	/* The launcher's default wins over one the shim would set. */
	if (verbose && inherited("FAULTAROUND"))
		fprintf(stderr, "%s: FAULTAROUND=%s from the environment dropped for %s\n",
			cli_prog, fa_quote(inherited("FAULTAROUND"), q, sizeof(q)), opt);
	if (unsetenv("FAULTAROUND") < 0)
		return -1;
	if (!supported) {
		fprintf(stderr, "%s: %s; running without a default\n", cli_prog,
			fa_unsupported_reason());
		return 0;
	}
	order = faultaround_size_to_order(&size);
	if (order < 0 || faultaround_set_default(order) < 0) {
		fprintf(stderr, "%s: %s %s: order %d: %s\n", cli_prog,
			opt, fa_quote(val, q, sizeof(q)), order,
			errno != EINVAL ? strerror(errno) :
			order == FAULTAROUND_AUTO ? "this kernel has no adaptive order" :
			"above this kernel's maximum");
		return -1;
	}
	if (verbose)
		fprintf(stderr, "%s: process default order %d%s\n", cli_prog, order,
			order == FAULTAROUND_UNSET ? " (unset)" :
			order == FAULTAROUND_AUTO ? " (auto)" : "");
	return 0;
}

/* def_opt is "-s", "-o", "-a" or NULL; def_val its value. */
static int run(const char *def_opt, const char *def_val, const char *rules_s,
	       char **cmd)
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
		if (parse_size("FAULTAROUND (from the environment)", v, &size) < 0 ||
		    (supported &&
		     check_order("FAULTAROUND (from the environment)", &size) < 0))
			return CLI_EXIT_FAILURE;
	}
	if (rules_s) {
		if (check_rules("-r", rules_s, supported) < 0)
			return CLI_EXIT_FAILURE;
	} else if ((v = inherited("FAULTAROUND_RULES"))) {
		if (check_rules("FAULTAROUND_RULES (from the environment)", v,
				supported) < 0)
			return CLI_EXIT_FAILURE;
	}

	if (def_opt && set_default(def_opt, def_val, supported) < 0)
		return CLI_EXIT_FAILURE;
	if (rules_s) {
		if (setenv("FAULTAROUND_RULES", rules_s, 1) < 0) {
			fprintf(stderr, "%s: %s\n", cli_prog, strerror(errno));
			return CLI_EXIT_FAILURE;
		}
		if (!supported)
			fprintf(stderr, "%s: %s; ignoring rules\n", cli_prog,
				fa_unsupported_reason());
		else if (preload_shim() < 0)
			return CLI_EXIT_FAILURE;
	}
	if (verbose)
		fprintf(stderr, "%s: exec %s\n", cli_prog, fa_quote(cmd[0], q, sizeof(q)));
	fflush(stdout);
	execvp(cmd[0], cmd);
	e = errno;
	fprintf(stderr, "%s: %s: %s\n", cli_prog, fa_quote(cmd[0], q, sizeof(q)),
		strerror(e));
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
		{ "verbose", no_argument, NULL, 'v' },
		{ "show", no_argument, NULL, OPT_SHOW },
		{ "info", no_argument, NULL, OPT_INFO },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *def_opt = NULL, *def_val = NULL, *rules_s = NULL;
	const char *last_arg = NULL, *opt;
	int show = 0, info = 0, c, dashdash;

	if (argc > 0 && argv[0][0]) {
		const char *slash = strrchr(argv[0], '/');

		cli_prog = slash ? slash + 1 : argv[0];
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:s:o:r:avhV", opts, NULL)) != -1) {
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
		case 'v': verbose = 1; break;
		case OPT_SHOW: show = 1; break;
		case OPT_INFO: info = 1; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("faultaround %s\n", LIBFAULTAROUND_VERSION); return 0;
		case ':':
			return cli_usage_error("option '%s' needs an argument",
					       argv[optind - 1]);
		default:
			return cli_usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	/* Did getopt stop at a "--" of its own (not an option's argument)? */
	dashdash = optind > 1 && !strcmp(argv[optind - 1], "--") &&
		   argv[optind - 1] != last_arg;

	if (show || info) {
		if (show && info)
			return cli_usage_error("%s", "--show and --info exclude each other");
		if (def_opt || rules_s)
			return cli_usage_error("%s", "--show and --info take no -s, -o, -a or -r");
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
		fprintf(stderr, "%s: is '%s' a command?  For the hints use --%s; to run a\n"
			"command named %s, put '--' before it.\n", cli_prog, argv[optind],
			argv[optind], argv[optind]);
		return CLI_EXIT_FAILURE;
	}
	return run(def_opt, def_val, rules_s, argv + optind);
}
