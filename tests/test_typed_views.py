"""Views built as their declared ``TypedDict`` (issue 28 item 5, begun with element-draft).

A game whose ``view`` returns its declared ``View`` has every member of what it builds
checked by ``mypy --strict`` (``make typecheck``): a wrong member type fails the type
check, not a test at run time. Element-draft's view (its cards, seats, own seat and word
race places) is built so; the other games still return ``dict[str, Any]``.
"""

from __future__ import annotations

import typing
from pathlib import Path

from mypy import api

from rules.element_draft import game, wire


def test_element_draft_builds_its_view_as_declared() -> None:
    hints = typing.get_type_hints(game.view)
    assert hints["return"] is wire.View
    assert typing.get_type_hints(game.described)["return"] is wire.Placing


def test_a_view_member_of_the_wrong_type_fails_the_type_check(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong_view.py"
    wrong.write_text(
        "from rules.element_draft import game, wire\n\n\n"
        "def view(state: dict[str, object]) -> wire.View:\n"
        "    built = game.view(state, None)\n"
        '    return {**built, "players": "two"}\n',
        encoding="utf-8",
    )
    out, _, status = api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(wrong)]
    )
    assert status == 1, out
    assert '"players"' in out and "typeddict-item" in out, out
