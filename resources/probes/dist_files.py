"""Print where an installed distribution's files are (JSON), for backup before an install.

    python dist_files.py NAME

Run by the Kernel Setup Wizard with the *target* interpreter. Standard library only.
"""

import json
import sys

BEGIN = "@@KSW-DIST-BEGIN@@"
END = "@@KSW-DIST-END@@"


def main():
    name = sys.argv[1]
    result = {"name": name, "found": False}
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
    sys.stdout.write("\n" + BEGIN + "\n" + json.dumps(result) + "\n" + END + "\n")


if __name__ == "__main__":
    main()
