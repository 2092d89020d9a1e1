"""Files uploaded for drops from other apps count against stated limits while their drags are in progress
(hardening issue #26, item 1): per drag, per address and in total, with or without a Content-Length, and
together with the board's stored images. A refusal comes before any byte is stored (413 for what can never
fit, 429 with Retry-After for what frees up), and the bytes come back when the drag ends or expires."""
from __future__ import annotations

import http.client
import json
import pathlib
import secrets
import socket
import tempfile

import pytest

from conftest import Server
from data_helpers import png_bytes

MB = 1024 * 1024


class Client:
    """One browser by its CSRF cookie, from one loopback address, over plain HTTP."""

    def __init__(self, port: int, address: str = "127.0.0.1"):
        self.port, self.address = port, address
        self.csrf = secrets.token_hex(16)

    def _connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.address, 0))

    def _headers(self, extra: dict) -> dict:
        return {"Cookie": f"dragboard_csrf={self.csrf}", "X-CSRF-Token": self.csrf, "Origin": f"http://127.0.0.1:{self.port}", **extra}

    def post_json(self, path: str, body: dict) -> tuple[int, dict, dict]:
        connection = self._connection()
        connection.request("POST", path, json.dumps(body), self._headers({"Content-Type": "application/json"}))
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), json.loads(data) if data else {}

    def external(self, files: int = 4) -> str:
        token = secrets.token_hex(16)
        status, _, body = self.post_json("/api/sessions/external", {"token": token, "types": ["Files"], "files": ["image/png"] * files})
        assert status == 201, body
        return token

    def upload(self, token: str, content: bytes, chunked: bool = False) -> tuple[int, dict, dict]:
        """Sends the file; the server may answer (and close) before taking all of it."""
        connection = self._connection()
        headers = self._headers({"Content-Type": "image/png", "X-File-Name": "big.png"})
        try:
            if chunked:
                connection.request("POST", f"/api/sessions/{token}/files", body=iter([content[i:i + 65536] for i in range(0, len(content), 65536)]),
                                   headers=headers, encode_chunked=True)
            else:
                connection.request("POST", f"/api/sessions/{token}/files", body=content, headers=headers)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused from the head: the answer is waiting
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), json.loads(data) if data else {}

    def end(self, token: str) -> None:
        status, _, body = self.post_json(f"/api/sessions/{token}/end", {})
        assert status == 200, body


def picture(megabytes: float) -> bytes:
    """A PNG of about `megabytes` (its header is real; the rest is padding the server does not read)."""
    head = png_bytes()
    return head + bytes(int(megabytes * MB) - len(head))


def uploads_on_disk(server: Server) -> int:
    folder = pathlib.Path(str(server.database) + "-images") / "uploads"
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file()) if folder.exists() else 0


@pytest.fixture()
def quota_server():
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-quota-"))
    running = Server(directory / "board.sqlite", "--max-image-storage", "30", "--pending-upload-storage-per-drag", "12",
                     "--pending-upload-storage-per-address", "20", "--max-pending-upload-storage", "28").start()
    yield running
    running.stop()


def test_a_drag_cannot_bring_more_than_its_share_with_or_without_a_length(quota_server):
    client = Client(quota_server.port)
    token = client.external()
    assert client.upload(token, picture(5))[0] == 201
    # 5 + 8 > 12: refused from the head, before a byte is stored; chunked bodies reserve the largest file (20 MB).
    status, _, body = client.upload(token, picture(8))
    assert status == 413, body
    assert "at most 12 MB of files" in body["error"]["message"]
    status, _, body = client.upload(token, picture(1), chunked=True)
    assert status == 413, body
    assert uploads_on_disk(quota_server) == 5 * MB


def test_an_address_and_the_server_have_shares_that_free_when_drags_end(quota_server):
    first, second = Client(quota_server.port, "127.0.0.2"), Client(quota_server.port, "127.0.0.2")
    a, b = first.external(), second.external()
    assert first.upload(a, picture(10))[0] == 201
    status, headers, body = second.upload(b, picture(10.5))
    assert status == 429, body
    assert "from your network address" in body["error"]["message"]
    assert int(headers["Retry-After"]) >= 1
    # Another address fills the server's total (28 MB): 10 + 10 here, and 8 more is over.
    other = Client(quota_server.port, "127.0.0.3")
    c, d = other.external(), other.external()
    assert other.upload(c, picture(10))[0] == 201
    status, headers, body = other.upload(d, picture(9))
    assert status == 429, body
    assert "the server holds its limit" in body["error"]["message"]
    assert uploads_on_disk(quota_server) == 20 * MB
    # Ending a drag deletes its files and gives its bytes back.
    first.end(a)
    assert uploads_on_disk(quota_server) == 10 * MB
    assert second.upload(b, picture(10.5))[0] == 201


def test_waiting_files_count_against_the_board_s_image_storage(tmp_path):
    # 15 MB of images at most: files waiting in drags take their part of it, before any is stored.
    running = Server(tmp_path / "board.sqlite", "--max-image-storage", "15").start()
    try:
        clients = [Client(running.port, f"127.0.0.{4 + index}") for index in range(2)]
        tokens = [client.external() for client in clients]
        assert clients[0].upload(tokens[0], picture(10))[0] == 201
        status, _, body = clients[1].upload(tokens[1], picture(6))
        assert status == 413, body
        assert "at most 15 MB of images" in body["error"]["message"]
        assert uploads_on_disk(running) == 10 * MB
    finally:
        running.stop()
