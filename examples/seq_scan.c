// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * seq_scan: a sequential reader asks for a large fault-around window in
 * bytes (rounded down to a power-of-two number of pages and clamped to the
 * kernel maximum), so one read fault maps many already-cached pages.
 */
#include "example.h"

int main(void)
{
	size_t page, pages, len, window_pages, i;
	long before, after, faults = 0;
	int max, order, fd;
	char *p;

	if (!example_supported())
		return 0;
	page = faultaround_page_size();
	max = faultaround_max_order();
	window_pages = (size_t)1 << max;
	pages = 4 * window_pages;
	len = pages * page;
	fd = example_file(pages);
	p = example_map(fd, len, window_pages * page);

	/* Ask for 16M: whatever the page size, this clamps to the maximum. */
	if (faultaround_set_bytes(p, len, 16 << 20) < 0) {
		perror("faultaround_set_bytes");
		return 1;
	}
	faultaround_get(p, &order);
	printf("page size %zu, max order %d: asked 16M, got order %d (%zu bytes)\n",
	       page, max, order, page << order);

	before = example_present(p, pages);
	example_touch(&p[0]);
	after = example_present(p, pages);
	printf("one touch: %ld -> %ld pages present\n", before, after);

	/* A sequential scan now faults once per window, not once per page. */
	for (i = 0; i < pages; i++) {
		if (example_present(p + i * page, 1) == 0)
			faults++;
		example_touch(&p[i * page]);
	}
	printf("sequential scan of %zu pages took %ld read faults (%zu pages each)\n",
	       pages, faults + 1, (size_t)1 << order);
	munmap(p, len);
	close(fd);
	return 0;
}
