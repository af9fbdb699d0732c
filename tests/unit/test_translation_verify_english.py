"""The install, roll-back and state-file sentences are translatable now (each one a template
with its values) and still read, in English, word for word as before."""

from __future__ import annotations

from pathlib import Path

from kernel_wizard.base.messages import Msg
from kernel_wizard.base.statefile import StateRead, StateStatus
from kernel_wizard.install.installer import Backup, InstallRecord, RollbackResult
from kernel_wizard.verify.history import Change

PYTHON = Path("/envs/ml/bin/python")
BACKUP = Backup("ksw-probe-kernel", "0.0.9", Path("/site"), Path("/backups/x"), ())


def test_roll_back_messages_read_as_before() -> None:
    gone = RollbackResult("ksw-probe-kernel", PYTHON, "0.1.0", None, None)
    assert gone.message == (f"Removed ksw-probe-kernel 0.1.0 from {PYTHON}; nothing was "
                            "installed there before.")
    back = RollbackResult("ksw-probe-kernel", PYTHON, "0.1.0", BACKUP,
                          InstallRecord("ksw-probe-kernel", "0.0.9", str(PYTHON),
                                        verification={"status": "pass"}))
    assert back.message == (f"Removed ksw-probe-kernel 0.1.0 and put back ksw-probe-kernel "
                            f"0.0.9 in {PYTHON}. Its verification had passed.")
    failed = RollbackResult("ksw-probe-kernel", PYTHON, "0.1.0", BACKUP,
                            InstallRecord("ksw-probe-kernel", "0.0.9", str(PYTHON),
                                          verification={"status": "fail"}))
    assert failed.message.endswith(" Its verification had fail.")
    assert all(isinstance(r.message, Msg) for r in (gone, back, failed))


def test_a_damaged_state_file_notice_reads_as_before() -> None:
    read: StateRead[object] = StateRead(Path("/data/installs.json"), StateStatus.DAMAGED, None,
                                        "it is not valid JSON", Path("/data/installs.json.bad"),
                                        True)
    assert read.notice == ("installs.json was damaged (it is not valid JSON). It was kept aside "
                           "as installs.json.bad; nothing was deleted. Its previous copy was "
                           "used instead.")
    assert isinstance(read.notice, Msg)


def test_a_change_since_the_last_pass_reads_as_before() -> None:
    change = Change("PyTorch's CUDA", "none", "12.8")
    assert str(change) == change.sentence() == "PyTorch's CUDA: none → 12.8"
