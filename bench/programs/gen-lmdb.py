# SPDX-License-Identifier: GPL-2.0
"""Write the LMDB database of lmdb-reads.py: ROWS keys k0000000001..,
each with a value of 200 to 263 bytes, into the single file DB (no lock
file: the guest opens it read-only with lock=False), compacted so that
the file holds only the pages in use.  Deterministic.

    gen-lmdb.py DB ROWS"""

import os
import sys

import lmdb


def main():
    path, rows = sys.argv[1], int(sys.argv[2])
    tmp = path + ".build"
    for p in (tmp, tmp + "-lock", path):
        if os.path.exists(p):
            os.unlink(p)
    env = lmdb.open(tmp, subdir=False, map_size=1 << 30, sync=False)
    with env.begin(write=True) as txn:
        for i in range(1, rows + 1):
            x = (i * 2654435761) % (1 << 32)
            val = (b"row %d " % i) + (b"%08x" % x) * (25 + x % 8)
            txn.put(b"k%010d" % i, val, append=True)
    env.copy(path, compact=True)
    env.close()
    os.unlink(tmp)
    os.unlink(tmp + "-lock")


main()
