#!/usr/bin/env bash
# The main job on the bundled fixtures: set everything up, score every task fixture
# (passing artifacts and failing variants) against its rubric, print the benchmark tables,
# and write one HTML report a person can open.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p out
echo "== one task: a formal letter that must have the logo in the upper-left and a signature"
# exit 1 means PARTIAL/FAIL, which is a verdict, not a failure of this script
.venv/bin/artifactcheck score fixtures/tasks/formal_letter/fail_logo_right.docx \
  --rubric fixtures/tasks/formal_letter/rubric.yaml \
  --json out/formal_letter.json --html out/formal_letter.html || [ $? -eq 1 ]
echo
echo "== every task fixture (batch; tables as a benchmark paper prints them)"
.venv/bin/artifactcheck batch fixtures/tasks/manifest.csv -o out/tasks --force
echo
cat out/tasks/summary.md
echo
echo "reports: out/formal_letter.html, out/tasks/"
