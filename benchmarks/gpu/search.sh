#!/usr/bin/env bash
# search.sh TAG MINUTES SPEC...: no-seed, no-LLM searches of suite specs, one after the other, on the GPUs
# this process sees; report /tmp/res/suite_search-TAG.json (rewritten after each spec), archives, databases.
tag=$1 minutes=$2; shift 2
specs=$(printf 'benchmarks/suite/%s.py,' "$@")
python3 benchmarks/search_examples.py --specs "${specs%,}" --seed-from compile --minutes "$minutes" \
  --runs "/tmp/res/runs-$tag" --exports /tmp/res/archives --out "/tmp/res/suite_search-$tag.json" 2>&1 \
  | grep --line-buffered -v -E '^\s*(%|[0-9]+:|//|\.|\}|\{)' > "/tmp/res/search-$tag.log"
