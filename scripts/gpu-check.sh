#!/usr/bin/env bash
# The GPU check of ptx-sync: every program of the seed, the tiled-copy pipeline and the fence
# benchmark on one NVIDIA GPU, sized for the device machine (at most 8 files come back from $OUT,
# 2 folders deep; 15 minutes of device time per session, the machine's start included).
#
# Two halves:
#
#   bash scripts/gpu-check.sh --prepare     (here, no GPU needed; `cargo xtask gpu-check` runs it)
#       builds a release `ptx-sync` with the kernels embedded (target/ptx from `cargo xtask ptx`)
#       in $CARGO_TARGET_DIR (default target/), copies it to target/gpu-check/ptx-sync (inside the
#       repository, so that `carry` can name it wherever the build went) and prints the command.
#
#   bash scripts/gpu-check.sh               (on the device machine; $OUT is where results go)
#       runs target/gpu-check/ptx-sync ($PTX_SYNC_BIN overrides); builds nothing.
#
# How the lead runs it with the `run` tool (after `cargo xtask gpu-check` here):
#
#   run(command="bash scripts/gpu-check.sh", carry=["target/gpu-check/ptx-sync"], timeout_s=270)
#
# Budget: GPU_CHECK_BUDGET_S (default 210 s) for all steps together; every step's limit is cut to
# what is left and a step with under GPU_CHECK_MIN_STEP_S (default 10 s) left is skipped. 210 s +
# the machine's start (1–2 min) + the transfers fit 6 minutes of device time, leaving room in the
# 15 for a second try.
#
# $OUT receives exactly three plain files, rewritten after every step that ran (so a hang or a
# kill keeps what finished; a skipped step only adds its line, published with the next step or
# by the EXIT trap: rewriting them costs ~0.5 s, which once ran the budget ~20 s over on the ~40
# skips after a timeout) and once more from the EXIT trap:
#   summary.txt        one line per step: ran on <device> / skipped / failed / timed out, and why;
#                      the calibration step's line says per parameter point whether sb_plain (SB
#                      without fences) showed weak outcomes, i.e. whether the stress was effective
#   results.json       the same, machine-readable
#   gpu-check.tar.gz   every output: devices.json, calibrate.{json,txt}, litmus.{json,svg,txt}, copy-*.json, copy.txt,
#                      bench.{json,md}, tour.txt, litmus-files.txt, litmus-file-<n>.json, litmus-<name>.json,
#                      <step>.err, nvidia-smi.csv
# Copy them to docs/results/<date>-<gpu>/ and cite them in the README.
#
# Other knobs (the CI dry run against the driver stub uses them): GPU_CHECK_LITMUS_ITERS
# (launches per litmus program; default: each program's default rounds), GPU_CHECK_COPY_BYTES
# (default 256M), GPU_CHECK_STEP_SCALE (each step's limit times this, default 1: the dry run on a
# shared 2-core CI machine, tests running beside it, uses 4), GPU_CHECK_MIN_STEP_S (the time a step
# needs left to start, default 10; the dry run's timeout test uses a 4 s budget and 2),
# GPU_CHECK_TOUR_ITERS (default 20), GPU_CHECK_FILE_ITERS (launches per litmus file of the
# litmus-files step, default 20).
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CARRY_REL="target/gpu-check/ptx-sync"

if [ "${1:-}" = "--prepare" ]; then
    set -e
    if [ ! -s "$ROOT/target/ptx/kernels.ptx" ] || [ ! -s "$ROOT/target/ptx/kernels.sm_90a.cubin" ]; then
        echo "gpu-check: target/ptx/kernels.ptx or kernels.sm_90a.cubin missing: run \`cargo xtask ptx\` first" >&2
        exit 1
    fi
    TD="${CARGO_TARGET_DIR:-$ROOT/target}"
    case "$TD" in /*) ;; *) TD="$ROOT/$TD" ;; esac
    (cd "$ROOT" && PTX_SYNC_PTX_DIR="$ROOT/target/ptx" cargo build --release --quiet -p ptx-sync-host)
    BUILT="$TD/release/ptx-sync"
    # The binary must carry the kernels (GPU commands would say "kernels not built" otherwise).
    if ! grep -aq "litmus_mp_rel_acq_cta" "$BUILT"; then
        echo "gpu-check: $BUILT does not embed the kernels' PTX" >&2
        exit 1
    fi
    mkdir -p "$ROOT/$(dirname "$CARRY_REL")"
    cp "$BUILT" "$ROOT/$CARRY_REL"
    echo "gpu-check: built $BUILT, copied to $CARRY_REL ($(du -h "$ROOT/$CARRY_REL" | cut -f1)) with the kernels embedded."
    echo "gpu-check: carry: [\"$CARRY_REL\"]"
    echo "gpu-check: on the device machine: run(command=\"bash scripts/gpu-check.sh\", carry=[\"$CARRY_REL\"], timeout_s=270)"
    echo "gpu-check: files back in \$OUT: summary.txt, results.json, gpu-check.tar.gz"
    exit 0
fi

OUT="${OUT:-$ROOT/target/gpu-check/out}"
BIN="${PTX_SYNC_BIN:-$ROOT/$CARRY_REL}"
BUDGET="${GPU_CHECK_BUDGET_S:-210}"
STEP_SCALE="${GPU_CHECK_STEP_SCALE:-1}"
MIN_STEP="${GPU_CHECK_MIN_STEP_S:-10}"
mkdir -p "$OUT"
W="$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX")"
SUMMARY="$W/summary.txt"
DEVICE=""
# One record per step, in order: NAME|STATUS|EXIT|SECONDS|REASON
STEPS_FILE="$W/.steps"
: > "$STEPS_FILE"
PLANNED="devices calibrate litmus copy-1 copy-2 copy-4 bench tour litmus-files litmus-rest"
FINAL=0

json_str() { # a JSON string literal of $1
    printf '"%s"' "$(printf '%s' "$1" | tr -d '\000-\010\013-\037' | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' | tr '\n\t' '  ')"
}

record() { # record NAME STATUS EXIT SECONDS REASON
    note "$@"
    publish
}

note() { # note NAME STATUS EXIT SECONDS REASON: record without publishing
    printf '%s|%s|%s|%s|%s\n' "$1" "$2" "$3" "$4" "$(printf '%s' "$5" | tr '|\n' '/ ')" >> "$STEPS_FILE"
}

publish() { # rewrites summary.txt, results.json and the archive in $OUT (atomically, by rename)
    local complete=true name
    for name in $PLANNED; do
        grep -q "^$name|" "$STEPS_FILE" || complete=false
    done
    {
        echo "ptx-sync gpu-check, $(date -u '+%Y-%m-%d %H:%M:%S UTC'); budget ${BUDGET} s, ${SECONDS} s used"
        echo "binary: $BIN"
        echo "device: ${DEVICE:-unknown (the devices step has not reported one)}"
        while IFS='|' read -r n st rc secs why; do
            printf '%-26s %s' "$n:" "$st"
            [ -n "$rc" ] && printf ' (exit %s, %s s)' "$rc" "$secs"
            [ -n "$why" ] && printf ' — %s' "$why"
            echo
        done < "$STEPS_FILE"
        for name in $PLANNED; do
            grep -q "^$name|" "$STEPS_FILE" || printf '%-26s %s\n' "$name:" "no status yet (not run, or running when the script was cut short)"
        done
        if $complete; then
            echo "complete: every planned step has a status"
        elif [ "$FINAL" = 1 ]; then
            echo "INCOMPLETE: the script was cut short"
        fi
    } > "$SUMMARY.tmp" && mv "$SUMMARY.tmp" "$SUMMARY"
    {
        printf '{\n  "budget_s": %s,\n  "seconds": %s,\n  "device": %s,\n  "complete": %s,\n  "steps": [' \
            "$BUDGET" "$SECONDS" "$(json_str "$DEVICE")" "$complete"
        local sep=""
        while IFS='|' read -r n st rc secs why; do
            printf '%s\n    {"name": %s, "status": %s, "exit": %s, "seconds": %s, "reason": %s}' "$sep" \
                "$(json_str "$n")" "$(json_str "$st")" "${rc:-null}" "${secs:-null}" "$(json_str "$why")"
            sep=","
        done < "$STEPS_FILE"
        printf '\n  ]\n}\n'
    } > "$W/results.json.tmp" && mv "$W/results.json.tmp" "$W/results.json"
    cp "$SUMMARY" "$OUT/summary.txt.tmp" && mv "$OUT/summary.txt.tmp" "$OUT/summary.txt"
    cp "$W/results.json" "$OUT/results.json.tmp" && mv "$OUT/results.json.tmp" "$OUT/results.json"
    tar -czf "$OUT/gpu-check.tar.gz.tmp" -C "$W" --exclude=.steps --exclude='*.tmp' . 2>/dev/null \
        && mv "$OUT/gpu-check.tar.gz.tmp" "$OUT/gpu-check.tar.gz"
}

CHILD=""
finish() {
    FINAL=1
    [ -n "$CHILD" ] && kill -TERM "$CHILD" 2>/dev/null
    publish
    rm -rf "$W"
}
trap finish EXIT
# Steps run in the background and the script waits for them, so a signal to the script is
# handled at once (bash defers traps until a foreground command ends): it stops the step and
# the EXIT trap publishes what finished.
trap 'exit 130' INT TERM HUP

# step NAME LIMIT_S STDOUT_FILE CMD... — runs CMD with the time left, records its status.
step() {
    local name="$1" t="$2" out="$3"; shift 3
    local left=$((BUDGET - SECONDS))
    if [ "$left" -lt "$MIN_STEP" ]; then
        note "$name" skipped "" "" "${left} s of the ${BUDGET} s budget left"
        return 0
    fi
    t=$((t * STEP_SCALE))
    [ "$t" -gt "$left" ] && t=$left
    local start=$SECONDS rc
    timeout --signal=TERM --kill-after=5 "$t" "$@" >> "$W/$out" 2>> "$W/$name.err" &
    CHILD=$!
    wait "$CHILD"
    rc=$?
    CHILD=""
    local secs=$((SECONDS - start))
    local why
    why="$(grep '^ptx-sync: ' "$W/$name.err" | tail -1)"
    case "$rc" in
        0) record "$name" "ran on ${DEVICE:-the device}" "$rc" "$secs" "" ;;
        124|137) record "$name" "timed out" "$rc" "$secs" "limit ${t} s${why:+; $why}" ;;
        3) record "$name" failed "$rc" "$secs" "${why:-a forbidden outcome or a wrong copy}" ;;
        *) record "$name" failed "$rc" "$secs" "${why:-$(tail -1 "$W/$name.err")}" ;;
    esac
    return 0
}

if [ ! -x "$BIN" ]; then
    for s in $PLANNED; do
        record "$s" skipped "" "" "$BIN missing: run \`cargo xtask gpu-check\` on the build machine and carry $CARRY_REL"
    done
    exit 1
fi

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$W/nvidia-smi.csv" 2>&1 || true
step devices 20 devices.txt "$BIN" devices --json "$W/devices.json"
DEVICE="$(sed -n 's/^  0: \(.*\) (sm_.*/\1/p' "$W/devices.txt" | head -1)"
# The devices step ran before the device's name was known: name it in its record.
[ -n "$DEVICE" ] && awk -F'|' -v d="$DEVICE" 'BEGIN{OFS="|"} $1=="devices" && $3=="0" {$2="ran on " d} {print}' \
    "$STEPS_FILE" > "$STEPS_FILE.tmp" && mv "$STEPS_FILE.tmp" "$STEPS_FILE"
if [ -z "$DEVICE" ]; then
    # No device: every GPU step would fail the same way; say so once per step.
    why="$(grep '^ptx-sync: ' "$W/devices.err" | tail -1)"
    for s in $PLANNED; do
        [ "$s" = devices ] || record "$s" skipped "" "" "no device: ${why:-see devices.err}"
    done
    exit 1
fi
publish

ITERS=()
[ -n "${GPU_CHECK_LITMUS_ITERS:-}" ] && ITERS=(--iters "$GPU_CHECK_LITMUS_ITERS")
# Calibration first: SB without fences must show its weak outcome wherever the stress works; the
# summary says, per parameter point, whether it did (if not, zero counts below prove nothing).
step calibrate 30 calibrate.txt "$BIN" litmus sb_plain --sweep --quiet ${ITERS[@]+"${ITERS[@]}"} --json "$W/calibrate.json"
cal="$(grep '^calibration' "$W/calibrate.txt" | tr '\n' ' ')"
if [ -n "$cal" ]; then
    awk -F'|' -v c="$cal" 'BEGIN{OFS="|"} $1=="calibrate" {$5=c} {print}' "$STEPS_FILE" > "$STEPS_FILE.tmp" \
        && mv "$STEPS_FILE.tmp" "$STEPS_FILE"
    publish
fi
# Every program of §2–§5 and DeepEP's barrier; litmus.json/.svg are rewritten after every
# program, so a cut-short run keeps what finished.
step litmus 90 litmus.txt "$BIN" litmus all --quiet ${ITERS[@]+"${ITERS[@]}"} --json "$W/litmus.json" --svg "$W/litmus.svg"
# The tiled-copy pipeline: checked against the source, timed against cuMemcpyDtoD.
for s in 1 2 4; do
    step "copy-$s" 25 copy.txt "$BIN" copy --bytes "${GPU_CHECK_COPY_BYTES:-256M}" --stages "$s" --json "$W/copy-$s.json"
done
step bench 45 bench.md "$BIN" bench --json "$W/bench.json"
step tour 25 tour.txt "$BIN" tour --iters "${GPU_CHECK_TOUR_ITERS:-20}"
# A handful of corpus files as their own PTX (`ptx-sync litmus FILE.litmus`): cross-CTA MP and SB
# with fences, a broken .cta-scoped MP, two warps of one CTA, a CTA barrier, a cluster barrier.
# One step (one status): exit 3 if any file showed a state the model forbids.
FILES=(fence/SB+membar.gl seed/seed-2.2-2.3-MP+fence.sc.gpu seed/seed-3.5-fn15-release.cta-acquire.cta-2cta
       scope/MP+rel.gpu+acq.gpu-same-cta barrier/bar-MP-same-cta barrier/cluster-barrier-MP)
step litmus-files 30 litmus-files.txt bash -c '
    bin="$1" dir="$2" w="$3" iters="$4"; shift 4; rc=0; n=0
    for f in "$@"; do
        n=$((n + 1))
        "$bin" litmus "$dir/$f.litmus" --quiet --iters "$iters" --json "$w/litmus-file-$n.json"
        r=$?
        if [ "$r" = 3 ]; then rc=3; elif [ "$r" != 0 ] && [ "$rc" = 0 ]; then rc=$r; fi
    done
    exit $rc' _ "$BIN" "$ROOT/model/litmus" "$W" "${GPU_CHECK_FILE_ITERS:-20}" "${FILES[@]}"
# `litmus all` stops at the first program that fails (a fault poisons the context) or at its
# limit: with the time left, run each program it did not report on in its own process.
missing=""
for p in $("$BIN" litmus list | awk '{print $1}'); do
    grep -q "\"program\": \"$p\"" "$W/litmus.json" 2>/dev/null || missing="$missing $p"
done
if [ -z "$missing" ]; then
    record litmus-rest "ran on $DEVICE" 0 0 "nothing left: litmus reported every program"
else
    for p in $missing; do
        step "litmus-$p" 20 litmus.txt "$BIN" litmus "$p" --quiet ${ITERS[@]+"${ITERS[@]}"} --json "$W/litmus-$p.json"
    done
    record litmus-rest "ran on $DEVICE" 0 0 "ran separately:$missing"
fi
exit 0
