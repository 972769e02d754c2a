#!/usr/bin/env bash
# Everything artifactcheck needs on a fresh Debian 12 machine: LibreOffice (rendering; Math
# draws a document's equations, without it they are blank space),
# its Python bridge (python3-uno, for the warm renderer pool), tesseract (OCR), fonts metric-compatible with Office's,
# a C compiler and Python's headers (the PDF reader's optional C loop, setup.py), then the Python package in .venv.
# Idempotent: a second run installs nothing new.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui
  libreoffice-math-nogui
  tesseract-ocr tesseract-ocr-eng
  fonts-crosextra-carlito fonts-crosextra-caladea fonts-liberation2 fonts-dejavu-core
  poppler-utils chromium
  hyphen-en-us
  python3-uno
  gcc libc6-dev python3-dev
)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing system packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.artifactcheck-installed
# An editable install does not rebuild the C loop when its source changes: reinstall then.
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ setup.py -nt "$stamp" ] ||
   [ artifactcheck/extractors/render/_pdfium_loops.c -nt "$stamp" ]; then
  echo "setup: installing the Python package into .venv (log: .venv/pip-install.log)"
  if ! { .venv/bin/python -m pip install -q --upgrade pip &&
         .venv/bin/python -m pip install -q -e ".[dev]"; } > .venv/pip-install.log 2>&1; then
    tail -40 .venv/pip-install.log >&2
    echo "setup: pip install failed; see .venv/pip-install.log" >&2
    exit 1
  fi
  touch "$stamp"
fi
