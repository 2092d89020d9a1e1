"""The server process as a supervisor sees it: one `Listening on` line, then SIGTERM ends it
cleanly however soon it comes (a signal that arrived before the handlers were installed used
to be ignored, leaving the process running forever)."""
import pathlib
import shutil
import tempfile

from conftest import Server


def test_sigterm_right_after_the_listening_line_stops_the_server_cleanly():
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-"))
    try:
        for attempt in range(10):
            server = Server(directory / f"board-{attempt}.sqlite").start()
            server.stop()   # SIGTERM at once; asserts exit code 0 within 10 s
    finally:
        shutil.rmtree(directory, ignore_errors=True)
