"""Locates the Firebase JS SDK the web-client suites run against.

The SDK root is $HEARTH_JS_SDK if set, else ~/.cache/hearth/js-sdk; it holds node_modules/
as `npm ci --prefix <root>` installs it from Tests/WebClients/package.json (+ lock).

    from sdk_root import sdk_root, SKIP_MESSAGE
    root = sdk_root()          # a path, or None when the SDK is not installed
    if root is None: print(SKIP_MESSAGE); sys.exit(0)

Run directly it prints the root, or the skip message (exit 0 either way).
"""
import json
import os
import sys

VERSION = "10.11.1"
SKIP_MESSAGE = (
    "skip: Firebase JS SDK 10.11.1 not found at $HEARTH_JS_SDK or ~/.cache/hearth/js-sdk "
    "(install with: npm ci --prefix <dir> using Tests/WebClients/package.json)"
)


def sdk_root():
    """The SDK root directory when it holds firebase 10.11.1, else None."""
    root = os.environ.get("HEARTH_JS_SDK") or os.path.expanduser("~/.cache/hearth/js-sdk")
    try:
        with open(os.path.join(root, "node_modules", "firebase", "package.json")) as f:
            if json.load(f).get("version") != VERSION:
                return None
    except (OSError, ValueError):
        return None
    return root


if __name__ == "__main__":
    print(sdk_root() or SKIP_MESSAGE)
    sys.exit(0)
