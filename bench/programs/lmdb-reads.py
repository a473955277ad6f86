# SPDX-License-Identifier: GPL-2.0
"""LMDB point reads through its read-only memory map, as a key-value
service answers them: COUNT gets of keys spread over the whole database
(ids 1 + j * 104729 mod ROWS, all distinct for a power-of-two ROWS, the
number of keys in the database), in one read transaction.  Prints how many were found, their bytes and a
CRC-32 of their values: the same on every machine for the same database.

    lmdb-reads.py DB COUNT [nordahead]

nordahead opens the environment with MDB_NORDAHEAD, for which LMDB
advises the whole map MADV_RANDOM."""

import sys
import zlib

import lmdb


def main():
    path, count = sys.argv[1], int(sys.argv[2])
    nordahead = sys.argv[3:] == ["nordahead"]
    if sys.argv[3:] and not nordahead:
        sys.exit("usage: lmdb-reads.py DB COUNT [nordahead]")
    env = lmdb.open(path, subdir=False, readonly=True, lock=False,
                    readahead=not nordahead, max_readers=1)
    rows = env.stat()["entries"]
    found = nbytes = crc = 0
    with env.begin(buffers=True) as txn:
        for j in range(count):
            key = b"k%010d" % (1 + (j * 104729) % rows)
            val = txn.get(key)
            if val is not None:
                found += 1
                nbytes += len(val)
                crc = zlib.crc32(val, crc)
    print("lmdb: %d gets, %d found, %d bytes, crc32 %08x" % (count, found, nbytes, crc))


main()
