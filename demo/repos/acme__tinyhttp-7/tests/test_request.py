import pytest

from tinyhttp.exceptions import BadRequest
from tinyhttp.request import Request


def test_method_and_path(environ):
    request = Request(environ("/caf\xc3\xa9", method="post"))
    assert request.method == "POST"
    assert request.path == "/caf\u00e9"


def test_query_args(environ):
    request = Request(environ(query="q=shoes&page=2&tag=a&tag=b"))
    assert request.args["q"] == "shoes"
    assert request.args.get("page") == "2"
    assert request.args.getlist("tag") == ["a", "b"]
    assert request.args.get("missing", "x") == "x"


def test_query_percent_escapes(environ):
    request = Request(environ(query="name=J%C3%BCrgen&empty="))
    assert request.args["name"] == "J\u00fcrgen"
    assert request.args["empty"] == ""


def test_form_body(environ):
    request = Request(
        environ(
            method="POST",
            body=b"user=ada&lang=en",
            content_type="application/x-www-form-urlencoded",
        )
    )
    assert request.form["user"] == "ada"
    assert request.form["lang"] == "en"


def test_form_ignored_for_other_types(environ):
    request = Request(environ(method="POST", body=b"a=1", content_type="text/plain"))
    assert request.form == {}


def test_json_body(environ):
    request = Request(environ(method="POST", body=b'{"a": 1}', content_type="application/json"))
    assert request.get_json() == {"a": 1}


def test_bad_json(environ):
    request = Request(environ(method="POST", body=b"{", content_type="application/json"))
    assert request.get_json(silent=True) is None
    with pytest.raises(BadRequest):
        request.get_json()


def test_cookies(environ):
    request = Request(environ(headers={"Cookie": 'sid=abc; theme="dark"'}))
    assert request.cookies == {"sid": "abc", "theme": "dark"}


def test_invalid_content_length(environ):
    env = environ()
    env["CONTENT_LENGTH"] = "-5"
    with pytest.raises(BadRequest):
        Request(env).content_length
