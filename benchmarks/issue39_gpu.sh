#!/usr/bin/env bash
# Issue 39's GPU measurements in one short command, on a host with 2 (or more) GPUs: about 11 minutes.
#
#   bash benchmarks/issue39_gpu.sh OUT_FOLDER [STEP ...]
#
# STEPs, in this order by default: second_run fair_share ray_gpu batch. Each writes OUT_FOLDER/STEP.json
# (ray_gpu.json, batch_kernelbench.json, ...) and OUT_FOLDER/STEP.log, runs under its own time limit
# (a step that overruns is cut, its partial report kept where the script writes as it goes), and
# the last lines print issue39_summary.py's table of every figure against the issue's targets.
#   second_run  a second run of matmul_epilogue on a warm shared pool: evaluating within 3 s, no judge start
#   fair_share  the shared pool's real judges on every GPU, two real template searches 1:1 then 3:1
#   ray_gpu     the same search through Ray on 1 GPU, then on every GPU (scaling, in the time budget)
#   batch       kernelevo eval --kernelbench on 1 GPU, then on every GPU (scaling, every verdict checked)
# and, only when named: fair_share_backlog (about 2 minutes), the experiment of runs that keep more than the
# service's twice the pool's slots submitted (shared_client.SUBMITTED_PER_SLOT; with only the slots, a run
# weighted 3 had no candidate waiting when a slot freed, and 3:1 came out 50:50 on 2 CPU judges).
# Lengths (environment): FS_SECONDS (33 s per fair-share scenario), RG_MINUTES (0.5 per search),
# BATCH_MUTANTS (1 per seed), BATCH_LIMIT (360 s), SR_EVALUATIONS (6 per run); POOL_SPEC, the spec of the shared-pool runs
# (default examples/matmul_epilogue/spec.py). Ray must be importable (GPU.md says how).
# DEVICE=cpu: a rehearsal without a GPU (gelu judged in Triton's interpreter on 2 logical GPUs; slow,
# and no GPU figure). After a step that failed or overran, `ray stop --force` ends the Ray it left
# (every Ray of the host: meant for the GPU hosts, where this is the only one; RAY_STOP=0 skips it).
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 OUT_FOLDER [second_run] [fair_share] [ray_gpu] [batch] [fair_share_backlog]" >&2
    exit 2
fi
OUT_DIR=$1
shift
STEPS=${*:-second_run fair_share ray_gpu batch}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3}
FS_SECONDS=${FS_SECONDS:-33}
RG_MINUTES=${RG_MINUTES:-0.5}
POOL_SPEC=${POOL_SPEC:-examples/matmul_epilogue/spec.py}
BATCH_MUTANTS=${BATCH_MUTANTS:-1}
SR_EVALUATIONS=${SR_EVALUATIONS:-6}
DEVICE=${DEVICE:-cuda}
if [ "$DEVICE" = cpu ]; then  # the rehearsal: small work, 2 logical GPUs
    SPEC=(--device cpu --gpus 2 --spec examples/gelu/spec.py)
    SEARCH=(--device cpu --example gelu)
    EVERY=ray:2
    BATCH=(--device cpu --problems gelu --no-adversarial)
else
    SPEC=(--spec "$POOL_SPEC") SEARCH=() EVERY=ray:all BATCH=()
fi
mkdir -p "$OUT_DIR"
cd "$ROOT" || exit 2
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
export LITELLM_LOCAL_MODEL_COST_MAP=True

{
    date -u +%FT%TZ
    nvidia-smi -L 2>&1
    "$PY" -c 'import sys, torch, triton, ray; print("python", sys.version.split()[0], "torch", torch.__version__,
"triton", triton.__version__, "ray", ray.__version__, "gpus", torch.cuda.device_count())' 2>&1
    git -C "$ROOT" rev-parse HEAD 2>/dev/null
} > "$OUT_DIR/environment.txt"
cat "$OUT_DIR/environment.txt"
if ! "$PY" -c 'import ray' 2>/dev/null; then
    echo "ray is not importable: install it first (GPU.md, 'Packages without an index')" >&2
    exit 2
fi

step() {  # NAME LIMIT_S COMMAND...: run it under a time limit, log it, note how long it took
    local name=$1 limit=$2
    shift 2
    local started=$SECONDS
    echo "== $name (limit ${limit} s): $*"
    timeout -k 15 "$limit" "$@" > "$OUT_DIR/$name.log" 2>&1
    local rc=$?
    printf '%s\t%s\t%s\n' "$name" "$rc" "$((SECONDS - started))" >> "$OUT_DIR/steps.tsv"
    echo "   $name: exit $rc after $((SECONDS - started)) s"
    if [ "$rc" -ne 0 ] && [ "${RAY_STOP:-1}" = 1 ]; then
        "$PY" -m ray.scripts.scripts stop --force > /dev/null 2>&1
    fi
    tail -n 14 "$OUT_DIR/$name.log"
}

for name in $STEPS; do
    case $name in
        second_run)
            step second_run 100 "$PY" benchmarks/second_run.py "${SPEC[@]}" --evaluations "$SR_EVALUATIONS" \
                --out "$OUT_DIR/second_run.json" ;;
        fair_share)
            step fair_share 215 "$PY" benchmarks/fair_share.py --judges real "${SPEC[@]}" --seconds "$FS_SECONDS" \
                --warmup 6 --window 15 --out "$OUT_DIR/fair_share.json" ;;
        ray_gpu)
            step ray_gpu 180 "$PY" benchmarks/ray_gpu.py "${SEARCH[@]}" --runs "ray:1,$EVERY" \
                --minutes "$RG_MINUTES" --tail-limit 10 --out "$OUT_DIR/ray_gpu.json" ;;
        batch)
            step batch "${BATCH_LIMIT:-360}" "$PY" benchmarks/batch_kernelbench.py "${BATCH[@]}" --modes "ray:1,$EVERY" \
                --mutants "$BATCH_MUTANTS" --out "$OUT_DIR/batch_kernelbench.json" ;;
        fair_share_backlog)
            step fair_share_backlog 150 "$PY" benchmarks/fair_share.py --judges real "${SPEC[@]}" \
                --seconds "$FS_SECONDS" --warmup 6 --window 15 --scenarios 1,3:1 --backlog 2 \
                --out "$OUT_DIR/fair_share_backlog.json" ;;
        *)
            echo "unknown step $name (second_run, fair_share, ray_gpu, batch, fair_share_backlog)" >&2 ;;
    esac
done
"$PY" benchmarks/issue39_summary.py "$OUT_DIR"
