"""Collect the wizard's texts into Qt Linguist files and compile them.

    python scripts/translations.py           # update resources/translations/ksw_*.ts, build .qm
    python scripts/translations.py --check   # exit 1 when a .ts misses a text of the GUI

    python scripts/translations.py --import zh_CN:more.json   # add translations, then build

The texts are found by reading the source (nothing is imported). In ``app/``: every
``tr("...")`` (context ``ksw``), every ``N_("...")`` (a text marked where it is defined and
translated with ``tr()`` where it is shown) and every value of a ``Texts("Context", {...})``.
In the core (``kernel_wizard/``, context ``core``; see kernel_wizard/base/messages.py): every
``N_("...")`` and ``msg("...", ...)``, and the title, cause and fix of every known build
failure in resources/diagnosis/failures.toml, and what the kernel recipes in resources/recipes
say to the user (a kernel's description, its GPUs, why a build is blocked, warnings, notes),
and how each AI program is told to use a kernel (resources/apps/*.toml: ``how``, ``check``).
Translations already in a ``.ts`` file are kept; texts no longer in the source are marked
obsolete; new ones are added unfinished. ``--check`` fails on a text that is missing or not
translated. ``pyside6-lrelease`` turns each ``.ts`` into the ``.qm`` the wizard loads
(app/i18n.py). An ``--import`` file is JSON: ``{"context": {"English": "translation"}}``.
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"
CORE = ROOT / "kernel_wizard"
FAILURES = ROOT / "resources" / "diagnosis" / "failures.toml"
RECIPES = ROOT / "resources" / "recipes"
APP_FACTS = ROOT / "resources" / "apps"  # how each AI program is told to use a kernel
WORKLOADS = ROOT / "resources" / "speed" / "workloads.toml"  # the Kernel page's workload names
CORE_CONTEXT = "core"
FOLDER = ROOT / "resources" / "translations"
LANGUAGES = ("zh_CN",)
CONTEXT = "ksw"


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def collect(folder: Path = APP) -> dict[str, dict[str, str]]:
    """{context: {text: "file:line"}} for every translatable text in the GUI's source."""
    found: dict[str, dict[str, str]] = {}
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            name = node.func.id
            if name in ("tr", "N_") and node.args:
                text = _literal(node.args[0])
                if text is not None:
                    found.setdefault(CONTEXT, {}).setdefault(text, f"{where}:{node.lineno}")
            elif name == "Texts" and len(node.args) == 2 and isinstance(node.args[1], ast.Dict):
                context = _literal(node.args[0])
                if context is None:
                    continue
                for value in node.args[1].values:
                    text = _literal(value) if value is not None else None
                    if text is not None:
                        found.setdefault(context, {}).setdefault(
                            text, f"{where}:{value.lineno}")
    return found


def collect_core(folder: Path = CORE, failures: Path = FAILURES,
                 recipes: Path = RECIPES) -> dict[str, str]:
    """{text: "file:line"} for every sentence of the core a front end translates."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in ("N_", "msg"):
                text = _literal(node.args[0])
                if text:
                    found.setdefault(text, f"{where}:{node.lineno}")
    data = tomllib.loads(failures.read_text(encoding="utf-8"))
    lines = failures.read_text(encoding="utf-8").splitlines()
    for signature in data.get("signature", []):
        at = next((i for i, line in enumerate(lines, 1)
                   if line.strip() == f'id = "{signature["id"]}"'), 0)
        for key in ("title", "cause", "fix"):
            if signature.get(key):
                found.setdefault(signature[key], f"{FAILURES.relative_to(ROOT).as_posix()}:{at}")
    for path in sorted(recipes.glob("*.toml")):
        where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
        for text in _recipe_texts(tomllib.loads(path.read_text(encoding="utf-8"))):
            if isinstance(text, str) and text:
                found.setdefault(text, where)
    for path in sorted(APP_FACTS.glob("*.toml")):  # the Done page shows them
        facts = tomllib.loads(path.read_text(encoding="utf-8"))
        for text in (*(u.get(key) for u in facts.get("use", []) for key in ("how", "check")),
                     facts.get("other", {}).get("how")):
            if isinstance(text, str) and text:
                found.setdefault(text, path.relative_to(ROOT).as_posix())
    for workload in tomllib.loads(WORKLOADS.read_text(encoding="utf-8")).get("workload", []):
        if workload.get("name"):  # the Kernel page's chooser and the speed sentence name it
            found.setdefault(workload["name"], WORKLOADS.relative_to(ROOT).as_posix())
    return found


def _recipe_texts(recipe: dict[str, Any]) -> Iterator[object]:
    """The user-visible sentences of one recipe (the Kernel page shows them)."""
    req = recipe.get("requirements", {})
    yield from (recipe.get("description"), req.get("gpu_text"))
    for block in req.get("blocked", []):
        yield from (block.get("label"), block.get("reason"))
    yield from req.get("os_warnings", {}).values()
    yield from req.get("unchecked", [])
    yield from (v.get("notes") for v in recipe.get("versions", []))
    yield from (w.get("note") for w in recipe.get("wheel_sources", []))
    for variant in recipe.get("variants", []):
        yield from (variant.get("label"), variant.get("description"))


def collect_all() -> dict[str, dict[str, str]]:
    texts = collect()
    texts.setdefault(CORE_CONTEXT, {}).update(collect_core())
    return texts


def import_translations(ts: Path, translations: dict[str, dict[str, str]]) -> int:
    """Put ``translations`` into ``ts`` (finished) where their source is in it; how many."""
    tree = ET.parse(ts)
    count = 0
    for context in tree.getroot().iter("context"):
        wanted = translations.get(context.findtext("name") or "", {})
        for message in context.iter("message"):
            text = wanted.get(message.findtext("source") or "")
            translation = message.find("translation")
            if text and translation is not None:
                translation.text = text
                translation.attrib.pop("type", None)
                count += 1
    ET.indent(tree.getroot())
    body = ET.tostring(tree.getroot(), encoding="unicode")
    ts.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n",
                  encoding="utf-8")
    return count


def _existing(ts: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """{(context, source): (translation, type)} from a .ts file."""
    if not ts.exists():
        return {}
    result: dict[tuple[str, str], tuple[str, str]] = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            translation = message.find("translation")
            text = translation.text or "" if translation is not None else ""
            kind = translation.get("type", "") if translation is not None else "unfinished"
            result[(name, source)] = (text, kind)
    return result


def write_ts(ts: Path, language: str, texts: dict[str, dict[str, str]]) -> tuple[int, int]:
    """Writes ``ts``; (texts, translated)."""
    old = _existing(ts)
    root = ET.Element("TS", version="2.1", language=language)
    count = done = 0
    contexts = sorted(set(texts) | {c for c, _ in old})
    for context in contexts:
        element = ET.SubElement(root, "context")
        ET.SubElement(element, "name").text = context
        sources = dict(texts.get(context, {}))
        for (ctx, source), _ in sorted(old.items()):
            if ctx == context and source not in sources:
                sources[source] = ""  # gone from the code: kept, marked obsolete
        for source in sorted(sources):
            message = ET.SubElement(element, "message")
            if sources[source]:
                file, _, line = sources[source].rpartition(":")
                ET.SubElement(message, "location", filename=f"../../{file}", line=line)
            ET.SubElement(message, "source").text = source
            translation = ET.SubElement(message, "translation")
            text, kind = old.get((context, source), ("", "unfinished"))
            if not sources[source]:
                translation.set("type", "obsolete" if text else "vanished")
            elif not text:
                translation.set("type", "unfinished")
            elif kind:
                translation.set("type", kind)
            translation.text = text or None
            if sources[source]:
                count += 1
                done += bool(text) and kind != "unfinished"
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    ts.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n",
                  encoding="utf-8")
    return count, done


def missing(ts: Path, texts: dict[str, dict[str, str]]) -> Iterator[tuple[str, str]]:
    """(context, text) of every text that ``ts`` lacks or leaves untranslated."""
    old = _existing(ts)
    for context, sources in texts.items():
        for source in sources:
            text, kind = old.get((context, source), ("", "unfinished"))
            if not text or kind == "unfinished":
                yield context, source


def lrelease(ts: Path) -> None:
    tool = shutil.which("pyside6-lrelease") or str(Path(sys.executable).with_name(
        "pyside6-lrelease"))
    subprocess.run([tool, "-silent", str(ts), "-qm", str(ts.with_suffix(".qm"))], check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only check that every .ts file translates every text (exit 1 "
                             "if not)")
    parser.add_argument("--import", dest="imports", action="append", default=[],
                        metavar="LANG:FILE.json",
                        help="add the translations of a JSON file to LANG's .ts first")
    args = parser.parse_args(argv)
    texts = collect_all()
    FOLDER.mkdir(parents=True, exist_ok=True)
    status = 0
    for language in LANGUAGES:
        ts = FOLDER / f"ksw_{language}.ts"
        if args.check:
            lacking = list(missing(ts, texts))
            for context, source in lacking:
                print(f"{ts.name}: not translated [{context}] {source!r}")
            status |= bool(lacking)
            continue
        count, done = write_ts(ts, language, texts)
        for item in args.imports:
            lang, _, file = item.partition(":")
            if lang == language:
                added = import_translations(
                    ts, json.loads(Path(file).read_text(encoding="utf-8")))
                print(f"{ts.name}: {added} translations from {file}")
                count, done = write_ts(ts, language, texts)
        lrelease(ts)
        print(f"{ts.name}: {count} texts, {done} translated")
    return status


if __name__ == "__main__":
    sys.exit(main())
