#!/usr/bin/env python3
"""summarize.py runs.csv: mean and sample stddev per pattern x cache state."""
import csv, statistics as st, sys

rows = list(csv.DictReader(open(sys.argv[1] if len(sys.argv) > 1 else 'runs.csv')))
pats = ['seq', 'stride16', 'rand', 'thr2half', 'thr2alt']
fields = ['start', 'size', 'async_size', 'ra_pages', 'mmap_miss', 'prev_pos']

def ms(v):
    v = [float(x) for x in v]
    m = st.mean(v)
    s = st.stdev(v) if len(v) > 1 else 0.0
    return f"{m:.1f} ± {s:.1f}" if s else f"{m:.0f} ± 0"

print("| pattern | cache | n | touches | faults (tracepoint) | minflt (getrusage) | filemap_fault calls | faults with f_ra change | f_ra field changes (start/size/async_size/ra_pages/mmap_miss/prev_pos) | readahead submissions (ra_order) / of which async | fwd-near faults (1..32 pages after previous) | same-delta faults | VMA Rss / FilePmdMapped (kB) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for state in ['warm', 'cold']:
    for p in pats:
        r = [x for x in rows if x['pattern'] == p and x['state'] == state]
        if not r:
            continue
        chg = '/'.join(f"{st.mean(float(x['ch_' + f]) for x in r):.1f}" for f in fields)
        print(f"| {p} | {state} | {len(r)} | {r[0]['touches']} | {ms(x['faults'] for x in r)} | "
              f"{ms(x['minflt'] for x in r)} | {ms(x['filemap_fault_calls'] for x in r)} | "
              f"{ms(x['faults_with_fra_change'] for x in r)} | {chg} | "
              f"{ms(x['ra_order'] for x in r)} / {ms(x['ra_async'] for x in r)} | "
              f"{ms(x['fwd_near_faults'] for x in r)} | {ms(x['same_delta_faults'] for x in r)} | "
              f"{ms(x['vma_rss_kb'] for x in r)} / {ms(x['vma_file_pmd_mapped_kb'] for x in r)} |")
