#!/usr/bin/env python3
"""test_push.py - `stoke push` against a local HTTP server (127.0.0.1 only)
that checks the request as Pyroscope's ingest API documents it: the query,
the multipart form, basic authentication, the profile (read by go tool
pprof); each failure of the server or the network an exit 1 with a clear
message, never the URL's credentials; and the errors of bad input. And
`stoke record --push` (continuous_push): windows sent while the program
runs, contiguous, every sample in exactly one of them (also of a trace
written in parts, --max-size); windows a failing server did not take kept
on disk.

usage: test_push.py CASE   (environment: see tests/CMakeLists.txt,
stoke_driver_tests)
"""
import email.parser
import http.server
import os
import socket
import sys
import threading
import urllib.parse

from e2e_support import STOKE, describe, expect, run
from formats_support import (
    CPU_BURN, START_S, expect_fails, expect_pprof_matches_folded, folded, go_pprof_top,
    run_cases, sym_trace)


class Ingest(http.server.BaseHTTPRequestHandler):
    """Records each request; answers as the server's mode says."""
    requests = []
    mode = "ok"

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Ingest.requests.append((self.command, self.path, dict(self.headers), body))
        if Ingest.mode == "hang":
            threading.Event().wait(3)
            return
        status, text = {"ok": (200, b"ok"), "bad": (400, b"invalid profile: bad name\n"),
                        "down": (503, b"ingester unavailable")}[Ingest.mode]
        self.send_response(status)
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    def log_message(self, *args):
        pass


def serve():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Ingest)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def profile_part(headers, body):
    msg = email.parser.BytesParser().parsebytes(
        f"Content-Type: {headers['Content-Type']}\r\n\r\n".encode() + body)
    for part in msg.get_payload():
        if part.get_param("name", header="content-disposition") == "profile":
            return part.get_payload(decode=True)
    return None


def without_proxies():
    """The environment without proxy settings, which libcurl would follow
    even to 127.0.0.1."""
    return {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}


def case_push(work):
    trace = sym_trace(work)
    env = without_proxies()
    server = serve()
    port = server.server_address[1]
    url = f"http://stoke-user:s3cret-pw@127.0.0.1:{port}"
    r = run([STOKE, "push", "--url", url, "--name", "myapp", "--label", "host=web-1",
             "--label", "region=eu", trace], env=env)
    expect(r.returncode == 0, "push to a server that answers 200", describe(r))
    expect(b"HTTP 200" in r.stderr, "push reports the server's answer", describe(r))
    method, path, headers, body = Ingest.requests[-1]
    parsed = urllib.parse.urlsplit(path)
    query = urllib.parse.parse_qs(parsed.query)
    expect(method == "POST" and parsed.path == "/ingest", "POST /ingest", path)
    expect(query["name"] == ["myapp{host=web-1,region=eu}"], "name=APP{labels}", str(query))
    expect(query["from"] == [str(START_S)] and int(query["until"][0]) > START_S,
           "from and until are the trace's", str(query))
    expect(query["format"] == ["pprof"] and query["sampleRate"] == ["997"] and
           query["spyName"] == ["stoke"], "format, sampleRate, spyName", str(query))
    expect(headers["Content-Type"].startswith("multipart/form-data; boundary="),
           "the profile goes as multipart/form-data", headers["Content-Type"])
    expect(headers.get("Authorization", "").startswith("Basic "),
           "user:password@ becomes basic authentication")
    profile = profile_part(headers, body)
    expect(profile, "a form file field named profile")
    open(os.path.join(work, "pushed.pb.gz"), "wb").write(profile)
    expect_pprof_matches_folded(work, os.path.join(work, "pushed.pb.gz"), folded(trace))

    outputs = [r.stdout + r.stderr]
    for mode, want in (("bad", b"HTTP 400: invalid profile: bad name"),
                       ("down", b"HTTP 503: ingester unavailable"),
                       ("hang", b"no answer from")):
        Ingest.mode = mode
        r = run([STOKE, "push", "--url", url, "--name", "myapp", "--timeout", "1", trace], env=env)
        outputs.append(r.stdout + r.stderr)
        expect(r.returncode == 1 and want in r.stderr, f"a {mode} server: exit 1, clear error",
               describe(r))
    server.shutdown()
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    r = run([STOKE, "push", "--url", f"http://stoke-user:s3cret-pw@127.0.0.1:{closed}",
             "--name", "myapp", trace], env=env)
    outputs.append(r.stdout + r.stderr)
    expect(r.returncode == 1 and b"cannot connect to http://127.0.0.1:" in r.stderr,
           "a refused connection: exit 1, clear error", describe(r))
    r = run([STOKE, "push", "--url", "ftp://stoke-user:s3cret-pw@host/", "--name", "a", trace], env=env)
    outputs.append(r.stdout + r.stderr)
    expect(r.returncode == 2, "a URL that is not http(s) is a usage error", describe(r))
    for out in outputs:
        expect(b"s3cret-pw" not in out and b"stoke-user" not in out,
               "push never prints the URL's credentials", out.decode(errors="replace"))
    empty = sym_trace(work, "zero.stoke", kind="nosamples")
    expect_fails(["push", "--name", "a", trace], 2, "--url")
    expect_fails(["push", "--url", "http://127.0.0.1:9", trace], 2, "--name")
    expect_fails(["push", "--url", "http://127.0.0.1:9", "--name", "a", "--label", "novalue",
                  trace], 2, "--label 'novalue'")
    expect_fails(["push", "--url", "http://127.0.0.1:9", "--name", "a{b}", trace], 2, "--name")
    expect_fails(["push", "--url", "http://127.0.0.1:9", "--name", "a", "--timeout", "0",
                  trace], 2, "--timeout")
    expect_fails(["push", "--url", "http://127.0.0.1:9", "--name", "a", empty], 1,
                 "holds no samples")


def window_samples(work, name, profile):
    """The samples of a pushed window, as go tool pprof reads them."""
    path = os.path.join(work, name)
    open(path, "wb").write(profile)
    return go_pprof_top(work, path, "samples")[1]


def record_pushing(work, name, url, *options):
    """stoke record --push of cpu_burn (about 3 s on one thread, windows of
    1 s); returns the recording's directory and the run."""
    out = os.path.join(work, name)
    r = run([STOKE, "record", "-o", out, "--collect-only", "--push", url, "--push-every", "1s",
             *options, "--", CPU_BURN, "20"], env=without_proxies())
    expect(r.returncode == 0, "stoke record --push failed", describe(r))
    return out, r


def case_continuous_push(work):
    Ingest.requests, Ingest.mode = [], "ok"
    server = serve()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    out, r = record_pushing(work, "rec", url, "--push-label", "host=web-1")
    windows = []
    for i, (method, path, headers, body) in enumerate(Ingest.requests):
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)
        expect(query["name"] == ["cpu_burn{host=web-1}"] and query["format"] == ["pprof"],
               "each window names the application and its labels", str(query))
        samples = window_samples(work, f"window{i}.pb.gz", profile_part(headers, body))
        windows.append((int(query["from"][0]), int(query["until"][0]), samples))
    expect(len(windows) >= 2, f"{len(windows)} windows sent while the program ran ~3 s with "
           "--push-every 1s", describe(r))
    windows.sort()
    for (_, until, _), (start, _, _) in zip(windows, windows[1:]):
        expect(start == until, "windows are contiguous", str(windows))
    total = sum(folded(out).values())
    expect(sum(w[2] for w in windows) == total,
           f"the windows hold {sum(w[2] for w in windows)} samples, the recording {total}",
           str(windows))
    expect(b"pushed %d windows" % len(windows) in r.stderr, "stoke says what it pushed",
           describe(r))

    Ingest.requests, Ingest.mode = [], "ok"
    # parts of 64K: cpu_burn's ~150,000 samples (~170K of trace) take three, far from both
    # one part and the bound, where the oldest would be removed
    out, r = record_pushing(work, "parts", url, "-F", "20000", "--max-size", "512K")
    parts = [f for f in os.listdir(out) if ".part-" in f]
    pushed = sum(window_samples(work, f"parts{i}.pb.gz", profile_part(headers, body))
                 for i, (_, _, headers, body) in enumerate(Ingest.requests))
    expect(parts and pushed == sum(folded(out).values()),
           f"a trace in parts ({len(parts)} after the first): the windows hold {pushed} "
           f"samples, the recording {sum(folded(out).values())}", describe(r))

    Ingest.requests, Ingest.mode = [], "down"
    out, r = record_pushing(work, "down", url)
    kept = sorted(f for f in os.listdir(out) if f.startswith("push-") and f.endswith(".pb.gz"))
    expect(kept and b"not sent; kept in" in r.stderr,
           "windows a failing server did not take are kept and reported", describe(r))
    expect(len(Ingest.requests) == 3 * len(kept), "each window is tried three times",
           f"{len(Ingest.requests)} requests, {len(kept)} windows kept")
    samples = sum(window_samples(work, f, open(os.path.join(out, f), "rb").read()) for f in kept)
    expect(samples == sum(folded(out).values()), "the kept windows hold every sample")
    server.shutdown()
    expect_fails(["record", "--push-every", "1s", "--", CPU_BURN, "1"], 2, "--push URL")
    expect_fails(["record", "--push", url, "--push-label", "x", "--", CPU_BURN, "1"], 2,
                 "--push-label 'x'")


if __name__ == "__main__":
    sys.exit(run_cases(globals()))
