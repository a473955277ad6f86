// SPDX-License-Identifier: GPL-2.0
/*
 * Random arguments: a bounded storm of madvise(MADV_FAULTAROUND...) and
 * prctl(PR_*_FAULTAROUND) calls with random addresses, lengths and
 * encodings against a map of mixed VMAs.  The process must survive, every
 * error must be a documented one, no valid value may be refused, and the
 * data must be intact.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "fa_util.h"

#define AREA_PAGES	64

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned long calls(void)
{
	const char *s = getenv("FA_FUZZ_CALLS");

	return s ? strtoul(s, NULL, 0) : 100000;
}

/*
 * The calls stop after FUZZ_SECONDS too: a debug kernel under TCG, on a
 * host with other guests, does not finish 100000 of them inside the
 * harness's 30 s, and a timeout there says nothing about the kernel.
 */
#define FUZZ_SECONDS	15

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* An advice: mostly well-formed, sometimes garbage in every bit. */
static int random_advice(int max_order)
{
	switch (next() % 6) {
	case 0:
		return MADV_FAULTAROUND_UNSET;
	case 1:
		return MADV_FAULTAROUND_ORDER((int)(next() % (max_order + 3)));
	case 2:
		/*
		 * up to 253 are clamped, 254 is the self-sizing window,
		 * 255 removes the hint
		 */
		return MADV_FAULTAROUND_ORDER((int)(next() % 256));
	case 3:
		return MADV_FAULTAROUND | (int)((next() & 0xffffff) << 8);
	case 4:
		return (int)next();
	default:
		return MADV_FAULTAROUND_ORDER(max_order);
	}
}

/* Only the field's bits set besides MADV_FAULTAROUND: any 8-bit value. */
static bool well_formed(int advice)
{
	return (advice & ~(MADV_FAULTAROUND_MASK << MADV_FAULTAROUND_SHIFT)) ==
	       MADV_FAULTAROUND;
}

TEST(random_madvise_and_prctl)
{
	unsigned long i, n = calls();
	double start = now();
	const char *dir = getenv("FA_TESTDIR") ?: "/tmp";
	size_t area = AREA_PAGES * fa_page_size;
	uint8_t *base, *anon;
	int fd, ret, err, max = fa_max_order();

	if (max < 0)
		SKIP(return, "kernel without MADV_FAULTAROUND");

	/* [file shared | file private | anon | hole | PROT_NONE | file shared] */
	fd = fa_make_file(dir, AREA_PAGES);
	ASSERT_GE(fd, 0);
	base = mmap(NULL, 6 * area, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(base, MAP_FAILED);
	ASSERT_NE(mmap(base, area, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0), MAP_FAILED);
	ASSERT_NE(mmap(base + area, area, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_FIXED, fd, 0), MAP_FAILED);
	anon = mmap(base + 2 * area, area, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	ASSERT_EQ(anon, base + 2 * area);
	memset(anon, 0x5a, area);
	ASSERT_EQ(munmap(base + 3 * area, area), 0);
	ASSERT_NE(mmap(base + 5 * area, area, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0),
		  MAP_FAILED);

	for (i = 0; i < n; i++) {
		uint8_t *addr = base + (next() % (6 * AREA_PAGES + 4)) * fa_page_size;
		size_t len = (next() % (3 * AREA_PAGES)) * fa_page_size;
		/* Within the map, for EINVAL to refuse nothing but the call. */
		bool valid = (uintptr_t)addr + len <= (uintptr_t)(base + 6 * area);

		if (next() % 16 == 0) {
			addr += next() % fa_page_size;	/* unaligned */
			valid = false;
		}
		if (next() % 64 == 0) {
			len = (size_t)next();		/* huge or wrapping */
			valid = false;
		}

		if (next() % 4 == 0) {
			unsigned long a2 = next() % 8 == 0 ? next() : next() % 258;
			unsigned long a3 = next() % 8 == 0;

			valid = a2 <= 255 && !a3;
			ret = prctl(PR_SET_FAULTAROUND, a2, a3, 0, 0);
		} else {
			int advice = random_advice(max);

			valid = valid && well_formed(advice);
			ret = madvise(addr, len, advice);
		}
		err = errno;
		if (ret) {
			ASSERT_TRUE(err == EINVAL || err == ENOMEM)
				TH_LOG("call %lu: unexpected errno %d", i, err);
			/* Every value of the 8-bit field, and of the prctl's, is valid. */
			ASSERT_FALSE(valid && err == EINVAL)
				TH_LOG("call %lu: EINVAL for a valid value", i);
		}
		/* Touch the file mappings now and then under the new hints. */
		if (i % 1024 == 0) {
			size_t off = (next() % AREA_PAGES) * fa_page_size;

			ASSERT_EQ(fa_touch(base + off), fa_pattern(off));
			ASSERT_EQ(fa_touch(base + 5 * area + off), fa_pattern(off));
			if (now() - start > FUZZ_SECONDS)
				break;
		}
	}
	ksft_print_msg("%lu of %lu calls in %.1f s\n", i, n, now() - start);
	prctl(PR_SET_FAULTAROUND, PR_FAULTAROUND_UNSET, 0, 0, 0);

	for (i = 0; i < area; i++) {
		ASSERT_EQ(base[i], fa_pattern(i));
		ASSERT_EQ(base[area + i], fa_pattern(i));
		ASSERT_EQ(anon[i], 0x5a);
		ASSERT_EQ(base[5 * area + i], fa_pattern(i));
	}
	munmap(base, 6 * area);
	close(fd);
}

TEST_HARNESS_MAIN
