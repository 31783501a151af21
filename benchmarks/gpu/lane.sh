#!/usr/bin/env bash
# lane.sh NAME 'COMMANDS': run COMMANDS in their own process session (they outlive the device call that
# started them while the host stays warm), logged to /tmp/res/lane-NAME.log; /tmp/res/DONE-NAME when done.
#   bash benchmarks/gpu/lane.sh d 'CUDA_VISIBLE_DEVICES=3 bash benchmarks/gpu/search.sh d 2 relu elu'
name=$1; shift
mkdir -p /tmp/res
setsid bash -c "source benchmarks/gpu/setup.sh; $*; touch /tmp/res/DONE-$name" </dev/null >"/tmp/res/lane-$name.log" 2>&1 &
