#!/usr/bin/env python3
"""html_check_offline.py - checks that a stoke HTML report loads nothing from
outside the file: a Content-Security-Policy that forbids it, no http(s) URL,
no src=/href=/url( that is not a data: URI or a fragment, no @import,
import(), fetch, XMLHttpRequest, WebSocket, EventSource, sendBeacon or
workers; and a data block with no '<' at all, so no name can end it.
The data block's text (symbol names) is exempt from the URL rules: it is
never parsed as markup. Prints each problem and exits 1 if there is one.

Usage: html_check_offline.py REPORT.html
"""
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from report_data import ReportError, data_block_span, read_html

CSP_META = re.compile(
    r'<meta http-equiv="Content-Security-Policy" content="([^"]*)"', re.I)

FORBIDDEN = [
    (re.compile(r"https?://", re.I), "an http(s) URL"),
    (re.compile(r"""<[a-z][^>]*?\s(?:src|href|srcset|action|formaction|poster|background|data|xlink:href)\s*=\s*(?!["']?\s*(?:data:|#))""", re.I),
     "a URL attribute that is not data: or #fragment"),
    (re.compile(r"""\.(?:src|href|srcset|action)\s*=[^=]|setAttribute\(\s*["'](?:src|href|srcset|action)"""),
     "a script setting a URL attribute"),
    (re.compile(r"""url\(\s*(?!["']?\s*data:)""", re.I), "a CSS url() that is not data:"),
    (re.compile(r"@import", re.I), "a CSS @import"),
    (re.compile(r"\bimport\s*\(|\bimport\s+[\w{*][^;]*\bfrom\b|\bimportScripts\b"),
     "a JavaScript import"),
    (re.compile(r"\bfetch\s*\("), "fetch()"),
    (re.compile(r"\bXMLHttpRequest\b"), "XMLHttpRequest"),
    (re.compile(r"\bWebSocket\b"), "WebSocket"),
    (re.compile(r"\bEventSource\b"), "EventSource"),
    (re.compile(r"\bsendBeacon\b"), "navigator.sendBeacon"),
    (re.compile(r"\bnew\s+(?:Shared)?Worker\b"), "a web worker"),
]


def check_csp(html):
    meta = CSP_META.search(html)
    if not meta:
        return ["no Content-Security-Policy meta tag"]
    policy = {}
    for directive in meta.group(1).split(";"):
        parts = directive.split()
        if parts:
            policy[parts[0]] = parts[1:]
    problems = []
    if policy.get("default-src") != ["'none'"]:
        problems.append("CSP default-src is not 'none'")
    for name, sources in policy.items():
        for source in sources:
            allowed = source in ("'none'", "'self'", "data:", "'unsafe-inline'") or \
                source.startswith("'sha256-")
            if not allowed or (source == "'self'" and name != "default-src"):
                problems.append(f"CSP {name} allows {source}")
    if meta.start() > html.find("<script") or meta.start() > html.find("<style"):
        problems.append("the CSP meta tag comes after a script or style")
    return problems


def line_of(html, offset):
    return html.count("\n", 0, offset) + 1


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    path = sys.argv[1]
    try:
        html = read_html(path)
        start, end = data_block_span(html, path)
    except ReportError as e:
        print(f"html_check_offline: {e}", file=sys.stderr)
        return 1
    problems = check_csp(html)
    if "<" in html[start:end]:
        problems.append(f"line {line_of(html, start)}: the data block contains '<'")
    markup = html[:start] + " " * (end - start) + html[end:]
    for pattern, what in FORBIDDEN:
        for m in pattern.finditer(markup):
            snippet = markup[m.start():m.start() + 60].splitlines()[0]
            problems.append(f"line {line_of(markup, m.start())}: {what}: {snippet}")
    for p in problems:
        print(f"{path}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
