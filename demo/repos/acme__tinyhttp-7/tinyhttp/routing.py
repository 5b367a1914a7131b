"""URL rules such as ``/users/<int:id>`` and the router that matches them."""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional, Pattern, Tuple

from tinyhttp.exceptions import MethodNotAllowed, NotFound

_PARAM = re.compile(r"<(?:(?P<conv>[a-z]+):)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)>")

_CONVERTERS: Dict[str, Tuple[str, Callable[[str], object]]] = {
    "str": (r"[^/]+", str),
    "int": (r"\d+", int),
    "path": (r".+", str),
}


class Rule:
    """One URL pattern bound to a view for a set of methods."""

    def __init__(self, pattern: str, view: Callable, methods=("GET",)) -> None:
        if not pattern.startswith("/"):
            raise ValueError(f"rule must start with '/': {pattern!r}")
        self.pattern = pattern
        self.view = view
        self.methods = {method.upper() for method in methods}
        if "GET" in self.methods:
            self.methods.add("HEAD")
        self._regex, self._converters = self._compile(pattern)

    @staticmethod
    def _compile(pattern: str) -> Tuple[Pattern[str], Dict[str, Callable]]:
        regex = "^"
        converters: Dict[str, Callable] = {}
        position = 0
        for match in _PARAM.finditer(pattern):
            regex += re.escape(pattern[position : match.start()])
            conv = match.group("conv") or "str"
            if conv not in _CONVERTERS:
                raise ValueError(f"unknown converter {conv!r} in {pattern!r}")
            fragment, python_type = _CONVERTERS[conv]
            regex += f"(?P<{match.group('name')}>{fragment})"
            converters[match.group("name")] = python_type
            position = match.end()
        regex += re.escape(pattern[position:]) + "$"
        return re.compile(regex), converters

    def match(self, path: str) -> Optional[Dict[str, object]]:
        found = self._regex.match(path)
        if found is None:
            return None
        return {name: self._converters[name](value) for name, value in found.groupdict().items()}


class Router:
    """An ordered list of rules; the first matching rule wins."""

    def __init__(self) -> None:
        self.rules: List[Rule] = []

    def add(self, pattern: str, view: Callable, methods=("GET",)) -> Rule:
        rule = Rule(pattern, view, methods)
        self.rules.append(rule)
        return rule

    def resolve(self, method: str, path: str) -> Tuple[Rule, Dict[str, object]]:
        """Find the rule for ``method`` and ``path``.

        Raises :class:`NotFound` when no pattern matches and
        :class:`MethodNotAllowed` when patterns match but none allows the
        method.
        """
        allowed = set()
        for rule in self.rules:
            params = rule.match(path)
            if params is None:
                continue
            if method.upper() in rule.methods:
                return rule, params
            allowed |= rule.methods
        if allowed:
            raise MethodNotAllowed(allowed)
        raise NotFound(f"no route for {path}")
