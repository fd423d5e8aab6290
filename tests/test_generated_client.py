"""A stranger's client: generated from openapi/openapi.json alone, it plays real games.

openapi-python-client generates a typed Python client from the checked-in contract;
the client then plays a whole element-draft game (stateless, one credential per
seat), a Polymer session (start, trades, time up, final scores) and every other game of
the catalogue (one seat against the service's bot seats: the loop names each game's
operations and models from its slug, so a new game is played without editing this
file) against the app, through httpx's WSGI transport. Problems parse into their
per-operation models with the code as an enum member.
"""

from __future__ import annotations

import ast
import importlib
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from flask import Flask

from rules.registry import GAMES
from service.games.schemas.derive import pascal

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "openapi" / "openapi.json"
GENERATOR = Path(sys.executable).parent / "openapi-python-client"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not GENERATOR.exists():
        pytest.fail("openapi-python-client is not installed: run `make install`")
    out = tmp_path_factory.mktemp("generated")
    config = out / "config.yaml"
    config.write_text("post_hooks: []\npackage_name_override: chem_client\n", encoding="utf-8")
    done = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(CONTRACT), "--output-path",
         str(out / "chem_client"), "--meta", "none", "--config", str(config)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout, done.stdout
    sys.path.insert(0, str(out))
    try:
        yield "chem_client"
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m.split(".")[0] == "chem_client"]:
            del sys.modules[name]
        shutil.rmtree(out, ignore_errors=True)


def test_generated_names_are_short(pkg: str) -> None:
    """Every class the generator makes is named in at most 40 characters: no name built
    from a whole path (`...RequestBotsAdditionalProperty`, `...Type2Type1`)."""
    models_file = mod(pkg, "models").__file__
    assert models_file is not None
    models = Path(models_file).parent
    names = [
        node.name
        for source in models.glob("*.py")
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
    ]
    assert len(names) > 300
    long = sorted((n for n in names if len(n) > 40), key=len)
    assert not long, long[-10:]
    assert not [n for n in names if re.search(r"Type\d|AdditionalProperty", n)]


def mod(pkg: str, name: str) -> ModuleType:
    return importlib.import_module(f"{pkg}.{name}")


def clients(pkg: str, app: Flask, tokens: list[str]) -> list[Any]:
    client = mod(pkg, "client")
    transport = httpx.WSGITransport(app=app)
    return [
        client.AuthenticatedClient(
            base_url="http://rules.test", token=t, httpx_args={"transport": transport}
        )
        for t in tokens
    ]


def test_a_generated_client_plays_a_whole_element_draft_game(pkg: str, app: Flask) -> None:
    models = mod(pkg, "models")
    public = mod(pkg, "client").Client(
        base_url="http://rules.test", httpx_args={"transport": httpx.WSGITransport(app=app)}
    )
    setup = mod(pkg, "api.element_draft.element_draft_setup").sync(
        client=public, body=models.ElementDraftSetupRequest.from_dict({"players": 3, "seed": 6})
    )
    assert isinstance(setup, models.ElementDraftSetupResponse)
    seats = clients(pkg, app, [s.seat_token for s in setup.seats])
    token, to_act, moves = setup.token, setup.to_act, 0
    legal_op = mod(pkg, "api.element_draft.element_draft_legal_moves")
    move_op = mod(pkg, "api.element_draft.element_draft_move")
    while to_act:
        seat = to_act[0]
        legal = legal_op.sync(
            client=seats[seat],
            body=models.ElementDraftLegalMovesRequest.from_dict({"token": token, "seat": seat}),
        )
        move = legal.moves[-1]
        body = models.ElementDraftMoveRequest.from_dict(
            {"token": token, "seat": seat, "move": move.to_dict()}
        )
        done = move_op.sync(client=seats[seat], body=body)
        assert isinstance(done, models.ElementDraftMoveResponse), done
        token, to_act, moves = done.token, done.to_act, moves + 1
    assert moves == 3 * 15 and done.outcome.finished
    places = {p.seat: p.place for p in done.outcome.places}
    assert sorted(places) == [0, 1, 2] and min(places.values()) == 1
    assert [p.seat for p in done.outcome.places] == done.outcome.ranking
    # a problem parses into the operation's own model with the code as an enum member
    body = models.ElementDraftMoveRequest.from_dict(
        {"token": token, "seat": seat, "move": move.to_dict()}
    )
    again = move_op.sync_detailed(client=seats[seat], body=body)
    assert again.status_code == 422
    assert again.parsed.code == models.ElementDraftMoveCode.GAME_OVER
    stranger = clients(pkg, app, ["not-a-seat-token"])[0]
    refused = move_op.sync_detailed(client=stranger, body=body)
    assert refused.status_code == 403
    assert refused.parsed.code == models.ElementDraftMoveCode.SEAT_TOKEN_INVALID


def test_a_generated_client_plays_a_polymer_session(pkg: str, app: Flask) -> None:
    models = mod(pkg, "models")
    transport = httpx.WSGITransport(app=app)
    public = mod(pkg, "client").Client(
        base_url="http://rules.test", httpx_args={"transport": transport}
    )
    made = mod(pkg, "api.polymer_sessions.polymer_create_session").sync(
        client=public,
        body=models.PolymerSessionRequest.from_dict(
            {"players": 5, "seed": 3, "options": {"timer_seconds": 2}}
        ),
    )
    assert isinstance(made, models.PolymerSessionCreated)
    sid = made.session_id
    host = clients(pkg, app, [made.host_token])[0]
    seats = clients(pkg, app, [s.seat_token for s in made.seats])
    started = mod(pkg, "api.polymer_sessions.polymer_session_start").sync(
        session_id=sid, client=host
    )
    assert started.phase == models.PolymerPhase.TRADING
    bot = mod(pkg, "api.polymer_sessions.polymer_session_bot_move")
    version = started.version
    for step in range(10):
        seat = step % 5
        body = models.PolymerSessionBotMoveRequest.from_dict(
            {"seat": seat, "version": version, "bot": "trading"}
        )
        moved = bot.sync_detailed(session_id=sid, client=seats[seat], body=body)
        if moved.status_code == 409:  # time is up already on a slow machine
            break
        assert moved.status_code == 200, moved.content
        version = moved.parsed.version
    time.sleep(max(0.0, (started.deadline_ms - started.server_now_ms) / 1000) + 0.2)
    mine = mod(pkg, "api.polymer_sessions.polymer_get_session").sync(
        session_id=sid, client=seats[0], seat=0
    )
    assert mine.phase == models.PolymerPhase.ENDED and mine.outcome.finished
    scores = mod(pkg, "api.polymer_sessions.polymer_session_scores").sync(
        session_id=sid, client=public
    )
    assert scores.scores.final and len(scores.scores.seats) == 5
    late = models.PolymerSessionBotMoveRequest.from_dict({"seat": 0, "version": mine.version})
    refused = bot.sync_detailed(session_id=sid, client=seats[0], body=late)
    assert refused.status_code in (409, 422)
    assert str(refused.parsed.code) in ("timer_expired", "no_move")


@pytest.mark.parametrize("slug", sorted(s for s, g in GAMES.items() if g.clock is None))
def test_a_generated_client_plays_every_game_against_bot_seats(
    pkg: str, app: Flask, slug: str
) -> None:
    """Seat 0 plays its first legal move each turn; the service plays the other seats."""
    models, name, ops = mod(pkg, "models"), pascal(slug), slug.replace("-", "_")
    info = GAMES[slug].info
    players = max(info.min_players, 2)
    public = mod(pkg, "client").Client(
        base_url="http://rules.test", httpx_args={"transport": httpx.WSGITransport(app=app)}
    )
    request = {"players": players, "seed": 4, "bots": {str(s): "greedy" for s in range(1, players)}}
    setup = mod(pkg, f"api.{ops}.{ops}_setup").sync(
        client=public, body=getattr(models, f"{name}SetupRequest").from_dict(request)
    )
    assert isinstance(setup, getattr(models, f"{name}SetupResponse")), setup
    (me,) = clients(pkg, app, [setup.seats[0].seat_token])
    legal_op = mod(pkg, f"api.{ops}.{ops}_legal_moves")
    move_op = mod(pkg, f"api.{ops}.{ops}_move")
    token, done, moves = setup.token, setup, 0
    while not done.outcome.finished:
        assert moves < 3000, f"{slug}: no end"
        legal = legal_op.sync(
            client=me,
            body=getattr(models, f"{name}LegalMovesRequest").from_dict({"token": token, "seat": 0}),
        )
        body = {"token": token, "seat": 0, "move": legal.moves[0].to_dict()}
        done = move_op.sync(client=me, body=getattr(models, f"{name}MoveRequest").from_dict(body))
        assert isinstance(done, getattr(models, f"{name}MoveResponse")), done
        token, moves = done.token, moves + 1
    assert [p.seat for p in done.outcome.places] == done.outcome.ranking
    assert sorted(p.seat for p in done.outcome.places) == list(range(players))
