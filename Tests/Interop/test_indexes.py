"""Composite indexes, production's missing-index refusal, explain, and the Admin API's index
endpoints, driven by the real Python clients against Hearths started for this module on a
SQLite file (the store that keeps composite indexes) with a `firestore.indexes.json`, with and
without `--require-indexes`.

Sources: docs/reference/indexes.md (which queries need which index, the error and its
console link, the Admin API); docs/reference/firestore-wire.md §1.12 (explain).
"""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import time
import urllib.parse
from pathlib import Path

import pytest
from google.api_core import exceptions
from google.auth.credentials import AnonymousCredentials
from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter
from google.cloud.firestore_v1.query_profile import ExplainOptions

from conftest import Hearth, _ensure_binary, _free_port, _wait_ready

REPO = Path(__file__).resolve().parents[2]
PROJECT = "demo-indexes"

INDEXES = {
    "indexes": [
        {
            "collectionGroup": "items",
            "queryScope": "COLLECTION",
            "fields": [{"fieldPath": "bucket", "order": "ASCENDING"}, {"fieldPath": "i", "order": "DESCENDING"}],
        },
        {
            "collectionGroup": "items",
            "queryScope": "COLLECTION",
            "fields": [{"fieldPath": "tags", "arrayConfig": "CONTAINS"}, {"fieldPath": "i", "order": "ASCENDING"}],
        },
    ],
    "fieldOverrides": [
        {
            "collectionGroup": "items",
            "fieldPath": "i",
            "indexes": [
                {"order": "ASCENDING", "queryScope": "COLLECTION"},
                {"order": "DESCENDING", "queryScope": "COLLECTION"},
                {"order": "ASCENDING", "queryScope": "COLLECTION_GROUP"},
            ],
        },
        {"collectionGroup": "items", "fieldPath": "blob", "indexes": []},
    ],
}


def _start(workdir: Path, extra: list[str]) -> tuple[subprocess.Popen, Hearth]:
    port = _free_port()
    (workdir / "firestore.indexes.json").write_text(json.dumps(INDEXES, indent=2))
    config = {
        "emulators": {"firestore": {"host": "127.0.0.1", "port": port}},
        "firestore": {"indexes": "firestore.indexes.json"},
    }
    (workdir / "firebase.json").write_text(json.dumps(config))
    log_path = workdir / "hearth.log"
    log = open(log_path, "wb")
    process = subprocess.Popen(
        [str(_ensure_binary()), "start", "--config", str(workdir / "firebase.json"), "--data", str(workdir / "data.sqlite"),
         "--firestore-port", str(port), "--project", PROJECT, *extra],
        cwd=workdir, stdout=log, stderr=subprocess.STDOUT,
    )
    server = Hearth(host=f"127.0.0.1:{port}", log_path=log_path)
    _wait_ready(process, server)
    return process, server


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def strict(tmp_path_factory):
    """A Hearth that refuses queries lacking an index, as production does."""
    workdir = tmp_path_factory.mktemp("strict")
    process, server = _start(workdir, ["--require-indexes"])
    yield server, workdir
    _stop(process)


@pytest.fixture(scope="module")
def lenient(tmp_path_factory):
    """A Hearth that runs such queries (the emulator's default) and remembers them."""
    workdir = tmp_path_factory.mktemp("lenient")
    process, server = _start(workdir, [])
    yield server, workdir
    _stop(process)


def _client(server: Hearth, project: str = PROJECT) -> firestore.Client:
    """A client of `server`; the client reads FIRESTORE_EMULATOR_HOST once, when made, and the
    session's Hearth gets it back for the other modules' tests."""
    saved = os.environ.get("FIRESTORE_EMULATOR_HOST")
    os.environ["FIRESTORE_EMULATOR_HOST"] = server.host
    try:
        return firestore.Client(project=project, credentials=AnonymousCredentials())
    finally:
        if saved is None:
            os.environ.pop("FIRESTORE_EMULATOR_HOST", None)
        else:
            os.environ["FIRESTORE_EMULATOR_HOST"] = saved


def _seed(db: firestore.Client, n: int = 200) -> None:
    batch = db.batch()
    for i in range(n):
        batch.set(db.collection("items").document(f"d{i:04}"),
                  {"bucket": i % 10, "i": i, "j": -i, "tags": [f"t{i % 3}"], "blob": "x"})
        if i % 100 == 99:
            batch.commit()
            batch = db.batch()
    batch.commit()


def test_served_query_runs_with_require_indexes(strict):
    server, _ = strict
    db = _client(server)
    _seed(db)
    got = [s.get("i") for s in db.collection("items").where(filter=FieldFilter("bucket", "==", 3))
           .order_by("i", direction=firestore.Query.DESCENDING).limit(5).stream()]
    assert got == [193, 183, 173, 163, 153]
    # Single-field queries need no composite: automatic indexes serve them.
    assert len(list(db.collection("items").where(filter=FieldFilter("i", ">", 190)).stream())) == 9
    assert len(list(db.collection("items").where(filter=FieldFilter("bucket", "==", 3))
                    .where(filter=FieldFilter("j", "==", -3)).stream())) == 1  # index merging
    got = [s.get("i") for s in db.collection("items").where(filter=FieldFilter("tags", "array_contains", "t1"))
           .order_by("i").limit(3).stream()]
    assert got == [1, 4, 7]


def test_missing_composite_is_failed_precondition_with_console_link(strict):
    server, _ = strict
    db = _client(server)
    query = db.collection("items").where(filter=FieldFilter("bucket", "==", 3)).order_by("j")
    with pytest.raises(exceptions.FailedPrecondition) as raised:
        list(query.stream())
    message = raised.value.message
    assert message.startswith("The query requires an index. You can create it here: https://console.firebase.google.com/")
    link = message.split("You can create it here: ", 1)[1]
    parsed = urllib.parse.urlparse(link)
    assert parsed.path == f"/v1/r/project/{PROJECT}/firestore/indexes"
    encoded = urllib.parse.parse_qs(parsed.query)["create_composite"][0]
    raw = base64.b64decode(encoded + "=" * (-len(encoded) % 4))
    # The protobuf of the Admin API Index names the collection group and every field in order.
    assert f"projects/{PROJECT}/databases/(default)/collectionGroups/items/indexes/_".encode() in raw
    assert raw.index(b"bucket") < raw.index(b"\x0a\x01j") < raw.index(b"__name__")


def test_exempted_field_and_collection_group_need_single_field_indexes(strict):
    server, _ = strict
    db = _client(server)
    with pytest.raises(exceptions.FailedPrecondition) as raised:
        list(db.collection("items").where(filter=FieldFilter("blob", "==", "x")).stream())
    assert "create_exemption=" in raw_message(raised)
    with pytest.raises(exceptions.FailedPrecondition) as raised:
        list(db.collection_group("items").where(filter=FieldFilter("bucket", "==", 1)).stream())
    assert "COLLECTION_GROUP_ASC" in raw_message(raised)
    # The override adds the collection-group ascending index on i.
    assert len(list(db.collection_group("items").where(filter=FieldFilter("i", "<", 3)).stream())) == 3


def raw_message(raised) -> str:
    return raised.value.message


def test_explain_names_the_composite_and_counts_what_was_scanned(strict):
    server, _ = strict
    db = _client(server)
    query = (db.collection("items").where(filter=FieldFilter("bucket", "==", 3))
             .order_by("i", direction=firestore.Query.DESCENDING).limit(5))
    results = query.get(explain_options=ExplainOptions(analyze=True))
    assert [s.get("i") for s in results] == [193, 183, 173, 163, 153]
    metrics = results.get_explain_metrics()
    used = metrics.plan_summary.indexes_used
    assert {"query_scope": "Collection", "properties": "(bucket ASC, i DESC, __name__ DESC)"} in used
    stats = metrics.execution_stats
    assert stats.results_returned == 5
    assert int(stats.debug_stats["index_entries_scanned"]) <= 10
    assert int(stats.debug_stats["documents_scanned"]) <= 10
    # Plan only: no results.
    planned = query.get(explain_options=ExplainOptions(analyze=False))
    assert list(planned) == []
    assert planned.get_explain_metrics().plan_summary.indexes_used == used


def test_lenient_server_runs_the_query_and_check_fails(lenient):
    server, workdir = lenient
    db = _client(server)
    _seed(db, 30)
    got = [s.get("i") for s in db.collection("items").where(filter=FieldFilter("bucket", "==", 3)).order_by("j").stream()]
    assert got == [23, 13, 3]
    env = dict(os.environ, FIRESTORE_EMULATOR_HOST=server.host)
    config = str(workdir / "firebase.json")
    check = subprocess.run([str(_ensure_binary()), "indexes", "check", "--config", config, "--project", PROJECT],
                           env=env, capture_output=True, text=True, timeout=30)
    assert check.returncode == 1, check.stdout + check.stderr
    assert "items COLLECTION (bucket ASC, j ASC, __name__ ASC)" in check.stderr
    out = workdir / "suggested.json"
    suggest = subprocess.run([str(_ensure_binary()), "indexes", "suggest", "--config", config, "--project", PROJECT,
                              "--out", str(out)], env=env, capture_output=True, text=True, timeout=30)
    assert suggest.returncode == 0, suggest.stdout + suggest.stderr
    suggested = json.loads(out.read_text())
    fields = [[(f["fieldPath"], f.get("order", f.get("arrayConfig"))) for f in ix["fields"]] for ix in suggested["indexes"]]
    assert [("bucket", "ASCENDING"), ("j", "ASCENDING")] in fields
    assert [("bucket", "ASCENDING"), ("i", "DESCENDING")] in fields  # the app's own are kept
    assert "warning" in server.log_tail(200) and "(bucket ASC, j ASC, __name__ ASC)" in server.log_tail(200)
    # Without a named project, check covers every project the server saw.
    env_unscoped = {k: v for k, v in env.items() if k not in ("GCLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT")}
    unscoped = subprocess.run([str(_ensure_binary()), "indexes", "check", "--config", config],
                              env=env_unscoped, capture_output=True, text=True, timeout=30)
    assert unscoped.returncode == 1 and f"project {PROJECT}" in unscoped.stderr, unscoped.stderr
    # Once the app's file holds the suggestion (hot reload), nothing is missing any more.
    (workdir / "firestore.indexes.json").write_text(out.read_text())
    deadline = time.monotonic() + 10
    while True:
        again = subprocess.run([str(_ensure_binary()), "indexes", "check", "--config", config, "--project", PROJECT],
                               env=env, capture_output=True, text=True, timeout=30)
        if again.returncode == 0:
            break
        assert time.monotonic() < deadline, again.stdout + again.stderr
        time.sleep(0.2)


def test_exec_puts_hearth_on_the_commands_path(tmp_path):
    (tmp_path / "firebase.json").write_text(json.dumps({"emulators": {"firestore": {"port": _free_port()}}}))
    result = subprocess.run(
        [str(_ensure_binary()), "exec", "--config", str(tmp_path / "firebase.json"), "--project", "demo-exec-path",
         "--", "sh", "-c", "hearth indexes check"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "every query since start had the index production needs" in result.stdout


def test_hot_reload_adds_an_index(strict):
    server, workdir = strict
    db = _client(server)
    query = db.collection("items").where(filter=FieldFilter("bucket", "==", 4)).order_by("j")
    with pytest.raises(exceptions.FailedPrecondition):
        list(query.stream())
    grown = json.loads(json.dumps(INDEXES))
    grown["indexes"].append({"collectionGroup": "items", "queryScope": "COLLECTION",
                             "fields": [{"fieldPath": "bucket", "order": "ASCENDING"}, {"fieldPath": "j", "order": "ASCENDING"}]})
    (workdir / "firestore.indexes.json").write_text(json.dumps(grown, indent=2))
    deadline = time.monotonic() + 10
    while True:
        try:
            got = [s.get("i") for s in query.limit(2).stream()]
            break
        except exceptions.FailedPrecondition:
            assert time.monotonic() < deadline, "the indexes file was not reloaded"
            time.sleep(0.2)
    assert got == [194, 184]
    (workdir / "firestore.indexes.json").write_text(json.dumps(INDEXES, indent=2))


def test_bad_indexes_file_is_refused_naming_the_line(tmp_path):
    port = _free_port()
    (tmp_path / "firestore.indexes.json").write_text(
        '{\n  "indexes": [\n    {\n      "collectionGroup": "items",\n      "queryScope": "COLLECTION",\n'
        '      "fields": [{"fieldPath": "a", "order": "UP"}]\n    }\n  ]\n}\n')
    (tmp_path / "firebase.json").write_text(json.dumps({
        "emulators": {"firestore": {"port": port}}, "firestore": {"indexes": "firestore.indexes.json"}}))
    result = subprocess.run([str(_ensure_binary()), "start", "--config", str(tmp_path / "firebase.json"), "--in-memory"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "firestore.indexes.json:6:" in result.stderr, result.stderr


def test_admin_api_creates_lists_and_deletes_indexes(lenient):
    server, _ = lenient
    from google.cloud.firestore_admin_v1 import FirestoreAdminClient
    from google.cloud.firestore_admin_v1.services.firestore_admin.transports.rest import FirestoreAdminRestTransport
    from google.cloud.firestore_admin_v1.types import Index

    transport = FirestoreAdminRestTransport(host=server.host, url_scheme="http", credentials=AnonymousCredentials())
    admin = FirestoreAdminClient(transport=transport)
    parent = f"projects/demo-admin/databases/(default)/collectionGroups/posts"
    index = Index(query_scope=Index.QueryScope.COLLECTION, fields=[
        Index.IndexField(field_path="author", order=Index.IndexField.Order.ASCENDING),
        Index.IndexField(field_path="at", order=Index.IndexField.Order.DESCENDING),
    ])
    created = admin.create_index(parent=parent, index=index).result(timeout=10)
    assert created.name.startswith(parent + "/indexes/")
    assert created.state == Index.State.READY
    listed = list(admin.list_indexes(parent=parent))
    assert [i.name for i in listed] == [created.name]
    assert [f.field_path for f in listed[0].fields][:2] == ["author", "at"]
    with pytest.raises(exceptions.Conflict):  # 409 ALREADY_EXISTS over REST
        admin.create_index(parent=parent, index=index)
    admin.delete_index(name=created.name)
    assert list(admin.list_indexes(parent=parent)) == []
