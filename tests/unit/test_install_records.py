"""installs.json through :class:`InstallRecord`: the files every wizard version wrote still read,
and what the wizard writes back is what other tools (and older wizards) read today.

``tests/data/installs/first-writer.json`` has the shape of the first writer (commit 5a3e010:
no transaction, verification or previous; ``kernel`` null, or missing altogether);
``current.json`` the shape ``install_wheel`` writes now (a chain of what was replaced, a
verification, a record rebuilt from the receipts).
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from kernel_wizard.cli.main import main as cli_main
from kernel_wizard.install.records import (
    InstallRecord,
    find_record,
    installs_file,
    load_installs,
    put_record,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "installs"


def _use(name: str) -> Path:
    target = installs_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(DATA / name, target)
    return target


def test_the_first_writers_file_reads_and_names_the_kernel_by_its_distribution() -> None:
    _use("first-writer.json")
    probe, flash = load_installs()
    assert (probe.name, probe.version, probe.python) == ("ksw-probe-kernel", "0.1.0",
                                                         "/envs/a/bin/python")
    assert probe.kernel is None and flash.kernel is None  # null, and no key at all
    assert [r.kernel_id for r in (probe, flash)] == ["ksw-probe-kernel", "flash-attn"]
    assert probe.verification_status is None and probe.previous is None
    assert not probe.installed_despite_failure


def test_the_installs_command_lists_an_old_file(capsys: pytest.CaptureFixture[str]) -> None:
    _use("first-writer.json")
    out = io.StringIO()
    assert cli_main(["installs"], out=out) == 0
    text = out.getvalue()
    assert "ksw-probe-kernel: ksw-probe-kernel 0.1.0\n  in /envs/a/bin/python" in text
    assert "flash-attn: flash-attn 2.8.3" in text and "verification not recorded" in text


def test_the_current_file_reads_typed_and_writes_back_byte_for_byte() -> None:
    path = _use("current.json")
    before = path.read_bytes()
    probe, sage = load_installs()
    assert probe.kernel_id == "probe" and probe.verification_status == "pass"
    assert probe.previous is not None and probe.previous.version == "0.1.0"
    assert probe.previous.installed_despite_failure and probe.previous.previous is None
    assert sage.rebuilt and sage.verification_status == "skipped" and not probe.rebuilt
    put_record(sage)  # the last replaces itself: every record is written again, in order
    assert path.read_bytes() == before


def test_a_record_of_the_first_writer_gains_the_new_keys_as_null_when_written_again() -> None:
    path = _use("first-writer.json")
    probe = find_record("/envs/a/bin/python", "ksw-probe-kernel")
    assert probe is not None
    put_record(probe)
    flash, again = json.loads(path.read_text(encoding="utf-8"))
    assert again == {**json.loads((DATA / "first-writer.json").read_text("utf-8"))[0],
                     "transaction": None, "verification": None, "previous": None}
    assert list(again)[:8] == ["name", "version", "python", "wheel", "kernel", "adapter",
                               "backup", "transaction"]
    assert flash["name"] == "flash-attn" and load_installs()[1] == probe


@pytest.mark.parametrize(("document", "problem"), [
    ({"name": "x", "version": "1"}, "a record has no 'python'"),
    ({"name": "x", "version": "1", "python": "/p", "kernel": 3}, "'kernel' is not text"),
    ({"name": "x", "version": "1", "python": "/p", "verification": "pass"},
     "'verification' is not an object"),
    ({"name": "x", "version": "1", "python": "/p", "previous": {"name": "x"}},
     "a record has no 'version'"),
    (["x"], "a record is a list"),
])
def test_a_damaged_record_is_refused_naming_what_is_wrong(document: object,
                                                           problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        InstallRecord.from_json(document)


def test_a_chain_of_what_was_replaced_is_cut_at_its_depth() -> None:
    oldest = InstallRecord("k", "1", "/p")
    chain = InstallRecord("k", "3", "/p", previous=InstallRecord("k", "2", "/p",
                                                                  previous=oldest))
    cut = chain.chained(2)
    assert cut is not None and cut.previous is not None and cut.previous.previous is None
    assert chain.chained(0) is None and chain.chained(3) == chain
