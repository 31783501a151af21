# kernelevo: two commands on a fresh machine.
#   make demo   install, then run the main job on the embedded defaults (local, CPU, no LLM key)
#   make test   install, then lint, type-check and run the tests
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP_INSTALL := $(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt
# litellm must never reach for the network when it is imported.
export LITELLM_LOCAL_MODEL_COST_MAP := True
export TRITON_DEFAULT_FP_FUSION ?= 1

.PHONY: install demo test lint typecheck pytest gpu-test clean

$(VENV)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "kernelevo needs Python >= 3.11"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) --upgrade pip
	$(PIP_INSTALL) -e '.[dev]'
	touch $@

install: $(VENV)/.installed

# A real search, offline (template operator), on the CPU (Triton interpreter, small inputs).
DEMO_OUT ?= runs/demo-$(shell date +%Y%m%d-%H%M%S)
demo: install
	$(BIN)/kernelevo run examples/gelu/spec.py --device cpu --budget evals=40,minutes=2.5 \
		--descriptors parallelism,warps,registers --out $(DEMO_OUT)

lint: install
	$(BIN)/ruff check kernelevo tests benchmarks examples

typecheck: install
	$(BIN)/mypy kernelevo

# The ahead-of-time compiles of the adversarial load_inline units and the GELU example's (tests
# marked nvcc_torch) are left out: torch's headers cost a minute each on 2 cores, the KernelBench
# test compiles the same path, and on a GPU those kernels are built and judged in full.
# Two workers (pytest-xdist): most tests wait on children, servers and Ray, so two overlap on two cores.
# PYTEST_WORKERS=0 runs them in this process, one after the other.
PYTEST_WORKERS ?= 2
pytest: install
	$(BIN)/pytest -m "not nvcc_torch" -n $(PYTEST_WORKERS) --dist loadgroup

test: lint typecheck pytest

# On a GPU host: the tests marked gpu (they skip cleanly elsewhere).
gpu-test: install
	$(BIN)/pytest -m gpu

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
