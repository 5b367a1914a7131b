"""Small helpers for URLs, query strings and content types.

These deliberately avoid :mod:`cgi` (deprecated) and keep the behaviour of
browsers where the standard library is stricter.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Tuple
from urllib.parse import quote, unquote

Pairs = List[Tuple[str, str]]


class MultiDict(Dict[str, List[str]]):
    """A dict of lists where ``md[key]`` returns the *first* value."""

    def __init__(self, pairs: Pairs = ()) -> None:
        super().__init__()
        for key, value in pairs:
            self.add(key, value)

    def add(self, key: str, value: str) -> None:
        super().setdefault(key, []).append(value)

    def __getitem__(self, key: str) -> str:
        return super().__getitem__(key)[0]

    def get(self, key: str, default=None):
        values = super().get(key)
        return values[0] if values else default

    def getlist(self, key: str) -> List[str]:
        return list(super().get(key, []))

    def items_multi(self) -> Iterator[Tuple[str, str]]:
        for key, values in super().items():
            for value in values:
                yield key, value


def parse_qsl(query: str, keep_blank: bool = True) -> Pairs:
    """Split ``a=1&b=2`` into ``[("a", "1"), ("b", "2")]``.

    Both ``&`` and ``;`` separate pairs.  A key without ``=`` gets an empty
    value.  Percent escapes are decoded as UTF-8; invalid sequences are
    replaced rather than rejected.
    """
    pairs: Pairs = []
    for chunk in query.replace(";", "&").split("&"):
        if not chunk:
            continue
        key, sep, value = chunk.partition("=")
        if not value and not keep_blank:
            continue
        pairs.append((unquote(key, errors="replace"), unquote(value, errors="replace")))
    return pairs


def urlencode(pairs: Pairs) -> str:
    """The inverse of :func:`parse_qsl` (spaces become ``%20``)."""
    return "&".join(f"{quote(key, safe='')}={quote(value, safe='')}" for key, value in pairs)


def parse_content_type(value: str) -> Tuple[str, Dict[str, str]]:
    """``"text/html; charset=UTF-8"`` -> ``("text/html", {"charset": "UTF-8"})``."""
    mimetype, _, rest = value.partition(";")
    params: Dict[str, str] = {}
    for item in rest.split(";"):
        name, sep, param = item.strip().partition("=")
        if sep:
            params[name.lower()] = param.strip().strip('"')
    return mimetype.strip().lower(), params


def join_path(*parts: str) -> str:
    """Join URL path segments with exactly one slash between them."""
    cleaned = [part.strip("/") for part in parts if part and part.strip("/")]
    return "/" + "/".join(cleaned)
