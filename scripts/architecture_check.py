#!/usr/bin/env python3
"""Checks that docs/architecture.md's "## Modules" table matches Package.swift, and the imports.

Usage:
    python3 scripts/architecture_check.py              # check the repository's files
    python3 scripts/architecture_check.py --self-test  # check that the check catches errors

Standard library only (Python 3.11). The repository is found from this script's path, so it
runs from any directory.

The check fails (exit 1, one line per problem naming the module) when a non-test target of
Package.swift has no row in the table, a row names a module Package.swift does not declare,
or a row's `imports` differ from the dependencies Package.swift declares for that target
(which must be listed alphabetically, backticked, comma-separated, `—` when none).

It also fails when a Swift target's files import a module of this package that Package.swift
does not declare for it, or when a declared dependency is imported by none of its files (a
stale dependency links what the module no longer uses; the umbrella's re-exports are its
imports), and when one of the daemon's modules (`DAEMON_MODULES`: what `headroom serve` is
made of) depends on OpenCV or the tracker, directly or through another module, and when a
product's file (not a test's, not the bench's: `FOUNDATION_ALLOWED`) imports Foundation itself
rather than `FoundationEssentials`: Foundation proper brings its internationalisation data
(ICU, 40 MB) into every binary and into the package; and when a module `headroomd` links is
missing from Package.swift's `daemonModules` (built without Swift's string processing), or one
of its files imports `FoundationEssentials`, Foundation or `Dispatch` (which the daemon would
then map).

Package.swift is read, not run: the script understands the forms this package uses —
`module("Name", [deps])`, `tests("Name", [deps])`, `.target(name:dependencies:...)`,
`.systemLibrary(name:...)`, `.executableTarget(name:dependencies:...)`, `.testTarget(...)`;
dependencies written as `"Name"`, `.target(name: "Name")`, `.byName(name: "Name")` or
`.product(name: "Name", ...)`; and top-level `let` arrays of strings, including
`OTHER.filter { ![...].contains($0) }` and `NAME.map { .target(name: $0) }`. Anything else
is reported as a problem rather than guessed.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "Package.swift"
DOC = REPO / "docs" / "architecture.md"
NONE_MARKS = {"—", "–", "-", ""}
TEST_KINDS = {"tests", "testTarget"}


class ParseError(Exception):
    """Package.swift or the doc is in a form this script does not understand."""


# ---------------------------------------------------------------------------------------------
# Package.swift: tokens


@dataclass(frozen=True)
class Token:
    kind: str  # "str", "id", "op"
    text: str
    line: int


def tokenize(source: str) -> list[Token]:
    """Swift tokens enough for Package.swift: identifiers, string literals, punctuation;
    comments and white space dropped."""
    tokens: list[Token] = []
    i, line, n = 0, 1, len(source)
    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif source.startswith("//", i):
            while i < n and source[i] != "\n":
                i += 1
        elif source.startswith("/*", i):
            depth = 0
            while i < n:
                if source.startswith("/*", i):
                    depth += 1
                    i += 2
                elif source.startswith("*/", i):
                    depth -= 1
                    i += 2
                    if depth == 0:
                        break
                else:
                    line += source[i] == "\n"
                    i += 1
        elif source.startswith('"""', i):
            end = source.find('"""', i + 3)
            if end < 0:
                raise ParseError(f"Package.swift:{line}: unterminated multi-line string")
            text = source[i + 3 : end]
            tokens.append(Token("str", text, line))
            line += text.count("\n")
            i = end + 3
        elif c == '"':
            j, chars = i + 1, []
            while j < n and source[j] != '"':
                if source[j] == "\n":
                    raise ParseError(f"Package.swift:{line}: unterminated string")
                if source[j] == "\\" and j + 1 < n:
                    if source[j + 1] == "(":
                        raise ParseError(f"Package.swift:{line}: string interpolation not understood")
                    chars.append(source[j + 1])
                    j += 2
                    continue
                chars.append(source[j])
                j += 1
            tokens.append(Token("str", "".join(chars), line))
            i = j + 1
        elif c.isalnum() or c in "_$":
            j = i
            while j < n and (source[j].isalnum() or source[j] in "_$"):
                j += 1
            tokens.append(Token("id", source[i:j], line))
            i = j
        else:
            tokens.append(Token("op", c, line))
            i += 1
    return tokens


OPEN, CLOSE = "([{", ")]}"


def matching(tokens: list[Token], start: int) -> int:
    """Index of the bracket closing the one at `start`."""
    depth = 0
    for k in range(start, len(tokens)):
        t = tokens[k]
        if t.kind == "op" and t.text in OPEN:
            depth += 1
        elif t.kind == "op" and t.text in CLOSE:
            depth -= 1
            if depth == 0:
                return k
    raise ParseError(f"Package.swift:{tokens[start].line}: unbalanced '{tokens[start].text}'")


def split_top(tokens: list[Token], sep: str = ",") -> list[list[Token]]:
    """`tokens` split at `sep` outside brackets; empty pieces (a trailing comma) dropped."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for t in tokens:
        if t.kind == "op" and t.text in OPEN:
            depth += 1
        elif t.kind == "op" and t.text in CLOSE:
            depth -= 1
        if depth == 0 and t.kind == "op" and t.text == sep:
            parts.append([])
        else:
            parts[-1].append(t)
    return [p for p in parts if p]


def arguments(tokens: list[Token]) -> list[tuple[str | None, list[Token]]]:
    """A call's argument tokens (between its parentheses) as (label or None, value tokens)."""
    result = []
    for part in split_top(tokens):
        if len(part) >= 2 and part[0].kind == "id" and part[1].kind == "op" and part[1].text == ":":
            result.append((part[0].text, part[2:]))
        else:
            result.append((None, part))
    return result


def text(tokens: list[Token]) -> str:
    return " ".join(t.text if t.kind != "str" else f'"{t.text}"' for t in tokens)


# ---------------------------------------------------------------------------------------------
# Package.swift: evaluation


def evaluate_names(tokens: list[Token], variables: dict[str, list[str]]) -> list[str]:
    """The names a dependency list or a string-array expression gives."""
    if not tokens:
        raise ParseError("empty expression")
    line = tokens[0].line
    # Concatenation: a + b
    pieces = split_top(tokens, "+")
    if len(pieces) > 1:
        return [name for piece in pieces for name in evaluate_names(piece, variables)]
    first = tokens[0]
    # An array literal.
    if first.kind == "op" and first.text == "[":
        end = matching(tokens, 0)
        if end != len(tokens) - 1:
            return apply_methods(evaluate_names(tokens[: end + 1], variables), tokens[end + 1 :], variables)
        return [dependency_name(element, variables) for element in split_top(tokens[1:end])]
    # A variable, possibly with .filter { ... } or .map { ... } after it.
    if first.kind == "id":
        if first.text not in variables:
            raise ParseError(f"Package.swift:{line}: unknown name `{first.text}` in `{text(tokens)}`")
        return apply_methods(list(variables[first.text]), tokens[1:], variables)
    raise ParseError(f"Package.swift:{line}: cannot evaluate `{text(tokens)}`")


def apply_methods(names: list[str], rest: list[Token], variables: dict[str, list[str]]) -> list[str]:
    """Applies `.filter { ... }` and `.map { ... }` calls that follow an array."""
    while rest:
        line = rest[0].line
        if not (len(rest) >= 3 and rest[0].text == "." and rest[1].kind == "id" and rest[2].text == "{"):
            raise ParseError(f"Package.swift:{line}: cannot evaluate `{text(rest)}`")
        method = rest[1].text
        end = matching(rest, 2)
        body = rest[3:end]
        rest = rest[end + 1 :]
        if method == "filter":
            names = [n for n in names if filter_keeps(body, n, variables, line)]
        elif method == "map":
            names = [map_name(body, n, line) for n in names]
        else:
            raise ParseError(f"Package.swift:{line}: method `.{method}` not understood")
    return names


def filter_keeps(body: list[Token], name: str, variables: dict[str, list[str]], line: int) -> bool:
    """`{ LIST.contains($0) }` or `{ !LIST.contains($0) }` applied to `name`."""
    negate = bool(body) and body[0].text == "!"
    if negate:
        body = body[1:]
    # LIST .contains ( $0 )
    if len(body) < 6 or [t.text for t in body[-5:]] != [".", "contains", "(", "$0", ")"]:
        raise ParseError(f"Package.swift:{line}: filter `{text(body)}` not understood")
    listed = evaluate_names(body[:-5], variables)
    return (name in listed) != negate


def map_name(body: list[Token], name: str, line: int) -> str:
    """`{ .target(name: $0) }`, `{ .byName(name: $0) }` or `{ $0 }` applied to `name`."""
    words = [t.text for t in body]
    if words in (["$0"], [".", "target", "(", "name", ":", "$0", ")"], [".", "byName", "(", "name", ":", "$0", ")"]):
        return name
    raise ParseError(f"Package.swift:{line}: map `{text(body)}` not understood")


def dependency_name(element: list[Token], variables: dict[str, list[str]]) -> str:
    """One element of a dependency (or string) array."""
    line = element[0].line
    if len(element) == 1 and element[0].kind == "str":
        return element[0].text
    if len(element) >= 4 and element[0].text == "." and element[1].text in ("target", "byName", "product"):
        args = dict(arguments(element[3 : matching(element, 2)]))
        value = args.get("name")
        if value and len(value) == 1 and value[0].kind == "str":
            return value[0].text
    raise ParseError(f"Package.swift:{line}: dependency `{text(element)}` not understood")


@dataclass
class Target:
    name: str
    kind: str  # module, tests, target, systemLibrary, executableTarget, testTarget
    dependencies: list[str]
    line: int

    @property
    def is_test(self) -> bool:
        return self.kind in TEST_KINDS


def nesting(token: Token) -> int:
    """+1 for an opening bracket, -1 for a closing one, 0 for anything else."""
    if token.kind != "op":
        return 0
    return 1 if token.text in OPEN else -1 if token.text in CLOSE else 0


def top_level_variables(tokens: list[Token]) -> dict[str, list[str]]:
    """Top-level `let NAME = <array expression>` that evaluate to names; others are skipped."""
    variables: dict[str, list[str]] = {}
    depth = 0
    k = 0
    while k < len(tokens):
        t = tokens[k]
        if nesting(t):
            depth += nesting(t)
        elif depth == 0 and t.text == "let" and k + 2 < len(tokens) and tokens[k + 2].text in ("=", ":"):
            name = tokens[k + 1].text
            # The value runs to the next top-level `let`, `func` or `import`.
            j = k + 2
            if tokens[j].text == ":":  # a type annotation: skip to '='
                while j < len(tokens) and tokens[j].text != "=":
                    j += 1
            start = j + 1
            end, inner = start, 0
            while end < len(tokens):
                u = tokens[end]
                if nesting(u):
                    inner += nesting(u)
                elif inner == 0 and u.text in ("let", "func", "import", "var") and u.kind == "id":
                    break
                end += 1
            try:
                variables[name] = evaluate_names(tokens[start:end], variables)
            except ParseError:
                pass  # not an array of names (the settings, the package itself)
            k = end
            continue
        k += 1
    return variables


def package_targets(source: str) -> list[Target]:
    """Every target in the `targets:` array of `Package(...)`."""
    tokens = tokenize(source)
    variables = top_level_variables(tokens)
    start = next(
        (k for k in range(len(tokens) - 1) if tokens[k].text == "Package" and tokens[k + 1].text == "("),
        None,
    )
    if start is None:
        raise ParseError("Package.swift: no `Package(` found")
    package_args = arguments(tokens[start + 2 : matching(tokens, start + 1)])
    target_tokens = next((value for label, value in package_args if label == "targets"), None)
    if not target_tokens or target_tokens[0].text != "[":
        raise ParseError("Package.swift: no `targets: [...]` in `Package(...)`")
    targets = []
    for element in split_top(target_tokens[1 : matching(target_tokens, 0)]):
        targets.append(parse_target(element, variables))
    return targets


def parse_target(element: list[Token], variables: dict[str, list[str]]) -> Target:
    line = element[0].line
    if element[0].kind == "id" and element[0].text in ("module", "tests") and element[1].text == "(":
        kind = element[0].text
        args = arguments(element[2 : matching(element, 1)])
        if not args or args[0][0] is not None or len(args[0][1]) != 1 or args[0][1][0].kind != "str":
            raise ParseError(f"Package.swift:{line}: `{kind}(...)` without a name literal")
        dependencies = evaluate_names(args[1][1], variables) if len(args) > 1 else []
        return Target(args[0][1][0].text, kind, dependencies, line)
    if element[0].text == "." and element[1].kind == "id" and element[2].text == "(":
        kind = element[1].text
        if kind not in ("target", "systemLibrary", "executableTarget", "testTarget", "binaryTarget", "plugin", "macro"):
            raise ParseError(f"Package.swift:{line}: target kind `.{kind}` not understood")
        args = dict(arguments(element[3 : matching(element, 2)]))
        name = args.get("name")
        if not name or len(name) != 1 or name[0].kind != "str":
            raise ParseError(f"Package.swift:{line}: `.{kind}(...)` without a name literal")
        dependencies = evaluate_names(args["dependencies"], variables) if "dependencies" in args else []
        return Target(name[0].text, kind, dependencies, line)
    raise ParseError(f"Package.swift:{line}: target `{text(element)[:60]}` not understood")


# ---------------------------------------------------------------------------------------------
# docs/architecture.md: the Modules table


@dataclass
class Row:
    modules: list[str]
    imports: list[str]
    imports_text: str
    line: int


def modules_table(doc: str) -> list[Row]:
    """The rows of the first table after the `## Modules` heading."""
    lines = doc.splitlines()
    heading = next((k for k, l in enumerate(lines) if l.strip() == "## Modules"), None)
    if heading is None:
        raise ParseError("architecture.md: no `## Modules` heading")
    k = heading + 1
    while k < len(lines) and not lines[k].lstrip().startswith("|"):
        if lines[k].startswith("## "):
            raise ParseError("architecture.md: no table under `## Modules`")
        k += 1
    if k == len(lines):
        raise ParseError("architecture.md: no table under `## Modules`")
    header = cells(lines[k])
    names = [h.strip().lower() for h in header]
    try:
        module_col, imports_col = names.index("module"), names.index("imports")
    except ValueError:
        raise ParseError(
            f"architecture.md:{k + 1}: the Modules table needs `module` and `imports` columns, has {header}"
        ) from None
    rows = []
    for number in range(k + 2, len(lines)):
        line = lines[number]
        if not line.lstrip().startswith("|"):
            break
        row = cells(line)
        if len(row) != len(header):
            raise ParseError(f"architecture.md:{number + 1}: {len(row)} cells, expected {len(header)}")
        modules = re.findall(r"`([^`]+)`", row[module_col])
        if not modules:
            raise ParseError(f"architecture.md:{number + 1}: no backticked module name in `{row[module_col]}`")
        imports_text = row[imports_col].strip()
        imports = [] if imports_text in NONE_MARKS else re.findall(r"`([^`]+)`", imports_text)
        rows.append(Row(modules, imports, imports_text, number + 1))
    return rows


def cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    return [c.strip() for c in body.split("|")]


def expected_imports_text(dependencies: list[str]) -> str:
    names = sorted(set(dependencies), key=lambda n: (n.lower(), n))
    return ", ".join(f"`{n}`" for n in names) if names else "—"


# ---------------------------------------------------------------------------------------------
# The check


def check(package_source: str, doc: str) -> tuple[list[str], int]:
    """Problems (one line each) and the count of non-test targets."""
    problems: list[str] = []
    try:
        targets = package_targets(package_source)
        rows = modules_table(doc)
    except ParseError as error:
        return [str(error)], 0
    declared = {t.name: t for t in targets if not t.is_test}
    tests = {t.name for t in targets if t.is_test}
    for name in sorted(n for n in declared if list(declared).count(n) > 1):
        problems.append(f"{name}: declared more than once in Package.swift")
    seen: dict[str, int] = {}
    for row in rows:
        for module in row.modules:
            where = f"architecture.md:{row.line}"
            if module in seen:
                problems.append(f"{module}: {where}: a second row (first at line {seen[module]})")
                continue
            seen[module] = row.line
            if module in tests:
                problems.append(f"{module}: {where}: a test target; the table lists non-test targets only")
                continue
            target = declared.get(module)
            if target is None:
                problems.append(f"{module}: {where}: in the Modules table, but Package.swift declares no such target")
                continue
            want, have = set(target.dependencies), set(row.imports)
            if want != have:
                missing = ", ".join(sorted(want - have, key=str.lower))
                extra = ", ".join(sorted(have - want, key=str.lower))
                detail = "; ".join(
                    part
                    for part in (f"missing {missing}" if missing else "", f"not declared {extra}" if extra else "")
                    if part
                )
                problems.append(
                    f"{module}: {where}: imports differ from Package.swift (line {target.line}): {detail}"
                )
            elif row.imports_text != expected_imports_text(target.dependencies):
                problems.append(
                    f"{module}: {where}: imports should read `{expected_imports_text(target.dependencies)}`"
                    f" (alphabetical, backticked, comma-separated), read `{row.imports_text}`"
                )
    for name, target in declared.items():
        if name not in seen:
            problems.append(
                f"{name}: declared in Package.swift (line {target.line}, {target.kind}) but has no row in the Modules table"
            )
    return problems, len(declared)


IMPORT = re.compile(
    r"^[ \t]*(?:@\w+[ \t]+)*(?:(?:public|package|internal|fileprivate|private)[ \t]+)?import[ \t]+"
    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)",
    re.MULTILINE,
)

# The modules `headroomd` (what `headroom serve` becomes) is made of, and what none of them may
# depend on, directly or through another module: the daemon links no OpenCV, tracker or
# pipeline.
DAEMON_MODULES = [
    "CLI", "Daemon", "Governor", "HostServer", "HostService", "MQTTBridge", "Pressure", "Telemetry",
    "headroomd",
]
DAEMON_EXCLUDES = ["COpenCV", "Dock", "History", "Pipeline", "Reports", "Tracking"]
FOUNDATION_ALLOWED = ["headroom-bench"]
# What no module `headroomd` links may import: the daemon maps no Foundation and no Dispatch
# overlay (Concurrency's libdispatch it maps anyway).
DAEMON_FORBIDDEN_IMPORT = re.compile(r"^\s*(?:@\w+\s+)*import\s+(FoundationEssentials|Foundation|Dispatch)\b", re.M)
DAEMON_MODULES_LIST = re.compile(r"let\s+daemonModules\s*(?::\s*Set)?\s*=\s*\[([^\]]*)\]", re.S)
FOUNDATION_IMPORT = re.compile(r"^\s*(?:@\w+\s+)*import\s+(?:(?:class|struct|enum|func|var|let)\s+)?Foundation\b(?!Essentials)", re.M)


def imports_of(sources: dict[str, str], names: set[str]) -> dict[str, set[str]]:
    """For each file (path → text), the package's modules it imports."""
    return {path: {m for m in IMPORT.findall(text) if m in names} for path, text in sources.items()}


def target_sources(name: str, is_test: bool) -> dict[str, str]:
    """A Swift target's files (path relative to the repository → text); empty for C targets."""
    for base in (["Tests"] if is_test else ["Sources", "Tests"]):
        folder = REPO / base / name
        if folder.is_dir():
            return {
                str(f.relative_to(REPO)): f.read_text(encoding="utf-8") for f in sorted(folder.rglob("*.swift"))
            }
    return {}


def check_imports(targets: list[Target], sources: dict[str, dict[str, str]]) -> list[str]:
    """A module's `import` lines against its Package.swift dependencies: every package module a
    file imports is declared, and every declared dependency is imported by some file (a stale
    dependency links what the module no longer uses)."""
    problems: list[str] = []
    names = {t.name for t in targets}
    for target in targets:
        files = sources.get(target.name, {})
        if not files:
            continue
        imported = imports_of(files, names)
        used = set().union(*imported.values())
        declared = set(target.dependencies)
        for module in sorted(used - declared):
            where = next(path for path, found in imported.items() if module in found)
            problems.append(f"{target.name}: {where} imports {module}, which Package.swift does not declare for it")
        for module in sorted(declared - used):
            problems.append(
                f"{target.name}: declares {module} (Package.swift line {target.line}), but no file of it imports it"
            )
    return problems


def closure(name: str, targets: dict[str, Target]) -> set[str]:
    """Every module `name` depends on, directly or transitively."""
    seen: set[str] = set()
    stack = list(targets[name].dependencies) if name in targets else []
    while stack:
        module = stack.pop()
        if module not in seen:
            seen.add(module)
            stack.extend(targets[module].dependencies if module in targets else [])
    return seen


def check_daemon(targets: list[Target]) -> list[str]:
    """The daemon's modules depend on none of ``DAEMON_EXCLUDES``, directly or transitively."""
    by_name = {t.name: t for t in targets}
    problems = []
    for module in DAEMON_MODULES:
        for excluded in sorted(closure(module, by_name) & set(DAEMON_EXCLUDES)):
            problems.append(f"{module}: a daemon module, depends on {excluded} (directly or through another module)")
    return problems


def check_foundation(targets: list[Target], sources: dict[str, dict[str, str]]) -> list[str]:
    """No product file imports Foundation proper (and with it ICU): `FoundationEssentials` has
    what the product uses; only ``FOUNDATION_ALLOWED`` and tests may."""
    problems = []
    for target in targets:
        if target.is_test or target.name in FOUNDATION_ALLOWED:
            continue
        for path, text in sources.get(target.name, {}).items():
            if not path.startswith("Tests/") and FOUNDATION_IMPORT.search(text):
                problems.append(
                    f"{target.name}: {path} imports Foundation, which links its ICU data; import FoundationEssentials"
                )
    return problems


def check_daemon_imports(
    package_source: str, targets: list[Target], sources: dict[str, dict[str, str]]
) -> list[str]:
    """Package.swift's `daemonModules` (built without Swift's string processing) are every
    module `headroomd` links, and none of their files imports Foundation, FoundationEssentials or
    Dispatch."""
    found = DAEMON_MODULES_LIST.search(package_source)
    if not found:
        return ["Package.swift: no `let daemonModules = [...]` listing the modules headroomd links"]
    listed = set(re.findall(r'"([^"]+)"', found.group(1)))
    by_name = {t.name: t for t in targets}
    swift = {t.name for t in targets if sources.get(t.name)}
    linked = (closure("headroomd", by_name) & swift)
    problems = [
        f"Package.swift: daemonModules lacks {name}, which headroomd links" for name in sorted(linked - listed)
    ] + [f"Package.swift: daemonModules lists {name}, which headroomd does not link" for name in sorted(listed - linked)]
    for name in sorted(linked | {"headroomd"}):
        for path, text in sources.get(name, {}).items():
            for match in DAEMON_FORBIDDEN_IMPORT.finditer(text):
                problems.append(f"{name}: {path} imports {match.group(1)}, which headroomd would then map")
    return problems


def all_sources(targets: list[Target]) -> dict[str, dict[str, str]]:
    return {t.name: target_sources(t.name, t.is_test) for t in targets if t.kind != "systemLibrary"}


def run_check() -> int:
    try:
        package_source = PACKAGE.read_text(encoding="utf-8")
        doc = DOC.read_text(encoding="utf-8")
    except OSError as error:
        print(f"architecture_check: {error}")
        return 1
    problems, count = check(package_source, doc)
    try:
        targets = package_targets(package_source)
    except ParseError:
        targets = []
    sources = all_sources(targets)
    problems += (
        check_imports(targets, sources) + check_daemon(targets) + check_foundation(targets, sources)
        + check_daemon_imports(package_source, targets, sources)
    )
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(
        f"architecture.md: {count} modules match Package.swift; every target's imports match its"
        f" dependencies; the daemon's modules ({', '.join(DAEMON_MODULES)}) reach none of"
        f" {', '.join(DAEMON_EXCLUDES)}; no product module imports Foundation proper, and none"
        f" headroomd links imports FoundationEssentials or Dispatch"
    )
    return 0


# ---------------------------------------------------------------------------------------------
# Self-test


def self_test() -> int:
    """Mutates in-memory copies of the doc and asserts the check reports each mutation.

    It compares against the problems the real files have now, so it tests the check itself
    even while the doc and Package.swift disagree."""
    package_source = PACKAGE.read_text(encoding="utf-8")
    doc = DOC.read_text(encoding="utf-8")
    failures: list[str] = []

    def expect(condition: bool, what: str) -> None:
        if not condition:
            failures.append(what)

    baseline, _ = check(package_source, doc)

    # A product file importing Foundation proper is reported; the bench's and tests' are not.
    targets = package_targets(package_source)
    sources = all_sources(targets)
    units = dict(sources["Units"])
    first = next(iter(units))
    units[first] = "import Foundation\n" + units[first]
    problems = check_foundation(targets, {**sources, "Units": units})
    expect(any(p.startswith("Units:") and "Foundation" in p for p in problems),
           f"Units importing Foundation was not reported: {problems}")
    expect(not check_foundation(targets, sources), "the bench's or the tests' Foundation was reported")

    # A daemon module importing FoundationEssentials is reported, as is one missing from the list.
    files = dict(sources["Files"])
    first = next(iter(files))
    files[first] = "import FoundationEssentials\n" + files[first]
    problems = check_daemon_imports(package_source, targets, {**sources, "Files": files})
    expect(any(p.startswith("Files:") and "FoundationEssentials" in p for p in problems),
           f"Files importing FoundationEssentials was not reported: {problems}")
    shortened = package_source.replace('"Units", "Files", "Locking", "LaunchTiming",', '"Units", "Locking", "LaunchTiming",', 1)
    expect(shortened != package_source, "the self-test did not find daemonModules to shorten")
    problems = check_daemon_imports(shortened, targets, sources)
    expect(any("lacks Files" in p for p in problems), f"Files missing from daemonModules was not reported: {problems}")
    expect(not check_daemon_imports(package_source, targets, sources), "the daemon's clean imports were reported")

    def new_problems(mutated: str) -> list[str]:
        problems, _ = check(package_source, mutated)
        return [p for p in problems if p not in baseline]

    # Drop one import from one row: the check must name that module and that import.
    rows = modules_table(doc)
    row = next(r for r in rows if len(r.imports) >= 2)
    module, dropped = row.modules[0], row.imports[0]
    lines = doc.splitlines()
    original = lines[row.line - 1]
    mutated_line = original.replace(f"`{dropped}`, ", "", 1)
    expect(mutated_line != original, f"could not drop `{dropped}` from line {row.line}")
    lines[row.line - 1] = mutated_line
    problems = new_problems("\n".join(lines))
    expect(
        any(p.startswith(f"{module}:") and "missing" in p and dropped in p for p in problems),
        f"dropping `{dropped}` from {module}'s row was not reported: {problems}",
    )

    # A row removed: reported as missing from the table.
    lines = doc.splitlines()
    del lines[row.line - 1]
    problems = new_problems("\n".join(lines))
    expect(
        any(p.startswith(f"{module}:") and "no row" in p for p in problems),
        f"removing {module}'s row was not reported: {problems}",
    )

    # A row for a module Package.swift lacks.
    lines = doc.splitlines()
    lines.insert(row.line, "| `Phantom` | nothing | — |")
    problems = new_problems("\n".join(lines))
    expect(
        any(p.startswith("Phantom:") and "no such target" in p for p in problems),
        f"a row for an undeclared module was not reported: {problems}",
    )

    # Imports out of alphabetical order: reported when the set itself matches.
    if not any(p.startswith(f"{module}:") for p in baseline):
        lines = doc.splitlines()
        swapped = f"`{row.imports[1]}`, `{row.imports[0]}`"
        lines[row.line - 1] = original.replace(f"`{row.imports[0]}`, `{row.imports[1]}`", swapped, 1)
        problems = new_problems("\n".join(lines))
        expect(
            any(p.startswith(f"{module}:") and "alphabetical" in p for p in problems),
            f"imports out of order were not reported: {problems}",
        )

    # A stray import: a daemon module's file importing the tracker is reported by file, and the
    # same dependency declared is reported as reaching the tracker.
    targets = package_targets(package_source)
    sources = all_sources(targets)
    baseline_imports = check_imports(targets, sources) + check_daemon(targets)
    governor_file = next(iter(sources["Governor"]))
    stray = {**sources, "Governor": {**sources["Governor"], governor_file: "import Tracking\n"}}
    problems = [p for p in check_imports(targets, stray) if p not in baseline_imports]
    expect(
        any(p.startswith("Governor:") and "imports Tracking" in p and governor_file in p for p in problems),
        f"a stray `import Tracking` in {governor_file} was not reported: {problems}",
    )
    declared = [
        Target(t.name, t.kind, t.dependencies + ["Tracking"], t.line) if t.name == "Governor" else t for t in targets
    ]
    problems = [p for p in check_daemon(declared) if p not in baseline_imports]
    expect(
        any(p.startswith("HostService:") and "Tracking" in p for p in problems),
        f"Governor depending on Tracking was not reported for HostService: {problems}",
    )
    unused = [Target(t.name, t.kind, t.dependencies + ["Storage"], t.line) if t.name == "Governor" else t for t in targets]
    problems = [p for p in check_imports(unused, sources) if p not in baseline_imports]
    expect(
        any(p.startswith("Governor:") and "declares Storage" in p for p in problems),
        f"a declared dependency no file imports was not reported: {problems}",
    )

    # The evaluator on the forms Package.swift may use.
    sample = """
        let libraries = ["A", "B", "Files", "Locking"]  // a comment "with quotes"
        let umbrella = libraries.filter { !["Files", "Locking"].contains($0) }
        let chosen = libraries.filter { ["A"].contains($0) }
        let package = Package(name: "X", targets: [
            .systemLibrary(name: "CLib", path: "Sources/CLib", providers: [.apt(["x-dev"])]),
            module("A"),
            module("B", ["A", .target(name: "CLib")]),
            .target(name: "C", path: "Sources/C", linkerSettings: [.linkedLibrary("m")]),
            module("U", umbrella.map { .target(name: $0) }),
            module("V", chosen.map { .byName(name: $0) } + ["B"]),
            .executableTarget(name: "tool", dependencies: ["U"], swiftSettings: []),
            .target(name: "Support", dependencies: ["A"], path: "Tests/Support"),
            tests("ATests", ["A", "Support"]),
            .testTarget(name: "BTests", dependencies: ["B"]),
        ])
    """
    found = {t.name: (t.kind, t.dependencies) for t in package_targets(sample)}
    expect(found.get("CLib") == ("systemLibrary", []), f"systemLibrary: {found.get('CLib')}")
    expect(found.get("B") == ("module", ["A", "CLib"]), f"module deps: {found.get('B')}")
    expect(found.get("C") == ("target", []), f"target without dependencies: {found.get('C')}")
    expect(found.get("U") == ("module", ["A", "B"]), f"filter and map: {found.get('U')}")
    expect(found.get("V") == ("module", ["A", "B"]), f"filter, map and +: {found.get('V')}")
    expect(found.get("tool") == ("executableTarget", ["U"]), f"executable: {found.get('tool')}")
    expect(found.get("Support") == ("target", ["A"]), f"target with dependencies: {found.get('Support')}")
    expect(found.get("ATests", ("",))[0] == "tests", f"tests(): {found.get('ATests')}")
    expect(found.get("BTests", ("",))[0] == "testTarget", f".testTarget: {found.get('BTests')}")

    for failure in failures:
        print(f"self-test: FAILED: {failure}")
    if failures:
        return 1
    print(f"self-test: passed (the check reports a dropped import: {module} without `{dropped}`)")
    return 0


def main(argv: list[str]) -> int:
    if argv == ["--self-test"]:
        return self_test()
    if argv:
        print("usage: python3 scripts/architecture_check.py [--self-test]")
        return 2
    return run_check()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
