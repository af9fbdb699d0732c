"""Fault trials of the GUI helper's area: the "no pip" Fix (ensurepip) where the system has
removed Python's own installer of pip, as Debian and Ubuntu do."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from ksw_faults import assert_clean_failure, run_cli  # noqa: E402

# What Debian's and Ubuntu's patched ensurepip prints for the system Python (python3.11
# 3.11.2-6, Lib/ensurepip/__init__.py), and it exits 1.
DEBIAN_ENSUREPIP = textwrap.dedent('''
    import sys
    print("""ensurepip is disabled in Debian/Ubuntu for the system python.

    Python modules for the system python are usually handled by dpkg and apt-get.

        apt install python3-<module name>

    Install the python3-pip package to use pip itself.  Using pip together
    with the system python might have unexpected results for any system installed
    module, so use it on your own risk, or make sure to only use it in virtual
    environments.
    """)
    sys.exit(1)
''')


def site_listing(python: Path) -> list[str]:
    code = ("import sysconfig, os; "
            "print(sorted(os.listdir(sysconfig.get_paths()['purelib'])))")
    return subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                          check=True).stdout.splitlines()


def test_ensurepip_disabled_by_debian(tmp_path: Path) -> None:
    """No pip, Debian's ensurepip: fix python-env → exit 1, says apt install python3-pip, unchanged

    A Python without pip whose ensurepip Debian disabled; no traceback, its packages as before.
    """
    venv = tmp_path / "no pip"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    shadow = tmp_path / "debian-stdlib" / "ensurepip"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("")
    (shadow / "__main__.py").write_text(DEBIAN_ENSUREPIP)
    before = site_listing(python)

    result = run_cli("fix", "python-env", "--python", str(python), "--yes",
                     data=tmp_path / "data", timeout=120, PYTHONPATH=str(shadow.parent))

    output = assert_clean_failure(result, 1, "Fix: Install pip",
                                  "This Python comes from Debian or Ubuntu",
                                  "sudo apt install python3-pip python3-venv")
    assert "ensurepip is disabled in Debian/Ubuntu" in output  # its own words are shown too
    assert site_listing(python) == before
