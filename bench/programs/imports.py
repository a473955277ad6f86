# SPDX-License-Identifier: GPL-2.0
"""Import-heavy Python startup: standard modules, most of them backed by C
extensions (and their shared libraries: libssl, libcrypto, libffi, liblzma,
libbz2, libz, libexpat, libsqlite3, libmpdec), each used once.  Prints one
digest of the results and OK, the same on every machine."""

import array
import asyncio
import base64
import binascii
import bz2
import collections
import csv
import ctypes
import datetime
import decimal
import email.message
import fractions
import hashlib
import heapq
import http.client
import io
import json
import logging
import lzma
import math
import pickle
import random
import re
import select
import socket
import sqlite3
import ssl
import statistics
import struct
import subprocess
import tomllib
import unicodedata
import urllib.parse
import uuid
import xml.etree.ElementTree as ET
import zlib

parts = []
parts.append(json.dumps({"a": [1, 2.5, None], "b": "x"}, sort_keys=True))
decimal.getcontext().prec = 30
parts.append(str(decimal.Decimal(1) / decimal.Decimal(7)))
parts.append(str(fractions.Fraction(3, 12)))
db = sqlite3.connect(":memory:")
db.execute("CREATE TABLE t (x)")
db.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(100)])
parts.append(str(db.execute("SELECT sum(x) FROM t").fetchone()[0]))
parts.append(ssl.OPENSSL_VERSION.split()[0])
parts.append(hashlib.sha256(b"faultaround").hexdigest()[:16])
parts.append(str(ctypes.sizeof(ctypes.c_long) in (4, 8)))
blob = b"fault-around " * 1000
for mod in (lzma, bz2, zlib):
    assert mod.decompress(mod.compress(blob)) == blob
parts.append(base64.b64encode(binascii.unhexlify("deadbeef")).decode())
parts.append(str(array.array("i", range(5)).tolist()))
parts.append(str(collections.Counter("faultaround").most_common(1)))
buf = io.StringIO()
csv.writer(buf).writerow(["a", 1])
parts.append(buf.getvalue().strip())
parts.append(str(datetime.date(2026, 1, 1).isoformat()))
msg = email.message.EmailMessage()
msg["Subject"] = "hi"
parts.append(msg["Subject"])
parts.append(str(heapq.nsmallest(2, [5, 3, 9, 1])))
parts.append(str(http.client.responses[200]))
logging.getLogger("fa").debug("quiet")
parts.append(str(math.isqrt(10**6)))
parts.append(str(pickle.loads(pickle.dumps({"k": (1, 2)}))))
parts.append(str(random.Random(7).randint(0, 1000)))
parts.append(re.sub(r"(\w+)-(\w+)", r"\2-\1", "fault-around"))
parts.append(str(hasattr(select, "poll") and hasattr(socket, "socketpair")))
parts.append(str(statistics.mean([1, 2, 3, 4])))
parts.append(str(struct.pack("<I", 1)))
parts.append(str(subprocess.list2cmdline(["a b", "c"])))
parts.append(str(tomllib.loads('x = 1')["x"]))
parts.append(unicodedata.name("\u00e9"))
parts.append(urllib.parse.quote("a b/c"))
parts.append(str(uuid.uuid5(uuid.NAMESPACE_DNS, "faultaround")))
parts.append(ET.fromstring("<a><b>t</b></a>").find("b").text)
# Imported, not run: an event loop needs AF_UNIX, which the guests lack.
parts.append(str(asyncio.iscoroutinefunction(asyncio.sleep)))

print(hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16], "OK")
