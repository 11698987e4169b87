"""``python -m toolc``: the same as the ``toolc`` command."""

from toolc.cli import run

run()
