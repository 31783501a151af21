#!/usr/bin/env bash
# Issue 38's 2-core measure as an A/B on a noisy host: an older version of the package and this tree, side by side
# on disjoint pairs of cores at once (each run: 2,048 simulated evaluators, 1 island then 2, 14 rounds), then swapped,
# so that both see the same load. Source benchmarks/gpu/setup.sh first, with Ray staged as GPU.md says.
# Usage: bash benchmarks/gpu/driver_ceiling_ab.sh OUT BASE PAIRS
#   BASE:  a folder holding the other version's kernelevo/, benchmarks/driver_ceiling.py and examples/matmul_epilogue/
#          (git archive COMMIT kernelevo benchmarks/driver_ceiling.py examples/matmul_epilogue | tar -x -C BASE)
#   PAIRS: base/new pairs run at once (4 cores each: PAIRS <= cores / 4)
# Prints each run's ratio, bound and CPU a result, and the medians; the runs' files go to OUT/ab.tgz.
set -u
out=${1:?an output folder}; base=$(cd "${2:?a folder with the base version}" && pwd); pairs=${3:-3}
export RAY_AUTH_MODE=disabled PATH=/tmp/site/bin:$PATH
root=$PWD
mkdir -p "$out/ab"
run() {  # which cores tag
  local dir=$root; [ "$1" = base ] && dir=$base
  (cd "$dir" && PYTHONPATH=$dir:/tmp/site taskset -c "$2" python3 benchmarks/driver_ceiling.py --counts 2048 \
    --islands 1,2 --rounds 14 --no-profile --out "$out/ab/$1-$3.json" > "$out/ab/$1-$3.log" 2>&1)
}
for round in 1 2; do
  for p in $(seq 0 $((pairs - 1))); do
    a=$((4 * p))
    if [ $round = 1 ]; then first=base; second=new; else first=new; second=base; fi
    run $first "$a-$((a + 1))" "r$round-p$p" & sleep 2  # (staggered: each starts a Ray of its own)
    run $second "$((a + 2))-$((a + 3))" "r$round-p$p" & sleep 2
  done
  wait
done
python3 - "$out/ab" <<'PY'
import glob, json, statistics, sys
runs = {}
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    which, tag = path.rsplit("/", 1)[1][:-5].split("-", 1)
    d = json.load(open(path))
    one, two = d["rows"]
    runs.setdefault(which, []).append((tag, two["results_per_s"] / one["results_per_s"], d["split_bounds"][0]["cpu_bound_ratio"],
                                       one["steady_rest_cpu_ms_per_result"], two["steady_rest_cpu_ms_per_result"]))
print("version run ratio bound rest-ms-a-result(1 island) rest(2 islands)")
for which, rows in runs.items():
    for row in rows:
        print(which, row[0], *(round(x, 3) for x in row[1:]))
    print(which, "median", *(round(statistics.median(r[k] for r in rows), 3) for k in range(1, 5)))
PY
tar -czf "$out/ab.tgz" -C "$out" ab && rm -rf "$out/ab"
