"""Renderers: turn an Office file into a PDF (or another target) in a directory we own.

The :class:`Renderer` protocol is what callers see; :class:`LibreOfficeRenderer` starts one
headless ``soffice`` per conversion. A warm, long-lived LibreOffice driven over UNO can
implement the same protocol later (same ``convert`` signature, its own ``name``/``options``)
without touching any caller: the cache key already includes the renderer's name, version
and options. See design/rendering.md.

Boundaries: success is judged by the output file (it exists and parses as a PDF with at
least one page), never by soffice's exit code, which is 0 on many silent failures. Every
conversion gets a fresh profile directory (a shared profile makes a second, parallel
soffice hand its job to the first one and return without output) and runs in its own
process group, which is killed whole on timeout and after every run, so no ``soffice.bin``
survives us. The temporary work directory is always removed.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Protocol, runtime_checkable

from ...caches import cache_root
from ...errors import MissingDependency, RenderError, RenderTimeout
from .lo_leftovers import remove_ipc_socket, soffice_environment
from .process_group import kill_group, paths_in_cmdlines

__all__ = ["LibreOfficeRenderer", "Renderer", "find_soffice", "soffice_version"]

# Filter names per LibreOffice application; the input's application decides which PDF
# export filter accepts it (writer_pdf_Export refuses a spreadsheet).
_PDF_FILTERS = {
    "docx": "writer_pdf_Export",
    "xlsx": "calc_pdf_Export",
    "pptx": "impress_pdf_Export",
    "odt": "writer_pdf_Export",
    "ods": "calc_pdf_Export",
    "odp": "impress_pdf_Export",
}
# Export filters that write Office Open XML (what "Save as .docx/.xlsx/.pptx" uses).
_OOXML_FILTERS = {
    "docx": "MS Word 2007 XML",
    "xlsx": "Calc MS Excel 2007 XML",
    "pptx": "Impress MS PowerPoint 2007 XML",
}
_STDERR_TAIL = 2000
_WORK_PREFIX = "artifactcheck-lo-"
_STALE_AFTER_S = 3600.0
_swept: set[Path] = set()
# Lock files and logs of the run that made a profile are not part of the template.
_PROFILE_IGNORE = shutil.ignore_patterns(".lock", "*.lock", "*.log")


@runtime_checkable
class Renderer(Protocol):
    """Something that converts an Office file into ``target`` (``"pdf"``) inside ``out_dir``.

    ``name`` and ``version`` identify the rendering engine (recorded in the Document's
    ``tools`` and in the cache key); ``options`` is a short stable string of the settings
    that change the output (also part of the cache key).
    """

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def options(self) -> str: ...

    def convert(self, src: Path, out_dir: Path, *, target: str = "pdf", timeout: float) -> Path:
        """Write the converted file into ``out_dir`` and return its path.

        Raises :class:`RenderTimeout` after ``timeout`` seconds and :class:`RenderError`
        when no usable output was produced.
        """
        ...


def find_soffice() -> str:
    """The ``soffice`` executable (env ``ARTIFACTCHECK_SOFFICE`` overrides the PATH lookup)."""
    exe = os.environ.get("ARTIFACTCHECK_SOFFICE") or shutil.which("soffice") or shutil.which("libreoffice")
    if not exe:
        raise MissingDependency(
            "LibreOffice (soffice)",
            hint="apt-get install libreoffice-writer libreoffice-calc libreoffice-impress",
        )
    return exe


@functools.cache
def soffice_version(exe: str) -> str:
    """``soffice --version``'s version number, e.g. ``"7.4.7.2"``.

    Running ``soffice --version`` costs ~0.11 s, which every process (each batch worker,
    each CLI call) used to pay even when every render was a cache hit. The answer is kept
    on disk under the cache root, keyed by the resolved executable and the size and mtime
    of it and of LibreOffice's ``versionrc`` beside it (an upgrade rewrites both), and in
    memory per executable."""
    stamp = _install_stamp(exe)
    stored = cache_root() / "lo-version" / f"{hashlib.sha256(stamp.encode()).hexdigest()[:32]}.txt"
    if stamp:
        with contextlib.suppress(OSError):
            known = stored.read_text(encoding="utf-8").strip()
            if known:
                return known
    version = _run_soffice_version(exe)
    if stamp and version != "unknown":
        with contextlib.suppress(OSError):
            stored.parent.mkdir(parents=True, exist_ok=True)
            staging = stored.with_name(f".tmp-{os.getpid()}-{time.monotonic_ns()}")
            staging.write_text(version, encoding="utf-8")
            os.replace(staging, stored)
    return version


def _install_stamp(exe: str) -> str:
    """What identifies one LibreOffice installation ("" when the executable is not found)."""
    located = shutil.which(exe) or exe
    try:
        real = Path(located).resolve()
        parts = [str(real), _stat_key(real)]
        versionrc = real.parent / "versionrc"
        if versionrc.is_file():
            parts.append(_stat_key(versionrc))
    except OSError:
        return ""
    return "\0".join(parts)


def _stat_key(path: Path) -> str:
    st = path.stat()
    return f"{st.st_size}:{st.st_mtime_ns}"


def _run_soffice_version(exe: str) -> str:
    try:
        out = subprocess.run(
            [exe, "--version"], capture_output=True, text=True, timeout=60, start_new_session=True, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise MissingDependency("LibreOffice (soffice)", hint=f"a working {exe}: {exc}") from None
    # "LibreOffice 7.4.7.2 40(Build:2)" -> "7.4.7.2"; keep the whole line if the shape differs.
    parts = out.split()
    return parts[1] if len(parts) >= 2 and parts[1][:1].isdigit() else out.strip() or "unknown"


def check_package(produced: Path, target: str, *, src: Path, stderr: str) -> None:
    """Raise RenderError unless ``produced`` is a sound OOXML package of ``target``."""
    from ...errors import ArtifactCheckError
    from ..package.inspection import inspect_package

    try:
        got = inspect_package(produced).format
    except ArtifactCheckError as exc:
        raise RenderError(f"LibreOffice wrote an unreadable {target}: {exc}; stderr tail: {stderr[-_STDERR_TAIL:]!r}", path=src) from None
    if got != target:
        raise RenderError(f"LibreOffice wrote a {got} where a {target} was asked for", path=src)


def pdf_filter(fmt: str, *, tagged: bool) -> tuple[str, list[str]]:
    """The PDF export filter for an input format and its FilterData as ``Name=value``
    strings; the cold path (``--convert-to`` JSON) and the warm pool (UNO FilterData)
    both build from this, so they export with the same settings."""
    return _PDF_FILTERS.get(fmt, "writer_pdf_Export"), [
        f"UseTaggedPDF={'true' if tagged else 'false'}",
        # Comments as PDF annotations would add text that is not on the page.
        "ExportNotes=false",
    ]


def input_format(src: Path) -> str:
    """The Office format of ``src`` (OOXML ``docx``/``xlsx``/``pptx`` or OpenDocument
    ``odt``/``ods``/``odp``); RenderError for anything else.

    LibreOffice imports bytes it does not recognise as plain text and "succeeds" with a
    PDF of garbage (or of nothing, for an empty file), so an input that is not an Office
    package never reaches it.
    """
    # Local import: package/inspection.py pulls lxml; the renderer should stay importable on its own.
    from ...errors import ArtifactCheckError
    from ..package.inspection import inspect_package
    from ..package.opendocument import check_odf, odf_format

    try:
        odf = odf_format(src)
        if odf is not None:
            check_odf(src)
            return odf
        return inspect_package(src).format
    except ArtifactCheckError as exc:
        reason = str(exc).removeprefix(f"{exc.path}: ")
        raise RenderError(f"not renderable: {reason}", path=src) from None


class LibreOfficeRenderer:
    """Headless LibreOffice, one fresh process (and profile) per conversion.

    ``tagged=True`` exports a tagged PDF (``UseTaggedPDF``): the structure tree then maps
    Writer paragraphs, list items, tables and figures to marked content on the pages
    (``read_layout(structure=True)``); the page layout is the same either way. The default
    is a plain PDF: nothing in the package reads the structure tree yet (boxes come from
    text alignment), and tagging costs LibreOffice extra time (design/rendering.md).
    ``options`` ("plain"/"tagged") is part of the cache key, so the two never share entries.
    ``tmp_root`` is where per-conversion work directories are made (default: the system
    temp dir); tests point it at their own directory to assert nothing is left behind.
    """

    name = "libreoffice"

    def __init__(
        self,
        *,
        soffice: str | None = None,
        tagged: bool = False,
        tmp_root: Path | None = None,
        reuse_profile: bool = True,
    ) -> None:
        self.soffice = soffice or find_soffice()
        self.tagged = tagged
        self.tmp_root = tmp_root
        self.reuse_profile = reuse_profile

    def profile_template(self) -> Path | None:
        """A profile LibreOffice initialised once, copied into each conversion's fresh
        profile directory. Creating a profile from nothing costs ~0.3-1 s per start;
        copying ~0.5 MB costs ~10 ms. Each conversion still owns its copy, so parallel
        conversions stay independent. Lives in the cache root, per LibreOffice version."""
        if not self.reuse_profile:
            return None
        return cache_root() / "lo-profile" / f"libreoffice-{self.version}"

    @staticmethod
    def _save_template(profile: Path, template: Path) -> None:
        """Keep ``profile`` as the template (atomic rename; the first writer wins)."""
        if template.is_dir() or not profile.is_dir():
            return
        template.parent.mkdir(parents=True, exist_ok=True)
        staging = template.parent / f".tmp-{os.getpid()}-{time.monotonic_ns()}"
        try:
            shutil.copytree(profile, staging, symlinks=True, ignore=_PROFILE_IGNORE)
            os.rename(staging, template)
        except OSError:
            pass  # another process saved one first, or the disk is full: not an error
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    @property
    def version(self) -> str:
        return soffice_version(self.soffice)

    @property
    def options(self) -> str:
        return "tagged" if self.tagged else "plain"

    def _filter(self, fmt: str, target: str) -> str:
        if target in _OOXML_FILTERS:
            return f"{target}:{_OOXML_FILTERS[target]}"  # an OpenDocument file to its OOXML twin
        if target != "pdf":
            return target  # e.g. "png" or "html": soffice picks the filter
        if fmt not in _PDF_FILTERS:
            return "pdf"
        export, options = pdf_filter(fmt, tagged=self.tagged)
        opts = {
            name: {"type": "boolean", "value": value}
            for name, value in (option.split("=", 1) for option in options)
        }
        return f"pdf:{export}:{json.dumps(opts, separators=(',', ':'))}"

    def convert(self, src: Path, out_dir: Path, *, target: str = "pdf", timeout: float = 120) -> Path:
        """Convert ``src`` into ``out_dir/<src.stem>.<target>``; see the module docstring."""
        src = Path(src)
        if not src.is_file():
            raise RenderError("input file does not exist", path=src)
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        fmt = input_format(src)  # before any temp dir exists: nothing to clean on refusal
        _sweep_stale_workdirs(Path(self.tmp_root or tempfile.gettempdir()))
        work = Path(tempfile.mkdtemp(prefix=_WORK_PREFIX, dir=self.tmp_root))
        try:
            # A copy under a plain name: soffice derives the output name from the input
            # name and mishandles some characters (and a leading '-' looks like an option).
            job_in = work / f"input.{fmt}"
            shutil.copyfile(src, job_in)
            (work / "out").mkdir()
            template = self.profile_template()
            if template is not None and template.is_dir():
                try:
                    shutil.copytree(template, work / "profile", symlinks=True, ignore=_PROFILE_IGNORE)
                except OSError:
                    shutil.rmtree(work / "profile", ignore_errors=True)  # start from nothing
            cmd = [
                self.soffice,
                f"-env:UserInstallation={(work / 'profile').as_uri()}",
                "--headless",
                "--invisible",
                "--norestore",
                "--nologo",
                "--nodefault",
                "--nolockcheck",
                "--convert-to",
                self._filter(fmt, target),
                "--outdir",
                str(work / "out"),
                str(job_in),
            ]
            stderr_text = self._run(cmd, work=work, src=src, timeout=timeout)
            produced = work / "out" / f"input.{target}"
            if not produced.is_file() or produced.stat().st_size == 0:
                raise RenderError(
                    f"LibreOffice produced no {target}; stderr tail: {stderr_text[-_STDERR_TAIL:]!r}",
                    path=src,
                )
            if target == "pdf":
                check_pdf(produced, src=src, stderr=stderr_text)
            elif target in _OOXML_FILTERS:
                check_package(produced, target, src=src, stderr=stderr_text)
            if template is not None:
                self._save_template(work / "profile", template)
            dest = out_dir / f"{src.stem}.{target}"
            shutil.move(str(produced), dest)
            return dest
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def _run(self, cmd: list[str], *, work: Path, src: Path, timeout: float) -> str:
        """Run soffice in a new session; kill its whole group on timeout and after exit."""
        env = soffice_environment(work)  # its temp files stay in work (lo_leftovers.py)
        err_path = work / "stderr.txt"
        with open(err_path, "wb") as err:
            try:
                proc = subprocess.Popen(
                    cmd,
                    stdin=subprocess.DEVNULL,
                    stdout=err,
                    stderr=err,
                    env=env,
                    cwd=work,
                    start_new_session=True,
                )
            except OSError as exc:
                raise RenderError(f"cannot start {cmd[0]}: {exc}", path=src) from None
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                kill_group(proc)
                raise RenderTimeout(f"LibreOffice did not finish within {timeout:g} s", path=src) from None
            finally:
                # oosplash may exit while soffice.bin (same group) lingers: reap it all,
                # then the IPC socket it leaves in /tmp when killed.
                kill_group(proc)
                remove_ipc_socket((work / "profile").as_uri())
        return err_path.read_text(errors="replace")


def _sweep_stale_workdirs(root: Path) -> None:
    """Remove work directories that a killed process left behind (once per root and
    process). ``finally`` cleans up after errors and timeouts, but not after the Python
    process itself is killed (SIGKILL, or SIGTERM without a handler). A directory counts
    as stale when it is older than an hour and no live process mentions it."""
    if root in _swept:
        return
    _swept.add(root)
    try:
        candidates = [
            d for d in root.glob(f"{_WORK_PREFIX}*")
            if d.is_dir() and time.time() - d.stat().st_mtime > _STALE_AFTER_S
        ]
    except OSError:
        return
    if not candidates:
        return
    in_use = paths_in_cmdlines([str(d) for d in candidates])
    for d in candidates:
        if str(d) not in in_use:
            shutil.rmtree(d, ignore_errors=True)


def check_pdf(pdf: Path, *, src: Path, stderr: str) -> None:
    """Raise RenderError unless ``pdf`` opens and has pages."""
    from .pdf_check import pdf_page_count

    pages = pdf_page_count(pdf)
    if pages <= 0:
        raise RenderError(
            f"LibreOffice wrote an unreadable or empty PDF; stderr tail: {stderr[-_STDERR_TAIL:]!r}",
            path=src,
        )
