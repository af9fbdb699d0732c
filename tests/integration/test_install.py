"""Installing into a real venv: the old version is backed up, failures restore it, rollback."""

from __future__ import annotations

import base64
import hashlib
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from ksw_testsupport import pip_freeze as freeze

from kernel_wizard.install.installer import (
    InstallError,
    backup_distribution,
    install_wheel,
    load_installs,
    rollback,
)


def make_wheel(folder: Path, version: str, answer: int) -> Path:
    """A real (tiny) wheel: module ksw_tiny with ANSWER, as pip would build it."""
    name = f"ksw_tiny-{version}-py3-none-any.whl"
    files = {
        "ksw_tiny/__init__.py": f"ANSWER = {answer}\n".encode(),
        f"ksw_tiny-{version}.dist-info/METADATA":
            f"Metadata-Version: 2.1\nName: ksw-tiny\nVersion: {version}\n".encode(),
        f"ksw_tiny-{version}.dist-info/WHEEL":
            b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"ksw_tiny-{version}.dist-info/RECORD,,")
    files[f"ksw_tiny-{version}.dist-info/RECORD"] = ("\n".join(record) + "\n").encode()
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(folder / name, "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)
    return folder / name


@pytest.fixture()
def fresh_env(tmp_path: Path) -> Path:
    venv = tmp_path / "target env ü"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(venv)],
        check=True,
    )
    return venv / "bin" / "python"


def answer(python: Path) -> str:
    return subprocess.run(
        [str(python), "-c", "import ksw_tiny; print(ksw_tiny.ANSWER)"],
        capture_output=True, text=True, check=False,
    ).stdout.strip()


def test_install_backs_up_and_rollback_restores(
    tmp_path: Path, fresh_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KSW_DATA_DIR", str(tmp_path / "data"))
    first = install_wheel(fresh_env, make_wheel(tmp_path / "w1", "1.0", 1), kernel="tiny")
    assert first.previous is None
    assert answer(fresh_env) == "1"

    second = install_wheel(fresh_env, make_wheel(tmp_path / "w2", "2.0", 2), kernel="tiny")
    assert answer(fresh_env) == "2"
    assert second.previous is not None and second.previous.version == "1.0"
    assert "ksw_tiny/__init__.py" in second.previous.files

    records = load_installs()
    assert len(records) == 1 and records[0].version == "2.0"
    assert records[0].kernel == "tiny" and records[0].python == str(fresh_env)

    rollback(fresh_env, "ksw-tiny", second.previous)
    assert answer(fresh_env) == "1"
    assert "ksw_tiny-1.0-py3-none-any.whl" in freeze(fresh_env)  # 1.0 is back, as installed


def test_failed_install_leaves_the_environment_as_it_was(
    tmp_path: Path, fresh_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KSW_DATA_DIR", str(tmp_path / "data"))
    install_wheel(fresh_env, make_wheel(tmp_path / "w1", "1.0", 1))
    before = freeze(fresh_env)
    broken = tmp_path / "w3" / "ksw_tiny-3.0-py3-none-any.whl"
    broken.parent.mkdir()
    broken.write_bytes(b"this is not a zip file")
    with pytest.raises(InstallError) as caught:
        install_wheel(fresh_env, broken)
    assert "restored" in caught.value.what
    assert freeze(fresh_env) == before
    assert answer(fresh_env) == "1"


def test_backup_of_a_missing_distribution_is_none(fresh_env: Path, tmp_path: Path) -> None:
    assert backup_distribution(fresh_env, "ksw-not-installed", tmp_path) is None
