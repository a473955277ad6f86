# SPDX-License-Identifier: GPL-2.0
# The real compile: zlib's example and test programs, as Debian's
# zlib1g-dev ships their C sources, built with Debian's gcc and make in the
# programs image.  The sources sit next to this file (/opt/faultaround/zlib
# in the image); objects go to the current directory:
#
#   make -f /opt/faultaround/zlib/Makefile -C OUTDIR [-j N] [PROGRAM...]
#
# gzlog.c, zran.c and infcover.c are left out: the first two have no
# main(), the third needs zlib's internal headers.
SRC := $(dir $(lastword $(MAKEFILE_LIST)))
PROGS := enough example fitblk gun gzappend gzjoin gznorm minigzip zpipe
CC := gcc
CFLAGS := -O2

all: $(PROGS)

%: $(SRC)%.c
	$(CC) $(CFLAGS) -o $@ $< -lz
