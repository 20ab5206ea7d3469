"""report_data.py - reads the profile data embedded in a stoke HTML report
(the JSON block <script type="application/json" id="stoke-data">, layout in
viewer/report_data.h). Shared by the report tools; stdlib only.
"""
import json
import re

DATA_VERSION = 1
DATA_BLOCK = re.compile(
    r'<script type="application/json" id="stoke-data">(.*?)</script>', re.S)


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


def load_report_data(path):
    html = read_html(path)
    start, end = data_block_span(html, path)
    try:
        data = json.loads(html[start:end])
    except ValueError as e:
        raise ReportError(f"{path}: the data block is not valid JSON: {e}")
    if data.get("version") != DATA_VERSION:
        raise ReportError(f"{path}: data version {data.get('version')}, "
                          f"these tools read version {DATA_VERSION}")
    return data


def stacks(data, value_index):
    """Yields (list of frame names root first, value) for every tree node
    with a non-zero self value, in the tree's preorder."""
    strings = data["strings"]
    names = [strings[i] for i in data["frames"]["name"]]
    self_values = data["tree"]["self"][value_index]
    path = []
    for depth, frame, value in zip(data["tree"]["depth"], data["tree"]["frame"], self_values):
        del path[depth:]
        path.append(names[frame])
        if value != 0:
            yield list(path), value
