"""Print where an installed distribution's files are (JSON), for backup before an install.

    python dist_files.py NAME [--check]

Run by the Kernel Setup Wizard with the *target* interpreter. Standard library only.
``purelib`` (where pip installs pure-Python packages) is always given. With ``--check`` the
files the distribution's RECORD lists are compared with their recorded hashes: ``complete`` is
False when one is missing or different (an install that was cut off).
"""

import base64
import hashlib
import json
import sys

BEGIN = "@@KSW-DIST-BEGIN@@"
END = "@@KSW-DIST-END@@"


def main():
    name = sys.argv[1]
    result = {"name": name, "found": False}
    try:
        import sysconfig

        result["purelib"] = sysconfig.get_paths()["purelib"]
    except Exception:
        pass
    try:
        from importlib import metadata

        dist = metadata.distribution(name)
    except Exception as exc:  # PackageNotFoundError, or Python < 3.8
        result["error"] = "%s: %s" % (type(exc).__name__, exc)
    else:
        root = dist.locate_file("")
        files = [str(f) for f in (dist.files or [])]
        result.update(
            found=True,
            version=dist.version,
            root=str(root),
            files=files,
        )
        if "--check" in sys.argv[2:]:
            result["problems"] = check(dist)
            result["complete"] = not result["problems"]
    sys.stdout.write("\n" + BEGIN + "\n" + json.dumps(result) + "\n" + END + "\n")


def check(dist):
    """Files of RECORD that are missing or differ from their recorded hash (at most 20)."""
    problems = []
    if not dist.read_text("RECORD"):
        return ["RECORD is missing"]
    names = [str(entry).replace("\\", "/") for entry in dist.files or []]
    if not any(name.endswith(".dist-info/INSTALLER") for name in names):
        # the wheel's own RECORD: the installer was cut off before it wrote its final one
        problems.append("the installer did not finish (RECORD was not written by it)")
    for entry in dist.files or []:
        path = entry.locate()
        if entry.hash is None:
            continue  # RECORD itself, byte-code caches
        try:
            with open(str(path), "rb") as stream:
                data = stream.read()
        except (IOError, OSError):
            problems.append("missing: %s" % entry)
        else:
            digest = hashlib.new(entry.hash.mode, data).digest()
            value = base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
            if value != entry.hash.value:
                problems.append("changed: %s" % entry)
        if len(problems) >= 20:
            break
    return problems


if __name__ == "__main__":
    main()
