#!/usr/bin/env python3
"""Rewrites source-comment citations of out-of-repository documents (the old reference notes,
the app's design document, the architecture and style guides) into citations of the
in-repository documents under docs/.

Old forms (each followed by one or more section numbers):
    reference §1.2                        bare; the document is resolved by the rules below
    reference firestore-interfaces §2.1   named (also "firestore-interfaces.md §2.1",
    grpc-and-listen.md §2.6               "security-rules reference §8", "Reference §1.4")
New form:
    docs/reference/firestore-wire.md §1.2
    docs/reference/grpc-and-listen.md §8
    docs/reference/security-rules.md §7

The app's design document (Shouts & Whispers' DESIGN.md) is restated, with the same section
numbers, in docs/app/shouts-and-whispers.md:
    DESIGN §4 step 6, seed DESIGN §1 rules 1–5     ->  docs/app/shouts-and-whispers.md §4 step 6, …
A "rule N" / "step N" (also "rules 1, 2, 5", "steps 3 and 7", "steps 1–7") after a section
number must be an item of that section's top-level numbered list, and a quoted name after it
(DESIGN §4 "cleanupPresence") must occur in that section's text.

The architecture and style guides are mentioned by name rather than by section:
    ARCHITECTURE rule 3, ARCHITECTURE.md, ARCHITECTURE ("Functions host"), ARCHITECTURE "Concurrency"
                                          ->  docs/ARCHITECTURE.md rule 3, docs/ARCHITECTURE.md, …
    STYLE principle 16, STYLE "one door per syscall family"  ->  docs/STYLE.md principle 16, …
Once docs/ARCHITECTURE.md or docs/STYLE.md exists, a cited "rule N" / "principle N" must be a
numbered item in it and a quoted name must occur in it; while the file is absent nothing is
verified.

Only the name in front of the first section number of a run is rewritten; numbers that
follow it ("§6.5, §7", "§1.3–§1.4", "§4.2,\\n/// §4.9") stay as they are and keep
belonging to the same document. A "§" with no name in front of it belongs to the nearest
citation before it in the same file (an RFC, DESIGN, … or reference citation); one that
is too far from any citation is resolved by the per-file table ORPHAN_DOC or reported.

Usage:
    scripts/cite_docs.py [PATH…]            dry run: print what would change, change nothing
    scripts/cite_docs.py --write [PATH…]    rewrite the files
    scripts/cite_docs.py --check [PATH…]    exit 1 if an out-of-repository citation remains, a
                                    citation cannot be resolved, or a cited section (rule,
                                    step, item, quoted name) is missing from its document
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
    "indexes": "indexes.md",
}
NEW_NAME = {v[:-3]: k for k, v in DOCS.items()}  # "firestore-wire" -> "firestore-interfaces"
# The app's design document ("DESIGN §N", "seed DESIGN §N") -> its restatement.
DESIGN = "DESIGN"
APP_DOC = "docs/app/shouts-and-whispers.md"
# Guides mentioned by name ("ARCHITECTURE rule 3", "STYLE principle 7") -> in-repository file.
GUIDES = {"ARCHITECTURE": "docs/ARCHITECTURE.md", "STYLE": "docs/STYLE.md"}


def doc_path(doc):
    return APP_DOC if doc == DESIGN else "docs/reference/" + DOCS[doc]


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
    "Sources/FirestoreRPC/": "grpc-and-listen",  # the firestore.proto request/response model
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
    r"|(?P<appdoc>" + re.escape(APP_DOC) + r")"
    r"|(?P<named>(?:[Rr]eference\s+)?(?P<doc>" + NAMES + r")(?:\.md)?(?:\s+reference)?)"
    r"|(?P<bare>[Rr]eference)"
    r"|(?P<design>(?<![\w/.-])(?:seed[ \t]+)?DESIGN(?:\.md)?)"
    r"|(?P<foreign>RFC\s*\d+|ECMA-262|FIPS\s*180-4|[Ii]ssue\s+\d+|WHATWG\s+URL"
    r"|(?:docs/)?(?:ARCHITECTURE|STYLE)(?:\.md)?))" + SEP + r"(?=§)"
)
SECTION = re.compile(r"§§?\s?(?P<num>" + NUM + r")")
# A mention of a guide by name; "docs/ARCHITECTURE.md" (already rewritten) does not match.
MENTION = re.compile(r"(?<![\w/.-])(?:seed[ \t]+)?(?P<name>ARCHITECTURE|STYLE)(?:\.md)?\b")
# The same guide after rewriting: nothing to change, still verified.
MENTIONED = re.compile(r"(?<![\w/.-])docs/(?P<name>ARCHITECTURE|STYLE)\.md\b")
# Documents outside the repository still named after rewriting (DESIGN without a section).
OTHER_OUTSIDE = re.compile(r"(?<![\w/.-])(?:seed )?(DESIGN|ARCHITECTURE|STYLE)\b")
HEADING = re.compile(r"^#{2,4}\s+(?P<num>" + NUM + r")\.?\s", re.M)
# What may follow a cited section or a guide's name: a separator that may continue on the next
# comment line, then "rule 3", "rules 1, 2, 5", "steps 3 and 7", "steps 1–7", or "\"name\"".
QSEP = r"[ \t]*(?:\n[ \t]*(?://+|#+|\*+)?[ \t]*)?"
NUMLIST = r"\d+(?:[ \t]*(?:–|-|,|and|&)[ \t]*\d+)*"
ITEMS = re.compile(QSEP + r"(?P<word>rules?|steps?|principles?)\b" + QSEP + r"(?P<list>" + NUMLIST + r")\b")
QUOTED = re.compile(QSEP + r"\(?[ \t]*\"(?P<quote>[^\"\n]+)\"\)?")


def numbers(numlist):
    """ "1, 2, 5" -> [1, 2, 5]; "1–7" -> [1 … 7]; "3 and 7" -> [3, 7]."""
    out = []
    for part in re.split(r"\s*(?:,|and|&)\s*", numlist.strip()):
        m = re.fullmatch(r"(\d+)\s*[–-]\s*(\d+)", part)
        if m:
            out.extend(range(int(m.group(1)), int(m.group(2)) + 1))
        elif part.isdigit():
            out.append(int(part))
    return out


def qualifiers(text, pos):
    """The quoted name and the numbered items cited right after `pos`: (quote, word, [n…])."""
    quote = word = None
    items = []
    q = QUOTED.match(text, pos)
    if q:
        quote = q.group("quote")
        pos = q.end()
        if text.startswith(",", pos):
            pos += 1
    i = ITEMS.match(text, pos)
    if i:
        word = i.group("word")
        items = numbers(i.group("list"))
    return quote, word, items


def plain(text):
    """Text for quoted-name matching: markdown emphasis and code marks dropped, spaces folded."""
    return re.sub(r"\s+", " ", re.sub(r"[`*_]", "", text)).casefold()


def numbered_item(text, n):
    """Whether `text` has a numbered item n: "3. …", "- **3.** …", "### Rule 3 …", "Principle 3:"."""
    return re.search(r"^[ \t]*(?:#{1,6}[ \t]+)?(?:[-*+][ \t]+)?(?:\*\*)?(?:(?:rule|principle)[ \t]+)?"
                     + str(n) + r"(?:\.(?!\d)|\)|:|\*\*|[ \t]+[—–-])", text, re.M | re.I) is not None


def headings():
    """doc -> set of section numbers with a heading."""
    out = {}
    for doc in list(DOCS) + [DESIGN]:
        try:
            with open(os.path.join(ROOT, doc_path(doc)), encoding="utf-8") as f:
                out[doc] = set(m.group("num") for m in HEADING.finditer(f.read()))
        except OSError:
            out[doc] = set()
    return out


def app_sections():
    """Section number of docs/app/shouts-and-whispers.md -> (text of the section, numbers of its
    top-level numbered list). A section runs from its "## N." heading to the next "## "."""
    try:
        with open(os.path.join(ROOT, APP_DOC), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return {}
    out = {}
    starts = [m for m in re.finditer(r"^## ", text, re.M)]
    for i, m in enumerate(starts):
        body = text[m.start():starts[i + 1].start() if i + 1 < len(starts) else len(text)]
        h = HEADING.match(body)
        if h:
            items = set(int(n) for n in re.findall(r"^(\d+)\.[ \t]", body, re.M))
            out[h.group("num")] = (body, items)
    return out


def guides():
    """Guide name -> its text, or None while the file is not in the repository."""
    out = {}
    for name, path in GUIDES.items():
        try:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                out[name] = f.read()
        except OSError:
            out[name] = None
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
        self.citations = []   # (rel, line, doc, num, quote, word, items) for every in-repo section
        self.mentions = []    # (rel, line, guide, quote, word, items) for every guide mention
        self.unresolved = []  # (rel, line, text, reason)
        self.long_lines = []  # (rel, line, length)
        self.files_changed = []
        self.other_outside = []  # (rel, line, text): a document outside the repository still named


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
        if a.group("appdoc"):
            anchors.append((a, DESIGN))
            continue
        if a.group("design"):
            new = APP_DOC + a.group("sep")
            edits.append((a.start(), a.end(), new))
            res.rewrites.append((rel, line_of(text, a.start()), a.group(0) + first.group(0), new + first.group(0)))
            anchors.append((a, DESIGN))
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
                res.citations.append((rel, line, doc, num, None, None, []))
            else:
                context = text[max(0, sm.start() - 40):sm.end()].split("\n")[-1].strip()
                res.unresolved.append((rel, line, context, "no citation within %d characters before it" % ORPHAN_DISTANCE))
            continue
        if doc is not None:
            # Rules, steps and quoted names are verified in the app document only; the
            # reference documents' "item N" / "O14" forms name items that are not numbered lists.
            quote, word, items = qualifiers(text, sm.end()) if doc == DESIGN else (None, None, [])
            res.citations.append((rel, line, doc, num, quote, word, items))
    # Guides mentioned by name: the name becomes the in-repository path, the rest stays.
    for m in MENTION.finditer(text):
        new = GUIDES[m.group("name")]
        line = line_of(text, m.start())
        quote, word, items = qualifiers(text, m.end())
        edits.append((m.start(), m.end(), new))
        tail = text[m.end():m.end() + 30].split("\n")[0]
        res.rewrites.append((rel, line, m.group(0) + tail, new + tail))
        res.mentions.append((rel, line, m.group("name"), quote, word, items))
    for m in MENTIONED.finditer(text):
        quote, word, items = qualifiers(text, m.end())
        res.mentions.append((rel, line_of(text, m.start()), m.group("name"), quote, word, items))
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
        if "§" not in text and not OTHER_OUTSIDE.search(text) and not MENTIONED.search(text):
            continue
        before = len(res.rewrites)
        new = process(rel, text, res)
        for m in OTHER_OUTSIDE.finditer(new):
            res.other_outside.append((rel, line_of(new, m.start()), new[m.start():m.start() + 60].split("\n")[0]))
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

    missing = []  # (rel, line, document, what is missing)
    sections = app_sections()
    for rel, line, doc, num, quote, word, items in res.citations:
        if num not in heads[doc]:
            missing.append((rel, line, doc_path(doc), "no §%s" % num))
            continue
        if doc != DESIGN:
            continue
        body, listed = sections.get(num, ("", set()))
        for n in items:
            if n not in listed:
                missing.append((rel, line, doc_path(doc), "§%s has no %s %d in its numbered list" % (num, word.rstrip("s"), n)))
        if quote and plain(quote) not in plain(body):
            missing.append((rel, line, doc_path(doc), '§%s does not mention "%s"' % (num, quote)))
    guide_text = guides()
    unverified = {}
    for rel, line, name, quote, word, items in res.mentions:
        text = guide_text[name]
        if text is None:
            unverified[name] = unverified.get(name, 0) + 1
            continue
        for n in items:
            if not numbered_item(text, n):
                missing.append((rel, line, GUIDES[name], "no numbered %s %d" % (word.rstrip("s"), n)))
        if quote and plain(quote) not in plain(text):
            missing.append((rel, line, GUIDES[name], 'does not mention "%s"' % quote))
    per_doc = {}
    for c in res.citations:
        per_doc[doc_path(c[2])] = per_doc.get(doc_path(c[2]), 0) + 1
    per_guide = {}
    for m in res.mentions:
        per_guide[GUIDES[m[2]]] = per_guide.get(GUIDES[m[2]], 0) + 1

    verb = "rewrote" if args.write else ("would rewrite" if not args.check else "to rewrite")
    print("cite_docs: %s %d citation(s) in %d file(s)" % (verb, len(res.rewrites), len(res.files_changed)))
    print("cite_docs: %d section reference(s) resolved: %s" % (
        len(res.citations), ", ".join("%s %d" % (d, n) for d, n in sorted(per_doc.items()))))
    print("cite_docs: %d guide mention(s): %s" % (len(res.mentions), ", ".join(
        "%s %d%s" % (path, per_guide.get(path, 0), " (file absent, not verified)" if guide_text[name] is None else "")
        for name, path in sorted(GUIDES.items()))))
    for rel, line, text, why in res.unresolved:
        print("cite_docs: UNRESOLVED %s:%d: %s (%s)" % (rel, line, text, why))
    for rel, line, path, what in missing:
        print("cite_docs: NOT FOUND %s:%d: %s %s" % (rel, line, path, what))
    for rel, line, n in res.long_lines:
        print("cite_docs: note %s:%d: line is %d characters after rewriting (limit %d)" % (rel, line, n, SWIFT_LINE_LIMIT))
    for rel, line, text in res.other_outside:
        print("cite_docs: note %s:%d: names a document outside the repository without a section, "
              "reword by hand: %s" % (rel, line, text.strip()))
    print("cite_docs: %d unresolved, %d not found in their document" % (len(res.unresolved), len(missing)))

    if args.check:
        return 1 if (res.rewrites or res.unresolved or missing) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
