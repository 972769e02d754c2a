#!/usr/bin/env bash
# The long bad-input campaign (tests/fuzz/): mutate the corpus and the fixtures, run every
# mutant in its own capped child process, print inputs tried / typed / untyped / hangs /
# leftovers, and keep one input per problem class. Usage:
#   scripts/fuzz.sh [SECONDS] [extra campaign options, e.g. --seed 7 --keep fuzz-out/]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
exec .venv/bin/python -W ignore -m tests.fuzz.campaign --seconds "$seconds" "$@"
