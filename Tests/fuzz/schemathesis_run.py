#!/usr/bin/env python3
"""`make fuzz`, second half: schemathesis against docs/openapi.yaml and a real server.

Starts the debug `dragboard` on a throw-away database and a free port, gives the demo board a label,
a checklist item and an image (so their routes have something to find), then runs schemathesis
(every phase: the document's examples, its coverage cases, random positive and negative requests,
and stateful sequences along the document's links) with a fixed CSRF token in the cookie, the
`X-CSRF-Token` header and every form's `csrf` field, `Accept: application/json`, and the hooks of
schemathesis_hooks.py (real ids swapped in, statuses counted). Checks: no 5xx, every status,
content type, required header and body as the document says. Prints the statuses per operation and
fails on any failure schemathesis reports, any 5xx, or a server that died or did not stop cleanly.

    .venv/bin/python Tests/fuzz/schemathesis_run.py --examples 30 --seed 1
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import pathlib
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "docs" / "openapi.yaml"
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance"
#: The smallest PNG (1×1), for the image the board starts with.
PIXEL = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                      "1f15c4890000000d49444154789c63f80f00000101000518d84e0000000049454e44ae426082")


def binary() -> pathlib.Path:
    """The debug binary `swift build` made (the Makefile builds it first)."""
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True)
    return pathlib.Path(out.stdout.strip()) / "dragboard"


class Client:
    """One browser: its CSRF token in the cookie and the header of every request."""

    def __init__(self, url: str, csrf: str):
        self.url, self.csrf = url, csrf

    def call(self, method: str, path: str, body: bytes | None = None, content_type: str | None = None) -> dict:
        headers = {"Cookie": f"dragboard_csrf={self.csrf}", "X-CSRF-Token": self.csrf, "Accept": "application/json"}
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(self.url + path, data=body, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read() or b"{}")

    def json(self, path: str, value: dict) -> dict:
        return self.call("POST", path, json.dumps(value).encode(), "application/json")

    def form(self, path: str, **fields: str) -> dict:
        body = urllib.parse.urlencode({"csrf": self.csrf, **fields}).encode()
        return self.call("POST", path, body, "application/x-www-form-urlencoded")


def furnish(client: Client) -> None:
    """A label, a checklist item on a card and an image in the well, made as a page would."""
    client.form("/boards/demo/labels", name="Urgent", color="red")
    html = client.call("GET", "/boards/demo/api/lists/cat-1/rows?count=1")["html"]
    card = re.search(r'data-item="([^"]+)"', html).group(1)
    client.form(f"/boards/demo/cards/{card}/checks", title="Wash it")
    token = secrets.token_hex(16)
    begun = client.json("/api/sessions/external", {"token": token, "types": ["Files"], "files": ["image/png"]})
    upload = client.call("POST", f"/api/sessions/{token}/files", PIXEL, "image/png")
    client.json(f"/api/sessions/{token}/drop", {"op": "furnish-image", "version": begun["version"],
                                                "target": {"zone": "image-well"}, "files": [upload["file"]]})
    client.call("POST", f"/api/sessions/{token}/end")


def config(csrf: str) -> str:
    """schemathesis.toml: the token as both credentials of the CSRF double submit; only the links the
    document declares (the inferred ones join operations whose parameters do not match)."""
    return f"""
headers = {{ Accept = "application/json" }}
request-timeout = 30

[auth.openapi.csrfCookie]
api_key = "{csrf}"

[auth.openapi.csrfHeader]
api_key = "{csrf}"

[phases.stateful.inference]
algorithms = []
"""


def summary(stats: dict[str, dict[str, int]]) -> tuple[int, int]:
    """Prints the statuses per operation; returns (requests, 5xx answers)."""
    total, errors = 0, 0
    everything: collections.Counter = collections.Counter()
    print("\n== statuses per operation (schemathesis_hooks.py) ==")
    for label in sorted(stats):
        counts = {int(status): n for status, n in stats[label].items()}
        everything.update(counts)
        total += sum(counts.values())
        errors += sum(n for status, n in counts.items() if status >= 500)
        print(f"  {label:55} " + " ".join(f"{status}×{n}" for status, n in sorted(counts.items())))
    print(f"  {'all':55} " + " ".join(f"{status}×{n}" for status, n in sorted(everything.items())))
    return total, errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=50, help="test cases per operation and phase (schemathesis --max-examples)")
    parser.add_argument("--seconds", type=int, help="a time budget for the whole run (schemathesis --max-time)")
    parser.add_argument("--seed", type=int, help="replays a run (schemathesis --seed)")
    parser.add_argument("--phases", default="examples,coverage,fuzzing,stateful")
    parser.add_argument("--mode", default="all", choices=["all", "positive", "negative"], help="valid requests, invalid ones, or both")
    parser.add_argument("--binary", type=pathlib.Path, help="the dragboard binary (default: the debug build)")
    parser.add_argument("--document", type=pathlib.Path, default=DOCUMENT, help="the OpenAPI document (default: docs/openapi.yaml)")
    options = parser.parse_args()

    scratch = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-schemathesis-"))
    log = scratch / "server.log"
    with open(log, "w") as log_file:
        server = subprocess.Popen(
            [str(options.binary or binary()), "--port", "0", "--database", str(scratch / "board.sqlite"),
             "--public", str(ROOT / "Public"), "--templates", str(ROOT / "Templates"), "--log-level", "warning"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=log_file, text=True)
    failures: list[str] = []
    try:
        line = server.stdout.readline()
        match = re.fullmatch(r"Listening on (http://[\d.]+:\d+)\n", line)
        if not match:
            print(f"the server did not start: {line!r}\n{log.read_text()}", file=sys.stderr)
            return 1
        url, csrf = match.group(1), secrets.token_hex(16)
        furnish(Client(url, csrf))
        (scratch / "schemathesis.toml").write_text(config(csrf))
        stats = scratch / "stats.json"
        command = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(scratch / "schemathesis.toml"), "run", str(options.document.resolve()),
                   "--url", url, "--checks", CHECKS, "--phases", options.phases, "--max-examples", str(options.examples),
                   "--mode", options.mode, "--output-sanitize", "false",   # its curl lines replay with the run's token
                   # One worker: Hypothesis's strategy descriptions are not thread-safe (a FlakyFailure with two).
                   "--workers", "1", "--report", "junit", "--report-dir", str(scratch / "report")]
        if options.seconds:
            command += ["--max-time", str(options.seconds)]
        if options.seed is not None:
            command += ["--seed", str(options.seed)]
        environment = dict(os.environ, SCHEMATHESIS_HOOKS="schemathesis_hooks", PYTHONPATH=str(pathlib.Path(__file__).parent),
                           DRAGBOARD_FUZZ_URL=url, DRAGBOARD_FUZZ_CSRF=csrf, DRAGBOARD_FUZZ_STATS=str(stats))
        print("$ " + " ".join(command), flush=True)
        # Its own folder: Hypothesis keeps its example database in the working directory.
        ran = subprocess.run(command, cwd=scratch, env=environment)
        if ran.returncode != 0:
            failures.append(f"schemathesis exited with {ran.returncode} (its report above says why)")
        requests, server_errors = summary(json.loads(stats.read_text()) if stats.exists() else {})
        print(f"  {requests} requests, {server_errors} answered 5xx")
        if requests == 0:
            failures.append("no request was made")
        if server_errors:
            failures.append(f"{server_errors} requests answered 5xx")
        if server.poll() is not None:
            failures.append(f"the server died during the run (exit {server.returncode})")
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                if server.wait(timeout=15) != 0:
                    failures.append(f"the server did not stop cleanly (exit {server.returncode})")
            except subprocess.TimeoutExpired:
                server.kill()
                failures.append("the server did not stop within 15 s of SIGTERM")
        logged = log.read_text(errors="replace")
        if re.search(r"Fatal error|error|critical", logged, re.IGNORECASE):
            print("== the server's log (errors) ==\n" + "\n".join(l for l in logged.splitlines() if re.search(r"fatal|error|critical", l, re.I))[-4000:])
        if not failures:
            shutil.rmtree(scratch, ignore_errors=True)
    if failures:
        print("\nschemathesis run FAILED: " + "; ".join(failures) + f" (kept {scratch})", file=sys.stderr)
        return 1
    print("\nschemathesis run passed: 0 server errors, 0 responses that break the document")
    return 0


if __name__ == "__main__":
    sys.exit(main())
