"""bench.frame_cpu's digest: the same deals hash the same, whatever ids a run drew."""

from __future__ import annotations

import doctest

from bench import frame_cpu


def test_two_runs_frames_differing_only_in_their_ids_hash_the_same() -> None:
    one = b'data: {"session_id":"s1","stream_id":"AAAA","view":{"hand":[8]}}\n\n'
    two = b'data: {"session_id":"s2","stream_id":"b-_9","view":{"hand":[8]}}\n\n'
    other = b'data: {"session_id":"s2","stream_id":"b-_9","view":{"hand":[9]}}\n\n'
    assert frame_cpu.as_hashed(one, b"s1") == frame_cpu.as_hashed(two, b"s2")
    assert frame_cpu.as_hashed(one, b"s1") != frame_cpu.as_hashed(other, b"s2")
    assert doctest.testmod(frame_cpu).failed == 0
