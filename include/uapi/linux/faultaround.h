/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Per-VMA and per-process fault-around hints: the userspace ABI.
 *
 * These are the numbers the kernel series in kernel/patches/ adds to
 * include/uapi/asm-generic/mman-common.h and include/uapi/linux/prctl.h.
 * This header exists for userspace built against kernel headers that predate
 * the series; every definition is guarded so it agrees with, and yields to,
 * patched headers.  selftests/uapi_numbers.c checks that the two agree.
 */
#ifndef _UAPI_LINUX_FAULTAROUND_H
#define _UAPI_LINUX_FAULTAROUND_H

/*
 * madvise(addr, len, MADV_FAULTAROUND_ORDER(order)) sets the fault-around
 * order of every VMA in [addr, addr + len): a read fault on a file page then
 * maps the naturally aligned window of 2^order pages around it that is
 * already in the page cache, clamped to the VMA, to one page table and to
 * EOF.  Order 0 maps only the faulting page.
 *
 * The order travels in the advice's high bits, the way mmap() flags carry
 * MAP_HUGE_SHIFT: bits [MADV_FAULTAROUND_SHIFT, MADV_FAULTAROUND_SHIFT + 8)
 * hold order + 1.  A field of zero, i.e. plain MADV_FAULTAROUND, removes the
 * hint so that the VMA follows the process default again.
 */
#ifndef MADV_FAULTAROUND
#define MADV_FAULTAROUND		26	/* set/clear fault-around order */
#endif
#ifndef MADV_FAULTAROUND_SHIFT
#define MADV_FAULTAROUND_SHIFT		8
#define MADV_FAULTAROUND_MASK		0xff
#define MADV_FAULTAROUND_ORDER(order)	\
	(MADV_FAULTAROUND | (((order) + 1) << MADV_FAULTAROUND_SHIFT))
#define MADV_FAULTAROUND_UNSET		MADV_FAULTAROUND
#endif

/*
 * prctl(PR_SET_FAULTAROUND, order, 0, 0, 0) sets the process default used by
 * VMAs without a hint; it is inherited by fork() and kept across execve().
 * PR_FAULTAROUND_UNSET removes it (follow the system default).
 * prctl(PR_GET_FAULTAROUND, 0, 0, 0, 0) returns the order, or
 * PR_FAULTAROUND_UNSET when none is set; errors return -1 with errno.
 */
#ifndef PR_SET_FAULTAROUND
#define PR_SET_FAULTAROUND		74
#define PR_GET_FAULTAROUND		75
#endif
#ifndef PR_FAULTAROUND_UNSET
#define PR_FAULTAROUND_UNSET		255
#endif

#endif /* _UAPI_LINUX_FAULTAROUND_H */
