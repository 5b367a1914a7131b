"""tinyhttp -- a very small WSGI toolkit.

Import everything you need from the top-level package::

    from tinyhttp import App, Request, Response, abort
"""

from tinyhttp.app import App
from tinyhttp.exceptions import HTTPError, NotFound, abort
from tinyhttp.headers import Headers
from tinyhttp.request import Request
from tinyhttp.response import JSONResponse, Response, redirect

__version__ = "0.3.0"

__all__ = [
    "App",
    "HTTPError",
    "Headers",
    "JSONResponse",
    "NotFound",
    "Request",
    "Response",
    "abort",
    "redirect",
]
