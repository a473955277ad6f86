// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * window: how many pages does one read fault map?  Maps a cached file at an
 * address aligned to the largest window, optionally hints it, touches one
 * page and counts the pages that got a page-table entry.
 *
 *   window            no hint: the process default, else the system default
 *   window ORDER      with madvise(MADV_FAULTAROUND_ORDER(ORDER))
 */
#include "example.h"

int main(int argc, char **argv)
{
	size_t page, window_pages, len;
	int max, order = FAULTAROUND_UNSET, def;
	char defs[16];
	char *p;
	int fd;

	if (!example_supported())
		return 0;
	page = faultaround_page_size();
	max = faultaround_max_order();
	window_pages = (size_t)1 << max;
	len = window_pages * page;
	fd = example_file(window_pages);
	p = example_map(fd, len, len);
	if (argc > 1) {
		order = atoi(argv[1]);
		if (faultaround_set(p, len, order) < 0) {
			fprintf(stderr, "faultaround_set(order %d): %s\n", order, strerror(errno));
			return 1;
		}
	}
	def = faultaround_get_default();
	if (def == FAULTAROUND_UNSET)
		snprintf(defs, sizeof(defs), "none");
	else
		snprintf(defs, sizeof(defs), "%d", def);
	(void)*(volatile char *)(p + (window_pages / 2) * page);
	printf("hint %-4s process default %-4s -> one read fault mapped %ld of %zu pages\n",
	       argc > 1 ? argv[1] : "none", defs,
	       example_present(p, window_pages), window_pages);
	munmap(p, len);
	close(fd);
	return 0;
}
