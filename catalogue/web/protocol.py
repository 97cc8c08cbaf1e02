"""uvicorn's HTTP protocol, answering a request it cannot parse in the API's error shape.

uvicorn answers a request that is not HTTP (a malformed request line, a bad header, a body past its limits)
itself, before the application sees it, with a ``text/plain`` 400 "Invalid HTTP request received."; every other
error of the API is JSON (``{"error", "status"}``: :mod:`catalogue.web.errors`), and a client that reads the
shape of one should read the shape of all. This protocol sends the same 400 as JSON; everything else is uvicorn's.
"""
from __future__ import annotations

import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


class JsonErrorsProtocol(H11Protocol):
    """uvicorn's h11 protocol (the one it picks without httptools), with its 400 answer as JSON."""

    def send_400_response(self, msg: str) -> None:
        body = json.dumps({"error": f"malformed HTTP request: {msg.rstrip('.').lower()}", "status": 400}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close")]
        # the same events in the same order as uvicorn's own answer: h11 accepts a response after a bad request
        self.transport.write(self.conn.send(h11.Response(status_code=400, headers=headers, reason=b"Bad Request")))
        self.transport.write(self.conn.send(h11.Data(data=body)))
        self.transport.write(self.conn.send(h11.EndOfMessage()))
        self.transport.close()
