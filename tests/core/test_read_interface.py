"""The core's modules talk through public names: Game's read interface, building from given deals,
and no module that only reads a game imports it at run time."""

from __future__ import annotations

import ast
import pathlib
import random

import pytest

import ohhell
from ohhell import Game, Rules
from ohhell.cards import cards_to_mask
from ohhell.errors import RulesError
from ohhell.game import check_deal

SRC = pathlib.Path(ohhell.__file__).parent


def _runtime_imports(path: pathlib.Path) -> set[str]:
    """The modules a file imports outside ``if TYPE_CHECKING:`` blocks (relative names kept)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            guarded = typing_only or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            if isinstance(child, ast.ImportFrom) and not guarded:
                found.add("." * child.level + (child.module or ""))
            elif isinstance(child, ast.Import) and not guarded:
                found.update(a.name for a in child.names)
            visit(child, guarded)

    visit(tree, False)
    return found


@pytest.mark.parametrize("module", ["view", "text", "state", "tricks"])
def test_the_modules_that_read_a_game_do_not_import_it(module):
    assert ".game" not in _runtime_imports(SRC / f"{module}.py")


@pytest.mark.parametrize("module", ["view", "records", "text", "fast", "sampling", "scoresheet"])
def test_no_core_module_reads_a_games_private_attributes(module):
    text = (SRC / f"{module}.py").read_text(encoding="utf-8")
    tree = ast.parse(text)
    private = [ast.unparse(n) for n in ast.walk(tree)
               if isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__")
               and isinstance(n.value, ast.Name) and n.value.id in ("game", "g")]
    assert private == []


def test_from_deals_deals_the_given_hands_and_the_rest_from_the_seed():
    rules = Rules(3, hand_sizes=[1, 2, 1], no_trump="never")
    plain = Game(rules, seed=9, dealer=0)
    given = {1: ([["AS", "KS"], "2C 3C", cards_to_mask(["4D", "5D"])], "7H")}
    g = Game.from_deals(rules, given, seed=9, dealer=0)
    assert g.deal == plain.deal and g.hand_key(0) == plain.hand_key(0)
    rng = random.Random(1)
    while g.hand_index == 0:
        g.apply(rng.choice(g.legal_actions()))
    assert [g.hand(s) for s in range(3)] == [[ohhell.Card("KS"), ohhell.Card("AS")],
                                             [ohhell.Card("2C"), ohhell.Card("3C")],
                                             [ohhell.Card("4D"), ohhell.Card("5D")]]
    assert g.turned_card == ohhell.Card("7H") and g.hand_key(1) is None
    # Without a seed the other hands come from the CSPRNG, and the record replays as it was.
    g = Game.from_deals(rules, given, dealer=0)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert Game.from_record(g.record()).record() == g.record()
    assert g.record()["hands"][1]["deal"] == [["KS", "AS"], ["2C", "3C"], ["4D", "5D"]]


def test_check_deal_takes_lists_text_or_masks_and_says_what_does_not_fit():
    rules = Rules(3, hand_sizes=[2, 17])
    masks, t = check_deal(rules, 0, [["AS", "KS"], "2C 3C", cards_to_mask(["4D", "5D"])], "7H")
    assert masks == (cards_to_mask(["AS", "KS"]), cards_to_mask(["2C", "3C"]), cards_to_mask(["4D", "5D"]))
    assert t == ohhell.Card("7H")
    deck = [ohhell.CARDS[c] for c in range(51)]
    _, t = check_deal(rules, 1, [deck[:17], deck[17:34], deck[34:51]], None)
    assert t is None                      # the whole deck is dealt: no trump
    with pytest.raises(RulesError, match="dealt twice"):
        check_deal(rules, 0, [["AS", "KS"], ["AS", "3C"], ["4D", "5D"]], "7H")
    with pytest.raises(RulesError, match="no hand 5"):
        Game.from_deals(rules, {5: ([["AS", "KS"], ["2C", "3C"], ["4D", "5D"]], "7H")})


def test_the_read_interface_answers_what_views_and_records_need():
    g = Game(Rules(4, hand_sizes=[2]), seed=4, dealer=3)
    assert g.bids_revealed and g.forbidden_bid() is None
    v = g.view(0)
    assert v.phase is g.phase and v.trump == g.trump_suit and v.trump_card == g.turned_card
    assert g.names == ("Seat 1", "Seat 2", "Seat 3", "Seat 4")
    simul = Game(Rules(4, hand_sizes=[2], simultaneous_bidding=True), seed=4)
    simul.apply(ohhell.Bid(1), seat=2)
    assert not simul.bids_revealed and simul.view(1).bids == (None,) * 4
    hooked = Game(Rules(3, hand_sizes=[2], hook=True), seed=4, dealer=2)
    hooked.apply(ohhell.Bid(1))
    hooked.apply(ohhell.Bid(0))
    assert hooked.forbidden_bid() == 1 and hooked.forbidden_bid(0) is None
