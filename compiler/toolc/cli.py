"""The ``toolc`` command: options only; behaviour lives in :mod:`toolc.actions`."""

from __future__ import annotations

import os
import sys

import click

from . import __version__

_FORMATS = click.Choice(["text", "json", "github"])


def _color() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toolc")
def main() -> None:
    """toolc: compile declarative tool specs into typed toolsets and certified MCP schemas."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=_FORMATS, default="text", show_default=True)
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
def validate(paths: tuple[str, ...], fmt: str, strict: bool) -> None:
    """Check specs (default: the configured folder) and report every problem."""
    from .actions import validate as run

    sys.exit(run(paths, fmt=fmt, strict=strict, color=_color()))


@main.command()
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if generated/ would change.")
@click.option("--write", is_flag=True, help="Write even when CI is set (CI checks by default).")
@click.option("--certify/--no-certify", default=True, show_default=True,
              help="List the tools through a real MCP client and compare with the specs.")
@click.option("--format", "fmt", type=_FORMATS, default="text", show_default=True)
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
def build(check: bool, write: bool, certify: bool, fmt: str, strict: bool) -> None:
    """Validate, generate modules and golden schemas, certify, and show what changed."""
    from .actions import run_build

    if check and write:
        raise click.UsageError("--check and --write exclude each other")
    sys.exit(run_build(check=check, write=write, certify=certify, fmt=fmt, strict=strict,
                       color=_color(), progress=sys.stderr.isatty()))


@main.command()
def schema() -> None:
    """Print the JSON Schema of the spec format (for yaml-language-server)."""
    from .actions import print_schema

    sys.exit(print_schema())


@main.command()
@click.option("--force", is_flag=True, help="Overwrite existing files.")
def init(force: bool) -> None:
    """Write a starter spec and configuration in the current folder."""
    from .starter import init_project

    sys.exit(init_project(force=force))
