"""Every code a game declares is explained in its rules document.

A game's ``docs/rules/<slug>.md`` names each of its codes (``GameInfo.codes``) in
backticks where it explains when the code is answered, or it links to the document of
another game that explains the codes the two share. The core codes (``CORE_CODES``,
the same for every game) are explained once, in the problem catalogue
(``GET /v1/problems``).
"""

from __future__ import annotations

import re
import subprocess
import sys
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


def test_check_game_keeps_one_game_only() -> None:
    """`make check-game GAME=<slug>` (``--game``): the tests of the other games are
    deselected, the game's own and the generic ones stay; an unknown slug is refused."""
    root = DOCS.parent.parent
    run = [sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider"]
    here = "tests/test_rules_docs.py"
    done = subprocess.run(
        [*run, "--game", "polymer", here], cwd=root, capture_output=True, text=True, check=False
    )
    ids = [line for line in done.stdout.splitlines() if line.startswith(here)]
    assert f"{here}::test_every_declared_code_is_in_the_rules_document[polymer]" in ids
    assert f"{here}::test_a_code_missing_from_the_document_is_named" in ids
    assert not [i for i in ids if "[" in i and "[polymer]" not in i], ids
    bad = subprocess.run(
        [*run, "--game", "no-such-game", here],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode != 0 and "not a game" in bad.stderr + bad.stdout
