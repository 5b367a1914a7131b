"""HTTP errors that handlers may raise to short-circuit a request."""

from __future__ import annotations

from http import HTTPStatus
from typing import Optional


class HTTPError(Exception):
    """An error that maps directly to an HTTP status code."""

    def __init__(self, status: int, description: Optional[str] = None) -> None:
        self.status = int(status)
        self.description = description or HTTPStatus(self.status).description
        super().__init__(self.status, self.description)

    @property
    def reason(self) -> str:
        return HTTPStatus(self.status).phrase

    def __str__(self) -> str:
        return f"{self.status} {self.reason}: {self.description}"


class NotFound(HTTPError):
    def __init__(self, description: Optional[str] = None) -> None:
        super().__init__(404, description)


class MethodNotAllowed(HTTPError):
    def __init__(self, allowed, description: Optional[str] = None) -> None:
        super().__init__(405, description)
        self.allowed = sorted(allowed)


class BadRequest(HTTPError):
    def __init__(self, description: Optional[str] = None) -> None:
        super().__init__(400, description)


def abort(status: int, description: Optional[str] = None) -> None:
    """Raise the :class:`HTTPError` for ``status``."""
    if status == 404:
        raise NotFound(description)
    if status == 400:
        raise BadRequest(description)
    raise HTTPError(status, description)
