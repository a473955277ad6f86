// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * random_lookup: a random-access reader (an index, a hash table in a file)
 * asks for order 0, so each fault maps only the page it needs and the page
 * table does not fill with neighbours that will never be used.
 */
#include "example.h"

int main(void)
{
	size_t page, pages, len, i, touched = 0;
	int max, fd;
	char *p, *seen;
	unsigned int seed = 12345;

	if (!example_supported())
		return 0;
	page = faultaround_page_size();
	max = faultaround_max_order();
	pages = (size_t)4 << max;
	len = pages * page;
	fd = example_file(pages);
	p = example_map(fd, len, page << max);
	seen = calloc(pages, 1);
	if (!seen)
		return 1;

	if (faultaround_set(p, len, 0) < 0) {
		perror("faultaround_set");
		return 1;
	}
	for (i = 0; i < 32; i++) {
		size_t k = (size_t)rand_r(&seed) % pages;

		example_touch(&p[k * page]);
		touched += !seen[k];
		seen[k] = 1;
	}
	printf("order 0: %zu distinct pages touched, %ld pages present (of %zu)\n",
	       touched, example_present(p, pages), pages);

	/* The same lookups with the process/system default, for comparison. */
	munmap(p, len);
	p = example_map(fd, len, page << max);
	memset(seen, 0, pages);
	seed = 12345;
	for (i = 0; i < 32; i++)
		example_touch(&p[((size_t)rand_r(&seed) % pages) * page]);
	printf("default: same lookups leave %ld pages present\n",
	       example_present(p, pages));
	munmap(p, len);
	free(seen);
	close(fd);
	return 0;
}
