#!/usr/bin/env bash
# Builds the kernels (`cargo xtask ptx`) and checks that the PTX the redesign of issue #20 must
# not change is byte-identical to the recorded reference (`scripts/ptx-identity.sha256`: the
# sha256 of main's `target/ptx/*.ptx` at the start of the redesign, with the nightly that built
# them; re-recorded only by a commit that adds an instruction, which says so there). A move of
# code between modules, files or backends keeps these bytes; a change that alters an
# instruction, an operand order or a kernel's call sequence does not.
#
#   scripts/ptx-identity.sh            # build, then compare
#   scripts/ptx-identity.sh --no-build # compare what target/ptx holds
#
# Exit 0: identical. Exit 1: a file differs or is missing (printed). Exit 2: another nightly
# than the reference's (its codegen may differ: re-record the reference from main first).
set -euo pipefail
cd "$(dirname "$0")/.."
ref=scripts/ptx-identity.sha256
want=$(sed -n 's/^# rustc: //p' "$ref")
have=$(rustc +nightly --version)
if [ "$want" != "$have" ]; then
    echo "ptx-identity: the reference was built with '$want', this is '$have'" >&2
    exit 2
fi
if [ "${1:-}" != "--no-build" ]; then
    cargo xtask ptx >/dev/null
fi
(cd target/ptx && grep -v '^#' "../../$ref" | sha256sum -c -)
