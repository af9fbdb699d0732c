"""The core's translatable sentences (base/messages.py): English wherever the core's text
is used as a string (the CLI, logs, reports, comparisons), with the template and values kept
for the GUI's translation (tests/gui/test_translation.py shows them translated)."""

from __future__ import annotations

import json
import pickle

from kernel_wizard.base.messages import Msg, join, msg


def test_a_message_is_its_english_sentence_everywhere_a_string_is_used() -> None:
    text = msg("{free} free on {drive}; the build needs {need}.", free="3.1 GB", drive="C:",
               need="12 GB")
    assert text == "3.1 GB free on C:; the build needs 12 GB."
    assert isinstance(text, str) and isinstance(text, Msg)
    assert f"! {text}" == "! 3.1 GB free on C:; the build needs 12 GB."
    assert json.dumps({"hint": text}) == '{"hint": "3.1 GB free on C:; the build needs 12 GB."}'
    assert text.template == "{free} free on {drive}; the build needs {need}."
    assert text.fields == {"free": "3.1 GB", "drive": "C:", "need": "12 GB"}


def test_a_fixed_sentence_keeps_braces_it_has_no_values_for() -> None:
    assert msg("Use {braces} literally") == "Use {braces} literally"


def test_messages_survive_pickling_with_their_template() -> None:
    original = msg("{n} checks failed", n=3)
    joined = join([original, msg("Fix {what} first.", what="CUDA")])
    for value in (original, joined):
        back = pickle.loads(pickle.dumps(value))
        assert back == value and isinstance(back, Msg)
    assert pickle.loads(pickle.dumps(original)).fields == {"n": 3}
    again = pickle.loads(pickle.dumps(joined))
    assert [p.template for p in again.parts if isinstance(p, Msg)] == [
        "{n} checks failed", "Fix {what} first."]


def test_joined_sentences_read_as_one_and_keep_their_parts() -> None:
    first, second = msg("The driver is {v}.", v="580.95"), "Restart the computer."
    joined = join([first, "", second])
    assert joined == "The driver is 580.95. Restart the computer."
    assert joined.parts == (first, second)
    assert join([first, second], "\n") == "The driver is 580.95.\nRestart the computer."
