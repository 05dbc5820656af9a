"""Seed, reset, snapshots, background triggers and the emulators' clock, driven as a test suite
of the app would (issue 16 items 2-4), on a Hearth of its own serving the app's firebase/
directory with the real Python client.

- `POST /emulator/v1/projects/{p}:reset` puts back what `--import` loaded (documents and Auth
  accounts) and a listener sees it; named snapshots save and restore;
- `PUT /functions/{disable,enable}BackgroundTriggers` on the hub is answered as firebase-tools'
  hub answers it;
- `PUT /emulator/v1/clock` freezes, advances and sets the time that server timestamps, commit
  times and the app's functions see: `cleanupPresence` removes a presence 31 days old after
  the clock moves 31 days, without waiting; commit times never go backwards.
"""

import shutil
import threading
import time
from datetime import datetime, timedelta, timezone

import pytest
from google.auth.credentials import AnonymousCredentials
from google.cloud import firestore

from conftest import REPO, start_app

PROJECT = "demo-shouts"


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    """Hearth started with --import of a seed it exported itself: 20 rooms and one account."""
    work = tmp_path_factory.mktemp("seed")
    shutil.copytree(REPO / "firebase", work / "firebase", ignore=shutil.ignore_patterns(".hearth"))
    config = work / "firebase" / "firebase.json"
    first = start_app(config, PROJECT, work)
    try:
        docs = f"projects/{PROJECT}/databases/(default)/documents"
        writes = [{"update": {"name": f"{docs}/rooms/r{n:02d}", "fields": {"n": {"integerValue": str(n)}}}}
                  for n in range(20)]
        assert first.call("firestore", "POST", f"/v1/{docs}:commit", {"writes": writes})[0] == 200
        status, body = first.call("auth", "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
                                  {"email": "seed@x.io", "password": "seed-secret"}, token=None)
        assert status == 200, body
        assert first.call("hub", "POST", "/_admin/export", {"path": str(work / "seed")})[0] == 200
    finally:
        first.stop()
    server = start_app(config, PROJECT, work, "--import", str(work / "seed"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def client(seeded, monkeypatch):
    """The real client, pointed at this module's Hearth as an app's test suite points it."""
    monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", f"127.0.0.1:{seeded.ports['firestore']}")
    c = firestore.Client(project=PROJECT, credentials=AnonymousCredentials())
    yield c
    c.close()


@pytest.fixture(autouse=True)
def system_clock(seeded):
    yield
    seeded.call("firestore", "DELETE", "/emulator/v1/clock")


def rooms(client):
    return sorted(d.id for d in client.collection("rooms").stream())


def test_reset_puts_back_the_seed_and_a_listener_sees_it(seeded, client):
    assert len(rooms(client)) == 20
    seen = []
    want = [f"r{n:02d}" for n in range(20)]

    def on_snapshot(snapshot, changes, read_time):
        seen.append(sorted(d.id for d in snapshot))

    watch = client.collection("rooms").on_snapshot(on_snapshot)
    try:
        client.collection("rooms").document("r03").delete()
        client.collection("rooms").document("extra").set({"n": 99})
        assert "extra" in rooms(client) and "r03" not in rooms(client)
        status, answer = seeded.call("firestore", "POST", f"/emulator/v1/projects/{PROJECT}:reset")
        assert status == 200, answer
        assert answer["name"] == "seed" and answer["databases"]["(default)"] == 20
        assert rooms(client) == want
        assert client.collection("rooms").document("r03").get().to_dict() == {"n": 3}
        # The listener ends on the seed, not on what it saw before the reset (it may merge the
        # delete, the set and the reset into fewer snapshots, so their count is not asserted).
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not (seen and seen[-1] == want):
            time.sleep(0.05)
        assert seen and seen[-1] == want, seen
    finally:
        watch.unsubscribe()
    # The seed's account is back too and signs in with its password.
    status, body = seeded.call("auth", "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k",
                               {"email": "seed@x.io", "password": "seed-secret"}, token=None)
    assert status == 200, body


def test_named_snapshots_save_and_restore(seeded, client):
    client.collection("rooms").document("built").set({"state": "once"})
    status, saved = seeded.call("firestore", "PUT", f"/emulator/v1/projects/{PROJECT}/snapshots/built")
    assert status == 200 and saved["databases"]["(default)"] == 21, saved
    client.collection("rooms").document("built").set({"state": "changed"})
    client.collection("rooms").document("r00").delete()
    status, _ = seeded.call("firestore", "POST", f"/emulator/v1/projects/{PROJECT}/snapshots/built:restore")
    assert status == 200
    assert client.collection("rooms").document("built").get().to_dict() == {"state": "once"}
    assert client.collection("rooms").document("r00").get().exists
    status, listing = seeded.call("firestore", "GET", f"/emulator/v1/projects/{PROJECT}/snapshots")
    assert [s["name"] for s in listing["snapshots"]] == ["built", "seed"]
    assert seeded.call("firestore", "POST", f"/emulator/v1/projects/{PROJECT}/snapshots/nope:restore")[0] == 404
    assert seeded.call("firestore", "PUT", f"/emulator/v1/projects/{PROJECT}/snapshots/seed")[0] == 400
    assert seeded.call("firestore", "DELETE", f"/emulator/v1/projects/{PROJECT}/snapshots/built")[0] == 200
    assert seeded.call("firestore", "POST", f"/emulator/v1/projects/{PROJECT}:reset")[0] == 200


def test_background_triggers_are_switched_on_the_hub(seeded):
    assert seeded.call("hub", "PUT", "/functions/disableBackgroundTriggers") == (200, {"enabled": False})
    assert seeded.call("hub", "PUT", "/functions/enableBackgroundTriggers") == (200, {"enabled": True})
    text = seeded.log_path.read_text()
    assert "background triggers disabled" in text and "background triggers enabled" in text


def test_server_timestamps_and_commit_times_follow_the_clock(seeded, client):
    frozen = "2031-05-06T07:08:09.123456Z"
    status, state = seeded.call("firestore", "PUT", "/emulator/v1/clock", {"freeze": frozen})
    assert status == 200 and state["mode"] == "frozen" and state["now"] == frozen, state
    ref = client.collection("clocked").document("a")
    result = ref.set({"at": firestore.SERVER_TIMESTAMP})
    at = ref.get().to_dict()["at"]
    want = datetime(2031, 5, 6, 7, 8, 9, 123456, tzinfo=timezone.utc)
    assert abs((at - want).total_seconds()) < 0.001, at
    assert abs((result.update_time - want).total_seconds()) < 0.001
    assert seeded.call("firestore", "PUT", "/emulator/v1/clock", {"advance": "10m"})[1]["now"] == "2031-05-06T07:18:09.123456Z"
    ref.set({"at": firestore.SERVER_TIMESTAMP})
    assert abs((ref.get().to_dict()["at"] - (want + timedelta(minutes=10))).total_seconds()) < 0.001
    # Set back an hour: the time reads earlier, commit times still go forward.
    seeded.call("firestore", "PUT", "/emulator/v1/clock", {"set": "2031-05-06T06:00:00Z"})
    later = ref.set({"at": firestore.SERVER_TIMESTAMP}).update_time
    assert later > result.update_time and later >= want + timedelta(minutes=10)
    assert seeded.call("firestore", "PUT", "/emulator/v1/clock", {"advance": "soon"})[0] == 400
    # The clock stays within Firestore's timestamps (a time past them wedged every later commit),
    # and takes decimal numbers only.
    for body in ({"set": "9999-12-31T23:59:59Z"}, {"freeze": "9999-12-31T12:00:00Z"}, {"advance": 1e11},
                 {"advance": "0x10s"}, {"advance": -1e11}):
        assert seeded.call("firestore", "PUT", "/emulator/v1/clock", body)[0] == 400, body
    assert ref.set({"at": firestore.SERVER_TIMESTAMP}).update_time > later
    assert "clock: frozen at 2031-05-06T07:08:09.123456Z" in seeded.log_path.read_text()


def test_cleanup_presence_sees_the_moved_clock(seeded, client):
    presence = client.collection("presence").document("old-user")
    presence.set({"updatedAt": firestore.SERVER_TIMESTAMP, "geohash": "9q8yyk8yt"})
    run = f"/emulator/v1/projects/{PROJECT}/functions/cleanupPresence:run"
    assert seeded.call("functions", "POST", run)[0] == 200
    assert presence.get().exists  # fresh: kept
    # 31 days after the heartbeat (commit times never go back, so an earlier test's clock may
    # have left them ahead of the system clock: count from the stored time).
    written = presence.get().to_dict()["updatedAt"]
    later = (written + timedelta(days=31)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    assert seeded.call("firestore", "PUT", "/emulator/v1/clock", {"set": later})[0] == 200
    status, body = seeded.call("functions", "POST", run)
    assert status == 200, body
    assert not presence.get().exists  # 31 days old by the emulators' clock: removed, no waiting
