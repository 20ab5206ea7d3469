"""report_data.py - reads the profile data embedded in a stoke HTML report
(the block <script ... id="stoke-data">: a JSON document, layout in
output/html/report_data.h, deflated and in base64, see
output/html/data_block.h): a string pool and a frame table shared by the
report's tabs, and per tab its values and call tree. Shared by the report tools; stdlib only.
"""
import base64
import binascii
import json
import re
import zlib

DATA_VERSION = 4
DATA_BLOCK = re.compile(
    r'<script type="application/octet-stream" id="stoke-data"[^>]*>(.*?)</script>', re.S)
RAW_DEFLATE = -15


class ReportError(Exception):
    pass


def read_html(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ReportError(f"{path}: cannot read: {e}")


def data_block_span(html, path):
    """(start, end) of the JSON text inside the data block."""
    blocks = list(DATA_BLOCK.finditer(html))
    if len(blocks) != 1:
        raise ReportError(f"{path}: expected one stoke-data block, found {len(blocks)}")
    return blocks[0].span(1)


def load_report(path):
    """The whole document: title, strings, frames and tabs."""
    html = read_html(path)
    start, end = data_block_span(html, path)
    try:
        packed = base64.b64decode(html[start:end].strip(), validate=True)
        data = json.loads(zlib.decompress(packed, RAW_DEFLATE))
    except (binascii.Error, zlib.error, ValueError) as e:
        raise ReportError(f"{path}: the data block cannot be read: {e}")
    if data.get("version") != DATA_VERSION:
        raise ReportError(f"{path}: data version {data.get('version')}, "
                          f"these tools read version {DATA_VERSION}")
    if not data.get("tabs"):
        raise ReportError(f"{path}: the report has no tab")
    data["strings"] = decode_strings(data["strings"])
    return data


def decode_strings(pool):
    """The front-coded string pool as a list: string i is the first
    shared[i] UTF-16 code units of string i - 1, then rest[i]."""
    strings = []
    previous = b""
    for shared, rest in zip(pool["shared"], pool["rest"]):
        previous = previous[:2 * shared] + rest.encode("utf-16-le", "surrogatepass")
        strings.append(previous.decode("utf-16-le", "surrogatepass"))
    return strings


def tab_index(data, tab, path):
    """The index of a tab given as its number (0-based) or its name."""
    names = [t["name"] for t in data["tabs"]]
    if tab in names:
        return names.index(tab)
    if str(tab).isdigit() and int(tab) < len(names):
        return int(tab)
    raise ReportError(f"{path}: no tab {tab!r}; the tabs are "
                      + ", ".join(f"{i} {n!r}" for i, n in enumerate(names)))


def load_report_data(path, tab=0):
    """One tab (number or name) with the report's strings, frames and title:
    keys name, differential, period_ns, values, processes, tree, strings,
    frames, title."""
    data = load_report(path)
    chosen = dict(data["tabs"][tab_index(data, tab, path)])
    for shared in ("strings", "frames", "title"):
        chosen[shared] = data[shared]
    return chosen


def frame_column(data, key):
    """A frame table column; zeros for one a report made before it existed
    lacks (column and tier)."""
    frames = data["frames"]
    return frames.get(key) or [0] * len(frames["name"])


def frame_labels(data, with_tiers=False):
    """Each frame's name; with_tiers: a frame compiled by a V8 tier has the
    tier's mark before it, as node's perf map writes it ("*renderTree ...")."""
    strings = data["strings"]
    names = [strings[i] for i in data["frames"]["name"]]
    if not with_tiers:
        return names
    return [(chr(tier) if tier else "") + name
            for name, tier in zip(names, frame_column(data, "tier"))]


def stacks(data, value_indices, with_tiers=False):
    """Yields (list of frame labels root first, [values]) for every distinct
    stack of a tab with a non-zero value among value_indices, in the order of
    the tree's preorder. Tree nodes whose paths read the same (frames that
    differ only in a field not shown, such as the V8 tier) are one stack,
    their values added."""
    labels = frame_labels(data, with_tiers)
    columns = [data["tree"]["self"][v] for v in value_indices]
    merged = {}
    path = []
    for node, (depth, frame) in enumerate(zip(data["tree"]["depth"], data["tree"]["frame"])):
        del path[depth:]
        path.append(labels[frame])
        values = [column[node] for column in columns]
        if any(values):
            key = tuple(path)
            merged[key] = [a + b for a, b in zip(merged[key], values)] if key in merged else values
    for key, values in merged.items():
        yield list(key), values
