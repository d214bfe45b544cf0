"""Types checked in CI: mypy over src/, each area under its ceiling in .ci/mypy-ceiling.json."""

from __future__ import annotations

import importlib.util
import warnings
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("mypy_ceiling", ROOT / "scripts" / "mypy_ceiling.py")
assert _spec and _spec.loader
ceiling = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ceiling)


def test_the_ceiling_check_counts_by_area_and_says_how_to_lower():
    report = "\n".join([
        f"{ROOT}/src/ohhell/game.py:3: error: Incompatible types  [assignment]",
        f"{ROOT}/src/ohhell/game.py:9:5: error: Missing return  [return]",
        f"{ROOT}/src/ohhell/bots/learned/net.py:1: error: Name undefined  [name-defined]",
        f"{ROOT}/src/ohhell/bots/expert.py:2: note: a note is not an error",
        f"{ROOT}/src/ohhell/newarea/x.py:2: error: Something  [misc]",
    ])
    counts = ceiling.count_errors(report)
    assert counts == Counter({"core": 2, "bots": 1, "newarea": 1})
    over, under, table = ceiling.check(counts, {"core": 2, "bots": 5, "cli": 0})
    assert over == ["newarea"]                       # an area without a ceiling must be clean
    assert under == ["bots"] and "lower the ceiling" in table
    assert "scripts/mypy_ceiling.py --write" in ceiling.how_to_lower(under)


def test_mypy_error_counts_stay_under_their_ceilings():
    pytest.importorskip("mypy", reason="mypy is in the 'test' extra")
    counts = ceiling.count_errors(ceiling.run_mypy())
    over, under, table = ceiling.check(counts, ceiling.read_ceilings())
    assert not over, f"mypy errors over the ceiling in {', '.join(over)}:\n{table}\n(`python -m mypy` lists them)"
    if under:
        warnings.warn(ceiling.how_to_lower(under) + "\n" + table, stacklevel=1)
