"""catalogue serve: the catalogue, read-only, over HTTP (a FastAPI application run by uvicorn)."""
from __future__ import annotations

import signal
import socket
from typing import Annotated

import typer

from ...console import report
from ...errors import Terminated, UserError
from ..options import DbOption


#: how long a stop signal lets the requests being answered finish before they are cancelled
SHUTDOWN_SECONDS = 1


def quiet_cancels(record) -> bool:
    """A logging filter for uvicorn's error logger: the requests a stop cancels after SHUTDOWN_SECONDS are not
    errors (uvicorn logged "Cancel 1 running task(s), timeout graceful shutdown exceeded" and each request's
    CancelledError with a traceback, under the command's one line); every other record passes."""
    import asyncio

    exc = record.exc_info[1] if record.exc_info else None
    return not (isinstance(exc, asyncio.CancelledError) or str(record.msg).startswith("Cancel %s running task"))


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
        import logging

        import uvicorn

        from ...web.app import make_app
        from ...web.protocol import JsonErrorsProtocol

        application = make_app(db)  # a missing or unusable catalogue is refused before anything listens
        sock = listen(host, port)
        bound = sock.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        report(f"serving {application.state.catalogue.label} at http://{shown}:{bound}/ (API documentation at "
               f"/docs); Ctrl-C stops")
        # Ctrl-C and SIGTERM: uvicorn stops listening, closes idle connections, gives the requests being answered
        # SHUTDOWN_SECONDS to finish, cancels the rest, then raises the signal again under our handler (Ctrl-C's
        # KeyboardInterrupt, SIGTERM's Terminated: catalogue.signals), which ends the command with one line and
        # exit 130 within the 2 s every command has to stop (docs/reliability.md, "Stopping"); a request thread
        # still inside a kernel is not waited for (catalogue.cli._leave)
        config = uvicorn.Config(application, log_config=None, log_level="warning", access_log=False,
                                timeout_graceful_shutdown=SHUTDOWN_SECONDS, http=JsonErrorsProtocol)
        server = uvicorn.Server(config)
        logging.getLogger("uvicorn.error").addFilter(quiet_cancels)
        server.run(sockets=[sock])
        if server.should_exit:
            # stopped by a signal that uvicorn then raised again under the handler we started with; when that
            # handler ignores the signal (a background job of a script inherits an ignored SIGINT) the raise does
            # nothing, and the command would say 0 as if it had ended by itself: it was stopped, 130 as after Ctrl-C
            raise Terminated if signal.SIGTERM in getattr(server, "_captured_signals", ()) else KeyboardInterrupt
