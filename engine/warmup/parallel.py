"""Compile a list of tasks (engine.warmup.plan) on every core at once: one worker process per core, each kernel
started as soon as the kernels it calls are in the cache, the longest chain first.

The calling thread only supervises: it hands out tasks, reads the answers and reports progress (how many kernels
of how many, and the time left as measured from the ones done). Ctrl-C (KeyboardInterrupt) kills the workers at
once and is raised again: what they finished is in the cache, whole (numba renames each file into place), and the
next run starts from there. A worker that fails or dies costs only time: its kernel is left to the caller, whose
own run compiles whatever it still lacks.
"""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .plan import Task

#: the folder that holds the engine package: on the workers' import path, wherever the engine was imported from
_ROOT = str(Path(__file__).resolve().parent.parent.parent)


@dataclass(frozen=True)
class Progress:
    """What the progress callback is given: ``done`` of ``total`` kernels compiled; ``seconds_left`` measured from
    the ones done (None until one is); ``workers`` the processes compiling."""

    done: int
    total: int
    seconds_left: float | None
    elapsed: float
    workers: int


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _Worker:
    def __init__(self):
        env = dict(os.environ)
        env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        # a session of its own: the terminal's Ctrl-C reaches the parent only, which stops the workers itself
        self.process = subprocess.Popen([sys.executable, "-m", "engine.warmup.worker"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                                        start_new_session=True)
        self.fd = self.process.stdout.fileno()
        self.buffer = b""
        self.task: int | None = None
        self.started = 0.0

    def give(self, task_id: int, task: Task) -> None:
        self.task, self.started = task_id, time.perf_counter()
        line = json.dumps({"id": task_id, "kernel": task.kernel, "signatures": task.signatures}) + "\n"
        self.process.stdin.write(line.encode())
        self.process.stdin.flush()

    def answers(self) -> list[dict] | None:
        """The whole lines the worker has written since the last call; None when it has ended (end of pipe)."""
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            return None
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in lines if line.strip()]

    def stop(self, kill: bool) -> None:
        try:
            self.process.stdin.close()
        except OSError:
            pass
        if kill:
            self.process.kill()
        try:
            self.process.wait(timeout=None if kill else 30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()


class _Estimate:
    """The time left, from the tasks done: how fast this machine compiles against the plan's recorded seconds, the
    work left spread over the workers, and never less than the longest chain still to go (it runs one task at a
    time, whatever the number of workers)."""

    def __init__(self, tasks: list[Task], workers: int):
        self.tasks, self.workers = tasks, workers
        self.recorded = self.measured = 0.0

    def finished(self, task: Task, seconds: float) -> None:
        self.recorded += task.seconds
        self.measured += seconds

    def seconds_left(self, pending: set[int], running: dict[int, float], now: float) -> float | None:
        if self.recorded <= 0 or self.measured <= 0:
            return None
        speed = self.measured / self.recorded  # this machine's seconds per recorded second
        left = {k: self.tasks[k].seconds for k in pending}
        for k, started in running.items():  # a running task has that much less to go
            left[k] = max(0.0, self.tasks[k].seconds - (now - started) / speed)
        if not left:
            return 0.0
        chain = max(self.tasks[k].rank - self.tasks[k].seconds + left[k] for k in left)
        return speed * max(sum(left.values()) / max(1, min(self.workers, len(left))), chain)


def compile_tasks(tasks: list[Task], workers: int | None = None,
                  progress: Callable[[Progress], None] | None = None, tick: float = 1.0) -> list[str]:
    """Compile ``tasks`` in ``workers`` processes (default: one per core). Calls ``progress`` as kernels finish and
    every ``tick`` seconds. Returns the kernels that failed (each with why), which the caller's own run then
    compiles. Raises KeyboardInterrupt, after stopping the workers, on Ctrl-C."""
    started = time.perf_counter()
    waiting = {k: set(t.callees) for k, t in enumerate(tasks)}  # task -> callee tasks not done yet
    pending = set(range(len(tasks)))  # not finished
    running: dict[int, float] = {}
    failed: list[str] = []
    count = max(1, min(workers or default_workers(), len(tasks)))
    estimate = _Estimate(tasks, count)
    pool: list[_Worker] = []

    def report() -> None:
        if progress is not None:
            now = time.perf_counter()
            progress(Progress(len(tasks) - len(pending), len(tasks),
                              estimate.seconds_left(pending - set(running), running, now), now - started, count))

    def finish(k: int, seconds: float | None, error: str | None) -> None:
        pending.discard(k)
        running.pop(k, None)
        if error is None:
            estimate.finished(tasks[k], seconds)
        else:
            failed.append(f"{tasks[k].kernel}: {error}")
        for caller in tasks[k].callers:
            waiting[caller].discard(k)

    def next_task() -> int | None:
        ready = [k for k in pending if k not in running and not waiting[k]]
        if not ready:  # every task left waits for one running: nothing to give
            return None
        return max(ready, key=lambda k: (tasks[k].rank, -k))

    try:
        try:
            pool = [_Worker() for _ in range(count)]
        except OSError as error:  # no process to spare: the caller compiles everything itself
            return [f"no compile workers: {error}"]
        report()
        last = time.perf_counter()
        while pending:
            for w in pool:
                if w.task is None:
                    k = next_task()
                    if k is None:
                        break
                    running[k] = time.perf_counter()
                    w.give(k, tasks[k])
            busy = [w for w in pool if w.task is not None]
            if not busy:  # every worker died: what is left is the caller's
                failed += [f"{tasks[k].kernel}: not compiled (no worker left)" for k in sorted(pending)]
                break
            readable, _, _ = select.select([w.fd for w in busy], [], [], tick)
            for w in busy:
                if w.fd not in readable:
                    continue
                answers = w.answers()
                if answers is None:  # the worker ended with a task in hand
                    finish(w.task, None, f"its worker ended (exit code {w.process.poll()})")
                    w.task = None
                    pool.remove(w)
                    w.stop(kill=True)
                    continue
                for answer in answers:
                    finish(answer["id"], answer.get("seconds"), answer.get("error"))
                    w.task = None
                report()
                last = time.perf_counter()
            if time.perf_counter() - last >= tick:
                report()
                last = time.perf_counter()
    except BaseException:
        for w in pool:
            w.stop(kill=True)
        pool = []
        raise
    finally:
        for w in pool:
            w.stop(kill=False)
    return failed
