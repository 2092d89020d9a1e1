"""The real dragboard binary for the load scripts: started on a database of their own, on a
free port, with the repository's files; and the headers of a same-origin browser session."""
import http.client
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def binary() -> pathlib.Path:
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True)
    return pathlib.Path(out.stdout.strip()) / "dragboard"


def start(database: pathlib.Path, *arguments: str, executable: pathlib.Path | None = None) -> tuple[subprocess.Popen, int]:
    """Starts the server (`executable`, else the debug build) and waits for its one `Listening on` line;
    returns it and its port."""
    server = subprocess.Popen([str(executable or binary()), "--port", "0", "--database", str(database), "--public", str(ROOT / "Public"),
                               "--templates", str(ROOT / "Templates"), "--log-level", "error", *arguments],
                              stdout=subprocess.PIPE, text=True)
    return server, int(re.search(r":(\d+)$", server.stdout.readline().strip()).group(1))


def stop(server: subprocess.Popen):
    server.terminate()
    server.wait(timeout=10)


def session_headers(connection: http.client.HTTPConnection, port: int, page: str = "/") -> dict[str, str]:
    """Loads `page` for its CSRF cookie; the headers a same-origin write of that browser sends."""
    connection.request("GET", page)
    response = connection.getresponse()
    response.read()
    csrf = re.search(r"dragboard_csrf=([0-9a-f]{32})", response.getheader("Set-Cookie")).group(1)
    return {"Content-Type": "application/json", "X-CSRF-Token": csrf, "Cookie": f"dragboard_csrf={csrf}",
            "Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}
