"""The request object handed to every view function."""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any, Dict, Optional
from urllib.parse import unquote

from tinyhttp.cookies import parse_cookie_header
from tinyhttp.exceptions import BadRequest
from tinyhttp.headers import Headers
from tinyhttp.utils import MultiDict, parse_content_type, parse_qsl

#: Bodies larger than this are rejected before they are read.
MAX_CONTENT_LENGTH = 4 * 1024 * 1024


class Request:
    """A thin, lazily parsed view over a WSGI ``environ``.

    Nothing is parsed until it is asked for, and everything is parsed at most
    once (``cached_property``).
    """

    def __init__(self, environ: Dict[str, Any]) -> None:
        self.environ = environ
        self.route_params: Dict[str, str] = {}

    # -- request line ------------------------------------------------------

    @property
    def method(self) -> str:
        return self.environ.get("REQUEST_METHOD", "GET").upper()

    @property
    def path(self) -> str:
        raw = self.environ.get("PATH_INFO", "") or "/"
        # PEP 3333: PATH_INFO is latin-1 decoded bytes; re-decode as UTF-8.
        return raw.encode("latin-1").decode("utf-8", "replace")

    @property
    def query_string(self) -> str:
        return self.environ.get("QUERY_STRING", "")

    @cached_property
    def args(self) -> MultiDict:
        """Query string parameters (``?q=term&page=2``)."""
        return MultiDict(parse_qsl(self.query_string))

    # -- headers and cookies -------------------------------------------------

    @cached_property
    def headers(self) -> Headers:
        return Headers.from_environ(self.environ)

    @cached_property
    def cookies(self) -> Dict[str, str]:
        return parse_cookie_header(self.headers.get("Cookie", ""))

    @property
    def content_type(self) -> str:
        mimetype, _ = parse_content_type(self.headers.get("Content-Type", ""))
        return mimetype

    @property
    def content_length(self) -> Optional[int]:
        value = self.headers.get("Content-Length")
        if not value:
            return None
        try:
            length = int(value)
        except ValueError:
            raise BadRequest("invalid Content-Length") from None
        if length < 0:
            raise BadRequest("invalid Content-Length")
        return length

    # -- body ----------------------------------------------------------------

    @cached_property
    def body(self) -> bytes:
        length = self.content_length
        if not length:
            return b""
        if length > MAX_CONTENT_LENGTH:
            raise BadRequest("request body too large")
        return self.environ["wsgi.input"].read(length)

    @cached_property
    def form(self) -> MultiDict:
        """Fields of an ``application/x-www-form-urlencoded`` body."""
        form = MultiDict()
        if self.content_type != "application/x-www-form-urlencoded":
            return form
        _, params = parse_content_type(self.headers.get("Content-Type", ""))
        charset = params.get("charset", "utf-8")
        text = self.body.decode(charset, "replace")
        for chunk in text.split("&"):
            key, _, value = chunk.partition("=")
            if key:
                form.add(unquote(key), unquote(value))
        return form

    def get_json(self, silent: bool = False) -> Any:
        """Decode a JSON body; ``None`` for other content types."""
        if self.content_type != "application/json":
            return None
        try:
            return json.loads(self.body.decode("utf-8"))
        except ValueError:
            if silent:
                return None
            raise BadRequest("malformed JSON body") from None

    def __repr__(self) -> str:
        return f"<Request {self.method} {self.path!r}>"
