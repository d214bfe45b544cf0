"""``ohhell play``: play in the terminal against bots (full screen, Textual)."""

from __future__ import annotations

import argparse
import os
import sys

from .common import UsageError, add_rules_arguments, bot_list, name_list, rules_or_fail
from ..i18n import _, N_

HELP = N_("play Oh Hell in the terminal against bots (needs the 'tui' extra)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", default=None, help=_("your name (default: You)"))
    p.add_argument("--names", default=None,
                   help=_("comma-separated names of every seat, yours first (overrides --name)"))
    p.add_argument("--bots", default=None,
                   help=_("comma-separated bots for the other seats, clockwise from your left, or one "
                        "name for all (default: the strongest quick bot); see `ohhell play --list-bots`"))
    p.add_argument("--list-bots", action="store_true", help=_("list the bots and exit"))
    p.add_argument("--dealer", type=int, default=None,
                   help=_("the first dealer's seat, 1 = you (default: drawn at random)"))
    p.add_argument("--seed", default=None, help=_("deal from this seed (reproducible deals)"))
    p.add_argument("--delay", type=float, default=0.6,
                   help=_("seconds each bot action stays visible before the next (default 0.6)"))
    p.add_argument("--no-pause", action="store_true",
                   help=_("do not stop after each hand to show its result"))
    p.add_argument("--save", default=None, metavar="FILE",
                   help=_("save the game (its record) here after every action "
                        "(default: game.json in $OHHELL_HOME or ~/.local/share/ohhell)"))
    p.add_argument("--resume", nargs="?", const="", default=None, metavar="FILE",
                   help=_("continue a saved game (default: the last one)"))
    p.add_argument("--start", action="store_true",
                   help=_("skip the setup screen and start at once with the flags given"))
    add_rules_arguments(p)


def run(args: argparse.Namespace) -> int:
    if args.list_bots:
        from .common import bot_listing
        print(bot_listing())
        return 0
    try:
        from ..tui.play import PlayApp, PlayOptions, default_save_path, default_settings, load_saved
    except ImportError as e:  # pragma: no cover - depends on the installation
        print(_("ohhell play needs the terminal extra: pip install 'ohhell[tui]' ({reason})").format(reason=e),
              file=sys.stderr)
        return 2
    from .. import bots as botlib
    from ..errors import OhHellError, RecordError

    rules = rules_or_fail(args)
    n = rules.players
    names = None
    if args.names:
        names = name_list(args.names, n)
    elif args.name:
        from ..tui.setup import DEFAULT_NAMES
        names = [args.name] + list(DEFAULT_NAMES[1:n])
    seats = None
    if args.bots:
        seats = [None] + bot_list(args.bots, n - 1, _("the {n} other seats").format(n=n - 1))
    dealer = None
    if args.dealer is not None:
        if not 1 <= args.dealer <= n:
            raise UsageError(_("--dealer must be a seat from 1 to {n}").format(n=n))
        dealer = args.dealer - 1
    if args.delay < 0:
        raise UsageError(_("--delay cannot be negative"))
    save = args.save or (args.resume or None) or default_save_path()
    options = PlayOptions(delay=args.delay, save_path=save, pause_after_hand=not args.no_pause,
                          seed=args.seed)
    settings = default_settings(rules, names, seats, dealer)

    resume = None
    label = None
    if args.resume is not None or os.path.exists(save):
        path = args.resume or save
        try:
            game, seats_saved, help_saved = load_saved(path)
        except FileNotFoundError:
            if args.resume is not None:
                print(_("ohhell play: no saved game at {path}").format(path=path), file=sys.stderr)
                return 2
            game = None
        except (RecordError, OhHellError) as e:
            if args.resume is not None:
                print(_("ohhell play: cannot resume {path}: {reason}").format(path=path, reason=e), file=sys.stderr)
                return 2
            print(_("ohhell play: ignoring the saved game in {path}: {reason}").format(path=path, reason=e),
                  file=sys.stderr)
            game = None
        except OSError as e:
            print(_("ohhell play: cannot read {path}: {reason}").format(path=path, reason=e.strerror or e),
                  file=sys.stderr)
            return 2
        if game is not None and args.resume is None and game.is_over:
            game = None  # a finished game: nothing to resume
        if game is not None:
            resume = (game, seats_saved, help_saved)
            label = _("Resume the saved game (hand {n} of {count}, {names})").format(
                n=game.hand_index + 1, count=game.hand_count, names=", ".join(game.names))
            options.save_path = path
    app = PlayApp(settings, options, setup=not (args.start or args.resume is not None),
                  resume=resume, resume_label=label)
    app.run()
    if app.table is not None and app.table.saved_to:
        print(_("Game saved in {path} (ohhell play --resume {path}; ohhell replay {path})").format(
            path=app.table.saved_to))
    return 0
