"""Reading a PDF's layout in a child process, so this process can do other work meanwhile.

pdfium is not thread-safe and our character reader is mostly Python, so a reading thread
competes with the caller for the interpreter: measured on a 180-page .docx, walking its
XML with the layout read on a thread takes as long as doing both in turn. A child
*process* runs beside it: :func:`read_in_child` is how :mod:`.layout_ahead` reads a long
PDF while the .docx extractor walks the XML (design/rendering.md, "Reading ahead").

It is not a way to read one PDF faster by splitting its pages: a child costs ~0.35 s
before its first page (the interpreter, numpy, pypdfium2, and scipy for the first picture
hash), what one process reads 100-150 pages in; splitting was measured slower at 100 and
200 pages and even at 400.

The child is an external process like LibreOffice and follows the same rules: its own
session (one ``killpg`` ends it), a deadline (past it the child is killed and
:class:`~artifactcheck.errors.RenderTimeout` raised), its files in a private temporary
directory that is removed after. A child that cannot start or fails costs only time: the
pages are read here, where a real problem with the PDF raises the usual typed error.

Whether to use one: ``$ARTIFACTCHECK_LAYOUT_PROCESSES`` (1 turns it off), else only when
this process may run on two or more CPUs, and only for PDFs of ``CHILD_MIN_PAGES`` or more
(shorter ones are read before a child would have started).
"""

from __future__ import annotations

import logging
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ...errors import RenderTimeout
from ...limits import current_limits, use_limits
from .layout import LayoutPart, PdfLayout, join_layout, page_count, read_layout_pages
from .pool_env import LAYOUT_PROCESSES_ENV as ENV_VAR
from .process_group import kill_group

__all__ = ["CHILD_MIN_PAGES", "ENV_VAR", "LayoutChild", "layout_processes", "main", "read_in_child"]

log = logging.getLogger(__name__)

CHILD_MIN_PAGES = 64

# The child imports the same artifactcheck as this process (a checkout on sys.path, or an
# editable install of another worktree, would otherwise win), then runs main().
_BOOT = (
    "import sys\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "sys.meta_path[:] = [f for f in sys.meta_path if not type(f).__module__.startswith('__editable__')]\n"
    "from artifactcheck.extractors.render.layout_child import main\n"
    "sys.exit(main(sys.argv[2]))\n"
)
_PACKAGE_PARENT = str(Path(__file__).resolve().parents[3])


def layout_processes() -> int:
    """Processes a layout read may use: ``$ARTIFACTCHECK_LAYOUT_PROCESSES``, else 2 when
    this process may run on two or more CPUs, else 1."""
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            log.warning("%s=%r is not a number of processes: using 1", ENV_VAR, env)
            return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return 2 if cpus >= 2 else 1


def read_in_child(
    pdf_path: Path,
    *,
    timeout: float,
    images: bool = True,
    structure: bool = False,
    image_data: bool = False,
    min_pages: int = CHILD_MIN_PAGES,
) -> PdfLayout:
    """``read_layout(pdf_path, ...)``, by a child process when the PDF has ``min_pages``
    or more and a second CPU is there (see the module), else here. Same layout either way."""
    options = {"images": images, "structure": structure, "image_data": image_data}
    if layout_processes() >= 2 and page_count(pdf_path) >= min_pages:
        child = LayoutChild.start(pdf_path, timeout=timeout, **options)
        if child is not None:
            try:
                part = child.result()
            finally:
                child.close()
            if part is not None:
                log.debug("layout of %s read by a child process", pdf_path)
                return join_layout([part])
    return join_layout([read_layout_pages(pdf_path, **options)])


class LayoutChild:
    """A child process reading pages ``first`` to ``stop`` (None: the last) of one PDF."""

    def __init__(
        self, proc: subprocess.Popen[bytes], workdir: Path, pdf_path: Path, timeout: float
    ) -> None:
        self.proc = proc
        self.workdir = workdir
        self.pdf_path = pdf_path
        self.timeout = timeout
        self.deadline = time.monotonic() + timeout

    @classmethod
    def start(
        cls,
        pdf_path: Path,
        *,
        timeout: float,
        first: int = 0,
        stop: int | None = None,
        images: bool = True,
        structure: bool = False,
        image_data: bool = False,
    ) -> LayoutChild | None:
        """Start the child; None when it cannot be started (then read here)."""
        if not sys.executable:
            return None
        workdir = Path(tempfile.mkdtemp(prefix="artifactcheck-layout-"))
        request = {
            "pdf": str(Path(pdf_path).resolve()),
            "first": first,
            "stop": stop,
            "images": images,
            "structure": structure,
            "image_data": image_data,
            "limits": current_limits(),  # budgets set in code (use_limits) hold in the child too
        }
        try:
            (workdir / "request.pkl").write_bytes(
                pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
            )
            # One thread each for numpy's BLAS: the child does no linear algebra.
            env = {**os.environ, ENV_VAR: "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
            with open(workdir / "stderr.txt", "wb") as err:
                proc = subprocess.Popen(
                    [sys.executable, "-c", _BOOT, _PACKAGE_PARENT, str(workdir)],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=err,
                    env=env,
                    start_new_session=True,  # its own process group: one killpg ends it
                )
        except OSError as exc:
            log.warning("layout child for %s did not start (%s): reading here", pdf_path, exc)
            shutil.rmtree(workdir, ignore_errors=True)
            return None
        return cls(proc, workdir, Path(pdf_path), timeout)

    def result(self) -> LayoutPart | None:
        """The child's part; None when it failed (the reason is logged). Past the
        deadline the child is killed and RenderTimeout raised."""
        try:
            code = self.proc.wait(timeout=max(0.0, self.deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            kill_group(self.proc)
            raise RenderTimeout(
                f"reading the PDF layout did not finish within {self.timeout:g} s (child process killed)",
                path=self.pdf_path,
            ) from None
        out = self.workdir / "part.pkl"
        if code != 0 or not out.is_file():
            last = (
                (self.workdir / "stderr.txt").read_text(errors="replace").strip().splitlines()[-1:]
            )
            log.warning(
                "layout child for %s failed (exit %s: %s): reading here",
                self.pdf_path,
                code,
                last[0] if last else "no message",
            )
            return None
        # Written by our own child into a directory only we can write (mkdtemp: 0700).
        part = pickle.loads(out.read_bytes())
        return part if isinstance(part, LayoutPart) else None

    def close(self) -> None:
        """End the child if it still runs and remove its directory."""
        if self.proc.poll() is None:
            kill_group(self.proc)
        shutil.rmtree(self.workdir, ignore_errors=True)


def main(workdir: str) -> int:
    """The child: read the request the parent left in ``workdir``, leave ``part.pkl``
    (staged and renamed, so the parent never reads half a file)."""
    folder = Path(workdir)
    request = pickle.loads(
        (folder / "request.pkl").read_bytes()
    )  # the parent's own file (0700 directory)
    with use_limits(request["limits"]):
        part = read_layout_pages(
            Path(request["pdf"]),
            images=request["images"],
            structure=request["structure"],
            image_data=request["image_data"],
            first=request["first"],
            stop=request["stop"],
        )
    staged = folder / "part.pkl.tmp"
    staged.write_bytes(pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL))
    os.replace(staged, folder / "part.pkl")
    return 0
