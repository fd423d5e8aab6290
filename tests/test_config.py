"""Settings from the environment: the development key, and when it is refused."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from service.base import config
from service.base.config import ConfigError, Settings


def test_the_doctests() -> None:
    assert doctest.testmod(config).failed == 0


def test_without_state_keys_a_development_key_is_made_once_and_kept(tmp_path: Path) -> None:
    env = {"DEV_KEY_FILE": str(tmp_path / "instance" / "dev-state-key")}
    first = Settings.from_env(env).state_keys
    assert Settings.from_env(env).state_keys == first and len(first) == 1
    assert (tmp_path / "instance" / "dev-state-key").read_text().strip() == first[0]


@pytest.mark.parametrize("value", ["1", "true", "YES", " on "])
def test_require_state_keys_refuses_a_key_of_the_instances_own(tmp_path: Path, value: str) -> None:
    env = {"REQUIRE_STATE_KEYS": value, "DEV_KEY_FILE": str(tmp_path / "k"), "STATE_KEYS": " , "}
    with pytest.raises(ConfigError, match="STATE_KEYS is not set"):
        Settings.from_env(env)
    assert not (tmp_path / "k").exists()
    assert Settings.from_env({**env, "STATE_KEYS": "a,b"}).state_keys == ("a", "b")


@pytest.mark.parametrize("value", ["", "0", "false", "No", "off"])
def test_require_state_keys_off_keeps_the_development_key(tmp_path: Path, value: str) -> None:
    env = {"REQUIRE_STATE_KEYS": value, "DEV_KEY_FILE": str(tmp_path / "k")}
    assert Settings.from_env(env).state_keys
    assert (tmp_path / "k").exists()


def test_a_yes_no_setting_that_is_neither_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="REQUIRE_STATE_KEYS must be 1 or 0"):
        Settings.from_env({"REQUIRE_STATE_KEYS": "sometimes", "STATE_KEYS": "a"})


def test_state_seal_is_aead_or_fernet() -> None:
    assert Settings.from_env({"STATE_KEYS": "a"}).state_seal == "aead"
    assert Settings.from_env({"STATE_KEYS": "a", "STATE_SEAL": " Fernet "}).state_seal == "fernet"
    with pytest.raises(ConfigError, match="STATE_SEAL is 'gcm'; it must be one of aead, fernet"):
        Settings.from_env({"STATE_KEYS": "a", "STATE_SEAL": "gcm"})
