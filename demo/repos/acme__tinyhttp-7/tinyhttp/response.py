"""Response objects returned by view functions."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any, Callable, Iterable, List, Optional, Union

from tinyhttp.cookies import dump_cookie
from tinyhttp.headers import Headers

Body = Union[str, bytes, Iterable[bytes]]


class Response:
    """A status, headers and a body.

    ``body`` may be ``str`` (encoded with ``charset``), ``bytes`` or an
    iterable of ``bytes`` for streaming.
    """

    default_mimetype = "text/plain"
    charset = "utf-8"

    def __init__(
        self,
        body: Body = b"",
        status: int = 200,
        headers: Optional[Headers] = None,
        mimetype: Optional[str] = None,
    ) -> None:
        self.status = int(status)
        self.headers = headers if headers is not None else Headers()
        if "Content-Type" not in self.headers:
            mimetype = mimetype or self.default_mimetype
            if mimetype.startswith("text/"):
                mimetype += f"; charset={self.charset}"
            self.headers.set("Content-Type", mimetype)
        self.body = body

    @property
    def status_line(self) -> str:
        return f"{self.status} {HTTPStatus(self.status).phrase}"

    def set_cookie(self, name: str, value: str, **options: Any) -> None:
        self.headers.add("Set-Cookie", dump_cookie(name, value, **options))

    def delete_cookie(self, name: str, path: str = "/") -> None:
        self.set_cookie(name, "", max_age=0, path=path)

    def _chunks(self) -> List[bytes]:
        if isinstance(self.body, str):
            return [self.body.encode(self.charset)]
        if isinstance(self.body, bytes):
            return [self.body]
        return list(self.body)

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        chunks = self._chunks()
        if "Content-Length" not in self.headers:
            self.headers.set("Content-Length", str(sum(len(chunk) for chunk in chunks)))
        start_response(self.status_line, self.headers.to_wsgi())
        if environ.get("REQUEST_METHOD") == "HEAD":
            return []
        return chunks


class JSONResponse(Response):
    default_mimetype = "application/json"

    def __init__(self, data: Any, status: int = 200, **kwargs: Any) -> None:
        super().__init__(json.dumps(data, separators=(",", ":")), status, **kwargs)


def redirect(location: str, status: int = 302) -> Response:
    response = Response(b"", status)
    response.headers.set("Location", location)
    return response
