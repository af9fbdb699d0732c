"""Target Pythons that go wrong, for the environment diagnosis tests and the fault trials.

Real interpreters where they exist here (pyenv's old CPythons, this Python in a fresh venv with
a torch package whose import kills the process); stand-in ``python`` scripts only where the real
thing cannot be had (a Python 2 on a machine without one: its recorded answers in
tests/data/python2) or where no real interpreter prints such output on purpose (a damaged
answer).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
VERSION_QUESTION = "-c"  # the wizard's version question is the only call with -c


def real_python(version: str) -> Path | None:
    """A working interpreter of ``version`` ("2.7", "3.8"), on PATH or under pyenv; None if none."""
    candidates = [shutil.which(f"python{version}")]
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    if root.is_dir():
        candidates += [str(p / "bin" / f"python{version}")
                       for p in sorted(root.glob(f"{version}.*"), reverse=True)]
    for candidate in candidates:
        if not candidate or not Path(candidate).is_file():
            continue
        try:
            done = subprocess.run([candidate, "-c", "pass"], capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:  # pyenv's shims exist but refuse when not selected
            return Path(candidate)
    return None


def _script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def recorded_python2(folder: Path) -> Path:
    """A stand-in ``python`` that answers exactly what the real Python 2.7.18 answered
    (tests/data/python2): the probe fails with its traceback (exit 1), the version question
    gets ``2.7.18``."""
    version, stderr = DATA / "python2" / "version.stdout", DATA / "python2" / "probe.stderr"
    return _script(folder / "python2-replay" / "bin" / "python", (
        "#!/bin/sh\n"
        f'if [ "$1" = "{VERSION_QUESTION}" ]; then cat "{version}"; exit 0; fi\n'
        f'cat "{stderr}" >&2\n'
        "exit 1\n"))


def answering_python(folder: Path, answer: str, version: str = "3.11.7",
                     code: int = 0) -> Path:
    """A stand-in ``python`` whose probe answer is ``answer`` (on stdout, exit ``code``) and
    whose version question gets ``version`` ('' : no answer)."""
    answer_file = folder / "answer.txt"
    folder.mkdir(parents=True, exist_ok=True)
    answer_file.write_text(answer, encoding="utf-8")
    reply = f"printf '%s' '{version}'; exit 0" if version else "exit 1"
    return _script(folder / "bin" / "python", (
        "#!/bin/sh\n"
        f'if [ "$1" = "{VERSION_QUESTION}" ]; then {reply}; fi\n'
        f'cat "{answer_file}"\n'
        f"exit {code}\n"))


# What a broken torch does when imported.
CRASHES = {
    "abort": "import os\nos.abort()\n",  # a C++ library's std::terminate, a failed assert
    "segfault": "import ctypes\nctypes.string_at(0)\n",  # a bad driver or CUDA library
    "exit": "import os\nos._exit(7)\n",  # a library that ends the process itself
}


def torch_crash_env(folder: Path, crash: str, dist_version: str = "2.5.1+cu124") -> Path:
    """python of a real venv (this Python) whose installed ``torch`` kills the interpreter on
    import as ``CRASHES[crash]`` does. pip comes from the base installation."""
    venv = folder / f"torch-{crash}"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    site = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip())
    (site / "torch").mkdir(parents=True)
    (site / "torch" / "__init__.py").write_text(CRASHES[crash], encoding="utf-8")
    info = site / f"torch-{dist_version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: torch\nVersion: {dist_version}\n", encoding="utf-8")
    (info / "RECORD").write_text("", encoding="utf-8")
    return python
