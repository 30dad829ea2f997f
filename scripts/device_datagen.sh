#!/usr/bin/env bash
# Self-play on a lent 16-core machine (the `device` tool), as one
# prepared command: SECONDS of `rookery datagen` on every core, then its
# open chunks closed (`rookery dataclose`) and every finished chunk packed
# into one tar under $OUT (the tool returns at most 8 files).
#
#   scripts/device_datagen.sh SECONDS SEED [THREADS]
#
# ROOKERY names the engine (default target/release/rookery: build it here
# and name `target/release/rookery` in the run's `carry`; the binary is
# portable). Back here: `tar -xf s<SEED>-chunks.tar -C /tmp/chunks-<SEED>`,
# then the routine of data/selfplay/README.md (folder by the chunks'
# `engine=` note, `datamanifest`, commit).
set -euo pipefail

seconds=${1:?seconds of self-play}
seed=${2:?a seed no earlier run used (see data/selfplay/manifest.tsv)}
threads=${3:-$(nproc)}
engine=${ROOKERY:-target/release/rookery}
out=${OUT:?OUT is the folder the device tool brings back}

chunks=$(mktemp -d)
status=0
timeout -s TERM "$seconds" "$engine" datagen --chunk-dir "$chunks" \
    --threads "$threads" --nodes 2000 --chunk-games 1000 --seed "$seed" || status=$?
# 124 is timeout's code for stopping the generator on time, as planned;
# on any other failure the games made so far are still closed and packed.
if [ "$status" -ne 0 ] && [ "$status" -ne 124 ]; then
    echo "datagen failed with status $status" >&2
fi
"$engine" dataclose "$chunks"
(cd "$chunks" && ls -l && tar -cf "$out/s$seed-chunks.tar" ./*.bin.xz)
