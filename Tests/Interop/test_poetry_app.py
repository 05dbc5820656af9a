"""The second app, the poetry network (docs/app/poetry.md), end to end on its own Hearth
(`hearth start --config firebase-poetry/firebase.json`): signed-in users write intentions over
REST under the app's rules with Auth emulator tokens, the in-process triggers derive the rest,
and the real Python client's listeners and cursors see it.
"""

import shutil
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from google.auth.credentials import AnonymousCredentials
from google.cloud import firestore

from conftest import REPO, AppServer, start_app

PROJECT = "demo-poetry"
DOCS = f"projects/{PROJECT}/databases/(default)/documents"


class Poets(AppServer):
    """The poetry app's Hearth, with its users' intentions as helpers."""

    def sign_up(self, email):
        status, body = self.call("auth", "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
                                 {"email": email, "password": "poet-secret", "returnSecureToken": True}, token=None)
        assert status == 200, body
        return body["localId"], body["idToken"]

    def create(self, token, path, fields, stamp):
        """A client's create under the rules: `stamp` set to the request time, as serverTimestamp() does."""
        write = {"update": {"name": f"{DOCS}/{path}", "fields": fields},
                 "updateTransforms": [{"fieldPath": stamp, "setToServerValue": "REQUEST_TIME"}],
                 "currentDocument": {"exists": False}}
        return self.call("firestore", "POST", f"/v1/{DOCS}:commit", {"writes": [write]}, token=token)

    def settle(self, timeout=10.0):
        """Waits until the hub reports no trigger backlog three times in a row."""
        deadline, quiet = time.monotonic() + timeout, 0
        while time.monotonic() < deadline and quiet < 3:
            status, stats = self.call("hub", "GET", "/functions/triggers", token=None)
            quiet = quiet + 1 if status == 200 and stats["backlog"] == 0 else 0
            time.sleep(0.02)
        assert quiet >= 3, "trigger backlog did not drain"


@pytest.fixture(scope="module")
def poetry(tmp_path_factory):
    work = tmp_path_factory.mktemp("poetry")
    shutil.copytree(REPO / "firebase-poetry", work / "app", ignore=shutil.ignore_patterns(".hearth"))
    server = start_app(work / "app" / "firebase.json", PROJECT, work, server=Poets)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def client(poetry, monkeypatch):
    monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", f"127.0.0.1:{poetry.ports['firestore']}")
    c = firestore.Client(project=PROJECT, credentials=AnonymousCredentials())
    yield c
    c.close()


def poem_fields(author, title, text="quiet lines about the sea"):
    return {"authorId": {"stringValue": author}, "title": {"stringValue": title}, "text": {"stringValue": text}}


def test_a_published_poem_reaches_the_global_feed_listener(poetry, client):
    uid, token = poetry.sign_up("ada@poets.io")
    seen, arrived = [], threading.Event()

    def on_snapshot(snapshot, changes, read_time):
        titles = [d.get("title") for d in snapshot]
        seen.append(titles)
        if "Harbour" in titles:
            arrived.set()

    feed = client.collection("poems").order_by("publishedAt", direction=firestore.Query.DESCENDING).limit(10)
    watch = feed.on_snapshot(on_snapshot)
    try:
        status, body = poetry.create(token, "pendingPoems/harbour", poem_fields(uid, "Harbour"), "createdAt")
        assert status == 200, body
        assert arrived.wait(10), seen
    finally:
        watch.unsubscribe()
    poetry.settle()
    poem = client.document("poems/harbour").get().to_dict()
    assert poem["authorId"] == uid and poem["likeCount"] == 0
    assert client.document(f"users/{uid}").get().to_dict()["poemCount"] == 1


def test_the_rules_close_derived_collections_to_clients(poetry):
    uid, token = poetry.sign_up("eve@poets.io")
    status, _ = poetry.call("firestore", "PATCH", f"/v1/{DOCS}/poems/forged", {"fields": poem_fields(uid, "Forged")},
                            token=token)
    assert status == 403
    status, _ = poetry.call("firestore", "PATCH", f"/v1/{DOCS}/leaderboards/2026-12/entries/{uid}",
                            {"fields": {"score": {"integerValue": "9999"}}}, token=token)
    assert status == 403
    # Someone else's poem in pendingPoems is refused too.
    status, _ = poetry.create(token, "pendingPoems/not-mine", poem_fields("someone-else", "Not mine"), "createdAt")
    assert status == 403


def test_concurrent_likes_stay_exact(poetry, client):
    uid, token = poetry.sign_up("basho@poets.io")
    assert poetry.create(token, "pendingPoems/frog", poem_fields(uid, "Old pond"), "createdAt")[0] == 200
    poetry.settle()
    likers = [poetry.sign_up(f"fan{n}@poets.io") for n in range(24)]
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda lt: poetry.create(lt[1], f"poems/frog/likes/{lt[0]}", {}, "likedAt"), likers))
    assert all(status == 200 for status, _ in results), results
    poetry.settle()
    assert client.document("poems/frog").get().to_dict()["likeCount"] == 24
    fan, fan_token = likers[0]
    assert client.document(f"users/{fan}/liked/frog").get().exists
    status, _ = poetry.call("firestore", "DELETE", f"/v1/{DOCS}/poems/frog/likes/{fan}", token=fan_token)
    assert status == 200
    poetry.settle()
    assert client.document("poems/frog").get().to_dict()["likeCount"] == 23


def test_feeds_page_with_cursors(poetry, client):
    author, token = poetry.sign_up("rumi@poets.io")
    reader, reader_token = poetry.sign_up("reader@poets.io")
    assert poetry.create(reader_token, f"users/{reader}/following/{author}", {}, "since")[0] == 200
    poetry.settle()
    for n in range(7):
        assert poetry.create(token, f"pendingPoems/rumi{n}", poem_fields(author, f"Rumi {n}"), "createdAt")[0] == 200
        poetry.settle()
    # The profile feed, three at a time, newest first.
    query = client.collection("poems").where(filter=firestore.FieldFilter("authorId", "==", author)) \
        .order_by("publishedAt", direction=firestore.Query.DESCENDING)
    titles, last = [], None
    while True:
        page = (query.start_after(last) if last else query).limit(3).get()
        if not page:
            break
        titles += [d.get("title") for d in page]
        last = page[-1]
    assert titles == [f"Rumi {n}" for n in reversed(range(7))]
    # The follower's own feed was filled by the fan-out.
    feed = client.collection(f"users/{reader}/feed").order_by("publishedAt", direction=firestore.Query.DESCENDING)
    assert [d.get("title") for d in feed.limit(3).get()] == ["Rumi 6", "Rumi 5", "Rumi 4"]
    assert client.document(f"users/{author}").get().to_dict()["followerCount"] == 1
    # The liked list, paged two at a time, newest like first; and the global feed as a listener
    # on its first page, which a newly approved poem enters at the top.
    for n in (1, 3, 5):
        assert poetry.create(reader_token, f"poems/rumi{n}/likes/{reader}", {}, "likedAt")[0] == 200
        poetry.settle()
    liked = client.collection(f"users/{reader}/liked").order_by("likedAt", direction=firestore.Query.DESCENDING)
    pages, last = [], None
    while True:
        page = (liked.start_after(last) if last else liked).limit(2).get()
        if not page:
            break
        pages.append([d.id for d in page])
        last = page[-1]
    assert pages == [["rumi5", "rumi3"], ["rumi1"]]
    top, entered = [], threading.Event()

    def on_page(snapshot, changes, read_time):
        # The Python client's listener lists its documents in ascending order whatever the
        # query's direction (the same against the official emulator): compare as a set.
        top.append({d.get("title") for d in snapshot})
        if "Rumi 7" in top[-1]:
            entered.set()

    watch = client.collection("poems").order_by("publishedAt", direction=firestore.Query.DESCENDING).limit(3) \
        .on_snapshot(on_page)
    try:
        assert poetry.create(token, "pendingPoems/rumi7", poem_fields(author, "Rumi 7"), "createdAt")[0] == 200
        assert entered.wait(10), top
        assert top[-1] == {"Rumi 7", "Rumi 6", "Rumi 5"}
    finally:
        watch.unsubscribe()


def test_kill_9_while_events_are_pending_loses_none(tmp_path):
    """Likes acknowledged just before `kill -9` are all counted once the next process delivered
    what the first left in its outbox (and none twice)."""
    shutil.copytree(REPO / "firebase-poetry", tmp_path / "app", ignore=shutil.ignore_patterns(".hearth"))
    config, data = tmp_path / "app" / "firebase.json", str(tmp_path / "poetry.sqlite")
    server = start_app(config, PROJECT, tmp_path, "--data", data, server=Poets)
    try:
        uid, token = server.sign_up("dante@poets.io")
        assert server.create(token, "pendingPoems/inferno", poem_fields(uid, "Inferno"), "createdAt")[0] == 200
        server.settle()
        likers = [server.sign_up(f"reader{n}@poets.io") for n in range(30)]
        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(lambda lt: server.create(lt[1], f"poems/inferno/likes/{lt[0]}", {}, "likedAt"), likers))
        assert all(status == 200 for status, _ in results), results
    finally:
        server.process.send_signal(signal.SIGKILL)  # at once: events may still be pending
        server.process.wait()
    server = start_app(config, PROJECT, tmp_path, "--data", data, server=Poets)
    try:
        server.settle()
        status, poem = server.call("firestore", "GET", f"/v1/{DOCS}/poems/inferno")
        assert status == 200, poem
        assert poem["fields"]["likeCount"]["integerValue"] == "30"
        status, stats = server.call("hub", "GET", "/functions/triggers", token=None)
        assert stats["backlog"] == 0
    finally:
        server.stop()
