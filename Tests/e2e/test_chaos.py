"""The quick chaos run of `make test`: concurrent drops while the server is killed with SIGKILL
and restarted; every acknowledged drop must be in the database and nothing else (see
Tests/chaos/chaos.py, which `make chaos` runs for minutes)."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "chaos"))

import chaos  # noqa: E402


def test_every_acknowledged_drop_survives_kill_9_and_restart():
    result = chaos.run(duration=15, clients=4, kills=4)
    counts = result["counts"]
    assert counts.get("kills") == 4 and counts.get("restarts") == 4, counts
    assert counts.get("acknowledged, changed", 0) > 0, f"no drop was acknowledged: {counts}"
    assert result["unknown"] == [], "anomalies beyond the known defects:\n" + "\n".join(f"{kind}: {detail}" for kind, detail in result["unknown"])
