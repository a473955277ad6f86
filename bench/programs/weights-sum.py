# SPDX-License-Identifier: GPL-2.0
"""A reduction over a weights file through numpy.memmap, as a model
loader maps a safetensors file and reads it once: the float64 sum of
every float32 in FILE.  Every weight is a multiple of 1/256 of at most
128 in magnitude, so the sum is exact in any order and the same on every
machine.

    weights-sum.py FILE"""

import sys

import numpy as np

w = np.memmap(sys.argv[1], dtype="<f4", mode="r")
print("weights: %d values, sum %r" % (w.size, float(w.sum(dtype=np.float64))))
