#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: build what is needed, boot pseries (radix) and run the tour.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
make -s -C "$top" kernel initramfs ARCH=ppc64le >"$BUILD/demo-build.log" 2>&1 ||
	{ tail -20 "$BUILD/demo-build.log" >&2; die "build failed (build/demo-build.log)"; }
QEMU_TIMEOUT=${QEMU_TIMEOUT:-300} exec "$top/scripts/qemu-run.sh" ppc64le radix demo
