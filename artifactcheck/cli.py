"""The ``artifactcheck`` command: a thin typer app over the library. Every command turns
an ArtifactCheckError into one line on stderr and a non-zero exit (2), never a traceback."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from .errors import ArtifactCheckError

app = typer.Typer(
    name="artifactcheck",
    help="Score agent-produced documents, spreadsheets and slide decks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])


def reports_errors(function: F) -> F:
    """Turn our typed errors into one clear stderr line and exit code 2."""

    @wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except ArtifactCheckError as exc:
            typer.echo(f"artifactcheck: error: {exc}", err=True)
            raise typer.Exit(code=2) from None

    return wrapper  # type: ignore[return-value]


@app.command()
@reports_errors
def extract(
    file: Annotated[Path, typer.Argument(help="A .docx/.xlsx/.pptx file or a saved Google API response.")],
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the tree JSON here instead of stdout.")] = None,
    assets: Annotated[Path | None, typer.Option("--assets", help="Write image blobs to this directory.")] = None,
    compact: Annotated[bool, typer.Option("--compact", help="One-line JSON.")] = False,
) -> None:
    """Print the normalized document tree as JSON."""
    from .loading import load

    doc = load(file)
    text = doc.to_json(indent=None if compact else 2)
    if output is None:
        sys.stdout.write(text + "\n")
    else:
        output.write_text(text + "\n", encoding="utf-8")
    if assets is not None:
        written = doc.write_assets(assets)
        typer.echo(f"wrote {len(written)} image(s) to {assets}", err=True)
    for warning in doc.warnings:
        typer.echo(f"artifactcheck: warning: {warning}", err=True)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
