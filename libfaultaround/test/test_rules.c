// SPDX-License-Identifier: LGPL-2.1-or-later
/* SIZE and RULES parsing, including malformed input. */
#include <sys/stat.h>

#include "fa_test.h"
#include "kselftest_harness.h"

#define K 1024ULL

TEST(size_valid)
{
	static const struct {
		const char *s;
		enum faultaround_size_kind kind;
		unsigned long long value;
	} ok[] = {
		{ "0", FAULTAROUND_SIZE_BYTES, 0 },
		{ "1", FAULTAROUND_SIZE_BYTES, 1 },
		{ "4096", FAULTAROUND_SIZE_BYTES, 4096 },
		{ "64K", FAULTAROUND_SIZE_BYTES, 64 * K },
		{ "64k", FAULTAROUND_SIZE_BYTES, 64 * K },
		{ "1M", FAULTAROUND_SIZE_BYTES, K * K },
		{ "2G", FAULTAROUND_SIZE_BYTES, 2 * K * K * K },
		{ "1t", FAULTAROUND_SIZE_BYTES, K * K * K * K },
		{ "0K", FAULTAROUND_SIZE_BYTES, 0 },
		{ "007", FAULTAROUND_SIZE_BYTES, 7 },
		{ "18446744073709551615", FAULTAROUND_SIZE_BYTES, ~0ULL },
		{ "order:0", FAULTAROUND_SIZE_ORDER, 0 },
		{ "order:9", FAULTAROUND_SIZE_ORDER, 9 },
		{ "order:253", FAULTAROUND_SIZE_ORDER, 253 },
		{ "unset", FAULTAROUND_SIZE_UNSET, 0 },
		{ "auto", FAULTAROUND_SIZE_AUTO, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct faultaround_size sz;
		char err[128] = "";

		ASSERT_EQ(0, faultaround_parse_size(ok[i].s, &sz, err, sizeof(err)))
			TH_LOG("'%s': %s", ok[i].s, err);
		EXPECT_EQ(ok[i].kind, sz.kind) TH_LOG("'%s'", ok[i].s);
		EXPECT_EQ(ok[i].value, sz.value) TH_LOG("'%s'", ok[i].s);
	}
}

TEST(size_malformed)
{
	static const struct { const char *s; int err; } bad[] = {
		{ "", EINVAL }, { "K", EINVAL }, { "-1", EINVAL }, { "+1", EINVAL },
		{ " 64K", EINVAL }, { "64K ", EINVAL }, { "64 K", EINVAL },
		{ "1.5M", EINVAL }, { "64KB", EINVAL }, { "64KiB", EINVAL },
		{ "1Q", EINVAL }, { "0x10", EINVAL }, { "order:", EINVAL },
		{ "order:-1", EINVAL }, { "order:254", EINVAL }, { "order:x", EINVAL },
		{ "order:1x", EINVAL }, { "order: 1", EINVAL }, { "ORDER:1", EINVAL },
		{ "unsetx", EINVAL }, { "Unset", EINVAL },
		{ "autox", EINVAL }, { "Auto", EINVAL }, { "order:auto", EINVAL },
		{ "18446744073709551616", ERANGE }, { "17179869184G", ERANGE },
		{ "99999999999999999999999K", ERANGE },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct faultaround_size sz;
		char err[160] = "";

		errno = 0;
		EXPECT_EQ(-1, faultaround_parse_size(bad[i].s, &sz, err, sizeof(err)))
			TH_LOG("'%s' accepted", bad[i].s);
		EXPECT_EQ(bad[i].err, errno) TH_LOG("'%s'", bad[i].s);
		EXPECT_NE(0, err[0]) TH_LOG("'%s': no message", bad[i].s);
		if (bad[i].s[0])
			EXPECT_NE(NULL, strstr(err, bad[i].s))
				TH_LOG("message for '%s' does not quote it: %s", bad[i].s, err);
	}
	errno = 0;
	EXPECT_EQ(-1, faultaround_parse_size(NULL, NULL, NULL, 0));
	EXPECT_EQ(EINVAL, errno);
	FA_LEAK_CHECK();
}

TEST(size_to_order)
{
	struct faultaround_size sz = { FAULTAROUND_SIZE_UNSET, 0 };

	EXPECT_EQ(FAULTAROUND_UNSET, faultaround_size_to_order(&sz));
	sz.kind = FAULTAROUND_SIZE_ORDER;
	sz.value = 3;
	EXPECT_EQ(3, faultaround_size_to_order(&sz));
	sz.value = 255;
	errno = 0;
	EXPECT_EQ(-1, faultaround_size_to_order(&sz));
	EXPECT_EQ(EINVAL, errno);
	sz.kind = FAULTAROUND_SIZE_BYTES;
	sz.value = 64 * K;
	if (faultaround_supported()) {
		EXPECT_EQ(faultaround_bytes_to_order(64 * K, faultaround_page_size(),
						     faultaround_max_order()),
			  faultaround_size_to_order(&sz));
	} else {
		errno = 0;
		EXPECT_EQ(-1, faultaround_size_to_order(&sz));
		EXPECT_EQ(ENOTSUP, errno);
	}
	errno = 0;
	EXPECT_EQ(-1, faultaround_size_to_order(NULL));
	EXPECT_EQ(EINVAL, errno);
}

TEST(rules_valid)
{
	struct faultaround_rules *r;
	const struct faultaround_size *s;
	char err[256] = "";

	r = faultaround_rules_parse("*.db=0;/usr/lib/*=order:2;lib*=1M;*=2M;", err,
				    sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(4, faultaround_rules_count(r));

	s = faultaround_rules_match(r, "/data/x.db");
	ASSERT_NE(NULL, s);
	EXPECT_EQ(FAULTAROUND_SIZE_BYTES, s->kind);
	EXPECT_EQ(0, s->value);
	/* first match wins: /usr/lib/x.db is "*.db" */
	s = faultaround_rules_match(r, "/usr/lib/x.db");
	ASSERT_NE(NULL, s);
	EXPECT_EQ(0, s->value);
	/* '/' in the glob: whole path, and '*' crosses directories */
	s = faultaround_rules_match(r, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	ASSERT_NE(NULL, s);
	EXPECT_EQ(FAULTAROUND_SIZE_ORDER, s->kind);
	EXPECT_EQ(2, s->value);
	/* no '/': file name only */
	s = faultaround_rules_match(r, "/opt/lib/libfoo.so");
	ASSERT_NE(NULL, s);
	EXPECT_EQ(K * K, s->value);
	s = faultaround_rules_match(r, "/opt/bin/tool");
	ASSERT_NE(NULL, s);
	EXPECT_EQ(2 * K * K, s->value);
	faultaround_rules_free(r);

	/* blanks around items */
	r = faultaround_rules_parse("  /srv/k/* = 64K ; big.bin=unset  ", err,
				    sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(2, faultaround_rules_count(r));
	s = faultaround_rules_match(r, "/srv/k/a/b");
	ASSERT_NE(NULL, s);
	EXPECT_EQ(64 * K, s->value);
	s = faultaround_rules_match(r, "/x/big.bin");
	ASSERT_NE(NULL, s);
	EXPECT_EQ(FAULTAROUND_SIZE_UNSET, s->kind);
	EXPECT_EQ(NULL, faultaround_rules_match(r, "/x/small.bin"));
	EXPECT_EQ(NULL, faultaround_rules_match(r, "/srv/other"));
	EXPECT_EQ(NULL, faultaround_rules_match(r, NULL));
	faultaround_rules_free(r);

	EXPECT_EQ(NULL, faultaround_rules_match(NULL, "/x"));
	EXPECT_EQ(0, faultaround_rules_count(NULL));
	faultaround_rules_free(NULL);
	FA_LEAK_CHECK();
}

TEST(rules_malformed)
{
	static const struct { const char *s, *msg; } bad[] = {
		{ "", "empty rule list" },
		{ "   ", "empty rule list" },
		{ ";", "rule 1: empty rule" },
		{ ";;", "rule 1: empty rule" },
		{ "a=1M;;b=2M", "rule 2: empty rule" },
		{ "a=1M;;", "rule 2: empty rule" },
		{ "a", "rule 1 ('a'): missing '='" },
		{ "a=1M;b", "rule 2 ('b'): missing '='" },
		{ "=1M", "rule 1: empty pattern" },
		{ " =1M", "rule 1: empty pattern" },
		{ "a=", "rule 1 ('a'): empty size" },
		{ "a=1Q", "rule 1 ('a'): bad size '1Q'" },
		{ "a=1M;b=order:300", "rule 2 ('b'): bad size 'order:300'" },
		{ "a=1M;b=2M;c=-3", "rule 3 ('c'): bad size '-3'" },
		{ "*.so=64K=1M", "rule 1 ('*.so'): bad size '64K=1M'" },
		{ "a=1M,b=2M", "rule 1 ('a'): bad size '1M,b=2M'" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[256] = "";

		errno = 0;
		EXPECT_EQ(NULL, faultaround_rules_parse(bad[i].s, err, sizeof(err)))
			TH_LOG("'%s' accepted", bad[i].s);
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(0, strncmp(err, bad[i].msg, strlen(bad[i].msg)))
			TH_LOG("'%s': got '%s', want '%s...'", bad[i].s, err, bad[i].msg);
	}
	errno = 0;
	EXPECT_EQ(NULL, faultaround_rules_parse(NULL, NULL, 0));
	EXPECT_EQ(EINVAL, errno);
	FA_LEAK_CHECK();
}

TEST(rules_many)
{
	char buf[64 * 20 + 1] = "";
	struct faultaround_rules *r;
	const struct faultaround_size *s;
	int i;

	for (i = 0; i < 64; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 "f%02d=order:%d;", i, i % 10);
	r = faultaround_rules_parse(buf, NULL, 0);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(64, faultaround_rules_count(r));
	s = faultaround_rules_match(r, "/a/f37");
	ASSERT_NE(NULL, s);
	EXPECT_EQ(7, s->value);
	faultaround_rules_free(r);
	FA_LEAK_CHECK();
}

/* A message quotes the input with its control characters escaped, so that
 * echoing it cannot drive a terminal. */
TEST(messages_escape_control_characters)
{
	static const char *bad[] = { "1\033[2J", "\a", "64\x7fK", "x\ny" };
	struct faultaround_size sz;
	struct faultaround_rules *r;
	char err[256], rule[64];
	size_t i, j;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		EXPECT_EQ(-1, faultaround_parse_size(bad[i], &sz, err, sizeof(err)));
		EXPECT_NE(NULL, strstr(err, "\\x")) TH_LOG("%s", err);
		for (j = 0; err[j]; j++)
			EXPECT_FALSE((unsigned char)err[j] < 0x20 || err[j] == 0x7f);
		snprintf(rule, sizeof(rule), "a\033b=%s", bad[i]);
		err[0] = '\0';
		r = faultaround_rules_parse(rule, err, sizeof(err));
		EXPECT_EQ(NULL, r);
		faultaround_rules_free(r);
		EXPECT_NE(NULL, strstr(err, "a\\x1bb")) TH_LOG("%s", err);
		for (j = 0; err[j]; j++)
			EXPECT_FALSE((unsigned char)err[j] < 0x20 || err[j] == 0x7f);
	}
}

/* A rules path that is not a regular file is refused before anything is
 * read from it, and at once: a FIFO with no writer would otherwise block,
 * and a pipe (/dev/stdin) would lose to the parser what its program reads. */
TEST(rules_file_not_regular)
{
	char dir[] = "/tmp/fa_rules_XXXXXX", fifo[64], err[256], buf[8];
	struct faultaround_rules *r;
	int p[2];

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ASSERT_EQ(0, mkfifo(fifo, 0600));
	err[0] = '\0';
	errno = 0;
	r = faultaround_rules_parse_file(fifo, err, sizeof(err));
	EXPECT_EQ(NULL, r);
	EXPECT_EQ(EINVAL, errno);
	EXPECT_NE(NULL, strstr(err, "not a regular file")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, fifo)) TH_LOG("%s", err);
	faultaround_rules_free(r);
	unlink(fifo);
	rmdir(dir);

	/* A pipe with rules in it: refused, and the rules still in it. */
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(4, write(p[1], "a=0\n", 4));
	snprintf(fifo, sizeof(fifo), "/proc/self/fd/%d", p[0]);
	errno = 0;
	r = faultaround_rules_parse_file(fifo, err, sizeof(err));
	EXPECT_EQ(NULL, r);
	EXPECT_EQ(EINVAL, errno);
	faultaround_rules_free(r);
	EXPECT_EQ(4, read(p[0], buf, sizeof(buf)));
	close(p[0]);
	close(p[1]);

	/* A device, before any read: /dev/zero would be read to the limit. */
	errno = 0;
	r = faultaround_rules_parse_file("/dev/zero", err, sizeof(err));
	EXPECT_EQ(NULL, r);
	EXPECT_EQ(EINVAL, errno);
	EXPECT_NE(NULL, strstr(err, "/dev/zero: not a regular file")) TH_LOG("%s", err);
	faultaround_rules_free(r);

	/* A directory keeps its own errno. */
	errno = 0;
	r = faultaround_rules_parse_file("/", err, sizeof(err));
	EXPECT_EQ(NULL, r);
	EXPECT_EQ(EISDIR, errno);
	faultaround_rules_free(r);
}

TEST_HARNESS_MAIN
