"""A page's POST forms with the values a browser would send unchanged: what a user sends who
opens the page and presses the button without typing. Used to check that such a post
changes nothing (`tests/test_post_back.py`) and that a value survives its round trip."""

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

# Inputs a browser never sends as a value of their own.
NOT_SENT = {"submit", "button", "reset", "image", "file"}


@dataclass
class RenderedForm:
    action: str
    #: (name, value) pairs in page order, as the browser would send them.
    fields: list[tuple[str, str]] = field(default_factory=list)
    #: The named submit buttons: (name, value); a button without a name adds nothing.
    submitters: list[tuple[str, str]] = field(default_factory=list)
    #: Whether the form has a field a user could change (not only hidden ones).
    editable: bool = False
    #: Each field's kind: an input's type ("text", "number", "date", ...), "select" or
    #: "textarea".
    kinds: dict[str, str] = field(default_factory=dict)

    def body(self, submitter: tuple[str, str] | None = None) -> dict[str, list[str]]:
        data: dict[str, list[str]] = {}
        for name, value in [*self.fields, *([submitter] if submitter else [])]:
            data.setdefault(name, []).append(value)
        return data


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[RenderedForm] = []
        self._form: RenderedForm | None = None
        self._select: dict | None = None
        self._option: dict | None = None
        self._textarea: dict | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: "" if value is None else value for name, value in attrs}
        if tag == "form":
            if a.get("method", "get").lower() == "post":
                self._form = RenderedForm(action=a.get("action", ""))
                self.forms.append(self._form)
            return
        form = self._form
        if form is None:
            return
        name = a.get("name")
        if tag == "input":
            kind = a.get("type", "text").lower()
            if kind == "submit" and name:
                form.submitters.append((name, a.get("value", "")))
            if not name or kind in NOT_SENT or "disabled" in a:
                return
            if kind != "hidden":
                form.editable = True
            form.kinds.setdefault(name, kind)
            if kind in {"checkbox", "radio"}:
                if "checked" in a:
                    form.fields.append((name, a.get("value", "on")))
            else:
                form.fields.append((name, a.get("value", "")))
        elif tag == "button":
            if name and a.get("type", "submit").lower() == "submit":
                form.submitters.append((name, a.get("value", "")))
        elif tag == "select" and name and "disabled" not in a:
            form.editable = True
            form.kinds.setdefault(name, "select")
            self._select = {"name": name, "multiple": "multiple" in a, "options": []}
        elif tag == "option" and self._select is not None:
            self._option = {"value": a.get("value"), "selected": "selected" in a, "text": ""}
            self._select["options"].append(self._option)
        elif tag == "textarea" and name and "disabled" not in a:
            form.editable = True
            form.kinds.setdefault(name, "textarea")
            self._textarea = {"name": name, "text": ""}

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea["text"] += data
        elif self._option is not None:
            self._option["text"] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "option":
            self._option = None
        elif tag == "select" and self._select is not None and self._form is not None:
            options = self._select["options"]
            chosen = [option for option in options if option["selected"]]
            if not chosen and options and not self._select["multiple"]:
                chosen = options[:1]  # a single select sends its first option
            for option in chosen:
                value = option["value"] if option["value"] is not None else option["text"]
                self._form.fields.append((self._select["name"], value))
            self._select = None
        elif tag == "textarea" and self._textarea is not None and self._form is not None:
            # The parser drops nothing; a browser drops one newline right after the tag.
            text = self._textarea["text"]
            self._form.fields.append(
                (self._textarea["name"], text[1:] if text.startswith("\n") else text)
            )
            self._textarea = None


def rendered_forms(html: str, page_url: str) -> list[RenderedForm]:
    """The page's POST forms, each with its action made an absolute path."""
    reader = _Reader()
    reader.feed(html)
    for form in reader.forms:
        form.action = urlsplit(urljoin(page_url, form.action or page_url)).path
    return reader.forms
