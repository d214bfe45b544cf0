#!/usr/bin/env python3
"""Type-check src/ with mypy and hold each area's error count under its ceiling.

The ceilings are in .ci/mypy-ceiling.json, one per area: "core" (the modules at the top of
src/ohhell) and each package under it (bots, cli, tui, server, env).  An area without a
ceiling must be clean.  Ceilings only go down: when an area has fewer errors than its
ceiling, lower the ceiling to the new count (``--write`` does it) and commit the file.

Usage: scripts/mypy_ceiling.py [--write]
Exit status: 0 when every area is at or under its ceiling, 1 when one is over, 2 when mypy
could not run.  tests/test_types.py runs the same check.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CEILING_FILE = ROOT / ".ci" / "mypy-ceiling.json"
_ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):\d+(?::\d+)?: error: ")


def area(path: str) -> str:
    """The area a source file belongs to: ``core`` or its package under ``src/ohhell``.

    >>> area("src/ohhell/game.py"), area("src/ohhell/bots/expert.py"), area("src/ohhell/bots/learned/net.py")
    ('core', 'bots', 'bots')
    """
    parts = Path(path).as_posix().split("/")
    i = parts.index("ohhell")
    return "core" if len(parts) == i + 2 else parts[i + 1]


def run_mypy() -> str:
    """mypy's report over src/ (configured in pyproject.toml's [tool.mypy])."""
    p = subprocess.run([sys.executable, "-m", "mypy", "--no-pretty", "--no-error-summary", "--show-absolute-path"],
                       cwd=ROOT, capture_output=True, text=True)
    if p.returncode not in (0, 1) or "error: " not in p.stdout and p.returncode == 1:
        raise RuntimeError(f"mypy did not run (exit {p.returncode}):\n{p.stdout}{p.stderr}")
    return p.stdout


def count_errors(report: str) -> Counter:
    """Errors per area in a mypy report."""
    counts: Counter = Counter()
    for line in report.splitlines():
        m = _ERROR.match(line)
        if m:
            rel = Path(m["path"]).resolve().relative_to(ROOT).as_posix()
            counts[area(rel)] += 1
    return counts


def read_ceilings() -> dict[str, int]:
    return {k: int(v) for k, v in json.loads(CEILING_FILE.read_text()).items() if not k.startswith("_")}


def check(counts: Counter, ceilings: dict[str, int]) -> tuple[list[str], list[str], str]:
    """(areas over their ceiling, areas under it, a table of both)."""
    over, under, rows = [], [], []
    for a in sorted(set(counts) | set(ceilings)):
        n, cap = counts.get(a, 0), ceilings.get(a, 0)
        mark = "OVER" if n > cap else "lower the ceiling" if n < cap else ""
        rows.append(f"  {a:<8} {n:>4} errors, ceiling {cap:>4}  {mark}".rstrip())
        (over if n > cap else under if n < cap else []).append(a)
    return over, under, "\n".join(rows)


def how_to_lower(under: list[str]) -> str:
    return (f"mypy: fewer errors than the ceiling in {', '.join(under)}. Lower the ceiling so they cannot "
            f"come back: run `python scripts/mypy_ceiling.py --write` and commit .ci/mypy-ceiling.json.")


def write_ceilings(counts: Counter, ceilings: dict[str, int]) -> dict[str, int]:
    """Lower each ceiling to the current count (never raise one); returns the new ceilings."""
    new = {a: min(cap, counts.get(a, 0)) for a, cap in ceilings.items()}
    data = json.loads(CEILING_FILE.read_text())
    data.update(new)
    CEILING_FILE.write_text(json.dumps(data, indent=2) + "\n")
    return new


def main(argv: list[str]) -> int:
    try:
        report = run_mypy()
    except (RuntimeError, OSError) as e:
        print(e, file=sys.stderr)
        return 2
    counts = count_errors(report)
    ceilings = read_ceilings()
    if "--write" in argv:
        ceilings = write_ceilings(counts, ceilings)
    over, under, table = check(counts, ceilings)
    print("mypy errors per area (ceilings in .ci/mypy-ceiling.json):")
    print(table)
    if under:
        print(how_to_lower(under))
    if over:
        print(f"mypy: more errors than the ceiling in {', '.join(over)}; fix the new ones "
              f"(`python -m mypy` lists them). A ceiling is never raised.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
