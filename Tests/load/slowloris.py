"""Slowloris against the real server: `--connections` half-open requests (a head that never
ends, trickled a byte at a time so no inactivity timeout fires) from `--addresses` loopback
addresses (127.0.0.2 and up), reopened as the server closes them, while a legitimate client
from 127.0.0.1 measures its requests. Prints p50/p99 before, during and after the attack, and
how long after the attacker leaves the server holds no more of its connections.

    python3 Tests/load/slowloris.py --connections 2000 --addresses 40 --seconds 20

Stdlib only; loopback only; bounded in time.
"""
import argparse
import http.client
import pathlib
import re
import selectors
import socket
import statistics
import subprocess
import tempfile
import threading
import time

from server import start, stop

def server_sockets(port: int) -> int:
    """Connections the server still holds on `port`: established or waiting for it to close."""
    out = subprocess.run(["ss", "-Htn", "state", "established", "state", "close-wait", f"( sport = :{port} )"],
                         capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if line.strip())


def measure(port: int, path: str, seconds: float) -> tuple[list[float], int]:
    samples, failed = [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", path, headers={"Connection": "close"})
            response = connection.getresponse()
            response.read()
            connection.close()
            if response.status != 200:
                failed += 1
                continue
            samples.append((time.monotonic() - started) * 1000)
        except OSError:
            failed += 1
    return samples, failed


def summary(name: str, samples: list[float], failed: int) -> str:
    if not samples:
        return f"{name}: no answers, {failed} failed"
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{name}: n={len(ordered)} p50={statistics.median(ordered):.2f} ms p99={p99:.2f} ms max={ordered[-1]:.2f} ms, {failed} failed"


class Attacker(threading.Thread):
    """Holds `count` half-open requests from `addresses` source addresses until `stop` is set."""

    def __init__(self, port: int, count: int, addresses: int):
        super().__init__(daemon=True)
        self.port, self.count, self.addresses = port, count, addresses
        self.stop = threading.Event()
        self.selector = selectors.DefaultSelector()
        self.opened = 0

    def open_one(self, index: int):
        source = f"127.0.0.{2 + index % self.addresses}"
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((source, 0))
            sock.connect_ex(("127.0.0.1", self.port))
            self.selector.register(sock, selectors.EVENT_WRITE, index)
            self.opened += 1
        except OSError:
            sock.close()

    def run(self):
        for index in range(self.count):
            self.open_one(index)
        closed, last_trickle = [], 0.0
        while not self.stop.is_set():
            for key, events in self.selector.select(timeout=0.2):
                if events & selectors.EVENT_WRITE:  # connected: start a head that never ends
                    try:
                        key.fileobj.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
                        self.selector.modify(key.fileobj, selectors.EVENT_READ, key.data)
                        continue
                    except OSError:
                        pass
                # The server closed it (deadline, limit): reopen at the next tick, as an attacker would.
                self.selector.unregister(key.fileobj)
                key.fileobj.close()
                closed.append(key.data)
            if time.monotonic() - last_trickle > 2:
                last_trickle = time.monotonic()
                for key in list(self.selector.get_map().values()):
                    try:
                        key.fileobj.send(b"a")
                    except OSError:
                        pass
                for index in closed:
                    self.open_one(index)
                closed = []
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=2000)
    parser.add_argument("--addresses", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--path", default="/static/app.css")
    args = parser.parse_args()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-slowloris-"))
    server, port = start(folder / "board.sqlite")
    try:
        baseline = measure(port, args.path, 3)
        print(summary("before", *baseline))
        attacker = Attacker(port, args.connections, args.addresses)
        attacker.start()
        time.sleep(2)  # let the flood build up; this is load shaping, not synchronisation
        print(f"attack: {attacker.opened} connections opened, server holds {server_sockets(port)}")
        print(summary("during", *measure(port, args.path, args.seconds)))
        print(f"attack: {attacker.opened} connections opened in all, server holds {server_sockets(port)}")
        attacker.stop.set()
        attacker.join()
        left = time.monotonic()
        idle = server_sockets(port)
        while idle > 2 and time.monotonic() - left < 120:
            time.sleep(0.05)
            idle = server_sockets(port)
        print(f"after the attacker left: {time.monotonic() - left:.2f} s until the server held {idle} sockets")
        print(summary("after", *measure(port, args.path, 3)))
    finally:
        stop(server)


if __name__ == "__main__":
    main()
