"""The examples in the research environment's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["ohhell.env.encoding", "ohhell.env.aec", "ohhell.env.single", "ohhell.env.batch", "ohhell.env.dataset",
           "ohhell.env.openspiel"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
