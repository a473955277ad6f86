// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one parser for SIZE and RULES strings, shared by the preload shim
 * (FAULTAROUND, FAULTAROUND_RULES) and the faultaround(1) CLI.
 *
 * SIZE  := "unset" | "auto" | "order:" N | DIGITS [K|M|G|T]
 *                                  (binary units, any case; N from 0 to 253)
 * RULES := RULE { ";" RULE } [";"]
 * RULE  := GLOB "=" SIZE     (split at the first '=', so GLOB cannot contain
 *                             '=' or ';'; blanks around GLOB and SIZE are
 *                             ignored)
 * A GLOB containing '/' is matched with fnmatch(3) against the whole path
 * ('*' also matches '/'); otherwise against the file name only.  The first
 * matching rule wins.
 *
 * A rules file (FAULTAROUND_RULES_FILE, faultaround -R) is a regular file
 * holding RULES a line; blank lines and lines whose first non-blank is '#'
 * are skipped.  Its lines are checked one by one, so that an error names
 * its line, then joined into one RULES string for the parser above.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "faultaround.h"
#include "internal.h"

struct fa_rule {
	const char *glob;
	int whole_path;
	struct faultaround_size size;
};

struct faultaround_rules {
	char *storage;
	size_t count;
	struct fa_rule rule[];
};

static void seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* What a message quotes of the input: control characters escaped. */
#define QUOTE(s, buf)	fa_quote((s), (buf), sizeof(buf))

static int parse_decimal(const char *s, const char **end,
			 unsigned long long *val)
{
	unsigned long long v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (~0ULL - d) / 10) {
			errno = ERANGE;
			return -1;
		}
		v = v * 10 + d;
	}
	*end = s;
	*val = v;
	return 0;
}

int faultaround_parse_size(const char *s, struct faultaround_size *size,
			   char *err, size_t errlen)
{
	unsigned long long v;
	const char *end;
	char q[128], q2[128];
	int shift = 0;

	if (!s || !size) {
		seterr(err, errlen, "missing size");
		errno = EINVAL;
		return -1;
	}
	if (!*s) {
		seterr(err, errlen, "empty size");
		errno = EINVAL;
		return -1;
	}
	if (!strcmp(s, "unset")) {
		size->kind = FAULTAROUND_SIZE_UNSET;
		size->value = 0;
		return 0;
	}
	if (!strcmp(s, "auto")) {
		size->kind = FAULTAROUND_SIZE_AUTO;
		size->value = 0;
		return 0;
	}
	if (!strncmp(s, "order:", 6)) {
		errno = 0;
		if (parse_decimal(s + 6, &end, &v) < 0 || *end ||
		    v > FAULTAROUND_ORDER_LIMIT) {
			seterr(err, errlen,
			       "bad size '%s': order must be a number from 0 to %d",
			       QUOTE(s, q), FAULTAROUND_ORDER_LIMIT);
			errno = EINVAL;
			return -1;
		}
		size->kind = FAULTAROUND_SIZE_ORDER;
		size->value = v;
		return 0;
	}
	errno = 0;
	if (parse_decimal(s, &end, &v) < 0) {
		if (errno == ERANGE) {
			seterr(err, errlen, "bad size '%s': too large", QUOTE(s, q));
			return -1;
		}
		seterr(err, errlen,
		       "bad size '%s': expected bytes with optional K/M/G/T suffix, 'order:N', 'auto' or 'unset'",
		       QUOTE(s, q));
		errno = EINVAL;
		return -1;
	}
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	default:
		seterr(err, errlen, "bad size '%s': unknown suffix '%s'", QUOTE(s, q),
		       QUOTE(end, q2));
		errno = EINVAL;
		return -1;
	}
	if (shift && end[1]) {
		seterr(err, errlen, "bad size '%s': trailing garbage '%s'",
		       QUOTE(s, q), QUOTE(end + 1, q2));
		errno = EINVAL;
		return -1;
	}
	if (shift && v > (~0ULL >> shift)) {
		seterr(err, errlen, "bad size '%s': too large", QUOTE(s, q));
		errno = ERANGE;
		return -1;
	}
	size->kind = FAULTAROUND_SIZE_BYTES;
	size->value = v << shift;
	return 0;
}

int faultaround_size_to_order(const struct faultaround_size *size)
{
	int max;

	if (!size) {
		errno = EINVAL;
		return -1;
	}
	switch (size->kind) {
	case FAULTAROUND_SIZE_UNSET:
		return FAULTAROUND_UNSET;
	case FAULTAROUND_SIZE_AUTO:
		return FAULTAROUND_AUTO;
	case FAULTAROUND_SIZE_ORDER:
		if (size->value > FAULTAROUND_ORDER_LIMIT)
			break;
		return (int)size->value;
	case FAULTAROUND_SIZE_BYTES:
		max = faultaround_max_order();
		if (max < 0)
			return -1;
		return faultaround_bytes_to_order(
			size->value > (size_t)-1 ? (size_t)-1 : (size_t)size->value,
			faultaround_page_size(), max);
	}
	errno = EINVAL;
	return -1;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Trim blanks in place, returning the new start. */
static char *trim(char *s, char *e)
{
	while (s < e && is_blank(*s))
		s++;
	while (e > s && is_blank(e[-1]))
		e--;
	*e = '\0';
	return s;
}

struct faultaround_rules *faultaround_rules_parse(const char *s, char *err,
						  size_t errlen)
{
	struct faultaround_rules *r;
	size_t n = 1, i = 0;
	char *p, *next;
	const char *c;

	if (!s) {
		seterr(err, errlen, "missing rules");
		errno = EINVAL;
		return NULL;
	}
	for (c = s; *c; c++)
		n += *c == ';';
	r = calloc(1, sizeof(*r) + n * sizeof(r->rule[0]));
	if (!r || !(r->storage = strdup(s))) {
		free(r);
		seterr(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	for (p = r->storage; p; p = next) {
		char *semi = strchr(p, ';');
		char *eq, *glob, *size, *rule;
		char serr[160], q[128];

		next = semi ? semi + 1 : NULL;
		rule = trim(p, semi ? semi : p + strlen(p));
		if (!*rule) {
			if (!next && i > 0)	/* one trailing ';' is fine */
				break;
			if (i || next)
				seterr(err, errlen, "rule %zu: empty rule", i + 1);
			else
				seterr(err, errlen, "empty rule list");
			goto bad;
		}
		eq = strchr(rule, '=');
		if (!eq) {
			seterr(err, errlen, "rule %zu ('%s'): missing '=' (expected GLOB=SIZE)",
			       i + 1, QUOTE(rule, q));
			goto bad;
		}
		glob = trim(rule, eq);
		size = trim(eq + 1, eq + 1 + strlen(eq + 1));
		if (!*glob) {
			seterr(err, errlen, "rule %zu: empty pattern before '='", i + 1);
			goto bad;
		}
		if (faultaround_parse_size(size, &r->rule[i].size, serr,
					   sizeof(serr)) < 0) {
			seterr(err, errlen, "rule %zu ('%s'): %s", i + 1,
			       QUOTE(glob, q), serr);
			goto bad;
		}
		r->rule[i].glob = glob;
		r->rule[i].whole_path = strchr(glob, '/') != NULL;
		i++;
	}
	r->count = i;
	return r;
bad:
	faultaround_rules_free(r);
	errno = EINVAL;
	return NULL;
}

/* Rules files are written by hand; a bigger one is a mistake (a binary). */
#define FA_RULES_FILE_MAX	(4u << 20)

/*
 * Only a regular file is read.  A rules path is named by the environment of
 * whatever program the shim is preloaded into: a FIFO without a writer
 * would block it before main(), and /dev/stdin or another pipe would hand
 * the parser what the program itself reads.  O_NONBLOCK makes the open of
 * a FIFO return at once, so that fstat() can refuse it; stat() first
 * spares a device the open, which for some has side effects.  EISDIR for a
 * directory, as read() would say; EINVAL for anything else.
 */
static int open_regular(const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode))
		goto refuse;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	if (S_ISREG(st.st_mode))
		return fd;
	close(fd);
refuse:
	errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	return -1;
}

/* The whole of path, NUL-terminated, in a new buffer; NULL/errno. */
static char *read_whole(const char *path, size_t *lenp)
{
	size_t len = 0, cap = 4096;
	char *buf = NULL, *nbuf;
	ssize_t n;
	int fd = open_regular(path), err;

	if (fd < 0)
		return NULL;
	for (;;) {
		if (len + 1 >= cap || !buf) {
			if (buf)
				cap *= 2;
			if (cap > FA_RULES_FILE_MAX + 2) {
				errno = EFBIG;
				goto fail;
			}
			nbuf = realloc(buf, cap);
			if (!nbuf)
				goto fail;
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*lenp = len;
	return buf;
fail:
	err = errno;
	free(buf);
	close(fd);
	errno = err;
	return NULL;
}

struct faultaround_rules *faultaround_rules_parse_file(const char *path,
						       char *err, size_t errlen)
{
	struct faultaround_rules *r;
	size_t len, lineno = 0, out = 0;
	char *text, *joined, *line, *next, *l, *e;
	char lerr[256], q[128];
	int saved;

	if (!path) {
		seterr(err, errlen, "missing rules file");
		errno = EINVAL;
		return NULL;
	}
	text = read_whole(path, &len);
	if (!text) {
		saved = errno;
		seterr(err, errlen, "%s: %s", QUOTE(path, q),
		       saved == EFBIG ? "larger than 4 MiB" :
		       saved == EINVAL ? "not a regular file" : strerror(saved));
		errno = saved;
		return NULL;
	}
	if (strlen(text) != len) {
		seterr(err, errlen, "%s: not a text file (NUL byte)", QUOTE(path, q));
		free(text);
		errno = EINVAL;
		return NULL;
	}
	joined = malloc(len + 1);
	if (!joined) {
		free(text);
		seterr(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		l = trim(line, line + strlen(line));
		if (!*l || *l == '#')
			continue;
		r = faultaround_rules_parse(l, lerr, sizeof(lerr));
		if (!r) {
			saved = errno;
			seterr(err, errlen, "%s:%zu: %s", QUOTE(path, q), lineno, lerr);
			free(text);
			free(joined);
			errno = saved;
			return NULL;
		}
		faultaround_rules_free(r);
		/* The line parsed, so it ends in at most one ';'. */
		e = l + strlen(l);
		if (e[-1] == ';')
			*--e = '\0';
		if (out)
			joined[out++] = ';';
		memcpy(joined + out, l, (size_t)(e - l));
		out += (size_t)(e - l);
	}
	joined[out] = '\0';
	free(text);
	if (!out) {
		free(joined);
		seterr(err, errlen, "%s: no rules (only blank lines and comments)",
		       QUOTE(path, q));
		errno = EINVAL;
		return NULL;
	}
	r = faultaround_rules_parse(joined, lerr, sizeof(lerr));
	saved = errno;
	free(joined);
	if (!r)
		seterr(err, errlen, "%s: %s", QUOTE(path, q), lerr);
	errno = saved;
	return r;
}

const struct faultaround_size *
faultaround_rules_match(const struct faultaround_rules *rules, const char *path)
{
	const char *base;
	size_t i;

	if (!rules || !path)
		return NULL;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (i = 0; i < rules->count; i++) {
		const struct fa_rule *rl = &rules->rule[i];

		if (!fnmatch(rl->glob, rl->whole_path ? path : base, 0))
			return &rl->size;
	}
	return NULL;
}

size_t faultaround_rules_count(const struct faultaround_rules *rules)
{
	return rules ? rules->count : 0;
}

const struct faultaround_size *fa_rules_size(const struct faultaround_rules *rules,
					     size_t i, const char **glob)
{
	if (!rules || i >= rules->count)
		return NULL;
	if (glob)
		*glob = rules->rule[i].glob;
	return &rules->rule[i].size;
}

void faultaround_rules_free(struct faultaround_rules *rules)
{
	if (!rules)
		return;
	free(rules->storage);
	free(rules);
}
