#!/usr/bin/env bash
# The GPU check of ptx-sync: every program of the seed, the tiled-copy pipeline and the fence
# benchmark on one NVIDIA GPU, with JSON and SVG results under $OUT. Runs in well under 8 minutes
# on an H100/H200.
#
# Two halves:
#
#   bash scripts/gpu-check.sh --prepare     (here, no GPU needed; `cargo xtask gpu-check` runs it)
#       builds target/ptx/kernels.ptx (cargo xtask ptx) into a release `target/release/ptx-sync`
#       and prints the command for the device machine.
#
#   bash scripts/gpu-check.sh               (on the device machine; $OUT is where results go)
#       uses the prebuilt target/release/ptx-sync (the device machine has no internet, so it does
#       not build anything; the binary carries the PTX and loads libcuda at run time).
#
# How the lead runs it with the `run` tool (after `cargo xtask gpu-check` here):
#
#   run(command="bash scripts/gpu-check.sh", carry=["target/release/ptx-sync"], timeout_s=540)
#
# Results, under $OUT (copy them to docs/results/<date>-<gpu>/ and cite them in the README):
#   devices.json, litmus.json, litmus.svg, litmus.txt, copy-*.json, copy.txt, bench.json,
#   bench.md, tour.txt, summary.txt (exit status of every step).
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="$ROOT/target/release/ptx-sync"

if [ "${1:-}" = "--prepare" ]; then
    set -e
    if [ ! -s "$ROOT/target/ptx/kernels.ptx" ]; then
        echo "gpu-check: target/ptx/kernels.ptx missing: run \`cargo xtask ptx\` first" >&2
        exit 1
    fi
    (cd "$ROOT" && PTX_SYNC_PTX_DIR="$ROOT/target/ptx" cargo build --release -p ptx-sync-host)
    # The binary must carry the kernels (GPU commands would say "kernels not built" otherwise).
    if ! grep -aq "litmus_mp_rel_acq_cta" "$BIN"; then
        echo "gpu-check: $BIN does not embed the kernels' PTX" >&2
        exit 1
    fi
    echo "gpu-check: prepared $BIN ($(du -h "$BIN" | cut -f1)) with the kernels embedded."
    echo 'gpu-check: on the device machine: run(command="bash scripts/gpu-check.sh", carry=["target/release/ptx-sync"], timeout_s=540)'
    exit 0
fi

OUT="${OUT:-$ROOT/target/gpu-check}"
mkdir -p "$OUT"
if [ ! -x "$BIN" ]; then
    echo "gpu-check: $BIN missing: run \`cargo xtask gpu-check\` on the build machine and carry it" >&2
    exit 1
fi
SUMMARY="$OUT/summary.txt"
: > "$SUMMARY"
# The whole run stays within BUDGET seconds (default 450: under the 8 minutes, with room under
# the run tool's timeout_s=540 for the start and the copy-back): every step's limit is cut to
# what is left, and a step with under 10 s left is skipped (and says so in the summary).
BUDGET="${GPU_CHECK_BUDGET_S:-450}"
step() { # step NAME TIMEOUT_S CMD...
    local name="$1" t="$2"; shift 2
    local left=$((BUDGET - SECONDS))
    if [ "$left" -lt 10 ]; then
        echo "== $name: skipped, ${left} s of the ${BUDGET} s budget left" | tee -a "$SUMMARY"
        return 0
    fi
    [ "$t" -gt "$left" ] && t=$left
    local start=$SECONDS
    echo "== $name (limit $t s): $*" | tee -a "$SUMMARY"
    timeout --signal=INT --kill-after=10 "$t" "$@"
    local rc=$?
    echo "== $name: exit $rc after $((SECONDS - start)) s" | tee -a "$SUMMARY"
    return 0
}

step devices 30 "$BIN" devices --json "$OUT/devices.json"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/nvidia-smi.csv" 2>/dev/null || true
# Every program of §2–§5 and DeepEP's barrier; default rounds (1 M each, 6.4 M for footnote 15).
# litmus.json/.svg are rewritten after every program, so a cut-short run keeps what finished.
step litmus 200 "$BIN" litmus all --quiet --json "$OUT/litmus.json" --svg "$OUT/litmus.svg" \
    > "$OUT/litmus.txt" 2>&1
tail -40 "$OUT/litmus.txt"
# The tiled-copy pipeline: checked against the source, vs cuMemcpyDtoD.
for s in 1 2 4; do
    step "copy-$s" 45 "$BIN" copy --bytes 256M --stages "$s" --json "$OUT/copy-$s.json" >> "$OUT/copy.txt" 2>&1
done
cat "$OUT/copy.txt"
# The fence benchmark (issue 6).
step bench 90 "$BIN" bench --json "$OUT/bench.json" > "$OUT/bench.md" 2>&1
tail -30 "$OUT/bench.md"
# The tour with measured outcomes.
step tour 90 "$BIN" tour --iters 20 > "$OUT/tour.txt" 2>&1
# `litmus all` stops at the first program that fails (a fault poisons the context) or at its
# limit: last, with the time left, run every program it did not report on by itself, each in its
# own process (litmus-NAME.json, output appended to litmus.txt).
if [ -x "$BIN" ]; then
    for p in $("$BIN" litmus list | awk '{print $1}'); do
        if ! grep -q "\"program\": \"$p\"" "$OUT/litmus.json" 2>/dev/null; then
            step "litmus-$p" 60 "$BIN" litmus "$p" --quiet --json "$OUT/litmus-$p.json" \
                >> "$OUT/litmus.txt" 2>&1
        fi
    done
fi
echo "gpu-check: results in $OUT:"
ls -l "$OUT"
cat "$SUMMARY"
