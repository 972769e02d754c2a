"""The mutation driver: mutate seeds from the corpus (and the repository's fixtures), run
each mutant in its own capped child process (runner.py), and report inputs tried, typed,
untyped, hangs and leftovers. Inputs that break a promise are kept for a reproducer.

    .venv/bin/python -m tests.fuzz.campaign --seconds 600            # scripts/fuzz.sh
    .venv/bin/python -m tests.fuzz.campaign --seconds 60 --seed 7 --keep out/

Exit status: 0 when every input was ok or typed and left nothing behind, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .mutate import Mutant, Seed, bundle_seed, load_seeds, mutate
from .runner import REPO, Outcome, Request, Runner

CORPUS = REPO.parent / "shared" / "corpus"


def default_seeds(corpus: Path | None = CORPUS, *, max_bytes: int = 400_000) -> list[Seed]:
    """Fixtures (always there) and, when present, the corpus's real files."""
    folders = [REPO / "fixtures"] + ([corpus] if corpus is not None and corpus.is_dir() else [])
    seeds = load_seeds(*folders, max_bytes=max_bytes)
    google = sorted((REPO / "fixtures" / "google").glob("*.json"))
    seeds += [bundle_seed(path) for path in google]
    return seeds


@dataclass
class Summary:
    tried: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    leftovers: int = 0
    escaped: int = 0
    processes: int = 0
    problems: list[tuple[Mutant, Outcome]] = field(default_factory=list)

    def add(self, mutant: Mutant, outcome: Outcome) -> None:
        self.tried += 1
        self.statuses[outcome.status] += 1
        self.leftovers += bool(outcome.leftovers)
        self.escaped += bool(outcome.escaped)
        self.processes += bool(outcome.processes)
        if not outcome.clean:
            self.problems.append((mutant, outcome))

    def distinct_problems(self) -> dict[str, tuple[Mutant, Outcome]]:
        """One example per (status, error, last frame): the classes, not the inputs."""
        out: dict[str, tuple[Mutant, Outcome]] = {}
        for mutant, outcome in self.problems:
            key = f"{outcome.status} {outcome.error} {outcome.frame}" + (" leftovers" if outcome.leftovers else "") + (
                " escaped" if outcome.escaped else "") + (" processes" if outcome.processes else "")
            out.setdefault(key, (mutant, outcome))
        return out

    def report(self) -> str:
        lines = [f"inputs tried: {self.tried}"]
        lines += [f"  {status:8} {self.statuses.get(status, 0)}" for status in ("ok", "typed", "untyped", "memory", "hang", "crash")]
        lines += [f"  with leftovers in TMPDIR: {self.leftovers}", f"  wrote outside TMPDIR: {self.escaped}",
                  f"  left processes running: {self.processes}"]
        for key, (mutant, outcome) in sorted(self.distinct_problems().items()):
            lines.append(f"PROBLEM {key}\n    seed {mutant.seed} mutation {mutant.mutation}: {outcome.message[:300]}")
        return "\n".join(lines)


def run_campaign(seeds: list[Seed], *, seconds: float, rng: random.Random, runner: Runner, folder: Path,
                 timeout: float = 60.0, memory_mb: int = 1500, max_inputs: int | None = None, limits: str = "") -> Summary:
    summary = Summary()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (max_inputs is None or summary.tried < max_inputs):
        mutant = mutate(rng.choice(seeds), rng)
        summary.add(mutant, run_mutant(mutant, runner, folder, summary.tried, timeout=timeout, memory_mb=memory_mb,
                                       limits=limits))
    return summary


def run_mutant(mutant: Mutant, runner: Runner, folder: Path, index: int, *, timeout: float = 60.0,
               memory_mb: int = 1500, limits: str = "") -> Outcome:
    path = mutant.write(folder, index)
    try:
        return runner.run(Request(mutant.op, [str(path)], timeout=timeout, memory_mb=memory_mb, limits=limits))
    finally:
        path.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: time)")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds per input: a 'hang' is an input past it (the budgets' worst cases take ~15 s on a loaded 2-core box)")
    ap.add_argument("--limits", default="", help="ARTIFACTCHECK_LIMITS for every input (default: the library's defaults)")
    ap.add_argument("--memory-mb", type=int, default=1500, help="memory cap per input, above the runner's own")
    ap.add_argument("--keep", type=Path, default=None, help="save each distinct problem input here")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else int(time.time())
    seeds = default_seeds(args.corpus)
    print(f"{len(seeds)} seeds, random seed {seed}, {args.seconds:g} s", file=sys.stderr)
    folder = Path(tempfile.mkdtemp(prefix="ac-fuzz-inputs-"))
    try:
        with Runner() as runner:
            summary = run_campaign(seeds, seconds=args.seconds, rng=random.Random(seed), runner=runner, folder=folder,
                                   timeout=args.timeout, memory_mb=args.memory_mb, limits=args.limits)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(summary.report())
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        for n, (key, (mutant, outcome)) in enumerate(sorted(summary.distinct_problems().items())):
            path = mutant.write(args.keep, n)
            path.with_suffix(path.suffix + ".json").write_text(json.dumps(
                {"class": key, "seed": mutant.seed, "mutation": mutant.mutation, "op": mutant.op, "message": outcome.message,
                 "frame": outcome.frame, "leftovers": outcome.leftovers, "escaped": outcome.escaped}, indent=1))
    return 0 if not summary.problems else 1


if __name__ == "__main__":
    sys.exit(main())
