"""Where a file a rubric names (a reference image, a gold artifact) may be read from.

A rubric is data from someone else: the files it names resolve inside the assets folder
or the rubric root when either is set, and only inside the uploaded assets for the HTTP
service. The check is made before the file is opened or even looked for, so a rubric
cannot read or probe files outside its folders (design/safe-loading.md).
"""

from __future__ import annotations

from pathlib import Path

from .registry import Resources

ASSETS_ONLY = "assets_only"
"""``Resources.extras`` key: when true, files a rubric names must lie inside ``assets_dir``
(set by the HTTP service, whose rubrics may name only files uploaded with them)."""


def resolve_resource_file(name: str, resources: Resources, *, what: str) -> Path:
    """The file ``name`` names: absolute, or relative to ``resources.assets_dir`` (else to
    the working directory). ``what`` ("reference image", "reference file") starts every
    message. Raises FileNotFoundError when it is outside the allowed folders or absent."""
    path = Path(name)
    if not path.is_absolute() and resources.assets_dir is not None:
        path = Path(resources.assets_dir) / path
    if resources.extras.get(ASSETS_ONLY):
        root = Path(resources.assets_dir or "/nonexistent").resolve()
        if not path.resolve().is_relative_to(root):
            raise FileNotFoundError(f"{what} {name!r}: only the uploaded assets may be named")
    allowed = [Path(d).resolve() for d in (resources.assets_dir, resources.rubric_root) if d is not None]
    if allowed and not any(path.resolve().is_relative_to(d) for d in allowed):
        raise FileNotFoundError(f"{what} {name!r} resolves outside the assets folder and the rubric root")
    if not path.is_file():
        where = f" (assets_dir={resources.assets_dir!r})" if resources.assets_dir else " (no assets_dir given)"
        raise FileNotFoundError(f"{what} {name!r} not found at {str(path)!r}{where}")
    return path.resolve()
