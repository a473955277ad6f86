# SPDX-License-Identifier: GPL-2.0
#
# faultaround: per-VMA fault-around hints for Linux.  See README.md.
#
#   make demo                      the project in one screen (pseries guest)
#   make check                     everything CI runs; ends "N passed, N failed"
#
#   make deps                      install the Debian packages we need
#   make kernel  [ARCH=ppc64le|x86_64] [VARIANT=debug]
#   make guest   [ARCH=...]        cross-build tests, library, CLI, examples
#   make initramfs [ARCH=...]
#   make programs [ARCH=...]       the guest's disk of Debian programs
#   make qemu-check [ARCH=...] [MMU=radix|hash] [VARIANT=debug]
#   make qemu-shell [ARCH=...] [MMU=...]
#   make host-check                native tests on this machine's kernel
#   make checkpatch                scripts/checkpatch.pl --strict on the series
#   make check-plain               the guests of make check on the plain kernels
#   make deb                       Debian packages of the library, in build/deb
#                                  (needs only dpkg-dev, debhelper, lintian)
#   make soak                      soak-mm, then soak-stress (docs/peer-tests.md: how long)
#   make soak-mm                   the kernel's mm selftests, stock against patched, every setting
#                                  [PEER_GUESTS="x86_64 pseries-radix pseries-hash"]
#   make soak-stress               stress-ng with the churner, debug kernels against their stock twins
#                                  [PEER_STRESS_GUESTS="x86_64 pseries-radix"]
#
# All output goes to build/ (ignored); nothing in the tree is written.

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD := $(TOP)/build
ARCH ?= ppc64le
MMU ?= radix
VARIANT ?=
export BUILD

ifeq ($(ARCH),ppc64le)
GUEST_CC := powerpc64le-linux-gnu-gcc
GUEST_AR := powerpc64le-linux-gnu-ar
GUEST_SYSROOT := $(BUILD)/sysroot/ppc64le
URING_FLAGS := -I$(GUEST_SYSROOT)/usr/include -L$(GUEST_SYSROOT)/usr/lib/powerpc64le-linux-gnu
else ifeq ($(ARCH),x86_64)
GUEST_CC := gcc
GUEST_AR := ar
URING_FLAGS :=
else
$(error ARCH must be ppc64le or x86_64, not '$(ARCH)')
endif

GB := $(BUILD)/$(ARCH)
# libfaultaround builds examples/ itself, into its own O; its tests that
# use the kselftest harness are a target of their own.  x86_64's selftests
# are built the kernel's way, from the series' copy in the kernel tree
# (scripts/kselftest-build.sh); pseries' from selftests/, as on the host.
SELFTESTS_FROM_TREE := $(filter x86_64,$(ARCH))
SUBDIRS := $(if $(SELFTESTS_FROM_TREE),,selftests) libfaultaround bench
GOALS_libfaultaround := all harness-tests

.PHONY: all deps kernel guest initramfs programs qemu-check qemu-shell check check-plain \
	host-check checkpatch demo bench deb soak soak-mm soak-stress clean help

all: help

help:
	@sed -n '3,26p' $(TOP)/Makefile | sed 's/^# \{0,1\}//'

deps:
	@$(TOP)/scripts/deps.sh

kernel: deps
	@$(TOP)/scripts/kernel.sh $(ARCH) $(VARIANT)

# Cross-build every guest program; each part's Makefile takes O= and CC=.
guest: deps
	@KERNEL_STEP=tree $(TOP)/scripts/kernel.sh $(ARCH)
	@$(foreach d,$(SUBDIRS),\
		$(MAKE) -s -C $(TOP)/$(d) O=$(GB)/$(d) CC=$(GUEST_CC) AR=$(GUEST_AR) \
			URING_FLAGS="$(URING_FLAGS)" LIBFA_O=$(GB)/libfaultaround \
			$(or $(GOALS_$(d)),all) || exit 1;)
	$(if $(SELFTESTS_FROM_TREE),@$(TOP)/scripts/kselftest-build.sh $(ARCH) $(GB)/selftests)

initramfs: guest
	@$(TOP)/scripts/initramfs.sh $(ARCH)

programs: deps
	@$(TOP)/scripts/programs-image.sh $(ARCH)

qemu-check: kernel initramfs programs
	@$(TOP)/scripts/qemu-run.sh $(ARCH) $(MMU) check $(VARIANT)

qemu-shell: kernel initramfs programs
	@$(TOP)/scripts/qemu-run.sh $(ARCH) $(MMU) shell $(VARIANT)

demo: deps
	@$(TOP)/scripts/demo.sh

bench: deps
	@$(TOP)/scripts/bench.sh

# The packages need no kernel, guest or cross tool chain: deb.sh installs
# what packaging itself needs, and nothing of make deps.
deb:
	@$(TOP)/scripts/deb.sh

host-check: deps
	@$(TOP)/scripts/check.sh host

checkpatch: deps
	@$(TOP)/scripts/check.sh checkpatch

check: deps
	@$(TOP)/scripts/check.sh all

check-plain: deps
	@$(TOP)/scripts/check.sh plain

soak: deps
	@$(TOP)/scripts/peer-soak.sh mm stress

soak-mm: deps
	@$(TOP)/scripts/peer-soak.sh mm

soak-stress: deps
	@$(TOP)/scripts/peer-soak.sh stress

clean:
	rm -rf $(BUILD)/host $(BUILD)/ppc64le $(BUILD)/x86_64 $(BUILD)/results $(BUILD)/deb
