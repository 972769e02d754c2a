"""Benchmark: start-up of the ``artifactcheck`` command, for evaluators that call the CLI
once per artifact, beside what it is compared with.

Fresh processes, interleaved round by round (the machine is shared, so each round sees
the same load), ``--repeat`` rounds, medians of wall time and of the child's CPU time
(user + system, from ``getrusage``: what the process itself cost, whatever else ran):

- ``python -c pass``: the interpreter (with this virtualenv's site) and nothing else;
- ``artifactcheck --help`` (target: <= 0.15 s);
- a bare python-pptx walk of fixtures/tasks/slide_deck/pass.pptx: open it, visit every
  shape, paragraph, run and picture (what a hand-written evaluator does);
- ``artifactcheck score`` of that deck with its rubric (target: <= 2x the walk).

Run: ``.venv/bin/python bench/bench_startup.py [--repeat 7] [--before DIR] [--floor]`` (~1-2
minutes). ``--floor`` adds a process that only imports the libraries ``score`` of the deck
needs: what the ratio cannot go below by deferring our own code.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
CLI = str(Path(PYTHON).with_name("artifactcheck"))
DECK = REPO / "fixtures" / "tasks" / "slide_deck" / "pass.pptx"
RUBRIC = REPO / "fixtures" / "tasks" / "slide_deck" / "rubric.yaml"

WALK = """
import sys
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
prs = Presentation(sys.argv[1])
texts, pictures = [], 0
def visit(shapes):
    global pictures
    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            visit(shape.shapes)
            continue
        (shape.left, shape.top, shape.width, shape.height)
        if shape.has_text_frame:
            for paragraph in shape.text_frame.paragraphs:
                for run in paragraph.runs:
                    texts.append((run.text, run.font.size, run.font.bold))
        if shape.shape_type == MSO_SHAPE_TYPE.PICTURE:
            pictures += len(shape.image.blob)
for slide in prs.slides:
    visit(slide.shapes)
print(len(texts), pictures)
"""

# The libraries `score` of that deck cannot do without (the tree and rubric models, the
# geometric checks' shapely and numpy, the CLI, the report table, Pillow for the picture's
# header, the rubric's YAML, lxml, and pypdfium2: its in_region steps judge slide text
# where the cached render draws it), imported and one pydantic model built: the floor
# that no deferral of our own code goes below (``--floor``).
FLOOR = """
import lxml.etree, numpy, PIL.Image, pydantic, pydantic.main, pypdfium2, rich.console, rich.table, shapely, typer, yaml
class M(pydantic.BaseModel):
    x: int = 0
M()
"""

COMMANDS: dict[str, list[str]] = {
    "python -c pass": [PYTHON, "-c", "pass"],
    "artifactcheck --help": [CLI, "--help"],
    "python-pptx walk": [PYTHON, "-c", WALK, str(DECK)],
    "artifactcheck score": [CLI, "score", str(DECK), "--rubric", str(RUBRIC)],
}


# The console script, run against another checkout: the virtualenv's editable install
# finds this worktree's package before PYTHONPATH, so its finder is dropped first.
BEFORE_CLI = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
sys.path.insert(0, sys.argv.pop(1))
from artifactcheck.cli import main
sys.argv[0] = "artifactcheck"
sys.exit(main())
"""


def run_once(argv: list[str], before: str | None = None) -> tuple[float, float]:
    """(wall s, CPU s) of one fresh process; with ``before``, the artifactcheck command
    runs the package found in that folder instead."""
    env = dict(os.environ)
    # Bytecode is cached as on any install: without it every run compiles our ~200
    # modules from source (~0.3 s), which a user who ran pip once never pays.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if before:
        argv = [PYTHON, "-c", BEFORE_CLI, before, *argv[1:]]
    usage_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120, check=False, cwd=REPO, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # score exits 1 for a failing verdict; pass.pptx passes
        raise SystemExit(f"{' '.join(argv[:3])}... exited {done.returncode}: {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - usage_before.ru_utime) + (after.ru_stime - usage_before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="a checkout of the package to compare with (e.g. `git archive REV artifactcheck | tar -x -C DIR`): "
        "its artifactcheck commands run too, side by side",
    )
    parser.add_argument("--floor", action="store_true", help="also time importing only the libraries score needs (FLOOR)")
    args = parser.parse_args()
    os.environ.pop("ARTIFACTCHECK_RENDERER", None)
    runs: dict[str, tuple[list[str], str | None]] = {name: (argv, None) for name, argv in COMMANDS.items()}
    if args.floor:
        runs["score's libraries only"] = ([PYTHON, "-c", FLOOR], None)
    if args.before:
        for name, argv in COMMANDS.items():
            if name.startswith("artifactcheck"):
                runs[f"{name} (before)"] = (argv, args.before)
    for argv, path in runs.values():  # warm the page cache, write bytecode, fill any render cache
        run_once(argv, path)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for _ in range(args.repeat):
        for name, (argv, path) in runs.items():
            times[name].append(run_once(argv, path))
    wall = {n: statistics.median(w for w, _ in t) for n, t in times.items()}
    cpu = {n: statistics.median(c for _, c in t) for n, t in times.items()}
    print(f"{args.repeat} rounds, fresh processes, medians")
    print(f"{'command':33} {'wall s':>8} {'CPU s':>8}")
    for name in runs:
        print(f"{name:33} {wall[name]:8.3f} {cpu[name]:8.3f}")
    walk, score = "python-pptx walk", "artifactcheck score"
    print(f"\n--help: {wall['artifactcheck --help']:.3f} s wall, {cpu['artifactcheck --help']:.3f} s CPU (target <= 0.15 s)")
    print(f"score / walk: {wall[score] / wall[walk]:.2f}x wall, {cpu[score] / cpu[walk]:.2f}x CPU (target <= 2x)")
    if args.floor:
        floor = "score's libraries only"
        print(f"floor / walk: {wall[floor] / wall[walk]:.2f}x wall, {cpu[floor] / cpu[walk]:.2f}x CPU (imports alone, no work)")
    if args.before:
        before = f"{score} (before)"
        print(f"before: --help {wall['artifactcheck --help (before)']:.3f} s wall; score / walk {wall[before] / wall[walk]:.2f}x wall, {cpu[before] / cpu[walk]:.2f}x CPU")


if __name__ == "__main__":
    main()
