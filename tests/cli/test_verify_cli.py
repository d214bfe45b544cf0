"""Issue 18: ``ohhell verify`` checks the committed first dealer, and bad files are clear errors
that do not stop the files after them."""

from __future__ import annotations

import json

import ohhell
from ohhell import dealing
from ohhell.cli import main


def _committed(dealer_shift: int = 0) -> dict:
    """A finished record as the server publishes it (seed and commitments); with a shift, a
    game whose first dealer is not the one its seed picks (deals made to match)."""
    rules, seed = ohhell.Rules(4, hand_sizes=[2, 1]), "fairness-test"
    dealer = (dealing.first_dealer(seed, 4) + dealer_shift) % 4
    g = ohhell.Game(rules, seed=seed, dealer=dealer)
    while not g.is_over:
        g.apply(g.legal_actions()[0], seat=g.seats_to_act[0])
    rec = g.record()
    rec["commitments"] = [dealing.commitment(dealing.hand_key(seed, k)) for k in range(rules.hand_count)]
    return rec


def test_verify_checks_the_first_dealer_of_a_committed_record(tmp_path, capsys):
    fair, unfair = tmp_path / "fair.json", tmp_path / "unfair.json"
    fair.write_text(json.dumps(_committed()))
    unfair.write_text(json.dumps(_committed(1)))
    assert main(["verify", str(fair)]) == 0
    assert main(["verify", str(unfair)]) == 1
    assert "the first dealer is seat" in capsys.readouterr().err
    plain = _committed(1)
    del plain["commitments"]   # a local game may have a chosen first dealer
    (tmp_path / "plain.json").write_text(json.dumps(plain))
    assert main(["verify", str(tmp_path / "plain.json")]) == 0


def test_bad_files_are_clear_errors_and_later_files_are_still_checked(tmp_path, capsys):
    binary, empty, good = tmp_path / "binary.json", tmp_path / "empty.json", tmp_path / "good.json"
    binary.write_bytes(b"\xff\xfe{\x00\x80")
    empty.write_text("")
    good.write_text(json.dumps(_committed()))
    assert main(["verify", str(binary), str(empty), str(good)]) == 1
    out, err = capsys.readouterr()
    assert "not a UTF-8 text file" in err and "empty" in err and "Traceback" not in err
    assert f"{good}: 1 record OK" in out
