"""Prints a recorded transcript readably: one block per HTTP exchange, URL-decoded.

usage: show_transcript.py FILE.json [--channel Listen|Write|rest] [--width N]

Form bodies and queries are URL-decoded, response chunks listed with their times; payloads
longer than --width characters (default 160) are cut with an ellipsis.
"""
import argparse
import json
import sys
import urllib.parse


def cut(text, width):
    text = text.replace("\r\n", "\\r\\n").replace("\n", "\\n")
    return text if len(text) <= width else text[:width] + "…"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--channel", choices=("Listen", "Write", "rest"))
    ap.add_argument("--width", type=int, default=160)
    args = ap.parse_args()
    with open(args.file) as f:
        t = json.load(f)
    for ex in t["exchanges"]:
        path = ex["path"]
        if args.channel == "rest" and "/channel?" in path:
            continue
        if args.channel in ("Listen", "Write") and "/%s/channel?" % args.channel not in path:
            continue
        print("#%d +%.3fs %s %s" % (ex["seq"], ex["start"], ex["method"],
                                     cut(urllib.parse.unquote(path), args.width * 2)))
        for k, v in ex["request_headers"].items():
            print("  > %s: %s" % (k, v))
        if ex["request_body"]:
            print("  > body: " + cut(urllib.parse.unquote_plus(ex["request_body"]), args.width * 2))
        print("  < %s%s" % (ex["status"], "" if ex["complete"] else "  (still open when the browser closed it)"))
        for k, v in ex["response_headers"].items():
            if k != "date":
                print("  < %s: %s" % (k, v))
        for c in ex["chunks"]:
            print("  < +%.3fs %s" % (c["t"], cut(c["data"], args.width)))
        print("  < end +%.3fs" % ex.get("end", 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
