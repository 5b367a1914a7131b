"""The WSGI application object."""

from __future__ import annotations

import logging
import traceback
from typing import Callable, Iterable, List

from tinyhttp.exceptions import HTTPError, MethodNotAllowed
from tinyhttp.request import Request
from tinyhttp.response import Response
from tinyhttp.routing import Router

log = logging.getLogger("tinyhttp")

Middleware = Callable[[Request, Callable[[Request], Response]], Response]


class App:
    """Collects routes and middleware and serves them over WSGI.

    Example::

        app = App()

        @app.route("/items/<int:item_id>", methods=["GET", "DELETE"])
        def item(request, item_id):
            ...
    """

    def __init__(self, debug: bool = False) -> None:
        self.debug = debug
        self.router = Router()
        self._middleware: List[Middleware] = []

    def route(self, pattern: str, methods: Iterable[str] = ("GET",)) -> Callable:
        def decorator(view: Callable) -> Callable:
            self.router.add(pattern, view, methods)
            return view

        return decorator

    def use(self, middleware: Middleware) -> Middleware:
        """Register ``middleware(request, call_next) -> Response``; first added runs outermost."""
        self._middleware.append(middleware)
        return middleware

    def _dispatch(self, request: Request) -> Response:
        rule, params = self.router.resolve(request.method, request.path)
        request.route_params = {key: str(value) for key, value in params.items()}
        result = rule.view(request, **params)
        if isinstance(result, Response):
            return result
        if isinstance(result, (str, bytes)):
            return Response(result)
        raise TypeError(f"view {rule.view.__name__} returned {type(result).__name__}")

    def handle(self, request: Request) -> Response:
        handler = self._dispatch
        for middleware in reversed(self._middleware):
            handler = (lambda mw, nxt: lambda req: mw(req, nxt))(middleware, handler)
        try:
            return handler(request)
        except HTTPError as error:
            response = Response(str(error), error.status)
            if isinstance(error, MethodNotAllowed):
                response.headers.set("Allow", ", ".join(error.allowed))
            return response
        except Exception:
            log.exception("unhandled error for %r", request)
            body = traceback.format_exc() if self.debug else "Internal Server Error"
            return Response(body, 500)

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        return self.handle(Request(environ))(environ, start_response)
