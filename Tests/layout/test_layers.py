"""The package's layers, checked: each library target depends on, and each source file imports,
only the modules below it (docs/architecture.md draws the same graph). Stdlib only."""
import json
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: What each library may use, besides Foundation, Dispatch, Synchronization and the C library.
ALLOWED = {
    "DragAndDrop": set(),
    "JSONWriting": set(),
    "MicroHTTPTesting": set(),
    "MicroHTTP": {"CMicroHTTPD", "JSONWriting", "Logging"},
    "Dragboard": {"DragAndDrop"},
    "DragboardStore": {"Dragboard", "DragAndDrop", "JSONWriting", "Passwords", "GRDB", "GRDBSQLite"},
    "DragboardPostgres": {"DragboardStore", "PostgresNIO", "NIOCore", "Logging"},
    "Passwords": {"CSodium"},
    "DragboardHTTP": {"Dragboard", "DragAndDrop", "DragboardStore", "JSONWriting", "MicroHTTP", "Mustache", "Logging", "Passwords",
                      "CoreMetrics", "Prometheus"},
    "DragboardTesting": {"Dragboard", "DragboardHTTP", "DragboardStore", "MicroHTTP", "MicroHTTPTesting", "Logging", "Passwords"},
    "Showcase": {"Dragboard", "DragAndDrop"},
}
SYSTEM = {"Foundation", "Dispatch", "Synchronization", "Glibc", "FoundationEssentials"}


def describe() -> dict:
    out = subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=ROOT, check=True,
                         capture_output=True, text=True)
    return {target["name"]: target for target in json.loads(out.stdout)["targets"]}


def test_every_library_target_depends_only_on_modules_below_it():
    targets = describe()
    libraries = {name for name, target in targets.items() if target.get("type") == "library"}
    assert libraries == set(ALLOWED), f"a library target was added or removed: update ALLOWED and docs/architecture.md ({libraries ^ set(ALLOWED)})"
    for name in libraries:
        used = set(targets[name].get("target_dependencies", [])) | set(targets[name].get("product_dependencies", []))
        assert used <= ALLOWED[name], f"{name} depends on {sorted(used - ALLOWED[name])}, above or beside it"


def test_every_source_file_imports_only_modules_below_its_own():
    for name, allowed in ALLOWED.items():
        for path in (ROOT / "Sources" / name).rglob("*.swift"):
            for module in re.findall(r"^(?:@_exported |@testable |@preconcurrency )?import (?:struct |enum |class )?(\w+)", path.read_text(), re.M):
                assert module in allowed | SYSTEM, f"{path.relative_to(ROOT)} imports {module}"


def test_the_kit_names_no_demo_content():
    demo = re.compile(r"\b(cat|toy|places|Whiskers|Showcase)\b", re.I)
    for module in ("Dragboard", "DragboardStore", "DragboardHTTP", "DragboardTesting"):
        for path in (ROOT / "Sources" / module).rglob("*.swift"):
            code = "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("//"))
            assert not demo.search(code), f"{path.relative_to(ROOT)} names the showcase: {demo.search(code).group(0)}"
