"""The catalogue: every game with its options, deal table, deck, codes and rules text."""

from __future__ import annotations

import json

from flask.testing import FlaskClient

from rules.registry import GAMES
from service.games.schemas.derive import pascal


def test_games_are_listed_with_their_links(client: FlaskClient) -> None:
    games = {g["slug"]: g for g in client.get("/v1/games").get_json()["games"]}
    assert {"element-draft", "polymer"} <= set(games)  # more games join as they are built
    assert games["element-draft"]["links"]["moves"] == "/v1/element-draft/moves"
    assert games["polymer"]["links"]["session_moves"] == ("/v1/polymer/sessions/{session_id}/moves")
    assert "moves" not in games["polymer"]["links"], "Polymer is only played as a session"
    assert games["polymer"]["modes"] == ["session"]
    assert games["element-draft"]["modes"] == ["stateless", "session"]
    assert games["element-draft"]["links"]["create_session"] == "/v1/element-draft/sessions"
    assert games["polymer"]["dynamics"] == "real-time"


def test_game_detail_serves_the_rules_documents(client: FlaskClient) -> None:
    ed = client.get("/v1/games/element-draft").get_json()
    assert ed["rules_document"].startswith("# Chemistry Card Game")
    assert "seed_text" not in ed  # no copy of the original rules: their source instead
    assert ed["source"] == {
        "title": "Chemistry Card Game",
        "publisher": None,
        "origin": ed["source"]["origin"],
        "interpretation": "docs/rules/element-draft.md",
    }
    assert "Chemistry Chard Game" in ed["source"]["origin"]
    assert ed["player_counts"]["2"] == {"deck_size": 36, "hand_size": 15}
    assert len(ed["deck"]) == 103 and ed["deck"][25]["symbol"] == "Fe"
    assert "not_in_hand" in ed["codes"] and "game_over" in ed["codes"]
    po = client.get("/v1/games/polymer").get_json()
    assert po["rules_document"].startswith("# Polymer")
    assert po["player_counts"]["15"] == {"hand_size": 6}
    assert len(po["deck"]) == 104
    assert {o["name"] for o in po["options"]} == {
        "timer_seconds",
        "deal",
        "bot_think_min_ms",
        "bot_think_max_ms",
    }


def test_every_game_cites_its_source_and_no_copy_of_it_is_served(client: FlaskClient) -> None:
    from pathlib import Path

    from rules.registry import GAMES

    root = Path(__file__).resolve().parent.parent
    assert not (root / "docs" / "seeds").exists()
    for slug, game in GAMES.items():
        detail = client.get(f"/v1/games/{slug}").get_json()
        source = detail["source"]
        assert source == game.info.source.to_json(slug)
        assert source["title"] in (None, game.info.title) and source["origin"]
        document = (root / source["interpretation"]).read_text(encoding="utf-8")
        assert document == detail["rules_document"]
        # the rules document names its source and never the working copy's file name
        assert "## Source" in document and game.info.seed_file not in document


def test_every_documented_option_default_is_the_rules_default() -> None:
    """The contract documents the same default the rules use (both come from one
    declaration; a mismatch would promise another game than the one played). It says it
    in the member's description (a `default` keyword makes openapi-typescript require
    the member)."""
    from service.openapi_export import generate

    schemas = generate()["components"]["schemas"]
    for slug, game in GAMES.items():
        options = schemas[f"{pascal(slug)}Options"]["properties"]
        for option in game.info.options:
            said = f"Default: `{json.dumps(option.default, ensure_ascii=False)}`."
            assert options[option.name]["description"].endswith(said), (slug, option.name)
            assert "default" not in options[option.name], (slug, option.name)
