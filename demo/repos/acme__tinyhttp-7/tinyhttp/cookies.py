"""Parsing ``Cookie`` request headers and building ``Set-Cookie`` values."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Dict, Optional

_SAMESITE = {"lax": "Lax", "strict": "Strict", "none": "None"}


def parse_cookie_header(value: str) -> Dict[str, str]:
    """``"a=1; b=two"`` -> ``{"a": "1", "b": "two"}``.

    Later duplicates win, which matches what browsers send first for the more
    specific path.  Quoted values are unquoted.
    """
    cookies: Dict[str, str] = {}
    for item in value.split(";"):
        name, sep, raw = item.strip().partition("=")
        if not sep or not name:
            continue
        raw = raw.strip()
        if len(raw) >= 2 and raw[0] == raw[-1] == '"':
            raw = raw[1:-1]
        cookies[name] = raw
    return cookies


def dump_cookie(
    name: str,
    value: str,
    max_age: Optional[int] = None,
    expires: Optional[datetime] = None,
    path: str = "/",
    domain: Optional[str] = None,
    secure: bool = False,
    httponly: bool = True,
    samesite: Optional[str] = "lax",
) -> str:
    """Build the value of a ``Set-Cookie`` header."""
    if any(ch in name for ch in ' ;,="'):
        raise ValueError(f"invalid cookie name: {name!r}")
    parts = [f"{name}={value}"]
    if max_age is not None:
        parts.append(f"Max-Age={int(max_age)}")
    if expires is not None:
        when = expires.astimezone(timezone.utc)
        parts.append("Expires=" + when.strftime("%a, %d %b %Y %H:%M:%S GMT"))
    if path:
        parts.append(f"Path={path}")
    if domain:
        parts.append(f"Domain={domain}")
    if secure:
        parts.append("Secure")
    if httponly:
        parts.append("HttpOnly")
    if samesite:
        try:
            parts.append("SameSite=" + _SAMESITE[samesite.lower()])
        except KeyError:
            raise ValueError(f"invalid SameSite value: {samesite!r}") from None
    return "; ".join(parts)
