#!/usr/bin/env bash
# Two versions of the driver at 2,048 simulated evaluators, interleaved A B A B..., on a GPU host's 16 cores
# (source benchmarks/gpu/setup.sh first, with Ray staged as GPU.md says).
# Usage: bash benchmarks/gpu/driver_ceiling_ab.sh OUT A_ROOT A_LABEL B_ROOT B_LABEL PAIRS ISLANDS[,ISLANDS...]
#   each ROOT holds kernelevo/, benchmarks/driver_ceiling.py and examples/matmul_epilogue/ (A: `git archive`
#   of main's head, say; B: the working tree); OUT/driver_ceiling-ab.json gets every row, with its code and rep
set -u
out=${1:?} a_root=${2:?} a_label=${3:?} b_root=${4:?} b_label=${5:?} pairs=${6:-3} islands=${7:-8}
export RAY_AUTH_MODE=disabled PATH=/tmp/site/bin:$PATH
last=$(( $(nproc) > 16 ? 15 : $(nproc) - 1 ))
for rep in $(seq 1 "$pairs"); do
  for n in ${islands//,/ }; do
    for side in a b; do
      if [ $side = a ]; then root=$a_root; else root=$b_root; fi
      PYTHONPATH=$root:/tmp/site taskset -c 0-$last python3 "$root/benchmarks/driver_ceiling.py" --counts 2048 \
        --islands "$n" --no-profile --out "$out/ab-$side-$n-$rep.json" >> "$out/ab.log" 2>&1
      grep "island(s):" "$out/ab.log" | tail -1
    done
  done
done
python3 - "$out" "$a_label" "$b_label" <<'PY'
import glob, json, statistics, sys
out, labels = sys.argv[1], {"a": sys.argv[2], "b": sys.argv[3]}
rows = []
for path in sorted(glob.glob(f"{out}/ab-*.json")):
    side, _, rep = path.rsplit("/", 1)[1][3:-5].split("-")
    for row in json.load(open(path))["rows"]:
        rows.append({**row, "code": labels[side], "rep": int(rep)})
json.dump({"rows": rows}, open(f"{out}/driver_ceiling-ab.json", "w"), indent=1)
for islands in sorted({r["islands"] for r in rows}):
    for label in labels.values():
        mine = [r for r in rows if r["islands"] == islands and r["code"] == label]
        print(f"{islands} islands, {label}: results/s {[round(r['results_per_s']) for r in mine]} "
              f"mean {statistics.mean(r['results_per_s'] for r in mine):.0f}; busy "
              f"{[round(100 * r['busy_fraction']) for r in mine]}%; driver ms/result "
              f"{statistics.mean(r.get('steady_driver_cpu_ms_per_result', 0) for r in mine):.3f}, writer "
              f"{statistics.mean(r.get('steady_writer_cpu_ms_per_result', 0) for r in mine):.3f}")
PY
