"""Every text of the browser pages is in a message catalogue (issue 28 item 7, docs/i18n.md).

The checks read the shipped files: the catalogues (``static/i18n/<code>.json``) hold the same keys with
the same placeholders; every key the JavaScript and the HTML use is in each; every refusal reason the
engine or the server can send, every ruleset field, choice and group has its entry; and no page holds
English of its own: an HTML text or label outside a ``data-i18n`` element, or a JS string that reads as
words where the page shows text, fails here."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pydantic import ValidationError

from liverpool.bots.registry import STYLES, bot_names
from liverpool.cli.narrate import log_keys
from liverpool.coach import Judgement
from liverpool.coach.reasons import ADVICE_KEYS
from liverpool.engine import (
    PRESETS,
    DealEndReason,
    Group,
    MeldKind,
    Phase,
    Problem,
    Reason,
    RulesetProblem,
    field_registry,
    note_keys,
)
from liverpool.engine.problems import ENGLISH
from liverpool.server.errors import LIMITS
from liverpool.server.schemas import FORMS
from liverpool.server.storage import OVER, PLAYING, WAITING
from liverpool.server.talk import REACTIONS
from liverpool.server.tutorial import STEPS

STATIC = Path(__file__).resolve().parents[2] / "liverpool" / "server" / "static"
SERVER = STATIC.parent
I18N = STATIC / "i18n"
LANGUAGES: dict[str, str] = json.loads((I18N / "languages.json").read_text(encoding="utf-8"))["languages"]
CATALOGUES: dict[str, dict[str, str | dict[str, str]]] = {
    code: json.loads((I18N / f"{code}.json").read_text(encoding="utf-8")) for code in LANGUAGES
}
SERVER_WORDS_ONLY = ("doc.", "note.")
"""Keys a catalogue whose language is the server's (``server.words`` is "yes") leaves out: the page shows
the server's own words for them."""

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def js_sources() -> dict[str, str]:
    """The JavaScript without its comments (a key named in a comment is not a use)."""
    out = {}
    for path in sorted((STATIC / "js").glob("*.js")):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        out[path.name] = re.sub(r"^\s*//.*$|\s//\s.*$", "", text, flags=re.M)
    return out


def forms(value: str | dict[str, str]) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def test_english_and_norwegian_are_there() -> None:
    assert {"en", "nb"} <= set(LANGUAGES)
    imported = set(re.findall(r"import (\w+) from \"\.\./i18n/(\w+)\.json\"", js_sources()["i18n.js"]))
    assert {(code, code) for code in LANGUAGES} <= imported, "i18n.js imports every catalogue of languages.json"


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_a_catalogue_has_the_keys_and_placeholders_of_english(code: str) -> None:
    english, other = CATALOGUES["en"], CATALOGUES[code]
    words = other["server.words"] == "yes"
    wanted = {k for k in english if not (words and k.startswith(SERVER_WORDS_ONLY))}
    assert not wanted - set(other), f"{code}.json lacks {sorted(wanted - set(other))}"
    extra = {k for k in set(other) - set(english) if words or not k.startswith(SERVER_WORDS_ONLY)}
    assert not extra, f"{code}.json has keys English has not: {sorted(extra)}"
    for key in wanted:
        want = {p for text in forms(english[key]) for p in PLACEHOLDER.findall(text)}
        have = {p for text in forms(other[key]) for p in PLACEHOLDER.findall(text)}
        assert have == want, f"{code}.json {key}: placeholders {sorted(have)}, English has {sorted(want)}"
        assert all(text.strip() for text in forms(other[key])), f"{code}.json {key} is empty"
        if isinstance(other[key], dict):
            assert "other" in other[key], f"{code}.json {key}: a plural needs its 'other' form"


def static_keys() -> set[str]:
    keys = set()
    for text in js_sources().values():
        keys |= set(re.findall(r"\bt\(\s*\"([^\"]+)\"", text))
    for page in STATIC.glob("*.html"):
        keys |= set(re.findall(r"data-i18n(?:-[a-z-]+)?=\"([^\"]+)\"", page.read_text(encoding="utf-8")))
    return keys


def dynamic_domains() -> dict[str, set[str]]:
    """What a key built at run time (t(`prefix.${...}`)) can end with, from where the value comes."""
    fields = field_registry()
    return {
        "bot.": set(bot_names()),
        "style.": set(STYLES),
        "table_status.": {WAITING, PLAYING, OVER},
        "field.": {f.name for f in fields},
        "doc.": {f.name for f in fields},
        "note.": {key for preset in PRESETS.values() for key in note_keys(preset) if key is not None},
        "group.": {g.name.lower() for g in Group},
        "choice.": {f"{f.name}.{c}" for f in fields if f.kind.value in ("choice", "deals") for c in f.choices},
        "card.rank.": {str(r) for r in range(1, 15)},
        "card.suit.": set("CDHS"),
        "colours.": {"two", "four", "safe"},
        "connection.": {"connecting", "open", "closed", "gone"},
        "controls.swap_": {k.value for k in MeldKind},
        "builder.title_": {k.value for k in MeldKind},
        "builder.title_longer_": {k.value for k in MeldKind},
        "hand.tag_": {k.value for k in MeldKind},
        "list.": {"and", "or"},
        "rules.meld_": {k.value for k in MeldKind},
        "dealend.": {
            f"{r.value}.{washed}"
            for r in DealEndReason
            if r is not DealEndReason.WENT_OUT
            for washed in ("plain", "washed")
        },
        "reason.": reason_codes(),
        "invalid.": {*LIMITS, "missing", "json_invalid"} | form_error_kinds(),
        "input.": {"request"} | {name for model in FORMS.values() for name in model.model_json_schema()["properties"]},
        "judgement.": {j.value for j in Judgement},
        "problem.": {p.value for p in Problem},
        "phase.": {p.value for p in Phase},
        "bad_rules.": {p.value for p in RulesetProblem},
        "tutorial.": set(STEPS),
        "reaction.": set(REACTIONS),
    }


BAD_VALUES = ([], {}, "x" * 10_000, "", 10**9, -(10**9), "abc", 1.5, True, None, {"1": "x" * 100}, ["x"])
"""Values that break a form's fields in each way a field's type allows."""


def form_error_kinds() -> set[str]:
    """Every kind of pydantic error the forms' request models (``schemas.FORMS``) give: each field sent
    each of :data:`BAD_VALUES`, and a body that is not an object or holds an unknown field."""
    kinds = set()
    for model in FORMS.values():
        bodies: list[object] = [[], "x", {"unknown": 1}]
        bodies += [{name: bad} for name in model.model_json_schema()["properties"] for bad in BAD_VALUES]
        for sent in bodies:
            try:
                model.model_validate(sent)
            except ValidationError as exc:
                kinds |= {error["type"] for error in exc.errors()}
    return kinds


def test_the_scan_finds_the_forms_error_kinds() -> None:
    """The kind scan itself: it must see a bound, a type and a shape error (else the checks prove nothing)."""
    assert {
        "string_too_long",
        "less_than_equal",
        "int_parsing",
        "bool_parsing",
        "extra_forbidden",
    } <= form_error_kinds()


def reason_codes() -> set[str]:
    """Every refusal reason the engine (its Reason enum) or the server (Refused, a websocket error or
    close, the error handlers) can send."""
    codes = {r.value for r in Reason}
    patterns = [
        r"Refused\(\s*\d+,\s*\"(\w+)\"",
        r"\berror\(\s*\"(\w+)\"",
        r"\brefuse\(\s*\"(\w+)\"",
        r"_refuse\(\s*websocket,\s*\"(\w+)\"",
        r"_close\(\s*client,\s*\w+,\s*\"(\w+)\"",
        r"\"reason\":\s*\"(\w+)\"",
        r"\d{3}:\s*\"(\w+)\"",
        r"PerMinute\([^)]*\),\s*\"(\w+)\"",
    ]
    for path in SERVER.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for pattern in patterns:
            codes |= set(re.findall(pattern, text))
    return codes


def test_the_scan_finds_the_server_reasons() -> None:
    """The reason scan itself: it must see the reasons sent in each way (else the next test proves nothing)."""
    wanted = {"seat_taken", "stale", "unknown_token", "too_large", "invalid", "not_found", "cannot_buy"}
    assert wanted | {"too_many_tables", "too_many_rulesets", "too_many_connections"} <= reason_codes()


def used_keys() -> set[str]:
    """The keys the pages name, build at run time, or say from the server's phrases (the table log, the
    replay: ``log_keys()``; the coach's hints and reviews: ``ADVICE_KEYS``; docs/i18n.md)."""
    keys = static_keys() | log_keys() | ADVICE_KEYS
    prefixes = set()
    for text in js_sources().values():
        prefixes |= set(re.findall(r"\bt\(\s*`([^`$]*)\$\{", text))
    domains = dynamic_domains()
    unknown = prefixes - set(domains)
    assert not unknown, f"keys built from {sorted(unknown)}: tell dynamic_domains() what they can end with"
    for prefix in prefixes:
        keys |= {prefix + end for end in domains[prefix]}
    return keys


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_key_a_page_uses_is_in_the_catalogue(code: str) -> None:
    catalogue = CATALOGUES[code]
    words = catalogue["server.words"] == "yes"
    missing = sorted(k for k in used_keys() if k not in catalogue and not (words and k.startswith(SERVER_WORDS_ONLY)))
    assert not missing, f"{code}.json lacks {missing}"


def test_every_message_is_used() -> None:
    """A message no page asks for is dead (or its use is hidden from the checks above)."""
    unused = sorted(set(CATALOGUES["en"]) - used_keys())
    assert not unused, f"en.json has messages no page uses: {unused}"


@pytest.mark.parametrize("code", sorted(set(LANGUAGES) - {"en"}))
def test_reasons_fields_choices_and_groups_are_translated(code: str) -> None:
    """The API's words come as codes (a refusal's reason, a ruleset field, a choice, a group): each has
    its entry, so nothing is translated by matching English text."""
    catalogue = CATALOGUES[code]
    domains = dynamic_domains()
    for prefix in ("reason.", "field.", "doc.", "choice.", "group.", "note."):
        missing = sorted(prefix + end for end in domains[prefix] if prefix + end not in catalogue)
        assert not missing, f"{code}.json lacks {missing}"


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_problem_of_the_engine_has_a_message(code: str) -> None:
    """The engine's faults (a meld's, a contract's, a going-down's, a draft's problem) come as codes:
    each has its ``problem.<code>`` with the placeholders of the engine's parameters."""
    catalogue = CATALOGUES[code]
    for problem in Problem:
        key = f"problem.{problem.value}"
        assert key in catalogue, f"{code}.json lacks {key}"
        want = set(PLACEHOLDER.findall(ENGLISH[problem])) - {"s"}
        have = {p for text in forms(catalogue[key]) for p in PLACEHOLDER.findall(text)}
        assert have <= want | {"count"} and want <= have, f"{code}.json {key}: {sorted(have)}, engine {sorted(want)}"


def test_the_english_problems_are_the_engines_sentences() -> None:
    """en.json says a fault as the engine's English does (its ``{s}``: the plural forms of ``count``)."""
    for problem, sentence in ENGLISH.items():
        message = CATALOGUES["en"][f"problem.{problem.value}"]
        if isinstance(message, dict):
            assert message == {"one": sentence.replace("{s}", ""), "other": sentence.replace("{s}", "s")}
        else:
            assert message == sentence, problem


# -- no English outside the catalogue ---------------------------------------------------------------

TEXT_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
WORDY = re.compile(r"[A-Za-z]{2,}")


class PageTexts(HTMLParser):
    """The visible texts of a page, each with the data-i18n key of the element that holds it (or None),
    and its text attributes with their data-i18n-ATTR keys."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[dict[str, str | None]] = []
        self.texts: list[tuple[str, str | None]] = []
        self.attributes: list[tuple[str, str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name in TEXT_ATTRIBUTES:
            if found.get(name):
                self.attributes.append((name, found[name] or "", found.get(f"data-i18n-{name}")))
        if tag not in VOID:
            self.stack.append(found)

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.texts.append((data.strip(), self.stack[-1].get("data-i18n") if self.stack else None))


@pytest.mark.parametrize("page", sorted(p.name for p in STATIC.glob("*.html")))
def test_a_page_has_no_text_outside_the_catalogue(page: str) -> None:
    """Each text is an element's whole text, keyed by data-i18n, and is the English message (which the
    page shows until i18n.js puts the chosen language in)."""
    parser = PageTexts()
    parser.feed((STATIC / page).read_text(encoding="utf-8"))
    english = CATALOGUES["en"]
    bare = [text for text, key in parser.texts if key is None and WORDY.search(text)]
    assert not bare, f"{page}: text without data-i18n: {bare}"
    drift = [(key, text) for text, key in parser.texts if key is not None and english.get(key) != text]
    assert not drift, f"{page}: text that is not the English message of its key: {drift}"
    for name, value, key in parser.attributes:
        if WORDY.search(value):
            assert key is not None, f"{page}: {name}={value!r} without data-i18n-{name}"
            assert english.get(key) == value, f"{page}: {name}={value!r} is not en.json {key}"


def js_literals(source: str) -> list[tuple[int, str]]:
    """Every string and template literal of ``source`` with its offset; a template's ``${...}`` parts are
    left out of its text and their own literals are listed too."""
    found: list[tuple[int, str]] = []
    size = len(source)

    def quoted(i: int) -> int:
        quote, start, i = source[i], i, i + 1
        while i < size and source[i] != quote:
            i += 2 if source[i] == "\\" else 1
        found.append((start, source[start + 1 : i]))
        return i + 1

    def template(i: int) -> int:
        start, text, i = i, "", i + 1
        while i < size and source[i] != "`":
            if source[i] == "\\":
                text, i = text + source[i : i + 2], i + 2
            elif source.startswith("${", i):
                text, i = text + " ", code(i + 2, "}")
            else:
                text, i = text + source[i], i + 1
        found.append((start, text))
        return i + 1

    def code(i: int, closer: str | None) -> int:
        depth = 0
        while i < size:
            char = source[i]
            if char in "\"'":
                i = quoted(i)
                continue
            if char == "`":
                i = template(i)
                continue
            if char in "({[":
                depth += 1
            elif char in ")}]":
                if depth == 0 and char == closer:
                    return i + 1
                depth -= 1
            i += 1
        return i

    code(0, None)
    return found


SHOWN_AS = re.compile(
    r"(\b(text|title|placeholder|alt|label)|\"aria-label\")\s*:\s|\.(textContent|title|placeholder)\s*=\s"
)
"""A segment of code that puts a string where a page shows it: an element's text, a title, an accessible name."""
SHOWN_BY = re.compile(r"(setAttribute\(\s*\"(aria-label|title|placeholder|alt)\",|\b(showError|logLine)\()\s*$")
"""A call whose string argument is shown."""
NOT_SHOWN = re.compile(
    r"(\b(t|has|import|querySelector|querySelectorAll|closest|Error|console\.\w+)\(|\bfrom|[=!]==|\bclass(Name)?\s*[:=])\s*$"
)
"""A string that is a key, a module, a selector, a developer's error, a value compared with, a class list."""
NOTATION = {"JK"}
"""Card notation, the same in every language (a joker's corner)."""


def shown_english(source: str) -> list[str]:
    found = []
    for start, raw in js_literals(source):
        text = re.sub(r"\\.", " ", raw)
        before = source[:start]
        line = before[before.rfind("\n") + 1 :]
        segment = re.split(r"[,;{(]", line)[-1]
        if NOT_SHOWN.search(segment if segment.strip() else line) or not re.search(r"[A-Za-z]", text):
            continue
        if source[start + len(raw) + 2 :].lstrip().startswith(("===", "!==")):
            continue
        shown = (bool(SHOWN_AS.search(segment)) or bool(SHOWN_BY.search(line))) and text not in NOTATION
        prose = re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}|^\s*[A-Z][a-z]+.*[.!?…]\s*$", text) is not None
        if shown or prose:
            found.append(f"{source.count(chr(10), 0, start) + 1}: {raw!r}")
    return found


@pytest.mark.parametrize("name", sorted(js_sources()))
def test_a_script_shows_no_english_of_its_own(name: str) -> None:
    """A string where a page shows text (text:, title:, textContent =, aria-label, an error, a log
    line) or a string that reads as words is a message that belongs in the catalogue: t("key")."""
    found = shown_english(js_sources()[name])
    assert not found, f"{name} shows text that is not in the catalogue: {'; '.join(found)}"
