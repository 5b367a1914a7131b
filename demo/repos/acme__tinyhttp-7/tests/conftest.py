import io

import pytest


def make_environ(path="/", query="", method="GET", body=b"", content_type=None, headers=None):
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
    }
    if body:
        environ["CONTENT_LENGTH"] = str(len(body))
    if content_type:
        environ["CONTENT_TYPE"] = content_type
    for name, value in (headers or {}).items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    return environ


@pytest.fixture
def environ():
    return make_environ
