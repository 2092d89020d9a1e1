"""Every Swift snippet of the documentation is compiled code (issue #25, item 7).

Each ```swift block of README.md, docs/**/*.md and the DocC catalogs (Sources/**/*.docc/**/*.md) must
appear verbatim in a file of Tests/DocSnippets/ — a test target, so `swift build --build-tests` compiles
it against the current APIs (and `swift test` runs the snippets written as tests). "Verbatim" means the
block's lines, without its leading and trailing blank lines, as a contiguous run of lines of one file,
indentation aside (a snippet of statements sits inside a function there). A package manifest
(a block starting `// swift-tools-version`) cannot live in a test target: it is checked by
`swift package dump-package` instead, which compiles it against the real PackageDescription.
Stdlib only; no server."""
import pathlib
import re
import shutil
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
SNIPPETS = ROOT / "Tests" / "DocSnippets"
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
MANIFEST = "// swift-tools-version"


def documents() -> list[pathlib.Path]:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    found += sorted(path for path in (ROOT / "Sources").rglob("*.md") if any(part.endswith(".docc") for part in path.parts))
    return [path for path in found if path.is_file()]


def blocks(path: pathlib.Path) -> list[tuple[int, str, list[str]]]:
    """(line of the opening fence, info string, lines) of every fenced block of a Markdown file."""
    found, lines, index = [], path.read_text(encoding="utf-8").splitlines(), 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        fence, info, start = opening["fence"], opening["info"].strip(), index
        body, index = [], index + 1
        while index < len(lines) and not re.match(rf"^ {{0,3}}{fence[0]}{{{len(fence)},}}\s*$", lines[index]):
            body.append(lines[index])
            index += 1
        assert index < len(lines), f"{path.relative_to(ROOT)}:{start + 1}: a fenced block is never closed"
        found.append((start + 1, info, body))
        index += 1
    return found


def swift_blocks() -> list[tuple[str, list[str]]]:
    """(where, lines) of every Swift block, without leading and trailing blank lines."""
    found = []
    for path in documents():
        for line, info, body in blocks(path):
            language = info.split()[0].lower() if info else ""
            if language != "swift":
                continue
            while body and not body[0].strip():
                body = body[1:]
            while body and not body[-1].strip():
                body = body[:-1]
            found.append((f"{path.relative_to(ROOT)}:{line}", body))
    return found


def normalized(lines: list[str]) -> list[str]:
    return [line.strip() for line in lines]


def contains_run(haystack: list[str], needle: list[str]) -> bool:
    if not needle:
        return True
    first = needle[0]
    return any(haystack[start:start + len(needle)] == needle
               for start, line in enumerate(haystack) if line == first)


def test_every_swift_block_is_compiled_in_doc_snippets():
    sources = {path: normalized(path.read_text(encoding="utf-8").splitlines()) for path in sorted(SNIPPETS.glob("*.swift"))}
    assert sources, "Tests/DocSnippets/ holds no Swift file"
    missing = [where for where, body in swift_blocks()
               if not body[0].startswith(MANIFEST) and not any(contains_run(lines, normalized(body)) for lines in sources.values())]
    assert not missing, ("these ```swift blocks are not in Tests/DocSnippets/*.swift verbatim (copy each into the file of "
                         "its guide, types at file scope, statements inside a function): " + ", ".join(missing))


def test_every_package_manifest_in_the_docs_compiles():
    manifests = [(where, body) for where, body in swift_blocks() if body[0].startswith(MANIFEST)]
    assert manifests, "docs/kit.md shows how to depend on the package: its Package.swift should be here"
    swift = shutil.which("swift")
    assert swift, "the swift toolchain is needed to check the manifests of the docs"
    for where, body in manifests:
        with tempfile.TemporaryDirectory(prefix="dragboard-manifest-") as directory:
            (pathlib.Path(directory) / "Package.swift").write_text("\n".join(body) + "\n", encoding="utf-8")
            done = subprocess.run([swift, "package", "dump-package"], cwd=directory, capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, f"{where}: the manifest does not compile:\n{done.stderr}"


def test_the_guides_hold_swift_and_no_half_snippets():
    """A vacuous pass is no pass: the kit's guide and the DocC articles show code; and every block that
    looks like Swift is marked `swift`, so none escapes the checks above (no `swift-partial`, no `Swift`)."""
    where = [where for where, _ in swift_blocks()]
    assert any(w.startswith("docs/kit.md") for w in where), "docs/kit.md shows no Swift"
    assert any(".docc/" in w for w in where), "the DocC catalogs show no Swift"
    for path in documents():
        for line, info, _ in blocks(path):
            language = info.split()[0] if info else ""
            assert language == "swift" or not language.lower().startswith("swift"), \
                f"{path.relative_to(ROOT)}:{line}: ```{language} escapes the snippet checks; mark it ```swift and compile it"


def test_the_matcher_wants_whole_contiguous_runs():
    """The check itself: indentation is ignored, but not order, gaps or a changed line."""
    file = normalized(["struct A {", "    func f() {", "        let x = 1", "", "        print(x)", "    }", "}"])
    assert contains_run(file, normalized(["let x = 1", "", "print(x)"]))
    assert not contains_run(file, normalized(["let x = 1", "print(x)"]))
    assert not contains_run(file, normalized(["let x = 2", "", "print(x)"]))
    assert not contains_run(file, normalized(["print(x)", "let x = 1"]))
