"""Finding English words left in a page that should speak another language.

:func:`english_words` reads what a person sees on a page — labels, buttons, group boxes, the
headers *and cells* of tables and trees, combo box entries, progress bar texts, tool tips,
read-only text boxes the wizard writes its own words into, the page's title and subtitle —
and reports every text with an English word in it. A word is a run of ASCII letters; what is
not a word of English is left alone:

* names: products, programs, kernels, units and abbreviations (``NVIDIA``, ``PyTorch``,
  ``FlashAttention``, ``ninja``, ``GiB``, ``min``; :data:`NAMES`), words in capitals (``GPU``,
  ``CUDA``, ``MSVC``), anything with a digit or an underscore (``sm_90``, ``cp311``, ``H100``);
* paths, file names, versions, options and code: a token with a slash, a backslash or a dot
  inside (``/usr/bin/gcc``, ``build.log``, ``2.13.0+cpu``), an option (``--verify``), text in
  backticks or ``<code>``, a call (``torch.cuda.is_available()``).

Machine output (the build log, the commands a fix runs, the usage snippet) is the programs'
own, not the wizard's: the caller names those widgets in ``skip``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator

from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QTableWidget,
    QTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
    QWizardPage,
)

# Names, not words: products and companies, programs and libraries, the catalog's kernels, units
# and file kinds. Words of English that happen to be part of a name ("Build Tools") are not here:
# the translation keeps such a name together with a word of its own language around it.
NAMES = {
    # companies, products, systems
    "NVIDIA", "GeForce", "RTX", "Quadro", "Tesla", "Hopper", "Ampere", "Ada", "Lovelace",
    "Blackwell", "Turing", "Volta", "Pascal", "Microsoft", "Windows", "Linux", "Ubuntu",
    "Debian", "Fedora", "WSL", "WSL2", "Visual", "Studio", "Python", "PyTorch", "PyPI",
    "GitHub", "Conda", "ComfyUI", "DeepSeek", "CUTLASS", "NumPy",
    # programs and libraries
    "python", "pip", "ninja", "gcc", "g", "nvcc", "cl", "torch", "git", "conda", "venv",
    "nvidia", "smi", "setuptools", "wheel", "vcvarsall", "vswhere", "ptxas", "cuBLAS",
    "cuDNN", "cuda", "nccl", "nvshmem", "triton", "app", "ensurepip", "sudo", "apt",
    "get", "dnf", "true", "false",
    # the catalog's kernels (the probe kernel is a description, translated)
    "FlashAttention", "FlashMLA", "DeepEP", "MoE", "MLA", "GQA", "varlen", "SageAttention",
    "Triton", "DGX", "Spark",
    # compute capability, as in "cc 8.6"
    "cc",
    # tensors (q, k, v, their gradients dq, dk, dv)
    "q", "k", "v", "dq", "dk", "dv",
    # units and abbreviations (seconds, minutes and hours are words: "1 分 57 秒")
    "B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB", "ms", "TFLOPs", "TFLOPS",
    "GFLOPs", "bit", "x",
}

# names of several words, some of them words of English ("Build Tools" is a product)
PRODUCTS = re.compile(r"(?:Visual Studio )?(?:Build Tools|Installer)|Git for Windows|Windows SDK"
                      r"|Windows PowerShell|Secure Boot|Kernel Setup Wizard"
                      r"|[A-Za-z]:\\[ -~]*?(?=[^ -~]|$)")  # a Windows path, spaces and all

# what is not prose even if it reads like it: code, tags, paths, options, dotted names, calls
# (a path or a dotted name is made of ASCII: Chinese text has no spaces to end it)
NOT_PROSE = re.compile(
    r"(`[^`]*`|<code>.*?</code>|<[^>]+>|&\w+;|[!-~]*[/\\][!-~]*|(?<!\w)--?\w[\w-]*"
    r"|\w+\([!-~]*\)|[!-~]+\.[!-~]+|(?<!\w)\.\w+"  # dotted names and file kinds (.zip)
    r"|\b[a-z0-9]+(?:-[a-z0-9]+){2,}\b"  # package names and ids: ksw-probe-kernel
    # another program's words, quoted: an error message, a button or component of an installer
    r"|“[\x20-\x7e]+”|(?<![A-Za-z])'[^'\s][^'\n]*?'(?![A-Za-z]))")
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")


def is_english(word: str) -> bool:
    """Whether ``word`` (a run of letters) is a word of English rather than a name."""
    bare = word.rstrip("'’")
    if bare in NAMES or bare.removesuffix("s") in NAMES:
        return False
    if bare.isupper():  # GPU, CUDA, MSVC, ABI
        return False
    if len(bare) > 1 and bare[1:] != bare[1:].lower():  # PyTorch, FlashAttention, cuBLAS
        return False
    return True


def english_in(text: str) -> list[str]:
    """The English words of ``text`` (empty when it has none)."""
    markup = re.sub(r"<code>.*?</code>|<[^>]+>", " ", text, flags=re.S)  # tags, then entities
    prose = NOT_PROSE.sub(" ", PRODUCTS.sub(" ", html.unescape(markup)))
    found = []
    for match in WORD.finditer(prose):
        start, end = match.span()
        before = prose[start - 1] if start else " "
        after = prose[end] if end < len(prose) else " "
        if before.isdigit() or after.isdigit() or before == "_" or after == "_":
            continue  # part of a code or a version: sm_90, cp311, 80GB, x86_64, 2.13.0+cpu
        if is_english(match.group(0)):
            found.append(match.group(0))
    return found


def _item_texts(item: QTreeWidgetItem, columns: int) -> Iterator[str]:
    for column in range(columns):
        yield item.text(column)
        yield item.toolTip(column)
    for index in range(item.childCount()):
        yield from _item_texts(item.child(index), columns)


def shown_texts(page: QWidget, skip: Iterable[QWidget] = ()) -> Iterator[tuple[str, str]]:
    """(what, text) of every text a person sees on ``page`` (and its tool tips)."""
    skipped = set(skip)
    window = page.window()
    if isinstance(page, QWizardPage):
        yield "title", page.title()
        yield "subtitle", page.subTitle()
    for child in [page, *page.findChildren(QWidget)]:
        if child in skipped or any(s.isAncestorOf(child) for s in skipped):
            continue
        if not child.isVisibleTo(window):
            continue
        name = type(child).__name__ + (f"#{child.objectName()}" if child.objectName() else "")
        if isinstance(child, QLabel):
            yield name, child.text()
        elif isinstance(child, QAbstractButton):
            yield name, child.text()
        elif isinstance(child, QGroupBox):
            yield name, child.title()
        elif isinstance(child, QComboBox):
            for index in range(child.count()):
                yield f"{name}[{index}]", child.itemText(index)
                tip = child.itemData(index, 3)  # Qt.ToolTipRole
                if isinstance(tip, str):
                    yield f"{name}[{index}].toolTip", tip
        elif isinstance(child, QProgressBar):
            yield name, child.text()
        elif isinstance(child, QLineEdit):
            yield name + ".placeholder", child.placeholderText()
        elif isinstance(child, QTextEdit):
            yield name, child.toPlainText()
        elif isinstance(child, QPlainTextEdit):
            yield name, child.toPlainText()
        elif isinstance(child, QTableWidget):
            for column in range(child.columnCount()):
                header = child.horizontalHeaderItem(column)
                if header is not None:
                    yield f"{name}.header", header.text()
            for row in range(child.rowCount()):
                for column in range(child.columnCount()):
                    cell = child.item(row, column)
                    if cell is not None:
                        yield f"{name}[{row},{column}]", cell.text()
                        yield f"{name}[{row},{column}].toolTip", cell.toolTip()
        elif isinstance(child, QTreeWidget):
            header = child.headerItem()
            yield f"{name}.header", " | ".join(header.text(c) for c in range(header.columnCount()))
            for index in range(child.topLevelItemCount()):
                for text in _item_texts(child.topLevelItem(index), child.columnCount()):
                    yield f"{name}.item", text
        if child.toolTip():
            yield name + ".toolTip", child.toolTip()


def english_words(page: QWidget, skip: Iterable[QWidget] = ()) -> list[str]:
    """One line per text of ``page`` with English words in it (empty: none)."""
    found = []
    for what, text in shown_texts(page, skip):
        words = english_in(text or "")
        if words:
            shown = " ".join(text.split())
            found.append(f"{what}: {' '.join(dict.fromkeys(words))!r} in {shown[:160]!r}")
    return found


__all__ = ["NAMES", "english_in", "english_words", "is_english", "shown_texts"]
