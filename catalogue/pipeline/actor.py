"""Actors: named threads with a lifecycle, bounded channels between them, and a supervisor that hears failures.

The shape follows pykka and CPython's thread pool:

* an :class:`Actor` is a named, non-daemon thread; ``on_start`` runs first, then ``work`` (by default: take
  messages from the inbox and ``handle`` each one), then ``on_stop`` always; an exception anywhere goes to
  ``on_failure``, which hands it to the :class:`Supervisor` instead of printing it and dying quietly;
* a :class:`Channel` is a bounded queue (backpressure: a fast producer waits for a slow consumer) whose ``put`` and
  ``get`` wait in short slices and raise :class:`Stopped` as soon as the caller's stop event is set, so a dead
  consumer never blocks a producer forever and every actor notices a shutdown within one slice;
* end of input is one :data:`CLOSED` sentinel that every consumer puts back before leaving, so one ``close()``
  stops any number of consumers.
"""
from __future__ import annotations

import os
import queue
import threading
import time
from typing import Any

from ..config import FAIL_ENV

#: end-of-stream marker; each consumer that takes it puts it back for the next one
CLOSED = object()

#: how long one wait slice lasts: the longest an actor takes to notice its stop event while idle
POLL_SECONDS = 0.05



class Stopped(Exception):
    """Raised inside an actor when its stop event is set while it waits on a channel."""


class InjectedFailure(RuntimeError):
    """The exception the test hook raises."""


class Channel:
    """A bounded FIFO between two stages whose waits give up when a stop event is set."""

    def __init__(self, name: str, capacity: int):
        self.name = name
        self.capacity = capacity
        self._queue: queue.Queue = queue.Queue(maxsize=max(1, capacity))

    def put(self, item: Any, stop: threading.Event) -> None:
        while True:
            if stop.is_set():
                raise Stopped(self.name)
            try:
                self._queue.put(item, timeout=POLL_SECONDS)
                return
            except queue.Full:
                continue

    def get(self, stop: threading.Event) -> Any:
        """The next message, or :data:`CLOSED` once the producers have closed the channel (it is put back)."""
        while True:
            if stop.is_set():
                raise Stopped(self.name)
            try:
                item = self._queue.get(timeout=POLL_SECONDS)
            except queue.Empty:
                continue
            if item is CLOSED:
                self.put(CLOSED, stop)  # for the next consumer; there is room: we just took a slot
            return item

    def close(self, stop: threading.Event) -> None:
        """Tell the consumers that no more messages will come (call once all producers have finished)."""
        self.put(CLOSED, stop)

    def drain(self) -> list:
        """Take every message still queued, without waiting (used to count work left in flight)."""
        items = []
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return items
            if item is not CLOSED:
                items.append(item)

    def qsize(self) -> int:
        return self._queue.qsize()


class Supervisor:
    """What the actors report to: the first failure, and the reason the run should end.

    The main thread waits on :attr:`wake` with a timeout; actors set it when they fail or when the run's goal
    is met (the writer reached the count, a checker saw the space exhausted).
    """

    def __init__(self):
        self.wake = threading.Event()
        self._lock = threading.Lock()
        self.failure: tuple[str, BaseException] | None = None
        self.outcome: str | None = None  # "completed" | "exhausted"

    def fail(self, actor: str, exc: BaseException) -> None:
        with self._lock:
            if self.failure is None:
                self.failure = (actor, exc)
        self.wake.set()

    def finish(self, outcome: str) -> None:
        with self._lock:
            if self.outcome is None:
                self.outcome = outcome
        self.wake.set()


def injected_failure_for(stage: str) -> int:
    """The unit of work on which this stage's actors must fail (0 = never), from :data:`FAIL_ENV`."""
    spec = os.environ.get(FAIL_ENV, "")
    name, _, count = spec.partition(":")
    if name != stage:
        return 0
    return int(count or 1)


class Actor(threading.Thread):
    """A named, non-daemon thread with a lifecycle; subclasses define ``handle`` (or override ``work``)."""

    stage = "actor"

    def __init__(self, name: str, supervisor: Supervisor, stop: threading.Event,
                 inbox: Channel | None = None, fail_at: int | None = None):
        super().__init__(name=name, daemon=False)
        self.supervisor = supervisor
        self.stop = stop
        self.inbox = inbox
        self.units = 0  # units of work done (messages handled, batches made)
        self.fail_at = injected_failure_for(self.stage) if fail_at is None else fail_at
        self.failed: BaseException | None = None
        self.busy_seconds = 0.0
        self.cpu_seconds = 0.0
        self.current: Any = None  # the message being handled

    # -- lifecycle hooks ----------------------------------------------------------------------------------------
    def on_start(self) -> None:
        pass

    def handle(self, message: Any) -> None:
        raise NotImplementedError

    def on_stop(self) -> None:
        pass

    def on_failure(self, exc: BaseException) -> None:
        self.failed = exc
        self.supervisor.fail(self.name, exc)

    # -- the loop -----------------------------------------------------------------------------------------------
    def tick(self) -> None:
        """Count one unit of work; the test hook fails here."""
        self.units += 1
        if self.fail_at and self.units == self.fail_at:
            raise InjectedFailure(f"injected failure in {self.name} (unit {self.units})")

    def work(self) -> None:
        while True:
            message = self.inbox.get(self.stop)
            if message is CLOSED:
                return
            self.current = message  # what a failure leaves unfinished (on_failure counts it)
            self.tick()
            started = time.perf_counter()
            self.handle(message)
            self.busy_seconds += time.perf_counter() - started
            self.current = None

    def run(self) -> None:
        try:
            self.on_start()
            self.work()
        except Stopped:
            pass  # asked to stop while waiting: a normal way to end
        except BaseException as exc:  # noqa: BLE001 - every failure must reach the supervisor, never vanish
            self.on_failure(exc)
        finally:
            try:
                self.on_stop()
            except BaseException as exc:  # noqa: BLE001
                if self.failed is None:
                    self.on_failure(exc)
            # CPU this thread used: unlike wall time, not inflated when other processes share the cores
            self.cpu_seconds = time.thread_time()
