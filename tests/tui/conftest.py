"""Helpers for the terminal apps' tests: plain screen text, waiting for bots, predictable bots."""

from __future__ import annotations

import asyncio
import io

import pytest

from ohhell import bots as botlib
from ohhell.actions import Bid, Play
from ohhell.bots.base import Bot, Decision


class FirstBot(Bot):
    """Bids the lowest legal bid and plays the lowest legal card: predictable games."""

    name = "first"

    def __init__(self, seed=None) -> None:
        pass

    def decide(self, view, budget=None) -> Decision:
        legal = view.legal_actions()
        return Decision(legal[0], {a: 0.0 for a in legal}, note="the first legal action")


class OracleBot(Bot):
    """Answers with made-up but recognisable numbers, to check how hints are shown."""

    name = "oracle"

    def __init__(self, seed=None) -> None:
        pass

    def decide(self, view, budget=None) -> Decision:
        legal = view.legal_actions()
        values = {a: round(1.5 + i * 0.25, 2) for i, a in enumerate(legal)}
        best = max(values, key=values.get)
        probs = None
        if isinstance(best, Bid):
            k = view.hand_size + 1
            probs = [round(1 / k, 4)] * k
        return Decision(best, values, trick_probs=probs, note="oracle reasoning",
                        stats={"samples": 123})


@pytest.fixture
def test_bots(monkeypatch):
    """Register the ``first`` and ``oracle`` bots for one test."""
    registry = dict(botlib._REGISTRY)
    registry["first"] = FirstBot
    registry["oracle"] = OracleBot
    monkeypatch.setattr(botlib, "_REGISTRY", registry)
    return registry


def _render(renderable) -> str:
    from rich.console import Console
    console = Console(width=240, file=io.StringIO(), record=True, color_system=None, legacy_windows=False)
    console.print(renderable)
    return console.export_text()


def screen_text(app) -> str:
    """Every piece of text on the app's current screen (statics, buttons, logs), as plain text."""
    from textual.widgets import Button, RichLog, Static
    parts = []
    for w in app.screen.query("*"):
        if not w.display:
            continue
        if isinstance(w, RichLog):
            parts.extend("".join(seg.text for seg in line) for line in w.lines)
        elif isinstance(w, Button):
            parts.append(str(w.label))
        elif isinstance(w, Static):
            content = w.content if hasattr(type(w), "content") else w.renderable  # Textual < 6
            parts.append(content if isinstance(content, str) else _render(content))
    return "\n".join(parts)


@pytest.fixture
def text_of():
    return screen_text


async def wait_until(pilot, condition, timeout: float = 20.0) -> None:
    """Let the app run until ``condition()`` holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError("timed out waiting for the app")
        await pilot.pause(0.01)


@pytest.fixture
def until():
    return wait_until


__all__ = ["FirstBot", "OracleBot", "screen_text", "wait_until", "Play"]
