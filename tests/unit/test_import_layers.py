"""The package's import graph: no cycles anywhere, and each layer imports only the layers below it.

The graph is read from the source with `ast`, every `import` statement counted wherever it stands (inside a
function or under `TYPE_CHECKING` too): a lazy import that dodges a cycle at run time is still a cycle for
the reader. Without a cycle, no module can depend on the order in which others were imported.
"""

from __future__ import annotations

import ast
import os

import albedo_skills_ls

PACKAGE = "albedo_skills_ls"
PACKAGE_DIR = os.path.dirname(albedo_skills_ls.__file__)

# The server's layers (see ARCHITECTURE.md): the core and the client features below, the features above,
# the assembly on top. A core module that imported a feature would bring the cycle back.
LSP_CORE = {
    f"{PACKAGE}.lsp.{name}"
    for name in (
        "server", "buffers", "documents", "convert", "delivery", "settings", "client", "pygls_internals", "host_findings",
        "workspaces", "findings", "security_findings", "command_findings", "watchers", "client_log", "uris",
        "request",
    )
}
LSP_ASSEMBLY = {f"{PACKAGE}.lsp.{name}" for name in ("app", "methods", "main", "transport", "redaction")}


def module_names() -> dict[str, str]:
    """Dotted module name -> file path, for every module of the package (packages by their __init__)."""
    found = {}
    for folder, _dirs, files in os.walk(PACKAGE_DIR):
        for file in files:
            if not file.endswith(".py"):
                continue
            relative = os.path.relpath(os.path.join(folder, file), os.path.dirname(PACKAGE_DIR))
            parts = relative[: -len(".py")].split(os.sep)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = os.path.join(folder, file)
    return found


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    if level == 0:
        return target or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def imports_of(module: str, path: str, modules: set[str]) -> set[str]:
    """The package's modules that `module` imports, by any statement anywhere in its file."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    is_package = os.path.basename(path) == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module)
            # `from . import chat` names a module; `from .server import X` names a value of one
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target in modules and target != module)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    names = set(modules)
    return {module: imports_of(module, path, names) for module, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path that ends where it starts, or None."""
    state: dict[str, str] = {}  # "open" while on the current path, "done" after

    def visit(module: str, path: list[str]) -> list[str] | None:
        state[module] = "open"
        for target in sorted(graph[module]):
            if state.get(target) == "open":  # back to a module on the current path: a cycle
                stack = path + [module]
                return stack[stack.index(target):] + [target]
            if target not in state:
                cycle = visit(target, path + [module])
                if cycle:
                    return cycle
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module, [])
            if cycle:
                return cycle
    return None


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_the_graph_reader_sees_lazy_and_relative_imports(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "a.py").write_text("def f():\n    from . import b\n")
    (package / "sub" / "b.py").write_text("from ..sub.a import f\nfrom pkg.c import x\n")
    (package / "c.py").write_text("x = 1\n")
    modules = {"pkg", "pkg.sub", "pkg.sub.a", "pkg.sub.b", "pkg.c"}
    graph = {
        "pkg.sub.a": imports_of("pkg.sub.a", str(package / "sub" / "a.py"), modules),
        "pkg.sub.b": imports_of("pkg.sub.b", str(package / "sub" / "b.py"), modules),
        "pkg.c": set(),
    }
    assert graph["pkg.sub.a"] == {"pkg.sub.b"}
    assert graph["pkg.sub.b"] == {"pkg.sub.a", "pkg.c"}
    assert find_cycle(graph) == ["pkg.sub.a", "pkg.sub.b", "pkg.sub.a"]
    graph["pkg.sub.a"] = set()
    assert find_cycle(graph) is None


def test_the_package_has_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_server_core_imports_no_feature_module():
    graph = import_graph()
    features = {
        module
        for module in graph
        if module.startswith(f"{PACKAGE}.lsp.") and module not in LSP_CORE | LSP_ASSEMBLY
    }
    assert features, "no feature modules found: the layer lists above are out of date"
    assert LSP_CORE <= set(graph), f"core modules missing: {sorted(LSP_CORE - set(graph))}"
    for module in sorted(LSP_CORE):
        wrong = reachable(graph, module) & (features | LSP_ASSEMBLY)
        assert not wrong, f"{module} (server core) imports feature or assembly modules {sorted(wrong)}"
    for module in sorted(features):
        wrong = reachable(graph, module) & LSP_ASSEMBLY
        assert not wrong, f"{module} (a feature) imports the assembly {sorted(wrong)}"


def test_the_engine_imports_neither_the_server_nor_the_command_line():
    graph = import_graph()
    for module in sorted(m for m in graph if m.startswith(f"{PACKAGE}.skills")):
        wrong = {m for m in reachable(graph, module) if m.startswith((f"{PACKAGE}.lsp", f"{PACKAGE}.cli"))}
        assert not wrong, f"{module} (engine) imports {sorted(wrong)}"


# The two front ends stand side by side on the engine: what both need lives in the engine. The command line
# must start without pygls or lsprotocol installed, so nothing it reaches may import them.
SERVER_ONLY_LIBRARIES = ("pygls", "lsprotocol")


def libraries_of(path: str) -> set[str]:
    """The top-level names of the libraries outside the package that a file imports, anywhere in it."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found - {PACKAGE}


def test_the_server_does_not_import_the_command_line():
    graph = import_graph()
    servers = sorted(m for m in graph if m == f"{PACKAGE}.lsp" or m.startswith(f"{PACKAGE}.lsp."))
    assert servers, "no server modules found"
    for module in servers:
        wrong = {m for m in reachable(graph, module) if m == f"{PACKAGE}.cli" or m.startswith(f"{PACKAGE}.cli.")}
        assert not wrong, (
            f"{module} (server) imports the command line {sorted(wrong)}: move what both need to the engine"
        )


def test_the_command_line_imports_neither_the_server_nor_its_libraries():
    modules = module_names()
    graph = import_graph()
    clis = sorted(m for m in graph if m == f"{PACKAGE}.cli" or m.startswith(f"{PACKAGE}.cli."))
    assert clis, "no command-line modules found"
    for module in clis:
        reached = reachable(graph, module) | {module}
        wrong = {m for m in reached if m == f"{PACKAGE}.lsp" or m.startswith(f"{PACKAGE}.lsp.")}
        assert not wrong, f"{module} (command line) imports the server {sorted(wrong)}"
        libraries = {m: libraries_of(modules[m]) & set(SERVER_ONLY_LIBRARIES) for m in sorted(reached)}
        libraries = {m: found for m, found in libraries.items() if found}
        assert not libraries, f"{module} (command line) reaches the server's libraries: {libraries}"


def test_the_library_reader_sees_lazy_imports_of_the_server_libraries(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "import os.path\ndef f():\n    from lsprotocol import types\n    import pygls.server\nfrom . import x\n"
    )
    assert libraries_of(str(module)) == {"os", "lsprotocol", "pygls"}


# The server's state lives in plain objects the pygls server only holds (docs/design.md#10-the-server):
# they and everything they import stay free of pygls, so they are read and tested without a client.
PLAIN_STATE = {f"{PACKAGE}.lsp.{name}" for name in ("workspaces", "findings", "delivery")}


def test_the_servers_state_objects_do_not_import_pygls():
    modules = module_names()
    graph = import_graph()
    for module in sorted(PLAIN_STATE):
        reached = reachable(graph, module) | {module}
        wrong = sorted(m for m in reached if "pygls" in libraries_of(modules[m]))
        assert not wrong, f"{module} (server state) reaches pygls through {wrong}"


# The engine's stages, in the order data moves through them (ARCHITECTURE.md, skills/__init__.py): a stage
# imports only the stages before it (and itself), so what a verb pulls in can be read off the folders.
ENGINE = f"{PACKAGE}.skills"
ENGINE_STAGES = (
    "core", "document", "resources", "catalog", "activation", "hosts", "security", "language", "authoring",
)


def stage_of(module: str) -> str | None:
    """The stage a module of the engine belongs to (`albedo_skills_ls.skills.catalog.discovery` -> `catalog`)."""
    if not module.startswith(ENGINE + "."):
        return None
    return module[len(ENGINE) + 1:].split(".")[0]


def imports_against_the_stages(graph: dict[str, set[str]]) -> list[str]:
    """Every engine import of a later stage, as `importer -> imported (stage -> later stage)`."""
    rank = {stage: index for index, stage in enumerate(ENGINE_STAGES)}
    wrong = []
    for module in sorted(graph):
        source = stage_of(module)
        if source is None:
            continue
        for target in sorted(graph[module]):
            reached = stage_of(target)
            if reached is not None and rank[reached] > rank[source]:
                wrong.append(f"{module} -> {target} ({source} -> {reached})")
    return wrong


def test_every_engine_module_lives_in_a_declared_stage():
    strays = sorted(
        module for module in module_names() if module.startswith(ENGINE + ".") and stage_of(module) not in ENGINE_STAGES
    )
    assert not strays, f"engine modules outside the stages {ENGINE_STAGES}: {strays} (move each into its stage)"


def test_each_engine_stage_imports_only_the_stages_before_it():
    assert imports_against_the_stages(import_graph()) == []


def test_the_stage_check_names_an_import_running_backwards():
    graph = {
        f"{ENGINE}.core.model": {f"{ENGINE}.catalog.discovery"},  # the vocabulary reaching up to the catalog
        f"{ENGINE}.catalog.discovery": {f"{ENGINE}.core.model", f"{ENGINE}.document.rules"},
        f"{ENGINE}.document.rules": {f"{ENGINE}.document.frontmatter"},
        f"{ENGINE}.document.frontmatter": set(),
        f"{PACKAGE}.cli.app": {f"{ENGINE}.authoring.fixes"},  # the front ends may use any stage
    }
    assert imports_against_the_stages(graph) == [
        f"{ENGINE}.core.model -> {ENGINE}.catalog.discovery (core -> catalog)"
    ]
    graph[f"{ENGINE}.core.model"] = set()
    assert imports_against_the_stages(graph) == []


def test_nothing_imports_the_generator():
    """`generate/` writes the source tree's derived files: the server, the command line and the engine never
    need it, and an installed package runs without its outputs."""
    graph = import_graph()
    generator = f"{PACKAGE}.generate"
    assert generator in graph, "the generator package is missing: this test is out of date"
    for module in sorted(graph):
        if module == generator or module.startswith(generator + "."):
            continue
        wrong = {m for m in graph[module] if m == generator or m.startswith(generator + ".")}
        assert not wrong, f"{module} imports the generator {sorted(wrong)}"
