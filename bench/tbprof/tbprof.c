// SPDX-License-Identifier: GPL-2.0
/*
 * tbprof: a qemu TCG plugin that counts the guest instructions executed in
 * each translation block whose start lies in [lo, hi) (by default the
 * upper half of the address space: a 64-bit guest kernel), and at exit
 * writes one line per block that ran: "vaddr instructions executions", in
 * hex and decimal.  tbprof-report.py adds the blocks up per function of a
 * System.map.  Under -icount a guest instruction is what every time in the
 * benchmarks counts, so this says where those times go.
 *
 * Plugin arguments: out=FILE (default tbprof.out), lo=HEX, hi=HEX.
 *
 * Only the few plugin entry points used are declared here, as qemu's
 * plugin API (version 2 and later) defines them: Debian ships qemu with
 * plugin support but without its plugin header.  The callbacks run on one
 * thread under -icount (vCPUs round robin), which the counters rely on.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct {
	const char *target_name;
	struct {
		int min, cur;
	} version;
	bool system_emulation;
} qemu_info_t;
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*udata_cb_t)(qemu_plugin_id_t, void *);
typedef void (*vcpu_udata_cb_t)(unsigned int, void *);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, tb_trans_cb_t);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *, vcpu_udata_cb_t,
					  int flags, void *);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, udata_cb_t, void *);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *);

#define EXPORT __attribute__((visibility("default")))
#define QEMU_PLUGIN_CB_NO_REGS 0

EXPORT int qemu_plugin_version = 2;

/* One per translation; a block translated again gets another. */
struct block {
	uint64_t vaddr, insns, execs;
	struct block *next;
};

static struct block *blocks;
static uint64_t lo = 0x8000000000000000ULL, hi = UINT64_MAX;
static const char *out = "tbprof.out";

static void block_ran(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	((struct block *)udata)->execs++;
}

static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t va = qemu_plugin_tb_vaddr(tb);
	struct block *b;

	(void)id;
	if (va < lo || va >= hi)
		return;
	b = calloc(1, sizeof(*b));
	if (!b)
		return;
	b->vaddr = va;
	b->insns = qemu_plugin_tb_n_insns(tb);
	b->next = blocks;
	blocks = b;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_ran, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void write_blocks(qemu_plugin_id_t id, void *unused)
{
	FILE *f = fopen(out, "w");
	struct block *b;

	(void)id;
	(void)unused;
	if (!f) {
		perror(out);
		return;
	}
	for (b = blocks; b; b = b->next)
		if (b->execs)
			fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", b->vaddr, b->insns,
				b->execs);
	if (fclose(f))
		perror(out);
}

static int parse_hex(const char *s, uint64_t *v)
{
	char *end;

	*v = strtoull(s, &end, 16);
	return *s && !*end ? 0 : -1;
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			       char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			out = argv[i] + 4;
		} else if (!strncmp(argv[i], "lo=", 3)) {
			if (parse_hex(argv[i] + 3, &lo))
				goto bad;
		} else if (!strncmp(argv[i], "hi=", 3)) {
			if (parse_hex(argv[i] + 3, &hi))
				goto bad;
		} else {
			goto bad;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
	qemu_plugin_register_atexit_cb(id, write_blocks, NULL);
	return 0;
bad:
	fprintf(stderr, "tbprof: bad argument '%s' (out=FILE, lo=HEX, hi=HEX)\n", argv[i]);
	return -1;
}
