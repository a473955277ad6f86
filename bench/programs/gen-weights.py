# SPDX-License-Identifier: GPL-2.0
"""Write the weights file of weights-sum.py: COUNT little-endian float32,
weight i being k/256 for k = (i * 2654435761 mod 2^32) >> 16, less 32768,
and print what weights-sum.py must print for it.  Deterministic.

    gen-weights.py FILE COUNT > EXPECTED"""

import array
import sys


def main():
    path, count = sys.argv[1], int(sys.argv[2])
    total = 0
    chunk = 1 << 16
    with open(path, "wb") as f:
        for base in range(0, count, chunk):
            ks = [((i * 2654435761) % (1 << 32) >> 16) - 32768
                  for i in range(base, min(base + chunk, count))]
            total += sum(ks)
            a = array.array("f", (k / 256 for k in ks))
            if sys.byteorder != "little":
                a.byteswap()
            a.tofile(f)
    print("weights: %d values, sum %r" % (count, total / 256))


main()
