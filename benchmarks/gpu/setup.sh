# Source it on a GPU host, from the project root: the carried wheels (.whl, ../shared/tools/gpu-wheels.sh)
# into /tmp/site, and Ray when its first half was staged by an earlier call (GPU.md: two calls in a row).
# Make the wheels with GPU_EXTRA_WHEELS=einops ../shared/tools/gpu-wheels.sh: KernelBench's Mamba2 specs import it.
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  || return 1
if [ -d .ray2 ] && [ -f /tmp/stage/part.aa ] && ! PYTHONPATH=/tmp/site python3 -c 'import ray' 2>/dev/null; then
  cat /tmp/stage/part.aa .ray2/part.ab > "/tmp/$(cat .ray2/NAME)"
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site \
    "/tmp/$(cat .ray2/NAME)" || return 1
fi
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 LITELLM_LOCAL_MODEL_COST_MAP=True TRITON_DEFAULT_FP_FUSION=1
