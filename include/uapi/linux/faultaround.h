/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Per-VMA and per-process fault-around hints: the userspace ABI.
 *
 * These are the numbers the kernel series in kernel/patches/ adds to
 * include/uapi/asm-generic/mman-common.h (and the alpha, mips, parisc and
 * xtensa mman.h) and include/uapi/linux/prctl.h.  This header exists for
 * userspace built against kernel headers that predate the series; every
 * definition is guarded so it agrees with, and yields to, patched headers,
 * and spelled as they spell it, token for token, so that it may also come
 * before them.
 * selftests/uapi_numbers.sh checks that the two agree.
 *
 * The numbers are provisional until the kernel maintainers assign them, and
 * chosen so that sequential allocation never reaches them: MADV_FAULTAROUND
 * is 0xfa, not the next free advice (26), and the prctl options are ASCII
 * tags like PR_SET_VMA's, not the next free options (74 and 75 became the
 * shadow-stack prctls in Linux 6.13).  Use the names, never the values.
 */
#ifndef _UAPI_LINUX_FAULTAROUND_H
#define _UAPI_LINUX_FAULTAROUND_H

/*
 * One value, the same for both calls, says what to do:
 *   0 to 253  an order: a read fault on a file page then also maps the pages
 *             of the naturally aligned window of 2^order pages around it
 *             that are already in the page cache, clamped to the VMA, to one
 *             page table and to EOF.  Order 0 asks for no fault-around.
 *   254       the self-sizing window ("auto"): the VMA starts with no
 *             fault-around and sizes its window from its own faults, as
 *             readahead sizes its window from a file's reads.
 *   255       unset: madvise() removes the VMA's hint, so that it follows
 *             the process default again; prctl() clears the process
 *             default, so that the system default applies.
 * Every order in that range is accepted, whatever the machine.  The largest
 * that takes effect is one page table of the running MMU, since a window
 * never crosses one, and at most 9 (512 pages, the MADV_SEQUENTIAL cap, so
 * that no process maps more under one PTE lock than an x86-64 fault can):
 * /sys/kernel/mm/faultaround/max_order.  A larger order is stored as that
 * largest, so that the same request works on every
 * machine, and smaps, status and PR_GET_FAULTAROUND show the order in
 * effect.
 */

/*
 * madvise(addr, len, MADV_FAULTAROUND_ORDER(order)) gives every VMA in
 * [addr, addr + len) the value as its hint.  The value travels in the
 * advice's high bits, the way mmap() flags carry MAP_HUGE_SHIFT: bits
 * [MADV_FAULTAROUND_SHIFT, MADV_FAULTAROUND_SHIFT + 8) hold it, so plain
 * MADV_FAULTAROUND is order 0, MADV_FAULTAROUND_AUTO holds 254 and
 * MADV_FAULTAROUND_UNSET 255.  Every value of the field is valid; bits above
 * it fail with EINVAL.
 */
#ifndef MADV_FAULTAROUND
#define MADV_FAULTAROUND		0xfa	/* set fault-around order */
#endif
#ifndef MADV_FAULTAROUND_SHIFT
#define MADV_FAULTAROUND_SHIFT		8
#define MADV_FAULTAROUND_MASK		0xff
#define MADV_FAULTAROUND_ORDER(order)	\
	(MADV_FAULTAROUND | ((order) << MADV_FAULTAROUND_SHIFT))
#endif
#ifndef MADV_FAULTAROUND_AUTO
#define MADV_FAULTAROUND_AUTO		MADV_FAULTAROUND_ORDER(254)
#endif
#ifndef MADV_FAULTAROUND_UNSET
#define MADV_FAULTAROUND_UNSET		MADV_FAULTAROUND_ORDER(255)
#endif

/*
 * prctl(PR_SET_FAULTAROUND, value, 0, 0, 0) sets the process default used
 * by VMAs without a hint: an order, PR_FAULTAROUND_AUTO (254) or
 * PR_FAULTAROUND_UNSET (255, clear it: follow the system default); a value
 * above 255 fails with EINVAL.  The default is inherited by fork() and kept
 * across execve(), except an execve() that gains privilege (set-user-ID,
 * set-group-ID, file capabilities: whenever AT_SECURE is set), which clears
 * it.  prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0) returns the order in effect,
 * PR_FAULTAROUND_AUTO, or PR_FAULTAROUND_UNSET when none is set; errors
 * return -1 with errno.
 */
#ifndef PR_SET_FAULTAROUND
#define PR_SET_FAULTAROUND		0x46415253	/* "FARS" */
#define PR_GET_FAULTAROUND		0x46415247	/* "FARG" */
#endif
#ifndef PR_FAULTAROUND_AUTO
#define PR_FAULTAROUND_AUTO		254	/* size the window adaptively */
#endif
#ifndef PR_FAULTAROUND_UNSET
#define PR_FAULTAROUND_UNSET		255
#endif

#endif /* _UAPI_LINUX_FAULTAROUND_H */
