"""Every answer the test suite gets is checked against the contract, and its code recorded.

The app used by the tests (``conftest.app``) sends each JSON answer through
:func:`Recorder.check`: the operation is found by its URL rule and method, and the
body must validate against the schema the contract documents for that status (every
object closed: no member the contract does not have, none missing). A status the
operation does not document, or a problem ``code`` outside the operation's enum, is
a violation too. The violations fail the test that made the request
(``conftest._answers_conform``); the codes answered make up the registry of walked
codes that ``tests/test_walked.py`` compares with the problem catalogue.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import shutil
import subprocess
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import orjson
from flask import Request, Response
from jsonschema_rs import Draft202012Validator


class Recorder:
    """Checks answers against ``spec`` and remembers which codes were answered."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.components = {"schemas": spec["components"]["schemas"]}
        self.validators: dict[tuple[str, str, str, str], Draft202012Validator] = {}
        self.violations: list[str] = []
        self.codes: dict[str, set[str]] = defaultdict(set)
        """code -> the operations that answered it."""
        self.answers: dict[bytes, tuple[str, bytes]] = {}
        """Every distinct JSON answer (digest -> its operation and body), for the
        JavaScript round trip (:func:`javascript_problems`)."""
        self.records: list[tuple[str, Any]] = []
        """Every whole record answered (its game, the record), replayed after the trip."""

    def check(self, request: Request, response: Response) -> None:
        rule = request.url_rule
        if rule is None or response.mimetype not in ("application/json", PROBLEM):
            if response.mimetype == PROBLEM:
                self._code(response, "outside the contract")
            return
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        item = self.spec["paths"].get(path)
        method = request.method.lower()
        op = item.get(method) if item else None
        if op is None:
            if response.mimetype == PROBLEM:
                self._code(response, f"{request.method} {path} (no operation)")
            return
        where = op["operationId"]
        body = self._body(response)
        self._keep(where, path, response, body)
        if response.mimetype == PROBLEM:
            self.codes[body.get("code", "?")].add(where)
        documented = op["responses"].get(str(response.status_code))
        if documented is None:
            self.violations.append(
                f"{where} answered {response.status_code} (code {body.get('code')!r}), "
                "which the contract does not document"
            )
            return
        content = documented.get("content", {}).get(response.mimetype)
        if content is None:
            self.violations.append(f"{where} {response.status_code}: no {response.mimetype}")
            return
        key = (path, method, str(response.status_code), response.mimetype)
        if key not in self.validators:
            schema = {**content["schema"], "components": self.components}
            self.validators[key] = Draft202012Validator(schema, validate_formats=False)
        errors = sorted(self.validators[key].iter_errors(body), key=str)
        if errors:
            e = errors[0]
            self.violations.append(
                f"{where} {response.status_code}: {e.message[:300]} at {list(e.instance_path)}"
            )
        elif path.startswith("/v1/"):
            # the contract's event schemas are derived from the game's declarations
            for kind in events_in(body):
                event_checked(path.split("/")[2], kind)

    def _keep(self, where: str, path: str, response: Response, body: Any) -> None:
        if response.is_streamed:
            return
        data = orjson.dumps(body)
        self.answers.setdefault(hashlib.blake2b(data, digest_size=16).digest(), (where, data))
        record = body.get("record") if isinstance(body, dict) else None
        whole = isinstance(record, dict) and record.get("complete")
        if where.endswith("Record") and response.status_code == 200 and whole:
            self.records.append((path.split("/")[2], record))

    def _code(self, response: Response, where: str) -> None:
        self.codes[self._body(response).get("code", "?")].add(where)

    @staticmethod
    def _body(response: Response) -> Any:
        if response.is_streamed:
            return {}
        data = response.get_data()
        if response.headers.get("Content-Encoding") == "gzip":
            data = gzip.decompress(data)
        return orjson.loads(data) if data else {}


PROBLEM = "application/problem+json"
RECORDER: Recorder | None = None
"""The recorder of this test session (set by ``conftest.app``)."""
OUTSIDE: dict[str, set[str]] = defaultdict(set)
"""Codes answered where the app's hook cannot see them: by gunicorn itself, or by the
proxy's configuration (code -> which test saw it)."""


def answered_outside(code: str, where: str) -> None:
    OUTSIDE[code].add(where)


RAISED: set[str] = set()
"""Every rule code the rules raised while the suite ran (``conftest`` records them):
a code the service reaches only in states a test sets up on the rules directly (a
draw deck emptied within a turn) is walked there."""


CHECKED_EVENTS: dict[str, set[str]] = defaultdict(set)
"""Every event type, by game, that a test checked against its game's declarations in
this run: in the deep playouts (``tests/test_conformance.py``) or in an HTTP answer that
conformed to the contract (the event gate, :func:`event_gate`)."""


def event_checked(slug: str, kind: str) -> None:
    CHECKED_EVENTS[slug].add(kind)


def events_in(body: Any) -> set[str]:
    """The ``type`` of every event in an answer (under any ``events`` member, at any
    depth: a move's answer, a record's steps, a session's)."""
    found: set[str] = set()
    if isinstance(body, dict):
        for name, value in body.items():
            if name == "events" and isinstance(value, list):
                found |= {e["type"] for e in value if isinstance(e, dict) and "type" in e}
            else:
                found |= events_in(value)
    elif isinstance(body, list):
        for item in body:
            found |= events_in(item)
    return found


def event_gate(checked: Mapping[str, Iterable[str]]) -> list[str]:
    """What the event gate finds wrong with ``checked`` (game -> event types checked
    against its declarations): every event type every game declares must have been
    emitted and checked somewhere in the run, so that removing any one from a game's
    declarations fails a test."""
    from rules.registry import GAMES
    from rules.shapes import shape, tag_of

    found = []
    for slug, game in sorted(GAMES.items()):
        declared = {tag_of(shape(tp)) for tp in game.wire.events}
        missing = sorted(declared - set(checked.get(slug, ())))
        if missing:
            found.append(f"no test checked {slug}'s {missing} against its declarations")
    return found


def walked() -> dict[str, set[str]]:
    """Every code answered in this test session, with where."""
    out: dict[str, set[str]] = defaultdict(set)
    for source in (RECORDER.codes if RECORDER else {}, OUTSIDE):
        for code, places in source.items():
            out[code] |= places
    for code in RAISED:
        out[code].add("the rules")
    return out


ROUND_TRIP = Path(__file__).with_name("js_round_trip.mjs")


def javascript_problems(recorder: Recorder | None) -> list[str]:
    """Every answer and record the suite got, through a real ``node``'s ``JSON.parse`` and
    ``JSON.stringify``: each must come back equal (no whole number rounded), and each
    whole record, as JavaScript read it, must replay through the rules to a valid check."""
    if recorder is None or not (recorder.answers or recorder.records):
        return []
    node = shutil.which("node")
    if node is None:
        return ["node is not installed: the JavaScript round trip cannot run"]
    sent = [data for _, data in recorder.answers.values()]
    sent += [orjson.dumps(record) for _, record in recorder.records]
    done = subprocess.run(
        [node, str(ROUND_TRIP)],
        input=b"\n".join(sent) + b"\n",
        capture_output=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        return [f"node failed: {done.stderr.decode()[-500:]}"]
    back = done.stdout.splitlines()
    if len(back) != len(sent):
        return [f"node returned {len(back)} documents for {len(sent)}"]
    problems = []
    names = [where for where, _ in recorder.answers.values()]
    names += [f"{slug} record" for slug, _ in recorder.records]
    for where, original, after in zip(names, sent, back, strict=True):
        if orjson.loads(original) != orjson.loads(after):
            problems.append(f"{where}: JavaScript reads it otherwise: {original[:200]!r}")
    from rules.records import check
    from rules.registry import GAMES

    for (slug, _), after in zip(recorder.records, back[len(recorder.answers) :], strict=True):
        checked = check(GAMES[slug], orjson.loads(after))
        if not checked["valid"]:
            problems.append(f"a {slug} record read by JavaScript does not replay: {checked}")
    return problems


def gate(walked_codes: dict[str, set[str]]) -> list[str]:
    """What the catalogue gate finds wrong with ``walked_codes`` (code -> where): every
    code of the problem catalogue must have been answered (or raised by the rules), and
    nothing answered that the catalogue does not list."""
    from service.api.meta_blueprint import problem_catalogue
    from service.games.registry import game_apis

    catalogue = {p["code"] for p in problem_catalogue(game_apis())}
    found = []
    missing = sorted(catalogue - set(walked_codes))
    if missing:
        found.append(f"no test made the service answer {missing}")
    answered = {code for code, places in walked_codes.items() if places - {"the rules"}}
    unknown = sorted(answered - catalogue - {"?"})
    if unknown:
        found.append(f"answered with codes the catalogue does not list: {unknown}")
    return found
