""" "Adding a game" (docs/ARCHITECTURE.md) holds: every registered game has every part.

A game is its rules package (with its declared wire shapes), its rules document, a
row in the README's table of games and its measured figures in bench/README.md; the
service, the contract, the tests and the benchmarks pick it up from the registry.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.registry import GAMES
from service.games.schemas.derive import pascal

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BENCH = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
CONTRACT = (ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8")
ARCHITECTURE = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_game_has_every_part(slug: str) -> None:
    game = GAMES[slug]
    package = ROOT / "rules" / slug.replace("-", "_")
    assert (package / "__init__.py").exists(), "the rules package is named after the slug"
    assert game.wire is not None, "the game declares its wire shapes (rules.wire.Wire)"
    doc = ROOT / "docs" / "rules" / f"{slug}.md"
    assert doc.exists() and len(doc.read_text(encoding="utf-8")) > 500, "its rules document"
    assert re.search(rf"^\| `{re.escape(slug)}` \|", README, re.M), "its row in the README"
    assert f"`{slug}`" in BENCH, "its measured figures in bench/README.md"
    name = pascal(slug)
    assert f'"{name}View"' in CONTRACT, "its view in the checked-in contract"
    assert f"/v1/{slug}/sessions" in CONTRACT, "its hosted sessions in the contract"
    if game.clock is None:
        assert f"/v1/{slug}/setup" in CONTRACT, "its stateless endpoints in the contract"


def test_the_recipe_names_every_step() -> None:
    recipe = ARCHITECTURE.split("## Adding a game", 1)[1]
    for step in ("wire.py", "docs/rules/", "README", "bench/README.md", "make openapi"):
        assert step in recipe, f"the recipe does not mention {step}"
