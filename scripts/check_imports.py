#!/usr/bin/env python3
"""Checks the import rules of docs/ARCHITECTURE.md (rule 9) against Package.swift and the sources.

For every production target of Package.swift: each `import` of another Hearth target in its
sources must be a declared dependency, and no edge may break the house rules:
  * the adapters FirestoreAPI, Functions and AuthEmulator import none of one another;
  * no production target imports a test or benchmark helper (DeterministicRandom,
    StoreWorkloads, ShoutsWorkloads), and only the composition root imports HearthDemo;
  * the domain layers (FirestoreModel, FirestoreRPC, DocumentStore, SecurityRules,
    FirestoreEngine) import no wire or adapter target;
  * production targets import FoundationEssentials, never Foundation, FoundationNetworking or
    FoundationXML (the idle memory budget of issue 14).
Prints one line per violation and exits 1 when there is any; prints the graph with --graph.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ADAPTERS = {"FirestoreAPI", "Functions", "AuthEmulator"}
HELPERS = {"DeterministicRandom", "StoreWorkloads", "ShoutsWorkloads", "FuzzSupport"}
DOMAIN = {"FirestoreModel", "FirestoreRPC", "DocumentStore", "SecurityRules", "FirestoreEngine"}
WHOLE_FOUNDATION = {"Foundation", "FoundationNetworking", "FoundationXML", "FoundationInternationalization"}
WIRE = {"HTTPServer", "GoogleWire", "ProtoWire", "FirestoreAPI", "Functions", "AuthEmulator", "Hearth", "HearthDemo"}
BENCH_OR_TEST_PREFIXES = ("Benchmarks/", "Tests/", "Fuzz/")


def targets():
    """(name, kind, path, dependencies) for every target in Package.swift."""
    text = open(os.path.join(ROOT, "Package.swift")).read()
    out = []
    for m in re.finditer(r"\.(target|executableTarget|testTarget|systemLibrary)\((.*?)\)\s*,\s*(?=\n\s*(?:\.|//|\]))", text, re.S):
        kind, body = m.group(1), m.group(2)
        name = re.search(r'name:\s*"([^"]+)"', body).group(1)
        deps_m = re.search(r"dependencies:\s*\[(.*?)\]", body, re.S)
        deps = set(re.findall(r'"([^"]+)"', deps_m.group(1))) if deps_m else set()
        path_m = re.search(r'path:\s*"([^"]+)"', body)
        default = ("Tests/" if kind == "testTarget" else "Sources/") + name
        out.append((name, kind, path_m.group(1) if path_m else default, deps))
    return out


def imports(path):
    """Every module a target's Swift sources import."""
    found = set()
    for dirpath, _, files in os.walk(os.path.join(ROOT, path)):
        for f in files:
            if f.endswith(".swift"):
                for line in open(os.path.join(dirpath, f), encoding="utf-8"):
                    m = re.match(r"\s*(?:@testable\s+|@_exported\s+)?import\s+(?:struct\s+|enum\s+|class\s+)?(\w+)", line)
                    if m:
                        found.add(m.group(1))
    return found


def main():
    all_targets = targets()
    names = {t[0] for t in all_targets}
    problems = []
    graph = []
    for name, kind, path, deps in all_targets:
        if kind == "systemLibrary":
            continue
        imported = imports(path)
        used = imported & names
        graph.append(f"{name}: {', '.join(sorted(used)) or '—'}")
        production = kind != "testTarget" and not path.startswith(BENCH_OR_TEST_PREFIXES)
        if not production:
            continue  # Tests and benchmarks may lean on what their dependencies bring.
        for module in sorted(imported & WHOLE_FOUNDATION):
            problems.append(f"production target {name} imports {module} (import FoundationEssentials: rule 9)")
        for module in sorted(used - deps - {name}):
            problems.append(f"{name} imports {module}, which Package.swift does not list as its dependency")
        for module in sorted(used | deps):
            if name in ADAPTERS and module in ADAPTERS and module != name:
                problems.append(f"{name} imports the sibling adapter {module} (share through GoogleWire)")
            if module in HELPERS:
                problems.append(f"production target {name} depends on the test/benchmark helper {module}")
            if module == "HearthDemo" and name != "Hearth":
                problems.append(f"{name} depends on HearthDemo (only the composition root may)")
            if name in DOMAIN and module in WIRE:
                problems.append(f"domain target {name} depends on the wire/adapter target {module}")
    if "--graph" in sys.argv:
        print("\n".join(graph))
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"imports: {len(graph)} targets follow docs/ARCHITECTURE.md rule 9")


if __name__ == "__main__":
    main()
