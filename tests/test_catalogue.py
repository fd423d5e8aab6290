"""The catalogue: every game with its options, deal table, deck, codes and rules text."""

from __future__ import annotations

from flask.testing import FlaskClient


def test_games_are_listed_with_their_links(client: FlaskClient) -> None:
    games = {g["slug"]: g for g in client.get("/v1/games").get_json()["games"]}
    assert {"element-draft", "polymer"} <= set(games)  # each game adds itself
    assert games["element-draft"]["links"]["moves"] == "/v1/element-draft/moves"
    assert games["polymer"]["links"]["moves"] == "/v1/polymer/sessions/{session_id}/moves"
    assert games["polymer"]["dynamics"] == "real-time"


def test_game_detail_serves_the_rules_documents(client: FlaskClient) -> None:
    ed = client.get("/v1/games/element-draft").get_json()
    assert ed["rules_document"].startswith("# Chemistry Card Game")
    assert "Deck Size" in ed["seed_text"]
    assert ed["player_counts"]["2"] == {"deck_size": 36, "hand_size": 15}
    assert len(ed["deck"]) == 103 and ed["deck"][25]["symbol"] == "Fe"
    assert "not_in_hand" in ed["codes"] and "game_over" in ed["codes"]
    po = client.get("/v1/games/polymer").get_json()
    assert po["rules_document"].startswith("# Polymer")
    assert po["player_counts"]["15"] == {"hand_size": 6}
    assert len(po["deck"]) == 104
    assert {o["name"] for o in po["options"]} == {"timer_seconds", "deal"}
