from tinyhttp import App, JSONResponse, Response
from tinyhttp.request import Request


def call(app, environ):
    captured = {}

    def start_response(status, headers):
        captured["status"] = status
        captured["headers"] = dict(headers)

    body = b"".join(app(environ, start_response))
    return captured["status"], captured["headers"], body


def test_route_with_int_param(environ):
    app = App()

    @app.route("/items/<int:item_id>")
    def item(request, item_id):
        return JSONResponse({"id": item_id, "q": request.args.get("q")})

    status, headers, body = call(app, environ("/items/42", query="q=x"))
    assert status == "200 OK"
    assert headers["Content-Type"] == "application/json"
    assert body == b'{"id":42,"q":"x"}'


def test_not_found(environ):
    status, _, _ = call(App(), environ("/nope"))
    assert status == "404 Not Found"


def test_method_not_allowed_sets_allow(environ):
    app = App()
    app.route("/only-get")(lambda request: "ok")
    status, headers, _ = call(app, environ("/only-get", method="DELETE"))
    assert status == "405 Method Not Allowed"
    assert headers["Allow"] == "GET, HEAD"


def test_middleware_order(environ):
    app = App()
    seen = []

    @app.use
    def outer(request: Request, call_next):
        seen.append("outer")
        return call_next(request)

    @app.use
    def inner(request: Request, call_next):
        seen.append("inner")
        response = call_next(request)
        response.headers.set("X-Inner", "1")
        return response

    app.route("/")(lambda request: Response("home"))
    _, headers, body = call(app, environ("/"))
    assert seen == ["outer", "inner"]
    assert headers["X-Inner"] == "1"
    assert body == b"home"
