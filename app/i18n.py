"""Translations: every text the wizard shows goes through Qt's translation mechanism.

- ``tr("Text")`` translates one text (context ``ksw``) when it is shown;
- ``Texts("VerifyPage", {...})`` holds a page's sentences and translates each one when it is
  read (``TEXT["fail"]``), so templates keep their ``{fields}`` and are filled in after;
- :func:`install_translator` loads ``resources/translations/ksw_<language>.qm`` for the
  system's language (or ``KSW_LANG``, e.g. ``zh_CN``; ``KSW_LANG=en`` turns translation off).

``scripts/translations.py`` collects these texts into ``resources/translations/*.ts`` (Qt
Linguist files a translator edits) and compiles them into the ``.qm`` files shipped with the
wizard. Simplified Chinese is the first translation.

Sentences made in the core (``kernel_wizard``: diagnoses, reasons, hints) are English there
(the CLI prints them); :func:`tr_core` shows them in the user's language, through the same
files (context ``core``; see ``kernel_wizard/base/messages.py``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from kernel_wizard.base import messages as words
from kernel_wizard.base.resources import resources_root

CONTEXT = "ksw"
NAMES_CONTEXT = "KernelNames"
LANGUAGES = ("zh_CN",)  # the shipped translations
LANG_ENV = "KSW_LANG"


def N_(text: str) -> str:  # noqa: N802 - the customary name of the marker
    """Marks ``text`` for translation where it is defined; ``tr()`` translates it where it is
    shown (``scripts/translations.py`` collects both)."""
    return text


def tr(text: str) -> str:
    """``text`` in the user's language (itself when there is no translation)."""
    return QCoreApplication.translate(CONTEXT, text)


def tr_core(text: str) -> str:
    """A sentence the core made, in the user's language: a :class:`~kernel_wizard.base.messages.Msg`
    by its template (its values filled in after, those that are sentences translated too: a
    :class:`Msg`, or a fixed sentence marked ``N_`` that the translation knows; a value it does
    not know, such as a path or a version, is shown as it is), a fixed sentence by itself.
    English where there is no translation, or where a translation's template does not fit the
    values (a translator's slip never costs the user the message)."""
    if isinstance(text, words.Msg):
        if text.parts:
            return text.separator.join(tr_core(part) for part in text.parts)
        template = QCoreApplication.translate(words.CONTEXT, text.template)
        if not text.fields:
            return template
        values = {key: _value(value) for key, value in text.fields.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError, AttributeError):
            return str(text)
    return QCoreApplication.translate(words.CONTEXT, text) if text else text


def _value(value: object) -> object:
    """A value in a core sentence: a sentence or a kernel's name translated, others as they
    are."""
    if not isinstance(value, str):
        return value
    shown = tr_core(value)
    return kernel_name(value) if shown == value and not isinstance(value, words.Msg) else shown


class Texts(Mapping[str, str]):
    """A page's sentences, translated when read (context: the page's name)."""

    def __init__(self, context: str, texts: Mapping[str, str]) -> None:
        self.context = context
        self._texts = dict(texts)

    def __getitem__(self, key: str) -> str:
        return QCoreApplication.translate(self.context, self._texts[key])

    def english(self, key: str) -> str:
        """The text as it is written (untranslated)."""
        return self._texts[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)


# The catalog's names that describe rather than name (resources/recipes: a recipe's ``name``,
# a version's ``label``, a wheel source's ``name``); a name that is a name (FlashAttention 2,
# 2.8.3) is not here. tests/gui/test_walkthrough_zh.py shows the real catalog in Chinese.
KERNEL_NAMES = Texts("KernelNames", {
    "probe": "Probe kernel",
    "deepep_v1": "V1 (legacy Buffer API, 2026-02-03)",
    "deepep_v2": "V2 (main, 2026-07-14)",
    "flashmla": "1.0.0 (main, 2026-04-29)",
    "fa2_releases": "Dao-AILab/flash-attention releases",
})


def kernel_name(name: str) -> str:
    """A kernel's (or a version's, or a wheel source's) name from the catalog, in the user's
    language where it is a description rather than a name ("Probe kernel"; FlashAttention
    stays FlashAttention). The core also joins them ("DeepEP V2 (main, 2026-07-14)"): each
    one inside is translated."""
    if not name:
        return name
    whole = QCoreApplication.translate(NAMES_CONTEXT, name)
    if whole != name:
        return whole
    for key in KERNEL_NAMES:
        english = KERNEL_NAMES.english(key)
        if english in name:
            name = name.replace(english, KERNEL_NAMES[key])
    return name


def choose_language(environ: Mapping[str, str], system_locale: str) -> str | None:
    """The shipped translation for ``KSW_LANG`` or the system locale ("zh_CN", "zh_Hans_CN",
    "zh-SG" → "zh_CN"); None for English or a language without a translation."""
    wanted = (environ.get(LANG_ENV) or system_locale or "").replace("-", "_")
    parts = [p.lower() for p in wanted.split("_") if p]
    if not parts or parts[0] == "en" or parts[0] in ("c", "posix"):
        return None
    if parts[0] == "zh" and not {"tw", "hk", "mo", "hant"} & set(parts[1:]):
        return "zh_CN"
    return next((lang for lang in LANGUAGES if lang.lower() == "_".join(parts)), None)


def translations_dir() -> Path:
    return resources_root() / "translations"


def install_translator(app: QCoreApplication, environ: Mapping[str, str] | None = None,
                       system_locale: str | None = None) -> str | None:
    """Load the translation for the user's language into ``app``; the language, or None."""
    env = os.environ if environ is None else environ
    language = choose_language(env, system_locale if system_locale is not None
                               else QLocale.system().name())
    if language is None:
        return None
    translator = QTranslator(app)
    if not translator.load(str(translations_dir() / f"ksw_{language}.qm")):
        return None
    app.installTranslator(translator)
    qt_own = QTranslator(app)  # Qt's own words: the wizard's Next / Back / Cancel buttons
    if qt_own.load(f"qtbase_{language}",
                   QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_own)
    return language
