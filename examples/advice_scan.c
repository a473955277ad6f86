// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * advice_scan: fault-around with no number.  Scans a cached file of four
 * page tables after the advice a program may already give, and counts
 * its read faults:
 *
 *   advice_scan              no advice: the process or system default
 *   advice_scan sequential   madvise(MADV_SEQUENTIAL): the readahead window
 *   advice_scan random       madvise(MADV_RANDOM): no fault-around
 *   advice_scan auto         faultaround_set(FAULTAROUND_AUTO): the kernel
 *                            sizes each fault's window
 */
#include "example.h"

static int advise(char *p, size_t len, const char *how)
{
	if (!strcmp(how, "sequential"))
		return madvise(p, len, MADV_SEQUENTIAL);
	if (!strcmp(how, "random"))
		return madvise(p, len, MADV_RANDOM);
	if (!strcmp(how, "auto"))
		return faultaround_set(p, len, FAULTAROUND_AUTO);
	errno = EINVAL;
	return -1;
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "none";
	size_t page, pages, len, i;
	long faults = 0;
	char *p;
	int fd;

	if (!example_supported())
		return 0;
	page = faultaround_page_size();
	pages = (size_t)4 << faultaround_max_order();
	len = pages * page;
	fd = example_file(pages);
	p = example_map(fd, len, len / 4);
	if (argc > 1 && advise(p, len, how) < 0) {
		fprintf(stderr, "advice_scan: %s: %s\n", how, strerror(errno));
		return 1;
	}
	for (i = 0; i < pages; i++) {
		if (example_present(p + i * page, 1) == 0)
			faults++;
		example_touch(&p[i * page]);
	}
	printf("advice %-10s -> a scan of %zu pages took %ld read faults\n",
	       how, pages, faults);
	munmap(p, len);
	close(fd);
	return 0;
}
