"""Tests run from the repository's root, where the bundled models are."""

import contextlib
import os
import pathlib
import signal
import threading

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)
    yield


@pytest.fixture
def ctrl_c():
    """`with ctrl_c(0.3): ...` sends this process SIGINT after 0.3 s, with
    Python's own Ctrl-C handler, as in a terminal or a notebook: a process
    started in the background by a shell without job control (a CI step,
    `cmd &` in a script) inherits SIGINT ignored, and Python then keeps it
    ignored, so the SIGINT would be lost (two hung suite runs)."""

    @contextlib.contextmanager
    def after(seconds):
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
            timer.join()
            signal.signal(signal.SIGINT, previous)

    return after
