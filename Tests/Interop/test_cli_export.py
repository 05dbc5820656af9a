"""The Firebase CLI export format, live against Google's Cloud Firestore emulator.

Both directions, through real processes: the emulator exports the data set of
scripts/record_cli_export.py and Hearth imports that folder (`hearth start --import`); Hearth
exports it again (the hub's `POST /_admin/export`) and a fresh emulator started with
`--seed_from_export` on Hearth's folder serves the same documents. The script fails on any
difference. It writes to a temporary folder, not to the recordings in Tests/Conformance/cli_export
(the Swift suite CLIExportConformanceTests compares Hearth against those on every machine).
Skips with one line where the emulator is not installed.
"""

import importlib.util
import sys

import pytest

from conftest import REPO, _ensure_binary

SCRIPTS = REPO / "scripts"


def load_recorder():
    sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location("record_cli_export", SCRIPTS / "record_cli_export.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_both_directions_against_the_official_emulator(tmp_path, monkeypatch):
    recorder = load_recorder()
    try:
        recorder.google.find_emulator()
    except SystemExit:
        pytest.skip("Google's Cloud Firestore emulator is not installed (gcloud component cloud-firestore-emulator); "
                    "Tests/Conformance/cli_export keeps its recorded answers")
    monkeypatch.setattr(sys, "argv", ["record_cli_export.py", "--out", str(tmp_path), "--hearth", str(_ensure_binary())])
    assert recorder.main() == 0
    assert (tmp_path / "emulator_export" / "firestore_export" / "firestore_export.overall_export_metadata").exists()
