"""The web server's error boundary: every failure is one JSON object, never a traceback.

The same boundary as the command line (:func:`catalogue.failures.describe`): the words a command would print
after ``catalogue: `` are the ``error`` of the answer, and the failure's ``status`` its HTTP status (400 bad
parameters, 404 an unknown number, 503 a database that cannot answer now, 500 a bug). Bad query parameters name
the parameter, as a bad option names the option. The server's stderr gets one line per failed request (``catalogue:
GET /api/stats: ...``); a bug's traceback only when the server runs with ``-v``.

Answer shape: ``{"error": "<one line>", "status": <code>}``, plus ``"parameter"`` when one parameter is wrong.
"""
from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from ..console import fail


class NotFound(Exception):
    """An unknown puzzle or board number: 404 with this message."""


class BadParameter(Exception):
    """A path or query parameter that is not what it must be: 400 naming it, as FastAPI's own checks do."""

    def __init__(self, parameter: str, message: str):
        super().__init__(f"{parameter}: {message}")
        self.parameter = parameter


def error_response(message: str, status: int, parameter: str | None = None) -> JSONResponse:
    body = {"error": message, "status": status}
    if parameter is not None:
        body["parameter"] = parameter
    return JSONResponse(body, status_code=status)


def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
    """FastAPI's list of problems as one line naming the first parameter, like a CLI usage error."""
    first = exc.errors()[0] if exc.errors() else {}
    location = [str(part) for part in first.get("loc", ()) if part not in ("query", "path", "body")]
    parameter = ".".join(location) or None
    why = str(first.get("msg", "invalid value"))
    given = first.get("input")
    shown = f" (got {given!r})" if isinstance(given, (str, int, float)) and len(repr(given)) <= 80 else ""
    message = f"{parameter}: {why}{shown}" if parameter else why
    return error_response(message, 400, parameter)


def _http(request: Request, exc: HTTPException) -> JSONResponse:
    message = exc.detail if isinstance(exc.detail, str) else f"HTTP {exc.status_code}"
    if exc.status_code == 404 and message == "Not Found":
        message = f"no such page: {request.url.path}"
    return error_response(message, exc.status_code)


def _not_found(request: Request, exc: NotFound) -> JSONResponse:
    return error_response(str(exc), 404)


def _bad_parameter(request: Request, exc: BadParameter) -> JSONResponse:
    return error_response(str(exc), 400, exc.parameter)


class Boundary:
    """ASGI middleware around the routes: any exception a request raises becomes the JSON answer of
    :func:`catalogue.failures.describe`, and one line on the server's stderr naming the request.

    Why a middleware rather than an exception handler for ``Exception``: Starlette runs that handler in its
    outermost middleware and then raises the exception again, so that the server logs a traceback; here the
    exception ends where it is answered."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def sending(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:  # noqa: BLE001 - the boundary
            failure = fail(exc, f"{scope.get('method', '')} {scope.get('path', '')}")
            if started:  # the answer was already under way: nothing better than closing it can be done
                raise
            await error_response(failure.message, failure.status)(scope, receive, send)


def install(app: FastAPI) -> None:
    """Give ``app`` the boundary: one JSON error for bad parameters, unknown numbers, and every other failure."""
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(HTTPException, _http)
    app.add_exception_handler(NotFound, _not_found)
    app.add_exception_handler(BadParameter, _bad_parameter)
    app.add_middleware(Boundary)
