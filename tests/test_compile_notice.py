"""While numba compiles for more than a moment, the user is told so on
stderr; short compiles and cache hits pass without a word."""

import io
import time

from numba.core import event

from azgames.compile_notice import CompileNotice


class FakeDispatcher:
    def __init__(self, module: str):
        self.py_func = type("F", (), {"__module__": module})


def compile_event(status, module="azimuth_env.kernels"):
    return event.Event("numba:compile", status, data={"dispatcher": FakeDispatcher(module)})


def run_burst(notice: CompileNotice, seconds: float, modules=("azimuth_env.kernels", "azgames.rng")) -> str:
    """Nested compiles of ``modules`` lasting ``seconds``, then the burst's end."""
    for module in modules:
        notice.on_start(compile_event(event.EventStatus.START, module))
    time.sleep(seconds)
    for module in reversed(modules):
        notice.on_end(compile_event(event.EventStatus.END, module))
    watcher = notice.watcher
    if watcher is not None:
        watcher.join(timeout=5)
    return notice.stream.getvalue()


def test_a_long_compile_is_announced_with_its_packages_then_its_total():
    notice = CompileNotice(io.StringIO(), delay_s=0.05, idle_s=0.05, tick_s=0.01)
    lines = run_burst(notice, 0.3).splitlines()
    assert lines[0] == "numba: compiling kernels (azimuth_env, azgames) for the first time; cached afterwards"
    assert lines[-1].startswith("numba: compiled in ") and lines[-1].endswith(" s; cached for later runs")
    assert len(lines) == 2  # not a terminal: no running count


def test_a_short_compile_says_nothing():
    notice = CompileNotice(io.StringIO(), delay_s=0.5, idle_s=0.02, tick_s=0.01)
    assert run_burst(notice, 0.01) == ""


def test_each_burst_is_announced_afresh():
    notice = CompileNotice(io.StringIO(), delay_s=0.05, idle_s=0.05, tick_s=0.01)
    run_burst(notice, 0.2, modules=("azacru_env.kernels",))
    text = run_burst(notice, 0.2, modules=("azure_env.kernels",))
    announced = [line for line in text.splitlines() if "for the first time" in line]
    assert announced == [
        "numba: compiling kernels (azacru_env) for the first time; cached afterwards",
        "numba: compiling kernels (azure_env) for the first time; cached afterwards",
    ]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_seconds_count_on_one_line_which_the_total_replaces():
    notice = CompileNotice(Terminal(), delay_s=0.05, idle_s=0.05, tick_s=0.01)
    text = run_burst(notice, 0.3)
    first, rest = text.split("\n", 1)
    assert first.endswith("for the first time; cached afterwards")
    assert rest.startswith("\rnumba: compiling... ")  # the running count, rewritten in place
    assert rest.rsplit("\r", 1)[1].startswith("numba: compiled in ") and rest.endswith("later runs\n")


def test_azgames_compile_notice_0_silences_it(monkeypatch):
    import azgames.compile_notice as notice

    monkeypatch.setattr(notice, "_installed", None)
    monkeypatch.setenv("AZGAMES_COMPILE_NOTICE", "0")
    assert notice.install().quiet
    monkeypatch.setattr(notice, "_installed", None)
    monkeypatch.setenv("AZGAMES_COMPILE_NOTICE", "1")
    assert not notice.install().quiet


def test_a_quiet_notice_writes_nothing_but_keeps_the_clock_an_app_reads():
    notice = CompileNotice(io.StringIO(), delay_s=0.01, idle_s=0.05, tick_s=0.01, quiet=True)
    assert notice.compiling_for() is None
    notice.on_start(compile_event(event.EventStatus.START))
    time.sleep(0.1)
    during = notice.compiling_for()
    assert during is not None and during >= 0.1
    notice.on_end(compile_event(event.EventStatus.END))
    assert notice.compiling_for() is not None  # a burst lasts until idle_s without a compile
    time.sleep(0.1)
    assert notice.compiling_for() is None
    assert notice.watcher is None and notice.stream.getvalue() == ""
