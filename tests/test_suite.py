"""The test suite's own conventions: the quick run by default and every test in CI, the command the README
gives, golden files that only ``--update-golden`` writes."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from .conftest import QUICK, ROOT, check_golden


def test_the_quick_run_is_the_default_that_all_and_ci_lift() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    arguments = shlex.split(options["addopts"])
    assert arguments[arguments.index("-m") + 1] == QUICK
    assert all(f"{marker}:" in " ".join(options["markers"]) for marker in re.findall(r"not (\w+)", QUICK))


@pytest.mark.slow  # four starts of pytest
def test_all_and_ci_run_the_tests_the_quick_run_leaves_out() -> None:
    def collected(*options: str, ci: bool) -> str:
        environment = {k: v for k, v in os.environ.items() if k != "CI"} | ({"CI": "1"} if ci else {})
        command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *options]
        done = subprocess.run([*command, "tests/test_wheel.py"], cwd=ROOT, env=environment, capture_output=True)
        return done.stdout.decode().splitlines()[-1]

    every = collected("--all", ci=False)  # the file's tests are all slow, one of them a browser test
    count = int(every.split()[0])
    assert every.startswith(f"{count} tests collected") and count > 1
    assert collected(ci=False).startswith(f"no tests collected ({count} deselected)")
    assert collected(ci=True).startswith(f"{count} tests collected")
    assert collected("-m", "browser", ci=True).startswith(f"1/{count} tests collected ({count - 1} deselected)")


def test_ci_runs_the_commands_the_readme_gives() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(.*?)\n```", readme, re.DOTALL)
    assert commands[1].rpartition(" && ")[2] == ".venv/bin/pytest -q"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for command in commands[:2]:  # both as written: set up + the main job, set up + the tests
        assert re.search(rf"^{re.escape(command)}$", ci, re.MULTILINE), f".ci/run does not run {command!r}"
    assert re.search(r'^export CI="\$\{CI:-1\}"', ci, re.MULTILINE), "CI must be set for every test to run"


def test_a_missing_golden_file_fails_and_says_how_to_write_it(tmp_path: Path) -> None:
    golden = tmp_path / "expected.txt"
    with pytest.raises(
        pytest.fail.Exception, match=r"is missing: write it with `pytest --update-golden`, then read it"
    ):
        check_golden(golden, "output\n", update=False)
    assert not golden.exists()
    check_golden(golden, "output\n", update=True)
    assert golden.read_text(encoding="utf-8") == "output\n"
    check_golden(golden, "output\n", update=False)
    with pytest.raises(AssertionError, match="run `pytest --update-golden` and read the diff"):
        check_golden(golden, "other\n", update=False)
