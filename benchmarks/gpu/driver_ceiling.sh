#!/usr/bin/env bash
# The driver's ceiling on a GPU host used as a CPU machine (its 16 cores; source benchmarks/gpu/setup.sh first,
# with Ray staged as GPU.md says). Usage: bash benchmarks/gpu/driver_ceiling.sh OUT [all|two-cores N|profile]
#   all:       512, 1,024 and 2,048 simulated evaluators with 1, 2, 4 and 8 islands -> OUT/driver_ceiling-16core.json
#   two-cores: 2,048 evaluators, 1 island then 2, on two of its cores (taskset 0-1: issue 38's 2-core target on a
#              quieter machine than the development one), N times -> OUT/driver_ceiling-2core-K.json
#   profile: 2,048 evaluators and 8 islands again, py-spy on the driver and on one island -> OUT/*.raw
set -u
out=${1:?an output folder}
what=${2:-all}
export RAY_AUTH_MODE=disabled PATH=/tmp/site/bin:$PATH
last=$(( $(nproc) > 16 ? 15 : $(nproc) - 1 ))
if [ "$what" = all ]; then
  taskset -c 0-$last python3 benchmarks/driver_ceiling.py --counts 512,1024,2048 --islands 1,2,4,8 --no-profile \
    --out "$out/driver_ceiling-16core.json" > "$out/ceiling.log" 2>&1
  tail -25 "$out/ceiling.log"
  exit 0
fi
if [ "$what" = two-cores ]; then
  for k in $(seq 1 "${3:-2}"); do
    taskset -c 0-1 python3 benchmarks/driver_ceiling.py --counts 2048 --islands 1,2 --rounds 14 --no-profile \
      --out "$out/driver_ceiling-2core-$k.json" > "$out/two-cores-$k.log" 2>&1
    grep -E "evaluators,|allows" "$out/two-cores-$k.log"
  done
  exit 0
fi
taskset -c 0-$last python3 benchmarks/driver_ceiling.py --counts 2048 --islands 8 --rounds 8 --no-profile \
  --out "$out/driver_ceiling-16core-profiled.json" > "$out/profiled.log" 2>&1 &
bench=$!
for _ in $(seq 1 120); do [ "$(pgrep -f 'ray::IslandActor' | wc -l)" -ge 8 ] && break; sleep 1; done
sleep 8
driver=$(pgrep -n -f benchmarks/driver_ceiling.py)
island=$(pgrep -f 'ray::IslandActor' | head -1)
py-spy record -p "$driver" -d 12 -r 200 -f raw -o "$out/driver8.raw" --nonblocking > "$out/pyspy.log" 2>&1 &
py-spy record -p "$island" -d 12 -r 200 -f raw -o "$out/island8.raw" --nonblocking >> "$out/pyspy.log" 2>&1
wait $bench
tail -8 "$out/profiled.log"; cat "$out/pyspy.log" | tail -4
