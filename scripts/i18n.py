#!/usr/bin/env python3
"""Keep the translation catalogs (ohhell.i18n.catalogs does the work).

  python scripts/i18n.py update     # extract every message, bring every .po up to date
  python scripts/i18n.py check      # list untranslated/fuzzy/mismatched messages (exit 1 if any)
  python scripts/i18n.py init LANG  # start the catalogs of a new language
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from ohhell.i18n import LANGUAGES  # noqa: E402
from ohhell.i18n import catalogs  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("update")
    c = sub.add_parser("check")
    c.add_argument("--lang", help="only this language")
    i = sub.add_parser("init")
    i.add_argument("lang")
    args = ap.parse_args()
    if args.cmd == "update":
        for path in catalogs.update():
            print(path.relative_to(catalogs.PACKAGE_DIR.parent.parent))
        return 0
    if args.cmd == "init":
        if args.lang not in LANGUAGES:
            print(f"add {args.lang!r} to LANGUAGES in src/ohhell/i18n/__init__.py first", file=sys.stderr)
            return 2
        for path in catalogs.init(args.lang):
            print(path)
        return 0
    found = [p for p in catalogs.problems() if not args.lang or p.startswith(args.lang + "/")]
    for p in found:
        print(p)
    print(f"{len(found)} problem(s)", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
