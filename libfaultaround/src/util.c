// SPDX-License-Identifier: LGPL-2.1-or-later
/* Small malloc-free helpers for reading /proc and /sys files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

int fa_lines_open(struct fa_lines *lr, const char *path)
{
	lr->fd = open(path, O_RDONLY | O_CLOEXEC);
	lr->len = lr->pos = 0;
	lr->eof = 0;
	return lr->fd < 0 ? -1 : 0;
}

void fa_lines_close(struct fa_lines *lr)
{
	if (lr->fd >= 0) {
		int saved = errno;

		close(lr->fd);
		errno = saved;
	}
	lr->fd = -1;
}

/* Refill: move the unread tail to the front and read more. */
static int fa_lines_fill(struct fa_lines *lr)
{
	ssize_t n;

	if (lr->pos) {
		memmove(lr->buf, lr->buf + lr->pos, lr->len - lr->pos);
		lr->len -= lr->pos;
		lr->pos = 0;
	}
	if (lr->eof || lr->len == sizeof(lr->buf))
		return 0;
	do
		n = read(lr->fd, lr->buf + lr->len, sizeof(lr->buf) - lr->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (n == 0)
		lr->eof = 1;
	lr->len += (size_t)n;
	return 0;
}

char *fa_lines_next(struct fa_lines *lr)
{
	size_t out = 0;
	int truncated = 0;

	for (;;) {
		char *start = lr->buf + lr->pos;
		size_t avail = lr->len - lr->pos;
		char *nl = memchr(start, '\n', avail);
		size_t take = nl ? (size_t)(nl - start) : avail;
		size_t room = sizeof(lr->line) - 1 - out;

		if (!truncated) {
			size_t copy = take < room ? take : room;

			memcpy(lr->line + out, start, copy);
			out += copy;
			if (copy < take)
				truncated = 1;
		}
		if (nl) {
			lr->pos += take + 1;
			break;
		}
		lr->pos += take;
		if (lr->eof) {
			if (out == 0 && !truncated)
				return NULL;
			break;
		}
		if (fa_lines_fill(lr) < 0)
			return NULL;
	}
	lr->line[out] = '\0';
	return lr->line;
}

int fa_parse_maps_line(char *line, unsigned long *start, unsigned long *end,
		       char perms[5], const char **path)
{
	char *p = line, *q;
	int field;

	*start = strtoul(p, &q, 16);
	if (q == p || *q != '-')
		return -1;
	p = q + 1;
	*end = strtoul(p, &q, 16);
	if (q == p || *q != ' ')
		return -1;
	p = q + 1;
	if (strlen(p) < 5 || p[4] != ' ')
		return -1;
	memcpy(perms, p, 4);
	perms[4] = '\0';
	p += 5;
	/* offset, dev, inode */
	for (field = 0; field < 3; field++) {
		while (*p == ' ')
			p++;
		if (!*p)
			return -1;
		while (*p && *p != ' ')
			p++;
	}
	while (*p == ' ')
		p++;
	*path = p;
	return 0;
}

int fa_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

void fa_format_bytes(unsigned long long bytes, char *buf, size_t size)
{
	static const char units[] = "KMGTPE";
	int u = -1;

	while (bytes >= 1024 && bytes % 1024 == 0 && u < 5) {
		bytes /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, size, "%llu", bytes);
	else
		snprintf(buf, size, "%llu%c", bytes, units[u]);
}

const char *fa_quote(const char *s, char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	if (!size)
		return "";
	for (; s && *s && n + 1 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c != 0x7f) {
			buf[n++] = (char)c;
			continue;
		}
		if (n + 4 >= size)
			break;
		buf[n++] = '\\';
		buf[n++] = 'x';
		buf[n++] = hex[c >> 4];
		buf[n++] = hex[c & 0xf];
	}
	buf[n] = '\0';
	return buf;
}
