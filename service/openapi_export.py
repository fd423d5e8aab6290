"""Write the OpenAPI document the code generates: ``python -m service.openapi_export PATH``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cryptography.fernet import Fernet

from .app import create_app
from .base.config import Settings


def generate() -> dict[str, Any]:
    """The OpenAPI document, independent of this machine's configuration."""
    settings = Settings(state_keys=(Fernet.generate_key().decode(),), log_level="WARNING")
    app = create_app(settings)
    with app.app_context():
        spec: dict[str, Any] = app.extensions["chemgames.api"].spec.to_dict()
    return spec


def render(spec: dict[str, Any]) -> str:
    return json.dumps(spec, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = render(generate())
    if len(argv) > 1:
        Path(argv[1]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
