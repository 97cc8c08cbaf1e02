"""A thread pool for the commands' kernel calls: :func:`background_map`, results in order, Ctrl-C at once.

Standard library only (the progress bar is imported when one is asked for).
"""
from __future__ import annotations


def background_map(fn, items, name: str = "worker", ahead: int = 16, label: str | None = None, threads: int = 1,
                   jobs: list[str] | None = None):
    """Yield ``fn(item)`` for each item, in order, computed in ``threads`` daemon threads.

    Why: a compiled kernel holds the thread that called it until it returns (counting the solutions of an empty
    25x25 grid, carving a 25x25 board, grading), and Python only runs its Ctrl-C handler between bytecodes of the
    main thread, so a kernel called from the main thread made Ctrl-C wait for the kernel. Here the main thread
    only waits on a queue with a timeout, so Ctrl-C raises KeyboardInterrupt at once (exit 130 via the CLI's
    :class:`~catalogue.cli.group.CatalogueGroup`); the daemon threads die with the process. One thread (the
    default) does the whole sequence and keeps its per-thread scratch arrays; more take the items in turn (a
    kernel that releases the GIL then runs on several cores), and the results still come out in the items'
    order. At most ``ahead`` results are ever in front of the caller. An exception in ``fn`` (or in iterating
    ``items``) is raised in the caller, at its place in the order, as if ``fn`` had been called there. With
    ``label``, a big input shows a bar over the items on the terminal (``catalogue.progress.item_bar``), after the
    kernels of ``jobs`` (catalogue/kernels.py) are made ready, before any thread starts.
    """
    import queue
    import threading

    out: queue.Queue = queue.Queue()
    room = threading.Semaphore(ahead)  # a slot per result not yet consumed
    stop = threading.Event()
    done = object()
    source = iter(items)
    taking = threading.Lock()  # the items are taken (and numbered) one thread at a time
    taken = [0]

    def work() -> None:
        while not stop.is_set():
            if not room.acquire(timeout=0.1):
                continue
            with taking:
                index = taken[0]
                try:
                    item = next(source)
                except StopIteration:
                    out.put((index, done, None))
                    return
                except BaseException as e:  # handed to the caller's thread
                    out.put((index, None, e))
                    return
                taken[0] += 1
            try:
                out.put((index, fn(item), None))
            except BaseException as e:
                out.put((index, None, e))
                return

    from contextlib import nullcontext

    if label is not None:
        from .progress import item_bar

        bar = item_bar(label, len(items) if hasattr(items, "__len__") else None, jobs=jobs, what=name)
    else:
        bar = nullcontext(None)
    try:
        with bar as step:  # the kernels are ready when it is entered: only then do the threads start
            for k in range(max(1, threads)):
                threading.Thread(target=work, name=name if threads <= 1 else f"{name}-{k}", daemon=True).start()
            waiting: dict = {}  # results that came before the one due
            count = 0
            while True:
                if count not in waiting:
                    try:
                        index, value, error = out.get(timeout=0.1)
                    except queue.Empty:
                        continue
                    waiting[index] = (value, error)
                    continue
                value, error = waiting.pop(count)
                if error is not None:
                    raise error
                if value is done:
                    return
                count += 1
                room.release()
                if step is not None:
                    step(count)
                yield value
    finally:
        stop.set()
