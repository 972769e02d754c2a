"""Regression: the per-shape text-style cache was keyed by ``id()`` of lxml proxies that
nothing kept alive, so a later shape whose proxy reused the id got an earlier shape's
style chain. The title of slide 3 of poi_60810.pptx (master titleStyle: 24 pt bold, major
font Calibri) came out as Calibri 18 or Gisha 28 depending on the load and the hash seed
(found by compare_deck against the file re-saved by python-pptx; design/compare.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO, corpus_file

CHILD = """
import json, sys
from artifactcheck.extractors.pptx import extract_pptx
seen = []
for _ in range(4):
    doc = extract_pptx(sys.argv[1])
    slide = list(doc.root.descendants("slide"))[2]
    run = next(slide.descendants("run"))
    seen.append([run.style.font, run.style.size, run.style.bold])
print(json.dumps(seen))
"""


@pytest.mark.parametrize("seed", ["2", "3"])
def test_a_title_keeps_its_master_style_on_every_load(seed: str) -> None:
    path = corpus_file("pptx", "poi_60810.pptx")
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, env=env, cwd=REPO, timeout=120, check=True)
    assert json.loads(out.stdout) == [["Calibri", 24.0, True]] * 4
