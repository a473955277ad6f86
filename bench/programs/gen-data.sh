#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gen-data.sh DIR: write the real-program workloads' data into DIR (run on
# the host by scripts/programs-image.sh; the result lands in the image at
# /opt/faultaround).  Deterministic: the same files every time.
#
#   kv.db             sqlite3 database, table kv(id, k UNIQUE, v), ROWS rows
#                     of about 230 bytes (~70 MB at the default 262144)
#   lookups.sql       LOOKUPS point lookups by key, in pseudo-random order,
#                     read through mmap (PRAGMA mmap_size)
#   lookups-smoke.sql a few of them, and lookups-smoke.expected: what the
#                     host's sqlite3 answers, for the guest to compare
#   pk.sql            PK_LOOKUPS point lookups by rowid in one statement
#                     (one prepare, a B-tree descent per lookup), through
#                     mmap; pk-smoke.sql a few of them; their .expected
#   imports.expected  what imports.py prints with the host's python3
#   big.txt           ~60 MB of text lines; two of them contain
#                     "faultaround-needle", big.expected says which (as
#                     "rg -n" prints them); fio reads it too, and
#                     fio-seq.expected, fio-rand.expected say what it
#                     reports (read errors, KB read)
#   kv.mdb            LMDB database, LMDB_ROWS keys (~70 MB at the
#                     default 262144), lmdb-reads.py's; lmdb.expected and
#                     lmdb-smoke.expected: what it prints for
#                     LMDB_GETS and 200 gets (Debian's python3-lmdb)
#   weights.f32       WEIGHTS float32 (64 MB at the default 16777216),
#                     weights-sum.py's; weights.expected: its sum
set -eu
here=$(cd "$(dirname "$0")" && pwd)

dir=$1
rows=${ROWS:-262144}
lookups=${LOOKUPS:-1000}
lines=${LINES_BIG:-1000000}
pk_lookups=${PK_LOOKUPS:-4000}
lmdb_rows=${LMDB_ROWS:-262144}
lmdb_gets=${LMDB_GETS:-4000}
weights=${WEIGHTS:-16777216}
mkdir -p "$dir"
rm -f "$dir/kv.db"

# k is a bijection of id (odd multiplier mod 2^32), so lookups by key land
# all over the table and the index.
sqlite3 -batch "$dir/kv.db" >/dev/null <<SQL
PRAGMA page_size = 4096;
PRAGMA journal_mode = DELETE;
BEGIN;
CREATE TABLE kv (id INTEGER PRIMARY KEY, k TEXT NOT NULL UNIQUE, v TEXT NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $rows)
INSERT INTO kv SELECT i, printf('k%010d', (i * 2654435761) % 4294967296),
	printf('row %d %0200d', i, (i * 7919) % 1000003) FROM n;
COMMIT;
VACUUM;
SQL

# lookups NAME COUNT STEP: point lookups of ids 1 + j*STEP mod ROWS.
lookups() {
	awk -v n="$2" -v step="$3" -v rows="$rows" 'BEGIN {
		print "PRAGMA mmap_size = 268435456;"
		for (j = 0; j < n; j++) {
			id = 1 + (j * step) % rows
			k = (id * 2654435761) % 4294967296
			printf "SELECT id, k, length(v), substr(v, -12) FROM kv WHERE k = '\''k%010.0f'\'';\n", k
		}
	}' >"$dir/$1.sql"
}
lookups lookups "$lookups" 104729
lookups lookups-smoke 5 65521
sqlite3 -batch -readonly "$dir/kv.db" <"$dir/lookups-smoke.sql" >"$dir/lookups-smoke.expected"

# pk NAME COUNT: COUNT lookups by rowid, ids 1 + i*104729 mod ROWS (odd
# step, power-of-two rows: all distinct, spread over the whole table), in
# one statement, so that the lookups and not SQL parsing take the time.
# CROSS JOIN keeps the generated ids the outer loop: one rowid seek each.
pk() {
	cat >"$dir/$1.sql" <<SQL
PRAGMA mmap_size = 268435456;
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < $2 - 1)
SELECT count(*), sum(length(kv.v)), sum(kv.id) FROM s CROSS JOIN kv ON kv.id = 1 + (s.i * 104729) % $rows;
SQL
	sqlite3 -batch -readonly "$dir/kv.db" <"$dir/$1.sql" >"$dir/$1.expected"
}
pk pk "$pk_lookups"
pk pk-smoke 50

# What imports.py prints with the host's Python, for the guest to compare.
python3 "$here/imports.py" >"$dir/imports.expected"

# Park-Miller, exact in awk's doubles: the same words on every awk.
awk -v lines="$lines" 'BEGIN {
	split("page fault around order window cache radix hash table mapping " \
	      "file read kernel memory folio vma process default hint sequential " \
	      "random scan compile import lookup index btree query python sqlite " \
	      "ripgrep gcc", w, " ")
	nw = 32; x = 12345
	for (i = 1; i <= lines; i++) {
		s = sprintf("%08d", i)
		for (j = 0; j < 8; j++) {
			x = (x * 16807) % 2147483647
			s = s " " w[1 + x % nw]
		}
		if (i == 1000 || i == lines - 1000) {
			s = s " faultaround-needle"
			print i ":" s >"/dev/stderr"
		}
		print s
	}
}' >"$dir/big.txt" 2>"$dir/big.expected"

# fio's terse fields 3, 5 and 6 (job, error, KB read) for the two jobs of
# workloads.sh, 8 loops each: the whole file in 4K blocks, and 16 MB of
# random 4K blocks.
echo "seq;0;$(($(wc -c <"$dir/big.txt") / 4096 * 4 * 8))" >"$dir/fio-seq.expected"
echo "rand;0;$((16384 * 8))" >"$dir/fio-rand.expected"

# LMDB's database and what its reads print.  Debian's python3, which has
# python3-lmdb (the image's module: the format is the same on both guests,
# little-endian and 64-bit; LMDB reads the page size from the file).
/usr/bin/python3 "$here/gen-lmdb.py" "$dir/kv.mdb" "$lmdb_rows"
/usr/bin/python3 "$here/lmdb-reads.py" "$dir/kv.mdb" "$lmdb_gets" >"$dir/lmdb.expected"
/usr/bin/python3 "$here/lmdb-reads.py" "$dir/kv.mdb" 200 >"$dir/lmdb-smoke.expected"

python3 "$here/gen-weights.py" "$dir/weights.f32" "$weights" >"$dir/weights.expected"
