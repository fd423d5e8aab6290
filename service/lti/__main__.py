"""``python -m service.lti show|rotate``: the LTI tool's keys kept in Redis (see
:mod:`service.lti.keys`), with the deployment's own environment."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import replace

from ..app import create_app
from ..base.config import Settings
from .keys import rotate, signing_key, tool_keys


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The LTI tool's keys kept in Redis.")
    parser.add_argument("action", choices=("show", "rotate"))
    args = parser.parse_args(argv)
    app = create_app(replace(Settings.from_env(), due_work=False))
    with app.app_context():
        if app.config["SETTINGS"].lti_key_files:
            print("LTI_KEY_FILES is set: rotate by changing it (docs/LTI.md).")
            return 1
        keys = rotate() if args.action == "rotate" else tool_keys()
        signer = signing_key()
        for k in keys:
            mark = "signs" if k.kid == signer.kid else "published"
            print(f"{k.kid}  created_ms={k.created_ms}  {mark}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
