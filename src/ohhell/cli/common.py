"""Command-line pieces shared by the subcommands: the rules flags."""

from __future__ import annotations

import argparse

from ..errors import RulesError
from ..rules import FLAGS as _FLAGS
from ..rules import NO_TRUMP_OPTIONS, PRESETS, SCHEDULES, Rules
from ..text import rules_words
from ..i18n import _, display_width, ngettext

__all__ = ["UsageError", "add_rules_arguments", "rules_from_args", "rules_or_fail", "parse_int_list",
           "name_list", "bot_list", "bot_listing", "CommandFailed", "add_ray_argument", "open_pool"]


class UsageError(Exception):
    """Bad command-line input: ``ohhell`` prints ``ohhell COMMAND: message`` and exits with 2."""


def parse_int_list(text: str) -> list[int]:
    """``"1,2,3"`` -> ``[1, 2, 3]`` (for ``--hand-sizes``)."""
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected numbers separated by commas, not {text!r}").format(
            text=text)) from None


def add_rules_arguments(parser: argparse.ArgumentParser, *, players_default: int = 4) -> None:
    """Add every rules field as a flag (docs/interfaces.md §3), plus ``--preset``."""
    g = parser.add_argument_group(_("rules (every field of a record's rules; see README)"))
    g.add_argument("--preset", choices=list(PRESETS), default=None,
                   help=_("start from a named preset; other flags override it"))
    g.add_argument("--players", type=int, default=None, help=_("3 to 7 (default {n})").format(n=players_default))
    g.add_argument("--schedule", choices=SCHEDULES, default=None, help=_("hand sizes: up, down, up-down, down-up"))
    g.add_argument("--hand-sizes", type=parse_int_list, default=None, metavar="N,N,...",
                   help=_("custom hand sizes, e.g. 1,2,3"))
    g.add_argument("--no-trump", choices=NO_TRUMP_OPTIONS, default=None,
                   help=_("hands without trump: last (default), largest, never"))
    for f in _FLAGS:
        g.add_argument("--" + f.replace("_", "-"), action=argparse.BooleanOptionalAction, default=None)
    parser.set_defaults(_players_default=players_default)


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The :class:`Rules` the flags describe.

    :raises RulesError: when they make no sense.
    """
    fields: dict = {}
    if args.players is not None:
        fields["players"] = args.players
    if args.schedule is not None:
        fields["schedule"] = args.schedule
    if args.hand_sizes is not None:
        fields["hand_sizes"] = args.hand_sizes
    if args.no_trump is not None:
        fields["no_trump"] = args.no_trump
    for f in _FLAGS:
        v = getattr(args, f)
        if v is not None:
            fields[f] = v
    if args.preset:
        return Rules.preset(args.preset, **{"players": args._players_default, **fields})
    fields.setdefault("players", args._players_default)
    return Rules(**fields)


def rules_or_fail(args: argparse.Namespace) -> Rules:
    """The rules the flags describe, or a :class:`UsageError` that says why not."""
    try:
        return rules_from_args(args)
    except RulesError as e:
        reason = rules_words(e) if e.code else flag_words(str(e))
        raise UsageError(_("bad rules: {reason}").format(reason=reason)) from None


def flag_words(message: str) -> str:
    """A rules message with each option's keyword name said as its flag.

    >>> flag_words("hand_sizes must hold whole numbers, not 'x'")
    "--hand-sizes must hold whole numbers, not 'x'"
    """
    import re
    message = message.replace("hand_sizes=[1, 2, 3]", "--hand-sizes 1,2,3")
    names = [x for x in ("hand_sizes", "no_trump", *_FLAGS) if "_" in x]
    return re.sub(r"(?<![\w-])(" + "|".join(names) + r")(?![\w])",
                  lambda m: "--" + m.group(1).replace("_", "-"), message)


def name_list(text: str, n: int, flag: str = "--names") -> list[str]:
    """Comma-separated names, exactly ``n`` of them."""
    names = [x.strip() for x in text.split(",")]
    if len(names) != n:
        raise UsageError(_("{flag} gives {count} names for {n} players").format(flag=flag, count=len(names), n=n))
    return names


def bot_list(text: str, count: int, what: "str | None" = None) -> list[str]:
    """Comma-separated bot names for ``count`` seats (one name fills them all), each registered."""
    from .. import bots as botlib
    names = [x.strip() for x in text.split(",")]
    if len(names) == 1:
        names = names * count
    if len(names) != count:
        raise UsageError(_("--bots names {count} bots for {seats}").format(
            count=len(names), seats=what or ngettext("{n} player", "{n} players", count).format(n=count)))
    unknown = [x for x in names if x not in botlib.names()]
    if unknown:
        raise UsageError(_("unknown bot {name!r}; choose from {names}").format(
            name=unknown[0], names=", ".join(botlib.names())))
    return names


def bot_listing() -> str:
    """``--list-bots``: every bot name with its level and a one-line description; an alias
    is shown under the bot it names."""
    from .. import bots as botlib
    infos = botlib.catalog()
    levels = len(botlib.LEVELS)
    width = max(len(i.name) for i in infos) + 2
    lines = []
    for i in infos:
        if i.alias_of:
            lines.append(f"  {i.name:<{width}}" + _("another name for {name}").format(name=i.alias_of))
            continue
        level = _("level {n} of {count}").format(n=i.level, count=levels) if i.level else _("not a level")
        level += " " * max(1, 14 - display_width(level))
        lines.append(f"{i.name:<{width + 2}}{level}{_(i.description)}")
    lines.append("")
    lines.append(_("Levels run from weakest to strongest. Arena specs take options, e.g. expert:iterations=60."))
    return "\n".join(lines)


class CommandFailed(UsageError):
    """A command that could not finish for a reason other than its input (a Ray worker
    died): ``ohhell COMMAND: message``, exit status 1."""

    status = 1


def add_ray_argument(parser: argparse.ArgumentParser) -> None:
    """``--ray [ADDRESS]``: spread the work over a Ray cluster (docs/ray.md)."""
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help=_("spread the games over a Ray cluster: the head node's HOST:PORT, or no "
                               "address to start Ray on this machine (needs: pip install 'ohhell[ray]'); "
                               "the same seed gives the same results as a local run"))


def open_pool(args: argparse.Namespace, jobs: int = 1):
    """The executor ``args`` ask for: a :class:`~ohhell.bots.distributed.RayPool` with
    ``--ray`` (at most ``--jobs`` tasks at once when given), else local processes.

    :raises UsageError: when Ray is missing or the cluster cannot be joined.
    """
    from ..bots.match import ProcessPool
    if getattr(args, "ray", None) is None:
        return ProcessPool(jobs)
    from ..bots.distributed import RayUnavailable, RayPool
    try:
        return RayPool(args.ray or None, workers=getattr(args, "jobs", 0) or None)
    except RayUnavailable as e:
        raise UsageError(str(e)) from None

