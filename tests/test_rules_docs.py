"""Every code a game declares is explained in its rules document.

A game's ``docs/rules/<slug>.md`` names each of its codes (``GameInfo.codes``) in
backticks where it explains when the code is answered, or it links to the document of
another game that explains the codes the two share. The core codes (``CORE_CODES``,
the same for every game) are explained once, in the problem catalogue
(``GET /v1/problems``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.registry import GAMES

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def undocumented(slug: str, codes: list[str]) -> list[str]:
    """The codes of ``codes`` that neither ``slug``'s rules document nor a game's
    document it links to names in backticks."""
    text = (DOCS / f"{slug}.md").read_text(encoding="utf-8")
    linked = re.findall(r"\]\(([a-z-]+)\.md(?:#[^)]*)?\)", text)
    texts = [text] + [(DOCS / f"{other}.md").read_text(encoding="utf-8") for other in linked]
    return [code for code in codes if not any(f"`{code}`" in t for t in texts)]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_declared_code_is_in_the_rules_document(slug: str) -> None:
    missing = undocumented(slug, list(GAMES[slug].info.codes))
    assert missing == [], f"docs/rules/{slug}.md does not explain {missing}"


def test_a_code_missing_from_the_document_is_named() -> None:
    assert undocumented("element-draft", ["already_selected", "no_such_code_anywhere"]) == [
        "no_such_code_anywhere"
    ]
