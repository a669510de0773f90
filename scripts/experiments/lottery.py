"""Counts, per build, the runs of lottery.sh in which every message stayed within #25's bound (existentialArray and
lifetimeBoundToOwner 1.5x, closureTable 2x the C floor's median ns per message at the same width), and the median
ratio per message.    python3 scripts/experiments/lottery.py BENCH_BINARY..."""
import csv, glob, os, statistics, sys

BOUNDS = {'existentialArray': 1.5, 'lifetimeBoundToOwner': 1.5, 'closureTable': 2.0}
MESSAGES = ('didScroll', 'didEndDragging', 'shouldScrollToTop', 'viewForZooming')

for binary in sys.argv[1:]:
    tag = os.path.basename(binary)
    runs = []
    for path in sorted(glob.glob(f'/tmp/lottery-{tag}-*.csv')):
        with open(path) as file:
            runs.append({(r['strategy'], int(r['width']), r['message']): float(r['ns_per_op_median'])
                         for r in csv.DictReader(file) if r['benchmark'] == 'dispatch' and r['width'] == r['responders']})
    print(f'{tag}: {len(runs)} runs')
    for width in (1, 2):
        for strategy, bound in BOUNDS.items():
            ratio = lambda run, m: run[(strategy, width, m)] / run[('cFunctionPointer', width, m)]
            within = sum(all(ratio(run, m) <= bound for m in MESSAGES) for run in runs)
            cells = ' | '.join(f'{m[:6]} {statistics.median(ratio(run, m) for run in runs):4.2f} '
                               f'{sum(ratio(run, m) <= bound for run in runs)}/{len(runs)}' for m in MESSAGES)
            print(f'  width {width} {strategy:21} all within {within}/{len(runs)} | {cells}')
