"""The page's scripts and styles reach Chromium gzip-compressed (compressed once at the server's start by the
system's gzip), and the page built from them works."""
import pathlib

from helpers import READY

PUBLIC = pathlib.Path(__file__).resolve().parents[2] / "Public"


def test_board_page_scripts_and_styles_arrive_gzipped_and_work(context, server, console_errors):
    page = console_errors.watch(context.new_page())
    static = []
    page.on("response", lambda response: static.append(response) if "/static/" in response.url else None)
    page.goto(server.demo)
    page.wait_for_function(READY)   # set by the modules once they ran
    page.wait_for_load_state("load")

    loaded = {response.url.rsplit("/", 1)[-1]: response for response in static
              if response.url.endswith((".js", ".css"))}
    assert set(loaded) >= {"app.css", "cards.css", "motion.css", "theme.js", "dnd.js"}
    for name, response in loaded.items():
        headers = response.all_headers()
        content = (PUBLIC / name).read_bytes()
        assert response.status == 200, name
        assert response.url.split("/static/")[1].count("/") == 1, f"{name}: served under the version"
        # Files under 256 bytes are sent as they are (none on this page today).
        assert headers.get("content-encoding") == ("gzip" if len(content) >= 256 else None), f"{name}: {headers}"
        assert headers.get("vary") == ("Accept-Encoding" if len(content) >= 256 else None), name
        assert response.body() == content, f"{name}: Chromium decoded the file's very bytes"
    # Every stylesheet parsed (a body sent compressed without saying so would not).
    assert page.evaluate("() => [...document.styleSheets].every(sheet => sheet.cssRules.length > 0)")
    assert console_errors.unexpected() == [], f"browser errors: {console_errors.unexpected()}"
