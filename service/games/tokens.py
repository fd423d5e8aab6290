"""Sealed state tokens and seat tokens.

A state token is ``AES-GCM-SIV(zlib(orjson(envelope)))`` (before issue 32:
``MultiFernet(zlib(orjson(envelope)))``, which still opens): authenticated
encryption, so a client can neither read the hidden state (hands, pending
selections, deck order, random state) nor alter it. The envelope binds the state
to its game slug, rules version, format version, game id and state version.
The first configured key seals; every configured key opens, so keys rotate by
prepending a new key and dropping the old one once its tokens have aged out.

A token is URL-safe base64 (padded) of ``0x91 | nonce (12 bytes) | ciphertext and
tag``, the first byte authenticated as associated data, under a key derived from
each configured key (``state-aead-v1``). Fernet's tokens start with ``0x80``. One
call into OpenSSL where Fernet makes several (padding, AES-CBC, HMAC, each a Python
object): about 100 us less CPU per move in a request. GCM-SIV, not GCM: a random
nonce that repeats under one key never gives the key away (with GCM it would let a
reader of two tokens forge a third). Where the installed OpenSSL lacks GCM-SIV
(before 3.2), tokens are sealed with Fernet as before.

Seat tokens are keyed hashes of ``game id : seat`` derived from the same keys,
so rotation covers them too.

A sealer remembers the plaintext of the tokens it sealed or opened lately
(:class:`Recent`, by the exact token string): the next move of a session whose token
this process made or read needs no decryption. Only a token spelled exactly as one it
sealed, or verified and decrypted, is found there, so nothing unverified is trusted;
it keeps bytes, so every open still builds a state of its own that nobody else holds.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import threading
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import orjson
from cryptography.exceptions import InvalidTag, UnsupportedAlgorithm
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV

from rules.records import Log, Step
from rules.shapes import SAFE_INTEGER

from ..http.problems import Problem

FORMAT_VERSION = 3
# format 1 (before bot seats) opens as a game without bots; 1 and 2 (before records)
# as a game without a record
READABLE_FORMATS = (1, 2, 3)
HOST = "host"
SEED_MAX = SAFE_INTEGER
"""The largest seed a game is dealt from: every number in an answer or a record stays
exact in JavaScript (``Number.MAX_SAFE_INTEGER``)."""


@dataclass(frozen=True)
class Envelope:
    """What a state token carries besides the rules state: the game it belongs to,
    its version (moves applied so far), the seats the service plays (``bots``) and
    the game's ``log`` (its setup and steps: what its record is made of; a hosted
    game's steps are kept beside its token in Redis, so a stored token's log has only
    the setup). ``log`` is None for a game dealt before records were kept.

    ``marks`` (hosted games only): per seat, the version at which what its decisions
    rest on last changed, and a digest of it (``service/sessions/situations.py``); None
    where it is not kept (stateless games, and sessions dealt before it was)."""

    slug: str
    rules_version: int
    game_id: str
    version: int
    state: dict[str, Any]
    bots: Mapping[int, str] = field(default_factory=dict)
    log: Log | None = None
    marks: Marks | None = None

    def _with(
        self, state: dict[str, Any], version: int, log: Log | None, marks: Marks | None
    ) -> Envelope:
        # built directly: ``dataclasses.replace`` reads the fields each time, about 4 us
        # more a copy, several copies a move (tests/test_tokens.py checks every field)
        return Envelope(
            self.slug, self.rules_version, self.game_id, version, state, self.bots, log, marks
        )

    def step(self, *steps: Step) -> Envelope:
        """This envelope with ``steps`` added to its log."""
        if self.log is None:
            return self
        return self._with(self.state, self.version, self.log.add(*steps), self.marks)

    def moved(self, state: dict[str, Any], *steps: Step) -> Envelope:
        """The next version: ``state``, with ``steps`` added to the log."""
        log = self.log.add(*steps) if self.log is not None else None
        return self._with(state, self.version + 1, log, self.marks)

    def with_state(self, state: dict[str, Any]) -> Envelope:
        """This envelope holding ``state`` instead (the same version)."""
        return self._with(state, self.version, self.log, self.marks)

    def with_marks(self, marks: Marks) -> Envelope:
        return self._with(self.state, self.version, self.log, marks)

    def without_steps(self) -> Envelope:
        """This envelope with only the setup in its log (as a hosted game stores it)."""
        if self.log is None or not self.log.kept:
            return self
        return self._with(self.state, self.version, self.log.setup(), self.marks)


@dataclass(frozen=True)
class Marks:
    """Per seat, the version at which its situation last changed (``seen``) and that
    situation's digest (empty for a seat the service plays: nobody moves it from an
    older version)."""

    seen: tuple[int, ...]
    digests: tuple[str, ...]

    def to_json(self) -> list[list[Any]]:
        return [list(self.seen), list(self.digests)]

    @classmethod
    def from_json(cls, data: Any) -> Marks | None:
        if not isinstance(data, list) or len(data) != 2:
            return None
        seen, digests = data
        return cls(tuple(map(int, seen)), tuple(map(str, digests)))


_STANDARD = bytes.maketrans(b"-_", b"+/")


def _check_spelling(encoded: bytes) -> bytes:
    """The bytes of ``encoded``; refuse a token that is not spelled exactly as it was
    sealed.

    Fernet's base64 decoding skips stray characters, reads ``+`` and ``/`` like ``-``
    and ``_``, and ignores the spare bits of the last character: altered spellings of
    the same token. Strict decoding refuses the first; the other two are checked here,
    the last by spelling the final group again (cheaper than spelling it all again).
    """
    if b"+" in encoded or b"/" in encoded:
        raise ValueError("not URL-safe base64")
    raw = binascii.a2b_base64(encoded.translate(_STANDARD), strict_mode=True)
    tail = len(raw) % 3
    if tail and base64.urlsafe_b64encode(raw[-tail:]) != encoded[-4:]:
        raise ValueError("spare bits set in the last character")
    return raw


AEAD_FORMAT = b"\x91"
"""The first byte of a token sealed with AES-GCM-SIV (a Fernet token's is ``0x80``)."""
NONCE = 12


def _aeads(keys: tuple[str, ...]) -> list[AESGCMSIV] | None:
    """An AES-GCM-SIV key derived from each configured key, first the one that seals
    (None where this OpenSSL has no GCM-SIV: tokens are then sealed with Fernet)."""
    try:
        aeads = [
            AESGCMSIV(
                hmac.new(base64.urlsafe_b64decode(k), b"state-aead-v1", hashlib.sha256).digest()
            )
            for k in keys
        ]
        aeads[0].encrypt(bytes(NONCE), b"", AEAD_FORMAT)
    except UnsupportedAlgorithm:
        return None
    return aeads


RECENT_TOKENS = 512
RECENT_BYTES = 8 << 20
# every Recent's puts, made at import: in a gunicorn worker, before gevent patches the
# threading module (the master imports the service), so a plain lock rather than
# gevent's (about 0.35 us less a put: py-spy showed gevent's LockType.acquire under
# Recent.put). Held for no I/O: no greenlet switches while holding it.
_RECENT_LOCK = threading.Lock()


class Recent:
    """The plaintexts of the latest tokens (at most ``entries`` of them, and
    ``size`` bytes of token and plaintext in all), by their exact token: the oldest
    are forgotten first."""

    def __init__(self, entries: int = RECENT_TOKENS, size: int = RECENT_BYTES) -> None:
        self.entries = entries
        self.size = size
        self._kept: dict[str, bytes] = {}
        self._held = 0
        self._lock = _RECENT_LOCK

    def get(self, token: str) -> bytes | None:
        return self._kept.get(token)

    def put(self, token: str, plain: bytes) -> None:
        weight = len(token) + len(plain)
        if weight > self.size:
            return
        with self._lock:
            if token in self._kept:
                return
            self._kept[token] = plain
            self._held += weight
            while len(self._kept) > self.entries or self._held > self.size:
                old = next(iter(self._kept))
                self._held -= len(old) + len(self._kept.pop(old))

    def __len__(self) -> int:
        return len(self._kept)


SEAT_MACS = 4096
"""Seat and host credentials remembered (:func:`_mac`): every move of a session checks
its seat's, twice (the stored answer's lookup, then the move)."""
GAME_ID_MAX = 64
"""The longest game id whose credentials are remembered (ids are 24 characters; a
request names any id it likes, and the cache must stay small)."""


def _mac(key: bytes, game_id: str, who: str) -> bytes:
    """The credential of ``who`` (a seat, or the host) in ``game_id`` under ``key``:
    a keyed hash, URL-safe base64 (ASCII)."""
    if len(game_id) > GAME_ID_MAX:
        return _computed_mac(key, game_id, who)
    return _remembered_mac(key, game_id, who)


def _computed_mac(key: bytes, game_id: str, who: str) -> bytes:
    digest = hmac.new(key, f"{game_id}:{who}".encode(), hashlib.sha256).digest()[:18]
    return base64.urlsafe_b64encode(digest)


# the same inputs give the same immutable bytes: remembered, bounded (least recently
# used first out); the comparison with the token sent stays constant-time
_remembered_mac = lru_cache(maxsize=SEAT_MACS)(_computed_mac)


class Sealer:
    """Seals and opens state tokens; issues and checks seat tokens."""

    def __init__(self, keys: tuple[str, ...], *, seal: str = "aead") -> None:
        if not keys:
            raise ValueError("at least one state key is required")
        self._fernet = MultiFernet([Fernet(k) for k in keys])
        self._aeads = _aeads(keys)
        # "fernet": new tokens as before issue 32, for a rolling upgrade (both open)
        self._seals_aead = self._aeads is not None and seal == "aead"
        self.recent = Recent()
        # a key of its own for hosted deals, derived like the seat keys' but apart
        self._deal_key = hmac.new(
            base64.urlsafe_b64decode(keys[0]), b"hosted-deal-v1", hashlib.sha256
        ).digest()
        self._seat_keys = [
            hmac.new(base64.urlsafe_b64decode(k), b"seat-token-v1", hashlib.sha256).digest()
            for k in keys
        ]

    # state tokens -----------------------------------------------------------------
    def seal(self, env: Envelope, *, compressed: bool = True) -> str:
        """``env`` as a token. ``compressed`` false: zlib's stored blocks instead of
        deflate (the same format, so every release opens it): for a hosted session's
        state, which only Redis keeps, a few hundred bytes more there for about 40 us
        less CPU a move (deflate set up for a small payload costs more than it saves)."""
        payload = orjson.dumps(
            {
                "f": FORMAT_VERSION,
                "g": env.slug,
                "r": env.rules_version,
                "id": env.game_id,
                "v": env.version,
                "s": env.state,
                "b": sorted([seat, bot] for seat, bot in env.bots.items()),
                "l": env.log.compact() if env.log is not None else None,
                **({"m": env.marks.to_json()} if env.marks is not None else {}),
            }
        )
        packed = zlib.compress(payload, 1 if compressed else 0)
        if self._aeads is None or not self._seals_aead:
            token = self._fernet.encrypt(packed).decode("ascii")
        else:
            nonce = os.urandom(NONCE)
            sealed = self._aeads[0].encrypt(nonce, packed, AEAD_FORMAT)
            token = base64.urlsafe_b64encode(AEAD_FORMAT + nonce + sealed).decode("ascii")
        self.recent.put(token, payload)
        return token

    def _decrypt(self, encoded: bytes) -> bytes:
        """The compressed payload of a token spelled exactly as sealed (or ValueError,
        InvalidToken)."""
        raw = _check_spelling(encoded)
        if raw[:1] != AEAD_FORMAT or self._aeads is None:
            return self._fernet.decrypt(encoded)
        nonce, sealed = raw[1 : 1 + NONCE], raw[1 + NONCE :]
        for aead in self._aeads:
            try:
                return aead.decrypt(nonce, sealed, AEAD_FORMAT)
            except InvalidTag:
                continue
        raise ValueError("not sealed by any configured key")

    def open(self, token: str, *, slug: str, rules_version: int) -> Envelope:
        """The envelope inside ``token``, or a 400 problem saying why not."""
        plain = self.recent.get(token)
        if plain is not None:
            data = orjson.loads(plain)
        else:
            try:
                plain = zlib.decompress(self._decrypt(token.encode("ascii")))
                data = orjson.loads(plain)
            except (InvalidToken, UnicodeEncodeError, ValueError, zlib.error, TypeError):
                raise Problem(
                    "token_invalid",
                    "This state token cannot be opened: it was changed, cut short, or sealed "
                    "by another service. Send the latest token this service returned.",
                ) from None
            self.recent.put(token, plain)
        if not isinstance(data, dict) or data.get("f") not in READABLE_FORMATS:
            found = data.get("f") if isinstance(data, dict) else None
            raise Problem(
                "token_version_unsupported",
                f"This state token has format {found!r}; this service reads format "
                f"{FORMAT_VERSION}. Start a new game.",
            )
        if data.get("g") != slug:
            raise Problem(
                "token_wrong_game",
                f"This state token belongs to the game {data.get('g')!r}, not {slug!r}. "
                f"Send it to /v1/{data.get('g')}/... instead.",
                token_game=data.get("g"),
            )
        if data.get("r") != rules_version:
            raise Problem(
                "token_version_unsupported",
                f"This state token was written by rules version {data.get('r')!r} of {slug}; "
                f"this service runs version {rules_version}. Start a new game.",
            )
        bots = {int(seat): str(bot) for seat, bot in data.get("b", [])}
        log = Log.expand(data["l"]) if data.get("l") is not None else None
        marks = Marks.from_json(data.get("m"))
        return Envelope(slug, rules_version, data["id"], data["v"], data["s"], bots, log, marks)

    def seal_bytes(self, data: bytes) -> bytes:
        """Anything the service keeps secret at rest (a callback's signing secret)."""
        return self._fernet.encrypt(data)

    def open_bytes(self, sealed: bytes) -> bytes:
        return self._fernet.decrypt(sealed)

    # seat tokens ------------------------------------------------------------------
    def hosted_seed(self, seed: int, operator: str) -> int:
        """The seed a hosted session deals with when its creator names ``seed``: the same
        for the same ``operator`` on this deployment (a school's lessons repeat),
        unguessable for anyone else (the deployment's first key, in a domain of its own:
        neither a stateless seed nor a token; another operator's deals, or an anonymous
        creator's, ``operator == ""``, come from other seeds). At most ``SEED_MAX``
        (2**53 - 1), so it survives JavaScript in a record."""
        who = operator.encode()
        message = len(who).to_bytes(2, "big") + who + seed.to_bytes(8, "big")
        mac = hmac.new(self._deal_key, message, hashlib.sha256)
        return int.from_bytes(mac.digest()[:8], "big") & SEED_MAX

    def seat_token(self, game_id: str, seat: int) -> str:
        return _mac(self._seat_keys[0], game_id, str(seat)).decode("ascii")

    def host_token(self, game_id: str) -> str:
        return _mac(self._seat_keys[0], game_id, HOST).decode("ascii")

    def _matches(self, game_id: str, who: str, token: object) -> bool:
        if not isinstance(token, str):
            return False
        candidate = token.encode("ascii", "replace")
        for key in self._seat_keys:
            if hmac.compare_digest(_mac(key, game_id, who), candidate):
                return True
        return False

    def is_host(self, game_id: str, token: object) -> bool:
        return self._matches(game_id, HOST, token)

    def holds_seat(self, game_id: str, seat: int, token: object) -> bool:
        """Whether ``token`` is the seat's own token or the host token (:meth:`check_seat`
        without the problem)."""
        return self._matches(game_id, str(seat), token) or self._matches(game_id, HOST, token)

    def check_seat(self, game_id: str, seat: int, token: object) -> None:
        """Accept the seat's own token (or the host token); else 403."""
        if self.holds_seat(game_id, seat, token):
            return
        raise Problem(
            "seat_token_invalid",
            f"This credential does not belong to seat {seat} of this game. Send the seat "
            "token you were given at setup for your own seat (or the host token) as "
            "Authorization: Bearer <token>.",
            seat=seat,
        )

    def check_host(self, game_id: str, token: object) -> None:
        if not self._matches(game_id, HOST, token):
            raise Problem(
                "host_token_invalid",
                "Only the host may do this: send the host_token returned by setup as "
                "Authorization: Bearer <host_token>.",
            )
