#!/usr/bin/env python3
"""test_server.py - `stoke record -P` with real servers and real load tools
(wrk and ab from Debian), everything on 127.0.0.1:

  wrk               the example server under wrk: the port the server printed
                    is the one stoke found, wrk's summary is in the report,
                    render_tree is the hottest function of the server's own,
                    the server stopped through its SIGINT handler, exit 0;
                    stoke top prints the same table
  ab                the same under ab
  forking           a pre-fork server (master + 2 workers) under wrk: every
                    process has its trace and its place in the report, the
                    workers hold the samples
  wrapped           the server behind `sh -c` (not exec'd): found and stopped;
                    the port channel reached it through sh's exec and is
                    close-on-exec in it
  late_bind         a server that listens after 2 s
  daemonizes        a server whose first process exits: its child is found
                    and stopped; nothing is left running
  ignores_sigint    SIGTERM after --stop-timeout
  never_listens     --wait expires: a clear error, exit 1, report written
  exits_early       the server ends before listening: exit 1, report
  crashes           the server aborts on the first request: stoke says so
                    (not that the load failed), writes the report, exits 1
  load_fails        a failing load command (exit 3, and one not found):
                    exit 1, server stopped, report written with the output
  duration          --duration without -P stops the server gently
  port_option       --port skips detection: stoke waits until the port answers;
                    $PORT and ${PORT} are replaced, $PORTS is not
  collect_only      --collect-only writes traces and load.txt, no report;
                    stoke report DIR then puts the load output in the report
  open_report       --open runs $BROWSER with the report's path
  nginx_workers     nginx from Debian (master + 2 workers) under wrk: every
                    process is in the report, nothing is left running
  redis             redis-server from Debian under redis-benchmark: its
                    command loop is in the profile, it shut down cleanly
  interrupt         Ctrl-C (SIGINT to stoke) during the load: the server stops
                    through its handler, the report is written, exit 130; the
                    same after SIGTERM, exit 143; a second Ctrl-C with a
                    server that ignores SIGINT stops at once

usage: test_server.py CASE
"""
import os
import re
import signal
import subprocess
import sys
import time

from e2e_support import (STOKE, VIEWER_TOOLS, describe, expect, free_port, fresh_dir, main,
                         program, report_folded, run, text, traces_in)

sys.path.insert(0, VIEWER_TOOLS)
from report_data import load_report_data  # noqa: E402

HTTP_SERVER = os.environ["E2E_HTTP_SERVER"]
TOOLS = {name: os.environ.get(f"E2E_{name}", "") for name in
         ("WRK", "AB", "NGINX", "REDIS_SERVER", "REDIS_BENCHMARK")}
WRK = f"{TOOLS['WRK']} -t1 -c4 -d2s http://127.0.0.1:$PORT/"
AB = f"{TOOLS['AB']} -n 1500 -c 4 http://127.0.0.1:${{PORT}}/"


def needs(*names):
    """Fails clearly when a tool the case runs is not installed."""
    for name in names:
        expect(os.access(TOOLS[name], os.X_OK), f"needs {name.lower().replace('_', '-')} "
               "(wrk, apache2-utils, nginx-light, redis-server from apt); run "
               "scripts/setup.sh")


PORT_FOUND = re.compile(r"stoke: the server listens on port (\d+)")


def record_server(out, server, options, expect_status=0, timeout=40):
    """stoke record -o out OPTIONS -- server; checks the exit status."""
    needs("WRK", "AB")
    result = run([STOKE, "record", "-o", out, *options, "--", *server], timeout=timeout)
    expect(result.returncode == expect_status,
           f"stoke record exited {result.returncode}, expected {expect_status}",
           describe(result))
    return result


def found_port(result):
    match = PORT_FOUND.search(text(result.stderr))
    expect(match, "stoke did not say which port the server listens on", describe(result))
    return int(match.group(1))


def printed_port(result, pattern):
    match = re.search(pattern, text(result.stdout))
    expect(match, f"the server did not print /{pattern}/", describe(result))
    return int(match.group(1))


def report_of(out):
    path = os.path.join(out, "flamegraph.html")
    expect(os.path.exists(path), f"no report {path}")
    with open(path, encoding="utf-8") as f:
        return path, f.read()


def hottest_own_function(result):
    """The first function of the summary table that is not a library's."""
    table = text(result.stdout if result.args[1] == "top" else result.stderr)
    rows = re.findall(r"^\s+[\d.]+%\s+[\d.]+%\s+(\S+)(.*)$", table, re.M)
    own = [name for name, rest in rows if "(" not in rest]
    expect(own, "no function of the program in the table", table)
    return own[0]


def expect_gentle_stop(result, message):
    expect(message in text(result.stdout), f"the server did not print {message!r}: it was "
           "not stopped through its SIGINT handler", describe(result))


def expect_no_process(pid):
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    expect(False, f"process {pid} is still running after stoke ended")


def example_under(name, load, load_marker):
    out = fresh_dir(name)
    result = record_server(out, [HTTP_SERVER], ["-P", load])
    port = printed_port(result, r"listening on http://127\.0\.0\.1:(\d+)/")
    expect(found_port(result) == port, f"stoke found port {found_port(result)}, the server "
           f"listens on {port}", describe(result))
    expect(load_marker in text(result.stdout), "the load output was not shown", describe(result))
    _, html = report_of(out)
    expect(load_marker in html, f"{load_marker!r} (the load output) is not in the report")
    with open(os.path.join(out, "load.txt")) as f:
        expect(load_marker in f.read(), "load.txt lacks the load output")
    expect_gentle_stop(result, "http_server: shutting down")
    hottest = hottest_own_function(result)
    expect(hottest.startswith("render_tree"), f"the hottest own function is {hottest}, "
           "not render_tree", describe(result))
    return out


def expect_load_windows(out):
    """The server renders only for requests: before the load started its
    report holds no render_tree, between the load's marks it does."""
    expect(os.path.exists(os.path.join(out, "load-marks.txt")), "no load-marks.txt")
    before, _ = report_folded(out, ["--until", "load-start"])
    during, _ = report_folded(out, ["--from", "load-start", "--until", "load-end"])
    expect(before.with_frame(lambda f: f.startswith("render_tree")) == 0,
           "render_tree ran before the load started", before.top())
    expect(during.share(lambda f: f.startswith("render_tree")) > 20,
           "render_tree holds little of the load's window", during.top())


def server_wrk():
    out = example_under("server_wrk", WRK, "Requests/sec:")
    expect_load_windows(out)
    top = run([STOKE, "top", out])
    expect(top.returncode == 0, "stoke top failed", describe(top))
    expect("self   total" in text(top.stdout), "stoke top printed no table", describe(top))
    expect(hottest_own_function(top).startswith("render_tree"),
           "stoke top does not put render_tree first", describe(top))


def server_ab():
    example_under("server_ab", AB, "Complete requests:")


def server_forking():
    out = fresh_dir("server_forking")
    result = record_server(out, [HTTP_SERVER, "--workers", "2"],
                           ["-P", "wrk -t2 -c8 -d2s http://127.0.0.1:$PORT/"])
    expect(len(traces_in(out)) == 3, "expected a trace each for the master and 2 workers",
           " ".join(traces_in(out)))
    path, _ = report_of(out)
    processes = load_report_data(path)["processes"]
    expect(len(processes) == 3 and all(p["comm"] == "http_server" for p in processes),
           "the report does not show the 3 processes by name", str(processes))
    # which worker wins each connection is the kernel's choice: one may get them all
    master = min(processes, key=lambda p: p["pid"])
    workers = sum(p["samples"] for p in processes if p is not master)
    expect(workers > master["samples"], "the workers have fewer samples than the master",
           str(processes))
    expect_gentle_stop(result, "http_server: shutting down")


def server_wrapped():
    out = fresh_dir("server_wrapped")
    result = record_server(out, ["sh", "-c", f"{program('toy_server')}; echo wrapper done"],
                           ["-P", AB.replace("1500", "50")])
    expect(found_port(result) == printed_port(result, r"listening on port (\d+)"),
           "stoke found another port than the wrapped server's", describe(result))
    expect_gentle_stop(result, "toy_server: SIGINT, stopping")
    expect("toy_server: port channel open, close-on-exec" in text(result.stdout),
           "the port channel is not open and close-on-exec in the server", describe(result))


def server_late_bind():
    out = fresh_dir("server_late_bind")
    started = time.monotonic()
    result = record_server(out, [program("toy_server"), "--delay-ms", "2000"],
                           ["-P", AB.replace("1500", "50")])
    expect(time.monotonic() - started >= 2, "the load ran before the server listened")
    expect(found_port(result) == printed_port(result, r"listening on port (\d+)"),
           "wrong port", describe(result))
    expect("Complete requests:" in text(result.stdout), "the load did not run",
           describe(result))


def server_daemonizes():
    out = fresh_dir("server_daemonizes")
    result = record_server(out, [program("toy_server"), "--daemonize"],
                           ["-P", AB.replace("1500", "50")])
    daemon = printed_port(result, r"listening on port \d+ \(pid (\d+)\)")
    expect("Complete requests:" in text(result.stdout), "the load did not run",
           describe(result))
    expect_no_process(daemon)
    report_of(out)


def server_ignores_sigint():
    out = fresh_dir("server_ignores_sigint")
    # listening after 1.5 s: the trace has a flushed second when SIGTERM ends it
    result = record_server(out, [program("toy_server"), "--ignore-sigint", "--delay-ms", "1500"],
                           ["-P", AB.replace("1500", "50"), "--stop-timeout", "500ms"])
    expect("did not stop within 0.5 s of SIGINT" in text(result.stderr),
           "stoke did not say it went on to SIGTERM", describe(result))
    expect_no_process(printed_port(result, r"listening on port \d+ \(pid (\d+)\)"))


def server_never_listens():
    out = fresh_dir("server_never_listens")
    result = record_server(out, [program("toy_server"), "--never-listen"],
                           ["-P", AB, "--wait", "1s"], expect_status=1)
    expect("did not listen on a TCP port within 1.0 s" in text(result.stderr),
           "no clear message about --wait", describe(result))
    expect("--wait" in text(result.stderr), "the message does not name --wait",
           describe(result))
    report_of(out)
    expect(not os.path.exists(os.path.join(out, "load.txt")), "a load ran without a port")
    expect_gentle_stop(result, "toy_server: SIGINT, stopping")


def server_exits_early():
    out = fresh_dir("server_exits_early")
    result = record_server(out, [program("toy_server"), "--delay-ms", "300",
                                 "--exit-before-listen"], ["-P", AB], expect_status=1)
    expect("ended (exit status 3) before it listened" in text(result.stderr),
           "no clear message about the server's early end", describe(result))
    report_of(out)


def server_crashes():
    out = fresh_dir("server_crashes")
    # listening after 1.5 s: the trace has a flushed second when it aborts
    result = record_server(out, [program("toy_server"), "--delay-ms", "1500",
                                 "--crash-on-request"],
                           ["-P", AB.replace("1500", "50")], expect_status=1)
    expect("the server ended (killed by SIGABRT (Aborted)) during the load"
           in text(result.stderr), "stoke did not say the server crashed", describe(result))
    report_of(out)


def load_fails():
    for name, load, says in [("load_fails", "echo load says hello; exit 3", "exit status 3"),
                             ("load_not_found", "no-such-load-tool $PORT",
                              "exit status 127: command not found")]:
        out = fresh_dir(name)
        result = record_server(out, [HTTP_SERVER], ["-P", load], expect_status=1)
        expect(f"the load command failed ({says})" in text(result.stderr),
               "stoke did not say the load failed", describe(result))
        expect_gentle_stop(result, "http_server: shutting down")
        _, html = report_of(out)
        expect(name != "load_fails" or "load says hello" in html,
               "the failed load's output is not in the report")


def duration():
    out = fresh_dir("duration")
    started = time.monotonic()
    result = record_server(out, [program("toy_server"), "--never-listen"],
                           ["--duration", "2s"])
    elapsed = time.monotonic() - started
    expect(2 <= elapsed < 10, f"--duration 2s took {elapsed:.1f} s", describe(result))
    expect_gentle_stop(result, "toy_server: SIGINT, stopping")
    report_of(out)


def port_option():
    out = fresh_dir("port_option")
    port = free_port()
    result = record_server(out, [HTTP_SERVER, "--port", str(port)],
                           ["-P", "echo port=$PORT,${PORT},$PORTS; " + AB.replace("1500", "100"),
                            "--port", str(port)])
    expect(found_port(result) == port, "stoke did not use --port", describe(result))
    expect(f"port={port},{port}," in text(result.stdout), "$PORT and ${PORT} were not both "
           "replaced, or $PORTS was taken for $PORT", describe(result))
    expect("Complete requests:" in text(result.stdout), "the load did not run",
           describe(result))


def collect_only():
    out = fresh_dir("collect_only")
    record_server(out, [HTTP_SERVER], ["-P", WRK, "--collect-only"])
    expect(not os.path.exists(os.path.join(out, "flamegraph.html")),
           "--collect-only wrote a report")
    expect(os.path.exists(os.path.join(out, "load.txt")) and traces_in(out),
           "--collect-only did not keep the traces and load.txt")
    result = run([STOKE, "report", out])
    expect(result.returncode == 0, "stoke report failed", describe(result))
    _, html = report_of(out)
    expect("Requests/sec:" in html, "the load output is not in the later report")


def open_report():
    out = fresh_dir("open_report")
    opened = os.path.join(out, "opened.txt")
    browser = os.path.join(out, "browser.sh")
    with open(browser, "w") as f:
        f.write(f'#!/bin/sh\necho "$1" > {opened}\n')
    os.chmod(browser, 0o755)
    env = dict(os.environ, BROWSER=browser)
    result = run([STOKE, "record", "-o", out, "--open", "--duration", "500ms", "--",
                  program("toy_server"), "--never-listen"], env=env)
    expect(result.returncode == 0, "stoke record --open failed", describe(result))
    for _ in range(50):
        if os.path.exists(opened) and os.path.getsize(opened):
            break
        time.sleep(0.05)
    with open(opened) as f:
        expect(f.read().strip().endswith("flamegraph.html"), "$BROWSER got another path")


NGINX_CONF = """user root;
worker_processes 2;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{ worker_connections 256; }}
http {{
  access_log off;
  client_body_temp_path {dir}/tmp;
  proxy_temp_path {dir}/tmp;
  fastcgi_temp_path {dir}/tmp;
  uwsgi_temp_path {dir}/tmp;
  scgi_temp_path {dir}/tmp;
  server {{ listen 127.0.0.1:{port}; location / {{ return 200 "hello"; }} }}
}}
"""


def expect_all_gone(pids):
    for pid in pids:
        expect_no_process(pid)


def nginx_workers():
    work = fresh_dir("nginx_workers")
    out = os.path.join(work, "out")
    os.makedirs(os.path.join(work, "tmp"))
    conf = os.path.join(work, "nginx.conf")
    with open(conf, "w") as f:
        f.write(NGINX_CONF.format(dir=work, port=free_port()))
    needs("NGINX", "WRK")
    result = record_server(out, [TOOLS["NGINX"], "-p", work, "-c", conf], ["-P", WRK])
    expect("Requests/sec:" in text(result.stdout), "wrk did not run", describe(result))
    path, _ = report_of(out)
    processes = load_report_data(path)["processes"]
    busy = [p for p in processes if p["comm"] == "nginx" and p["samples"] > 0]
    expect(len(processes) == 3 and all(p["comm"] == "nginx" for p in processes) and busy,
           "expected nginx's master and both workers, named nginx, with samples",
           str(processes))
    expect_all_gone(p["pid"] for p in processes)


def redis():
    needs("REDIS_SERVER", "REDIS_BENCHMARK")
    out = fresh_dir("redis")
    result = record_server(out, [TOOLS["REDIS_SERVER"], "--port", str(free_port()), "--save",
                                 "", "--appendonly", "no"],
                           ["-P", f"{TOOLS['REDIS_BENCHMARK']} -p $PORT -n 20000 -q -t set,get"])
    expect("GET:" in text(result.stdout), "redis-benchmark did not run", describe(result))
    expect("Redis is now ready to exit" in text(result.stdout),
           "redis did not shut down through its SIGINT handler", describe(result))
    folded, _ = report_folded(out)
    command_loop = folded.share(lambda f: f in ("processCommand", "readQueryFromClient"))
    expect(command_loop >= 10, f"redis's command loop holds {command_loop:.1f}% of the samples, "
           "expected at least 10%", folded.top())
    path, _ = report_of(out)
    expect_all_gone(p["pid"] for p in load_report_data(path)["processes"])


def start_until(out, server, options, marker):
    """Starts stoke record in the background; returns it once its stderr
    shows marker (the lines read so far in .seen)."""
    stoke = subprocess.Popen([STOKE, "record", "-o", out, *options, "--", *server],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stoke.seen = ""
    while marker not in stoke.seen:
        line = stoke.stderr.readline()
        if not line:
            stoke.kill()
            expect(False, f"stoke ended before saying {marker!r}", stoke.seen)
        stoke.seen += line
    return stoke


def finish(stoke):
    try:
        out, err = stoke.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        stoke.kill()
        raise
    return stoke.returncode, out, stoke.seen + err


def interrupt():
    out = fresh_dir("interrupt")
    stoke = start_until(out, [HTTP_SERVER], ["-P", WRK.replace("2s", "30s")], "running the load")
    time.sleep(1)
    stoke.send_signal(signal.SIGINT)
    status, stdout, stderr = finish(stoke)
    details = f"status {status}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    expect(status == 130, "stoke did not exit 130 after Ctrl-C", details)
    expect("http_server: shutting down" in stdout, "the server was not stopped gently", details)
    report_of(out)

    out = fresh_dir("interrupt_sigterm")  # a service manager's stop: 128 + SIGTERM
    stoke = start_until(out, [HTTP_SERVER], ["-P", WRK.replace("2s", "30s")], "running the load")
    stoke.send_signal(signal.SIGTERM)
    status, stdout, stderr = finish(stoke)
    details = f"status {status}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    expect(status == 143 and "interrupted by SIGTERM" in stderr,
           "stoke did not exit 143 after SIGTERM", details)
    expect("http_server: shutting down" in stdout, "the server was not stopped gently", details)
    report_of(out)

    out = fresh_dir("interrupt_twice")
    stoke = start_until(out, [program("toy_server"), "--ignore-sigint"],
                        ["-P", "sleep 30", "--stop-timeout", "30s"], "running the load")
    daemon_pid = int(re.search(r"\(pid (\d+)\)", stoke.seen).group(1))
    stoke.send_signal(signal.SIGINT)
    time.sleep(0.5)
    started = time.monotonic()
    stoke.send_signal(signal.SIGINT)
    status, stdout, stderr = finish(stoke)
    details = f"status {status}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    expect(time.monotonic() - started < 5, "the second Ctrl-C did not stop stoke at once",
           details)
    expect(status == 130 and "no report written" in stderr, "expected exit 130, no report",
           details)
    expect_no_process(daemon_pid)


if __name__ == "__main__":
    sys.exit(main({f.__name__.removeprefix("server_"): f for f in [
        server_wrk, server_ab, server_forking, server_wrapped, server_late_bind,
        server_daemonizes, server_ignores_sigint, server_never_listens, server_exits_early,
        server_crashes, load_fails, duration, port_option, collect_only, open_report,
        nginx_workers, redis, interrupt]}))
