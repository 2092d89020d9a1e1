"""The quick chaos run of `make test`: concurrent drops while the server is killed with SIGKILL
and restarted; every acknowledged drop must be in the database and nothing else (see
Tests/chaos/chaos.py, which `make chaos` runs for minutes)."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "chaos"))

import chaos  # noqa: E402


def test_every_acknowledged_drop_survives_kill_9_and_restart():
    result = chaos.run(duration=9, clients=4, kills=4)
    counts = result["counts"]
    assert counts.get("kills") == 4 and counts.get("restarts") == 4, counts
    assert counts.get("acknowledged, changed", 0) > 0, f"no drop was acknowledged: {counts}"
    assert result["unknown"] == [], "anomalies beyond the known defects:\n" + "\n".join(f"{kind}: {detail}" for kind, detail in result["unknown"])


def test_the_checks_see_a_lost_move_a_shared_version_and_an_extra_item():
    """The final checks on a made-up history, so a green chaos run means something: a move
    acknowledged but not in the database, two changes acknowledged with one version, a copy that
    is missing and an item nobody acknowledged."""
    initial = chaos.Database(1, {"a": ("cat-1", None), "b": ("cat-2", None)}, {}, 0)
    final = chaos.Database(3, {"a": ("cat-1", None), "b": ("cat-2", None), "c": ("cat-1", None), "x": ("cat-1", None), "y": ("cat-2", None)},
                           {"op1": 2, "op2": 3, "op3": 3}, 0)
    stats = chaos.Stats()
    stats.ack(chaos.Ack("op1", 2, "move", ["a"], [{"kind": "remove", "item": "a"}, {"kind": "insert", "item": "a", "list": "cat-2"}], 0))
    stats.ack(chaos.Ack("op2", 3, "copy", ["b"], [{"kind": "insert", "item": "c", "list": "cat-1", "html": ""}], 1))
    stats.ack(chaos.Ack("op3", 3, "copy", ["b"], [{"kind": "insert", "item": "d", "list": "cat-1", "html": ""}], 2))
    chaos.verify(initial, final, stats)
    kinds = {kind for kind, _ in stats.anomalies}
    assert kinds == {"misplaced", "duplicate version", "lost", "duplicated or lost"}, stats.anomalies
