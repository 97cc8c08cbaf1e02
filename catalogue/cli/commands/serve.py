"""catalogue serve: the catalogue, read-only, over HTTP (a FastAPI application run by uvicorn)."""
from __future__ import annotations

import socket
from typing import Annotated

import typer

from ...console import report
from ...errors import UserError
from ..options import DbOption


def listen(host: str, port: int) -> socket.socket:
    """A listening socket, bound here rather than by uvicorn: a port in use or a host that is not ours is then
    one line naming the address (uvicorn logs such errors in several lines of its own and exits)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise UserError(f"--host {host}: not a host name or address of this machine ({e})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        raise UserError(f"cannot listen on {host}:{port}: {(e.strerror or str(e)).lower()}") from None
    return sock


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 for every interface).")] = "127.0.0.1",
        port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on; 0 picks a free one.")] = 8000,
        db: DbOption = None,
    ) -> None:
        """Serve the catalogue read-only over HTTP: a JSON API with OpenAPI docs.

        The API has the filters and field names of catalogue query: /api/puzzles, /api/puzzles/N, /api/boards/N
        and /api/stats; its documentation is at /docs. Errors are one JSON object with the line a command would
        print. Nothing is ever written, and the server keeps answering while catalogue fill adds boards. Ctrl-C
        stops it. The example reads demo.db, made by catalogue fill's example.

        \b
        Examples:
          catalogue serve --db demo.db --port 8765 &
          curl -s 'http://127.0.0.1:8765/api/puzzles?order_by=clues&limit=2'
          curl -s 'http://127.0.0.1:8765/api/boards/0'
        """
        import uvicorn

        from ...web.app import make_app
        from ...web.protocol import JsonErrorsProtocol

        application = make_app(db)  # a missing or unusable catalogue is refused before anything listens
        sock = listen(host, port)
        bound = sock.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        report(f"serving {application.state.catalogue.label} at http://{shown}:{bound}/ (API documentation at "
               f"/docs); Ctrl-C stops")
        config = uvicorn.Config(application, log_config=None, log_level="warning", access_log=False,
                                timeout_graceful_shutdown=5, http=JsonErrorsProtocol)
        server = uvicorn.Server(config)
        server.run(sockets=[sock])
        if server.should_exit:
            # stopped by a signal that uvicorn then raised again under the handler we started with; when that
            # handler ignores SIGINT (a background job of a script inherits that) the raise does nothing, and the
            # command would say 0 as if it had ended by itself: it was interrupted, exit 130 as after Ctrl-C
            raise KeyboardInterrupt
