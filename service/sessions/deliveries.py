"""The due work of a session's completion callback: deliver what its outbox holds.

Run by whichever worker claims ``callback:<slug>/<session>`` (``service/sessions/due.py``):
new events are taken from the session's outbox (where the commit that produced them
put them) into its delivery log, every attempt that is due is made
(``service.sessions.callbacks.post``) and logged, and the item is due again at the next retry.
While the game is played the outbox is looked at every minute at least, so an ending
whose due work was lost (an instance dying between its commit and scheduling the
delivery) is delivered a minute late, not never.
"""

from __future__ import annotations

import time

import orjson

from ..games.play import sealer
from . import flow
from .callbacks import Callback, post, settings
from .due import DueWork
from .schedule import CALLBACK, SWEEP_MS


def deliver(payload: str) -> int | None:
    """Deliver what is due of one session's callback; when to look again (None: never)."""
    _slug, session_id = payload.split("/")
    st = flow.store()
    sealed = st.callback_config(session_id)
    if sealed is None:
        return None
    callback = Callback.from_json(orjson.loads(sealer().open_bytes(sealed)))
    now = st.now_ms(session_id)
    backoff = settings().webhook_backoff_seconds
    deliveries = st.deliveries(session_id)
    for raw in st.take_outbox(session_id):
        message = orjson.loads(raw)
        deliveries[message["id"]] = {
            "id": message["id"],
            "type": message["type"],
            "message": message,
            "status": "pending",
            "created_ms": now,
            "next_ms": now,
            "attempts": [],
        }
        st.save_delivery(session_id, deliveries[message["id"]])
    for delivery in sorted(deliveries.values(), key=lambda d: d["created_ms"]):
        if delivery["status"] != "pending" or delivery["next_ms"] > now:
            continue
        started = time.monotonic()
        status, error = post(callback, delivery["message"], now)
        delivery["attempts"].append(
            {
                "at_ms": now,
                "status": status,
                "error": error or None,
                "ms": round((time.monotonic() - started) * 1000),
            }
        )
        tried = len(delivery["attempts"])
        if not error:
            delivery["status"], delivery["next_ms"] = "delivered", None
        elif tried >= len(backoff):
            delivery["status"], delivery["next_ms"] = "failed", None
        else:
            delivery["next_ms"] = now + int(backoff[tried] * 1000)
        st.save_delivery(session_id, delivery)
    waiting = [d["next_ms"] for d in deliveries.values() if d["status"] == "pending"]
    if waiting:
        return int(min(waiting))
    if st.playing(session_id):
        return now + SWEEP_MS
    return None


def install(due: DueWork) -> None:
    due.handlers[CALLBACK] = deliver
