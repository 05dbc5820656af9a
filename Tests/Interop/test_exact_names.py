"""Names are exact bytes: document ids, collection ids and field names are never Unicode-
normalized. "é" (U+00E9) and "e" + U+0301 are two documents, two collections and two fields on
every path a client uses (gRPC writes and reads, queries, collection listing, update masks,
Listen), and strings order by their UTF-8 bytes.

Sources: docs/reference/firestore-wire.md §1.7 (strings order by UTF-8 bytes), §1.10 (names);
issue 23 item 3 (one of the two used to overwrite the other).
"""

import threading

from google.cloud import firestore

NFC = "\u00e9"
NFD = "e\u0301"


def test_two_fields_that_normalize_alike_are_two_fields(client):
    ref = client.collection("c").document("d")
    ref.set({NFC: 1, NFD: 2, "m": {NFC: "a", NFD: "b"}})
    data = ref.get().to_dict()
    assert {k.encode() for k in data} == {NFC.encode(), NFD.encode(), b"m"}
    assert data[NFC] == 1 and data[NFD] == 2
    assert {k.encode(): v for k, v in data["m"].items()} == {NFC.encode(): "a", NFD.encode(): "b"}

    # An update mask naming both (as field paths) changes both and nothing else.
    ref.update({f"`{NFC}`": 10, f"`{NFD}`": 20})
    data = ref.get().to_dict()
    assert (data[NFC], data[NFD]) == (10, 20)
    ref.update({f"`{NFD}`": firestore.DELETE_FIELD})
    data = ref.get().to_dict()
    assert {k.encode() for k in data} == {NFC.encode(), b"m"}
    assert data[NFC] == 10


def test_two_ids_that_normalize_alike_are_two_documents_and_collections(client):
    client.collection("c").document(NFC).set({"v": 1})
    client.collection("c").document(NFD).set({"v": 2})
    docs = list(client.collection("c").order_by("__name__").stream())
    # UTF-8 order: "e" (0x65) before 0xC3.
    assert [d.id.encode() for d in docs] == [NFD.encode(), NFC.encode()]
    assert [d.to_dict()["v"] for d in docs] == [2, 1]

    client.collection(NFC).document("x").set({"v": 1})
    client.collection(NFD).document("x").set({"v": 2})
    assert [d.to_dict()["v"] for d in client.collection(NFD).stream()] == [2]
    assert [d.to_dict()["v"] for d in client.collection(NFC).stream()] == [1]
    assert [c.id.encode() for c in client.collections()] == [b"c", NFD.encode(), NFC.encode()]
    assert [d.to_dict()["v"] for d in client.collection_group(NFD).stream()] == [2]


def test_string_values_order_by_bytes_and_compare_exactly(client):
    col = client.collection("s")
    for i, s in enumerate([NFC, NFD, "f", "e"]):
        col.document(f"d{i}").set({"s": s})
    got = [d.to_dict()["s"].encode() for d in col.order_by("s").stream()]
    assert got == [b"e", NFD.encode(), b"f", NFC.encode()]
    assert [d.id for d in col.where("s", "==", NFD).stream()] == ["d1"]


def test_listener_sees_both_documents(db):
    seen = {}
    ready = threading.Event()

    def on_snapshot(snapshot, changes, read_time):
        for d in snapshot:
            seen[d.id.encode()] = d.to_dict()["v"]
        if len(seen) == 2:
            ready.set()

    col = db.collection("l")
    col.document(NFC).set({"v": 1})
    col.document(NFD).set({"v": 2})
    watch = col.on_snapshot(on_snapshot)
    try:
        assert ready.wait(10)
        assert seen == {NFC.encode(): 1, NFD.encode(): 2}
    finally:
        watch.unsubscribe()
