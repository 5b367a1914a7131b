"""A case-insensitive, order-preserving header collection."""

from __future__ import annotations

from typing import Iterable, Iterator, List, Optional, Tuple

HeaderList = List[Tuple[str, str]]


class Headers:
    """HTTP headers.

    Lookups ignore case; iteration yields ``(name, value)`` pairs in insertion
    order with the name spelled as it was first added.  A name may occur more
    than once (``Set-Cookie``).
    """

    def __init__(self, items: Iterable[Tuple[str, str]] = ()) -> None:
        self._items: HeaderList = []
        for name, value in items:
            self.add(name, value)

    @classmethod
    def from_environ(cls, environ: dict) -> "Headers":
        headers = cls()
        for key, value in environ.items():
            if key.startswith("HTTP_"):
                headers.add(key[5:].replace("_", "-").title(), value)
            elif key in ("CONTENT_TYPE", "CONTENT_LENGTH") and value:
                headers.add(key.replace("_", "-").title(), value)
        return headers

    def add(self, name: str, value: str) -> None:
        if "\n" in value or "\r" in value:
            raise ValueError("header values must not contain newlines")
        self._items.append((name, str(value)))

    def set(self, name: str, value: str) -> None:
        """Replace every value of ``name`` by a single ``value``."""
        self.remove(name)
        self.add(name, value)

    def remove(self, name: str) -> None:
        lower = name.lower()
        self._items = [item for item in self._items if item[0].lower() != lower]

    def get(self, name: str, default: Optional[str] = None) -> Optional[str]:
        lower = name.lower()
        for key, value in self._items:
            if key.lower() == lower:
                return value
        return default

    def get_all(self, name: str) -> List[str]:
        lower = name.lower()
        return [value for key, value in self._items if key.lower() == lower]

    def __getitem__(self, name: str) -> str:
        value = self.get(name)
        if value is None:
            raise KeyError(name)
        return value

    def __setitem__(self, name: str, value: str) -> None:
        self.set(name, value)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[Tuple[str, str]]:
        return iter(list(self._items))

    def __len__(self) -> int:
        return len(self._items)

    def to_wsgi(self) -> HeaderList:
        return list(self._items)

    def __repr__(self) -> str:
        return f"Headers({self._items!r})"
