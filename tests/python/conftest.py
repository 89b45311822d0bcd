"""Shared fixtures: the repository, and the `tabula` binary built from it
(the Python package's figures are checked against the program's)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Timings and thread counts differ from run to run; nothing else may.
TIMINGS = {"seconds", "threads"}


def without_timings(value):
    """`value` with every timing and thread count taken out, at any depth."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


@pytest.fixture(scope="session")
def binary():
    """The `tabula` program of this clone: $TABULA_BIN, else built by cargo."""
    given = os.environ.get("TABULA_BIN")
    if given:
        return given
    subprocess.run(
        ["cargo", "build", "--locked", "--quiet", "--bin", "tabula"], cwd=ROOT, check=True
    )
    return str(ROOT / "target" / "debug" / "tabula")


@pytest.fixture(scope="session")
def run_json(binary):
    """Run the program with `args` and return its --json output, parsed."""

    def run(*args):
        env = dict(os.environ, RUST_BACKTRACE="0")
        done = subprocess.run(
            [binary, *args, "--json"], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return run
