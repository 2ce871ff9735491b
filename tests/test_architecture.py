"""The shape of the code: kg's stage packages import each other without cycles, only the shared modules sit
at the top of kg/, and importing any module changes nothing in spaCy's global state."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

KG = Path(__file__).resolve().parent.parent / "kg"

#: the stage packages, in pipeline order, and the front ends
PACKAGES = ("ingest", "extract", "resolve", "rdf", "build", "store", "sparql", "analysis", "report", "viz",
            "server", "cli")
#: the modules shared by every stage, the only ones at the top of kg/
SHARED = ("__init__", "__main__", "errors", "namespaces", "resources", "keys", "entity_types")


def module_name(path: Path) -> str:
    parts = path.relative_to(KG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_name(path: Path) -> str:
    """The package a module file belongs to (a package's ``__init__`` to the package itself)."""
    return module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]


def kg_imports(source: str, package: str) -> set[str]:
    """The kg modules ``source`` (of a module in ``package``) imports, at top level or inside functions;
    ``from kg import x`` counts as kg and kg.x."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return {name for name in found if name == "kg" or name.startswith("kg.")}


def imports_of(path: Path) -> set[str]:
    return kg_imports(path.read_text(encoding="utf-8"), package_name(path))


def package_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in PACKAGES else None


def package_edges() -> dict[tuple[str, str], list[str]]:
    """(importing package, imported package) -> the modules whose imports make that edge."""
    edges: dict[tuple[str, str], list[str]] = {}
    for path in sorted(KG.rglob("*.py")):
        source = package_of(module_name(path))
        for target in {package_of(m) for m in imports_of(path)}:
            if source and target and target != source:
                edges.setdefault((source, target), []).append(module_name(path))
    return edges


def cycles(edges: dict[tuple[str, str], list[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one package (Tarjan)."""
    graph: dict[str, set[str]] = {p: set() for p in PACKAGES}
    for a, b in edges:
        graph[a].add(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in PACKAGES:
        if v not in index:
            visit(v)
    return groups


def test_the_walker_sees_function_level_and_relative_imports() -> None:
    source = ("import os\nfrom kg.store.local import new_graph\n\ndef f():\n    from kg import sparql\n"
              "    from . import papers\n    from ..viz.render import render_html\n    import kg.errors as e\n")
    assert kg_imports(source, "kg.rdf") == {"kg.store.local", "kg.store.local.new_graph", "kg", "kg.sparql",
                                            "kg.rdf", "kg.rdf.papers", "kg.viz.render",
                                            "kg.viz.render.render_html", "kg.errors"}


def test_no_import_cycle_between_kg_packages() -> None:
    edges = package_edges()
    assert ("rdf", "store") in edges and ("cli", "build") in edges  # the walk sees real dependencies
    found = cycles(edges)
    why = {f"{a} -> {b}": mods for (a, b), mods in edges.items() if any({a, b} <= set(g) for g in found)}
    assert found == [], f"import cycles between packages: {found}; made by {why}"


def test_the_shared_modules_import_no_stage_package() -> None:
    for name in SHARED:
        path = KG / f"{name}.py"
        if name in ("__init__", "__main__"):
            continue
        assert {package_of(m) for m in imports_of(path)} <= {None}, f"kg/{name}.py imports a stage package"


def test_only_the_shared_modules_sit_at_the_top_of_kg() -> None:
    """Every other module lives in the package of its stage (no modules left at old paths)."""
    loose = sorted(p.stem for p in KG.glob("*.py"))
    assert loose == sorted(SHARED)
    packages = sorted(p.name for p in KG.iterdir() if (p / "__init__.py").is_file())
    assert packages == sorted(PACKAGES)


def test_importing_every_module_registers_no_spacy_extension_constructing_a_component_does() -> None:
    """No side effects at import: ``import kg``, each package and each module leave spaCy's ``Doc`` as it
    was; the extensions appear when a component is built, in one place."""
    modules = sorted(module_name(p) for p in KG.rglob("*.py") if p.name != "__main__.py")
    assert "kg.extract.components" in modules and "kg.server.app" in modules
    code = ("import importlib\n"
            f"for name in {modules!r}:\n"
            "    importlib.import_module(name)\n"
            "from spacy.tokens import Doc\n"
            "from kg.extract.extensions import EXTENSIONS\n"
            "registered = [n for n in EXTENSIONS if Doc.has_extension(n)]\n"
            "assert not registered, f'registered at import: {registered}'\n"
            "import kg.extract.abbreviations\n"
            "kg.extract.abbreviations.AbbreviationDetector()\n"
            "assert all(Doc.has_extension(n) for n in EXTENSIONS)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-800:]


#: kg modules outside kg/extract that the extraction imports but whose code decides nothing it stores
NOT_DECIDING = {
    "kg.errors": "exception classes",
    "kg.resources": "finds the ontology files, which the fingerprint hashes",
    "kg.namespaces": "its IRIs, which the fingerprint hashes as values",
    "kg.entity_types": "its type names, which the fingerprint hashes as values (colours decide nothing)",
}


def test_the_pipeline_fingerprint_hashes_the_extraction_code_and_only_it() -> None:
    """Cached extractions go stale when the code that made them changes, and only then."""
    from kg.build.cache import extraction_sources

    hashed = {p.relative_to(KG).as_posix() for p in extraction_sources()}
    extract = {p.relative_to(KG).as_posix() for p in (KG / "extract").rglob("*.py")}
    assert extract | {"extract/lexicon.json"} <= hashed  # the lexicons decide as much as the code
    outside = {m for p in (KG / "extract").rglob("*.py") for m in imports_of(p)
               if not m.startswith("kg.extract") and (KG.parent / (m.replace(".", "/") + ".py")).is_file()}
    for module in sorted(outside - set(NOT_DECIDING)):
        assert module.replace(".", "/").removeprefix("kg/") + ".py" in hashed, f"{module} decides extractions"
    assert hashed - extract == {"keys.py", "extract/lexicon.json"}, "the fingerprint hashes code that is not extraction"
