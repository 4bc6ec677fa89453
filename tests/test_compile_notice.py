"""While numba compiles for more than a moment, the user is told so on
stderr; short compiles and cache hits pass without a word."""

import io
import time

from numba.core import event

from azgames.core.compile_notice import CompileNotice


class FakeDispatcher:
    def __init__(self, module: str):
        self.py_func = type("F", (), {"__module__": module})


def compile_event(status, module="azimuth_env.kernels"):
    return event.Event("numba:compile", status, data={"dispatcher": FakeDispatcher(module)})


def run_burst(
    notice: CompileNotice, seconds: float, modules=("azimuth_env.kernels", "azgames.core.rng")
) -> str:
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
    assert lines[-1].startswith("numba: compiled 2 functions in ") and lines[-1].endswith(
        " s; cached for later runs"
    )
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
    assert rest.rsplit("\r", 1)[1].startswith("numba: compiled 2 functions in ") and rest.endswith(
        "later runs\n"
    )


def test_azgames_compile_notice_0_silences_it(monkeypatch):
    import azgames.core.compile_notice as notice

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


def test_on_a_pipe_a_long_compile_gets_a_line_every_few_seconds_naming_what_compiles():
    notice = CompileNotice(io.StringIO(), delay_s=0.05, idle_s=0.05, tick_s=0.01, every_s=0.1)
    text = run_burst(notice, 0.45, modules=("azimuth_env.kernels",))
    lines = text.splitlines()
    progress = [line for line in lines if line.startswith("numba: still compiling: ")]
    assert 2 <= len(progress) <= 5, lines  # about every 0.1 s of a 0.4 s wait after the first line
    assert all(" s so far, 0 functions done, now azimuth_env.kernels.F" in line for line in progress)
    assert lines[-1].startswith("numba: compiled 1 function in ")
    assert "\r" not in text  # a log file gets whole lines only


def test_the_count_of_functions_done_moves_on_while_the_burst_lasts():
    notice = CompileNotice(io.StringIO(), delay_s=0.0, idle_s=0.2, tick_s=0.01, every_s=0.05)
    for _ in range(3):  # three compiles in a row, close enough to make one burst
        notice.on_start(compile_event(event.EventStatus.START))
        time.sleep(0.08)
        notice.on_end(compile_event(event.EventStatus.END))
    notice.watcher.join(timeout=5)
    text = notice.stream.getvalue()
    assert "1 function done" in text and "2 functions done" in text
    assert text.splitlines()[-1].startswith("numba: compiled 3 functions in ")


def test_on_a_terminal_the_status_line_names_the_function_and_fits_the_width(monkeypatch):
    import os
    import shutil

    monkeypatch.setattr(shutil, "get_terminal_size", lambda: os.terminal_size((40, 24)))
    notice = CompileNotice(Terminal(), delay_s=0.02, idle_s=0.05, tick_s=0.01)
    text = run_burst(notice, 0.2)
    statuses = [part for part in text.split("\r") if part.startswith("numba: compiling... ")]
    assert statuses and all(len(s.rstrip()) <= 39 for s in statuses)
    assert statuses[0].startswith("numba: compiling... 0 s so far, 0 funct")  # cut at the width


def test_with_a_progress_bar_on_screen_the_notice_writes_whole_lines_above_it():
    tqdm = __import__("pytest").importorskip("tqdm").tqdm
    stream = Terminal()
    bar = tqdm(total=10, file=stream, desc="games", mininterval=0)
    try:
        notice = CompileNotice(stream, delay_s=0.02, idle_s=0.05, tick_s=0.01, every_s=0.05)
        bar.update(1)
        text = run_burst(notice, 0.2)
        bar.update(1)
    finally:
        bar.close()
    notices = [line.rsplit("\r", 1)[-1] for line in text.split("\n") if "numba" in line]
    assert notices[0].startswith("numba: compiling kernels (azimuth_env, azgames)")
    assert notices[-1].startswith("numba: compiled 2 functions in ")
    assert all(n.startswith("numba: ") for n in notices)  # never glued to the bar's text
    assert "numba: compiling... " not in text  # no status line to fight the bar for its row
    assert "1/10" in text.rsplit("\n", 1)[-1]  # the bar drawn again below the last line


def test_settle_writes_the_total_at_once_so_that_a_prompt_comes_after_it():
    notice = CompileNotice(io.StringIO(), delay_s=0.0, idle_s=60.0, tick_s=0.01)
    notice.on_start(compile_event(event.EventStatus.START))
    time.sleep(0.05)
    notice.on_end(compile_event(event.EventStatus.END))
    assert "numba: compiled" not in notice.stream.getvalue()  # the burst would last 60 s more
    notice.settle()
    assert notice.stream.getvalue().splitlines()[-1].startswith("numba: compiled 1 function in ")
    notice.settle()  # said once
    assert notice.stream.getvalue().count("numba: compiled") == 1


def test_a_process_that_exits_mid_burst_still_writes_the_total():
    notice = CompileNotice(io.StringIO(), delay_s=0.0, idle_s=60.0, tick_s=0.01)
    notice.on_start(compile_event(event.EventStatus.START))
    time.sleep(0.05)
    notice.close()
    assert notice.stream.getvalue().splitlines()[-1].startswith("numba: compiled 0 functions in ")


def test_a_real_compile_on_a_pipe_is_announced_with_its_function_and_total(tmp_path):
    """numba's own events, in a fresh process with an empty cache."""
    import os
    import subprocess
    import sys
    import textwrap

    (tmp_path / "kernel.py").write_text(
        "import numba\n\n@numba.njit(cache=True)\ndef add_one(x):\n    return x + 1\n"
    )
    script = tmp_path / "main.py"
    script.write_text(
        textwrap.dedent(
            """
            from numba.core import event

            from azgames.core.compile_notice import CompileNotice
            from kernel import add_one

            notice = CompileNotice(delay_s=0.0, idle_s=0.2, tick_s=0.01, every_s=0.0)
            event.register("numba:compile", notice)
            add_one(1)
            notice.watcher.join(timeout=30)
            """
        )
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120, check=True
    )
    lines = result.stderr.splitlines()
    assert lines[0] == "numba: compiling kernels (kernel) for the first time; cached afterwards"
    assert any(line.endswith("now kernel.add_one") for line in lines[1:-1])
    assert lines[-1].startswith("numba: compiled 1 function in ")
