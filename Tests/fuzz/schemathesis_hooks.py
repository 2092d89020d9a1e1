"""Schemathesis hooks of `make fuzz` (loaded through SCHEMATHESIS_HOOKS by schemathesis_run.py).

Random ids name nothing, so most generated requests would stop at a 404 before any logic ran: before
each call, a path parameter or body field that names a board, list, card, zone, label, checklist item,
image or drag session is swapped, most of the time, for one that exists on the server now (read from
the demo board's page, refreshed as the run changes it; sessions from the begins this run made). The
choice is a function of the generated value, so a failing example replays the same request; one in
eight is left as generated, to keep the unknown-id paths exercised. Form posts get the run's CSRF
token in their `csrf` field (the cookie and header come from the auth config). Every answer's status
is counted for the run's summary.
"""
import atexit
import collections
import copy
import json
import os
import re
import threading
import urllib.request
import zlib

import schemathesis

BASE = os.environ["DRAGBOARD_FUZZ_URL"]
CSRF = os.environ["DRAGBOARD_FUZZ_CSRF"]
STATS = os.environ.get("DRAGBOARD_FUZZ_STATS")
BOARD = "demo"
REFRESH_EVERY = 100

_lock = threading.Lock()
_known: dict[str, list] = {}
_boards: list[str] = [BOARD]
_tokens: list[str] = []
_calls = 0
_statuses: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)


def _get(path: str) -> str:
    request = urllib.request.Request(BASE + path, headers={"Cookie": f"dragboard_csrf={CSRF}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.read().decode()


def _refresh() -> None:
    """The ids on the demo board now, and the checklist items of a few of its cards."""
    page = _get(f"/boards/{BOARD}")
    items = list(dict.fromkeys(re.findall(r'data-item="([^"]+)"', page)))
    checks = []
    for item in items[:: max(1, len(items) // 4)][:4]:
        try:
            card = _get(f"/boards/{BOARD}/cards/{item}")
        except OSError:
            continue
        checks += [(item, check) for check in dict.fromkeys(re.findall(r'data-check="([^"]+)"', card))]
    _known.update(
        list=list(dict.fromkeys(re.findall(r'data-list="([^"]+)"', page))),
        item=items,
        zone=list(dict.fromkeys(re.findall(r'data-zone="([^"]+)"', page))),
        label=list(dict.fromkeys(re.findall(r'data-label="([^"]+)"', page))),
        image=list(dict.fromkeys(re.findall(r'data-image="([^"]+)"', page))),
        check=checks,
    )


def _choice(pool, generated):
    """A member of `pool` for `generated` (the same each time), or None: keep what was generated."""
    if not pool:
        return None
    key = zlib.crc32(repr(generated).encode())
    return None if key % 8 == 0 else pool[(key >> 3) % len(pool)]


def _swap(value, kind):
    if kind == "board":   # the demo board half the time or more: the others made by the run are mostly empty
        pool = [BOARD] * len(_boards) + _boards[1:]
    else:
        pool = _tokens if kind == "token" else _known.get(kind, [])
    if value in pool:
        return value
    chosen = _choice(pool, value)
    return value if chosen is None else chosen


def _swap_target(target):
    if isinstance(target, dict):
        for kind in ("list", "zone"):
            if isinstance(target.get(kind), str):
                target[kind] = _swap(target[kind], kind)


@schemathesis.hook
def before_call(context, case, **kwargs):
    global _calls
    with _lock:
        if _calls % REFRESH_EVERY == 0:
            try:
                _refresh()
            except OSError:
                pass   # the server's answer to this case says what is wrong
        _calls += 1
        # Copies: the generated values may be shared with other cases (and replayed when shrinking).
        path = case.path_parameters = dict(case.path_parameters or {})
        if "check" in path and "item" in path and _known.get("check"):
            pair = _choice(_known["check"], (path["item"], path["check"]))
            if pair:
                path["item"], path["check"] = pair
        for kind in ("board", "list", "item", "label", "image", "token"):
            if kind in path and isinstance(path[kind], str) and not (kind == "item" and "check" in path):
                path[kind] = _swap(path[kind], kind)
        if not isinstance(case.body, dict):
            return
        body = case.body = copy.deepcopy(case.body)
        # Hypothesis sends its simplest values again and again: a reused operation id is a 422
        # (another request's); most are made unique, the rest kept to exercise that refusal.
        op = body.get("op")
        if isinstance(op, str) and re.fullmatch(r"[A-Za-z0-9_-]{8,64}", op) and zlib.crc32(op.encode()) % 8:
            body["op"] = f"{op[:48]}-{_calls}"
        if case.media_type == "application/x-www-form-urlencoded":
            if "csrf" in body:
                body["csrf"] = CSRF
            for kind in ("item", "image", "board"):
                if isinstance(body.get(kind), str):
                    body[kind] = _swap(body[kind], kind)
            if isinstance(body.get("to"), str):   # the move form's destination
                places = [f"list:{list_id}{where}" for list_id in _known.get("list", []) for where in ("", "@top")]
                body["to"] = _choice(places + [f"zone:{zone}" for zone in _known.get("zone", [])], body["to"]) or body["to"]
            return
        # A begin's token is the browser's choice: a repeated one is a 409 (in use), so most are made new.
        token = body.get("token")
        if isinstance(token, str) and re.fullmatch(r"[0-9a-f]{32}", token) and zlib.crc32(token.encode()) % 8:
            body["token"] = f"{zlib.crc32(token.encode()):08x}{_calls:024x}"
        if isinstance(body.get("board"), str):
            body["board"] = _swap(body["board"], "board")
        if isinstance(body.get("list"), str) and isinstance(body.get("items"), list) and _known.get("item"):
            # A begin: rows of one list, read from the page it lists them in.
            source = _choice(_known["list"], body["list"])
            if source:
                rows = re.findall(r'data-item="([^"]+)"', _list_html(source))
                if rows:
                    body["list"] = source
                    if "board" in body:
                        body["board"] = BOARD
                    body["items"] = rows[: 1 + zlib.crc32(repr(body["items"]).encode()) % min(3, len(rows))]
        _swap_target(body.get("target"))
        location = body.get("location")
        if isinstance(location, dict) and isinstance(location.get("item"), str):
            location["item"] = _swap(location["item"], "item")


def _list_html(list_id: str) -> str:
    try:
        return json.loads(_get(f"/boards/{BOARD}/api/lists/{list_id}/rows?count=5")).get("html", "")
    except (OSError, ValueError):
        return ""


@schemathesis.hook
def after_call(context, case, response):
    with _lock:
        _statuses[case.operation.label][response.status_code] += 1
        label = case.operation.label
        try:
            answer = json.loads(response.content) if response.content[:1] == b"{" else {}
        except ValueError:
            answer = {}
        if label in ("POST /api/sessions", "POST /api/sessions/external") and response.status_code == 201:
            _tokens.append(answer.get("token"))
        elif label == "POST /api/sessions/{token}/end" or (label.startswith("POST /api/sessions/{") and response.status_code == 404):
            token = (case.path_parameters or {}).get("token")
            if token in _tokens and (response.status_code == 200 or "drag session" in json.dumps(answer)):
                _tokens.remove(token)
        elif label == "POST /boards" and response.status_code == 200:
            board = answer.get("location", "").rsplit("/", 1)[-1]
            if board and board not in _boards:
                _boards.append(board)


def _write_stats():
    if STATS:
        with open(STATS, "w") as out:
            json.dump({label: dict(counts) for label, counts in _statuses.items()}, out)


atexit.register(_write_stats)
