"""Sentences the core composes, in a form a front end can show in the user's language.

The core stays Qt-free and speaks English: the CLI prints its sentences as they are. The GUI
translates them (``app.i18n.tr_core``) with Qt's translation mechanism, context ``core``:

- a fixed sentence is its own key: mark it with :func:`N_` where it is written (or keep it in a
  data file that ``scripts/translations.py`` reads, such as the known build failures);
- a sentence with values in it is made with :func:`msg`: ``msg("{free} free on {drive}",
  free="3.1 GB", drive="C:")`` is the English text (a ``str``: everything that prints, joins,
  compares or saves it sees the English) that also remembers its template and its values, so
  the GUI translates the template and fills in the same values. A value that is itself a
  :class:`Msg` is translated too.

Joining two sentences with ``+`` or ``" ".join`` makes a plain ``str`` that no longer carries
its template: keep sentences apart (a tuple, two fields) where a front end shows them, or join
them with :func:`join`.

``scripts/translations.py`` collects every ``N_("...")`` and ``msg("...", ...)`` whose first
argument is a string literal in ``kernel_wizard/`` (nothing is imported).
"""

from __future__ import annotations

from collections.abc import Iterable

CONTEXT = "core"


class Msg(str):
    """An English sentence made from ``template`` and ``fields`` (see the module's text)."""

    template: str
    fields: dict[str, object]
    parts: tuple[Msg | str, ...]  # a sentence joined from others (see :func:`join`)
    separator: str

    def __new__(cls, template: str, fields: dict[str, object] | None = None) -> Msg:
        values = dict(fields or {})
        text = template.format(**values) if values else template
        self = super().__new__(cls, text)
        self.template = template
        self.fields = values
        self.parts = ()
        self.separator = ""
        return self

    def __reduce__(self) -> tuple[object, ...]:  # pickles (a process pool) as what it is
        return (_rebuild, (self.template, self.fields, self.parts, self.separator))


def _rebuild(template: str, fields: dict[str, object], parts: tuple[Msg | str, ...],
             separator: str) -> Msg:
    if parts:
        return join(parts, separator)
    return Msg(template, fields)


def msg(template: str, /, **fields: object) -> Msg:
    """``template`` filled with ``fields`` (``str.format``), remembering both for translation.
    ``template`` must be a string literal where it is called (the collector reads it)."""
    return Msg(template, fields)


def N_(text: str) -> str:  # noqa: N802 - the customary name of the marker
    """Marks a fixed sentence for translation where it is written; returns it unchanged."""
    return text


def join(parts: Iterable[Msg | str], separator: str = " ") -> Msg:
    """Sentences joined (English: with ``separator``), each one still translatable."""
    items = tuple(p for p in parts if p)
    joined = Msg(separator.join(items))
    joined.parts = items
    joined.separator = separator
    return joined


__all__ = ["CONTEXT", "Msg", "N_", "join", "msg"]
