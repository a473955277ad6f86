// SPDX-License-Identifier: LGPL-2.1-or-later
/* faultaround_bytes_to_order(): pure rounding, 4K and 64K pages. */
#include <stdint.h>
#include "fa_test.h"
#include "kselftest_harness.h"

#define K 1024UL
#define M (1024UL * K)
#define G (1024UL * M)

struct row { size_t bytes, page; int max, order; };

static const struct row rows[] = {
	/* 4K pages, x86_64: max order 9 (2M) */
	{ 0, 4 * K, 9, 0 },
	{ 1, 4 * K, 9, 0 },
	{ 4 * K - 1, 4 * K, 9, 0 },
	{ 4 * K, 4 * K, 9, 0 },
	{ 8 * K - 1, 4 * K, 9, 0 },
	{ 8 * K, 4 * K, 9, 1 },
	{ 12 * K, 4 * K, 9, 1 },		/* 3 pages round down to 2 */
	{ 64 * K - 1, 4 * K, 9, 3 },
	{ 64 * K, 4 * K, 9, 4 },		/* the kernel default */
	{ 96 * K, 4 * K, 9, 4 },
	{ 1 * M, 4 * K, 9, 8 },
	{ 2 * M, 4 * K, 9, 9 },
	{ 4 * M, 4 * K, 9, 9 },			/* clamped */
	{ 1 * G, 4 * K, 9, 9 },
	{ SIZE_MAX, 4 * K, 9, 9 },
	/* 64K pages, ppc64 radix: max order 5 (2M) */
	{ 0, 64 * K, 5, 0 },
	{ 4 * K, 64 * K, 5, 0 },
	{ 64 * K - 1, 64 * K, 5, 0 },
	{ 64 * K, 64 * K, 5, 0 },
	{ 96 * K, 64 * K, 5, 0 },
	{ 128 * K, 64 * K, 5, 1 },
	{ 192 * K, 64 * K, 5, 1 },
	{ 1 * M, 64 * K, 5, 4 },
	{ 2 * M, 64 * K, 5, 5 },
	{ 16 * M, 64 * K, 5, 5 },
	{ SIZE_MAX, 64 * K, 5, 5 },
	/* 64K pages, ppc64 hash: max order 8 (16M) */
	{ 2 * M, 64 * K, 8, 5 },
	{ 8 * M, 64 * K, 8, 7 },
	{ 16 * M, 64 * K, 8, 8 },
	{ 32 * M, 64 * K, 8, 8 },
	/* max order 0: always 0 */
	{ 1 * G, 4 * K, 0, 0 },
};

TEST(table)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];

		EXPECT_EQ(r->order, faultaround_bytes_to_order(r->bytes, r->page, r->max))
			TH_LOG("bytes %zu page %zu max %d", r->bytes, r->page, r->max);
	}
}

/* Every exact power of two and its predecessor, for both page sizes. */
TEST(powers_of_two)
{
	static const size_t pages[] = { 4 * K, 16 * K, 64 * K };
	size_t p;
	int k;

	for (p = 0; p < 3; p++) {
		for (k = 0; k < 20; k++) {
			size_t b = pages[p] << k;
			int max = 12;

			EXPECT_EQ(k < max ? k : max,
				  faultaround_bytes_to_order(b, pages[p], max));
			if (k > 0)
				EXPECT_EQ(k - 1 < max ? k - 1 : max,
					  faultaround_bytes_to_order(b - 1, pages[p], max));
			EXPECT_EQ(k < max ? k : max,
				  faultaround_bytes_to_order(b + pages[p] / 2, pages[p], max));
		}
	}
}

TEST(bad_arguments)
{
	errno = 0;
	EXPECT_EQ(-1, faultaround_bytes_to_order(4096, 0, 9));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, faultaround_bytes_to_order(4096, 3000, 9));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, faultaround_bytes_to_order(4096, 4096, -1));
	EXPECT_EQ(EINVAL, errno);
}

/* The helper is pure: it works whether or not the kernel has the feature. */
TEST(no_kernel_needed)
{
	EXPECT_EQ(4, faultaround_bytes_to_order(64 * K, 4 * K, 9));
	EXPECT_EQ(0, faultaround_bytes_to_order(64 * K, 64 * K, 5));
}

TEST_HARNESS_MAIN
