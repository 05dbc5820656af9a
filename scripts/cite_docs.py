#!/usr/bin/env python3
"""Rewrites source-comment citations of the old, out-of-repository reference notes into
citations of the in-repository documents under docs/reference/.

Old forms (each followed by one or more section numbers):
    reference §1.2                        bare; the document is resolved by the rules below
    reference firestore-interfaces §2.1   named (also "firestore-interfaces.md §2.1",
    grpc-and-listen.md §2.6               "security-rules reference §8", "Reference §1.4")
New form:
    docs/reference/firestore-wire.md §1.2
    docs/reference/grpc-and-listen.md §8
    docs/reference/security-rules.md §7

Only the name in front of the first section number of a run is rewritten; numbers that
follow it ("§6.5, §7", "§1.3–§1.4", "§4.2,\\n/// §4.9") stay as they are and keep
belonging to the same document. A "§" with no name in front of it belongs to the nearest
citation before it in the same file (an RFC, DESIGN, … or reference citation); one that
is too far from any citation is resolved by the per-file table ORPHAN_DOC or reported.

Usage:
    scripts/cite_docs.py [PATH…]            dry run: print what would change, change nothing
    scripts/cite_docs.py --write [PATH…]    rewrite the files
    scripts/cite_docs.py --check [PATH…]    exit 1 if an out-of-repository citation remains, a
                                    citation cannot be resolved, or a cited section has
                                    no heading in its docs/reference document
PATHs are files or directories relative to the repository root; the default is every
directory in SCAN_DIRS. Run from anywhere. Idempotent: a second --write changes nothing.
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCAN_DIRS = ["Sources", "Tests", "Benchmarks", "scripts", "rules", "firebase"]
SELF = os.path.join("scripts", "cite_docs.py")
SWIFT_LINE_LIMIT = 140  # .swift-format lineLength

# Old note name -> in-repository document (same section numbers).
DOCS = {
    "firestore-interfaces": "firestore-wire.md",
    "grpc-and-listen": "grpc-and-listen.md",
    "security-rules": "security-rules.md",
}
NEW_NAME = {v[:-3]: k for k, v in DOCS.items()}  # "firestore-wire" -> "firestore-interfaces"

# Bare "reference §N": the document by path prefix (longest prefix wins), else DEFAULT_DOC.
# Checked against the cited sections' content: HTTP/2, HPACK, gRPC framing, protobuf and the
# firestore.v1 field tables are grpc-and-listen; the rules language is security-rules;
# REST, emulator endpoints, callables, Auth, geofire and FCM are firestore-interfaces.
DEFAULT_DOC = "firestore-interfaces"
DIR_DOC = {
    "Sources/SecurityRules/": "security-rules",
    "Tests/SecurityRulesTests/": "security-rules",
    "Tests/Conformance/rules/": "security-rules",
    "Sources/ProtoWire/": "grpc-and-listen",
    "Tests/ProtoWireTests/": "grpc-and-listen",
    "Sources/HTTPServer/": "grpc-and-listen",
    "Tests/HTTPServerTests/": "grpc-and-listen",
    "Sources/FirestoreAPI/GRPC/": "grpc-and-listen",
    "Benchmarks/listen/": "grpc-and-listen",
    "rules/": "security-rules",
    "firebase/": "security-rules",
}

# Exceptions to DIR_DOC for bare citations: path -> {section: doc} ("*" = whole file).
# A section key matches the cited number and every number below it ("2" matches "2.7").
FILE_DOC = {
    # Generator of Tests/Conformance/rules: its §13 is the Shouts & Whispers rules
    # (security-rules); its §2.7 is the rules-unit-testing mock token (firestore-interfaces).
    "scripts/record_rules_conformance.py": {"13": "security-rules", "*": "firestore-interfaces"},
    # Generator of Tests/ProtoWireTests/Fixtures: its §1.4 is the annotated Commit and
    # ListenResponse bytes of grpc-and-listen, not the REST write semantics.
    "scripts/record_proto_fixtures.py": {"*": "grpc-and-listen"},
}

# A bare "§N" further than this many characters from the citation before it is an orphan.
ORPHAN_DISTANCE = 400
# Orphans resolved by hand: path -> document the lone "§N" refers to.
ORPHAN_DOC = {
    "Tests/Hostile/hostile_support.py": "firestore-interfaces",
    "Sources/SecurityRules/Eval/Operators.swift": "security-rules",
}

NUM = r"\d+(?:\.\d+)*[a-z]?"
NAMES = "|".join(map(re.escape, DOCS))
NEW_NAMES = "|".join(re.escape(v[:-3]) for v in DOCS.values())
# The separator after a name may run onto the next comment line ("reference\n/// §3.4");
# it is kept as it is, only the name in front of it is replaced.
SEP = r"(?P<sep>[ \t]*\n[ \t]*(?://+|#+|\*+)?[ \t]*|[ \t]+)"
ANCHOR = re.compile(
    r"(?:(?P<inrepo>docs/reference/(?P<newdoc>" + NEW_NAMES + r")\.md)"
    r"|(?P<named>(?:[Rr]eference\s+)?(?P<doc>" + NAMES + r")(?:\.md)?(?:\s+reference)?)"
    r"|(?P<bare>[Rr]eference)"
    r"|(?P<foreign>RFC\s*\d+|DESIGN|ECMA-262|FIPS\s*180-4|[Ii]ssue\s+\d+|WHATWG\s+URL"
    r"|ARCHITECTURE|STYLE))" + SEP + r"(?=§)"
)
SECTION = re.compile(r"§§?\s?(?P<num>" + NUM + r")")
# Other documents that are cited but not in the repository; only counted, never rewritten.
OTHER_OUTSIDE = re.compile(r"\b(?:seed )?(DESIGN|ARCHITECTURE|STYLE)\b")
HEADING = re.compile(r"^#{2,4}\s+(?P<num>" + NUM + r")\.?\s", re.M)


def headings():
    out = {}
    for old, new in DOCS.items():
        path = os.path.join(ROOT, "docs", "reference", new)
        try:
            with open(path, encoding="utf-8") as f:
                out[old] = set(m.group("num") for m in HEADING.finditer(f.read()))
        except OSError:
            out[old] = set()
    return out


def bare_doc(rel, num):
    table = FILE_DOC.get(rel)
    if table:
        for key, doc in table.items():
            if key != "*" and (num == key or num.startswith(key + ".")):
                return doc
        if "*" in table:
            return table["*"]
    best = None
    for prefix, doc in DIR_DOC.items():
        if rel.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, doc)
    return best[1] if best else DEFAULT_DOC


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


class Result:
    def __init__(self):
        self.rewrites = []    # (rel, line, old, new)
        self.citations = []   # (rel, line, doc, num) for every in-repo section after rewriting
        self.unresolved = []  # (rel, line, text, reason)
        self.long_lines = []  # (rel, line, length)
        self.files_changed = []
        self.other_outside = {}  # name -> number of mentions


def process(rel, text, res):
    """Returns the rewritten text; records rewrites, citations and problems in `res`."""
    # Every anchor is directly followed by its first "§"; it fixes the document of the run.
    anchors = []  # (match, doc or None for foreign sources)
    edits = []    # (start, end, replacement)
    for a in ANCHOR.finditer(text):
        first = SECTION.match(text, a.end())
        if first is None:
            continue
        num = first.group("num")
        if a.group("foreign"):
            anchors.append((a, None))
            continue
        if a.group("inrepo"):
            anchors.append((a, NEW_NAME[a.group("newdoc")]))
            continue
        doc = a.group("doc") if a.group("named") else bare_doc(rel, num)
        new = "docs/reference/" + DOCS[doc] + a.group("sep")
        edits.append((a.start(), a.end(), new))
        res.rewrites.append((rel, line_of(text, a.start()), a.group(0) + first.group(0), new + first.group(0)))
        anchors.append((a, doc))
    # Every "§" belongs to the last anchor that ends at or before it.
    ai = -1
    for sm in SECTION.finditer(text):
        while ai + 1 < len(anchors) and anchors[ai + 1][0].end() <= sm.start():
            ai += 1
        num = sm.group("num")
        line = line_of(text, sm.start())
        a, doc = anchors[ai] if ai >= 0 else (None, None)
        if a is not None and a.end() != sm.start() and sm.start() - a.end() > ORPHAN_DISTANCE:
            a = None
        if a is None:
            if rel in ORPHAN_DOC:
                doc = ORPHAN_DOC[rel]
                new = "docs/reference/" + DOCS[doc] + " "
                edits.append((sm.start(), sm.start(), new))
                res.rewrites.append((rel, line, sm.group(0), new + sm.group(0)))
                res.citations.append((rel, line, doc, num))
            else:
                context = text[max(0, sm.start() - 40):sm.end()].split("\n")[-1].strip()
                res.unresolved.append((rel, line, context, "no citation within %d characters before it" % ORPHAN_DISTANCE))
            continue
        if doc is not None:
            res.citations.append((rel, line, doc, num))
    if not edits:
        return text
    out, last = [], 0
    for start, end, new in sorted(edits):
        out.append(text[last:start])
        out.append(new)
        last = end
    out.append(text[last:])
    return "".join(out)


def files(roots):
    for d in roots:
        top = os.path.join(ROOT, d)
        if os.path.isfile(top):
            yield os.path.relpath(top, ROOT).replace(os.sep, "/"), top
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [n for n in dirnames if not n.startswith(".")]
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, ROOT).replace(os.sep, "/")
                if rel == SELF.replace(os.sep, "/"):
                    continue
                yield rel, path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite the files")
    mode.add_argument("--check", action="store_true", help="fail if anything is left to do")
    ap.add_argument("-q", "--quiet", action="store_true", help="summary only")
    ap.add_argument("paths", nargs="*", help="files or directories below the repository root "
                    "(default: %s)" % " ".join(SCAN_DIRS))
    args = ap.parse_args()

    heads = headings()
    res = Result()
    for rel, path in files(args.paths or SCAN_DIRS):
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        if "§" not in text and not OTHER_OUTSIDE.search(text):
            continue
        for m in OTHER_OUTSIDE.finditer(text):
            res.other_outside[m.group(1)] = res.other_outside.get(m.group(1), 0) + 1
        before = len(res.rewrites)
        new = process(rel, text, res)
        if new != text:
            res.files_changed.append(rel)
            if rel.endswith(".swift"):
                for i, (o, n) in enumerate(zip(text.split("\n"), new.split("\n")), 1):
                    if len(n) > SWIFT_LINE_LIMIT and len(n) > len(o):
                        res.long_lines.append((rel, i, len(n)))
            if args.write:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
        if not args.quiet and not args.check:
            for r in res.rewrites[before:]:
                print("%s:%d: %s  ->  %s" % (r[0], r[1], r[2].replace("\n", " "), r[3].replace("\n", " ")))

    missing = [(rel, line, doc, num) for rel, line, doc, num in res.citations if num not in heads[doc]]
    per_doc = {}
    for _, _, doc, _ in res.citations:
        per_doc[doc] = per_doc.get(doc, 0) + 1

    verb = "rewrote" if args.write else ("would rewrite" if not args.check else "to rewrite")
    print("cite_docs: %s %d citation(s) in %d file(s)" % (verb, len(res.rewrites), len(res.files_changed)))
    print("cite_docs: %d section reference(s) resolved: %s" % (
        len(res.citations), ", ".join("%s %d" % (DOCS[d], n) for d, n in sorted(per_doc.items()))))
    for rel, line, text, why in res.unresolved:
        print("cite_docs: UNRESOLVED %s:%d: %s (%s)" % (rel, line, text, why))
    for rel, line, doc, num in missing:
        print("cite_docs: NO HEADING %s:%d: docs/reference/%s has no §%s" % (rel, line, DOCS[doc], num))
    for rel, line, n in res.long_lines:
        print("cite_docs: note %s:%d: line is %d characters after rewriting (limit %d)" % (rel, line, n, SWIFT_LINE_LIMIT))
    if res.other_outside:
        print("cite_docs: note: not handled here, documents outside the repository still mentioned: %s" % (
            ", ".join("%s %d" % kv for kv in sorted(res.other_outside.items()))))
    print("cite_docs: %d unresolved, %d without a heading" % (len(res.unresolved), len(missing)))

    if args.check:
        return 1 if (res.rewrites or res.unresolved or missing) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
