"""hostile_snapshots.py - V8 heap snapshots (.heapsnapshot JSON) built to
break or cost stoke's reader as much as they can: a valid snapshot to cut
and bend (nodes in a ring and in cycles, weak edges, a WeakMap), and text
with wrong types, counts that lie, edges to nowhere and nesting far deeper
than a snapshot's. Stdlib only. Never runs stoke.
"""
import json

NODE_FIELDS = ["type", "name", "id", "self_size", "edge_count", "trace_node_id", "detachedness"]
NODE_TYPES = ["hidden", "array", "string", "object", "code", "closure", "regexp", "number",
              "native", "synthetic", "concatenated string", "sliced string", "symbol", "bigint",
              "object shape"]
EDGE_TYPES = ["context", "element", "property", "internal", "hidden", "shortcut", "weak"]
OBJECT, SYNTHETIC, ARRAY, HIDDEN = 3, 9, 1, 0
ELEMENT, PROPERTY, SHORTCUT, WEAK = 1, 2, 5, 6


def meta(node_count, edge_count):
    return {"meta": {"node_fields": NODE_FIELDS,
                     "node_types": [NODE_TYPES, "string", "number", "number", "number", "number",
                                    "number"],
                     "edge_fields": ["type", "name_or_index", "to_node"],
                     "edge_types": [EDGE_TYPES, "string_or_number", "node"],
                     "location_fields": ["object_index", "script_id", "line", "column"]},
            "node_count": node_count, "edge_count": edge_count, "trace_function_count": 0}


def graph(objects):
    """(nodes, edges, strings) of a heap: the root, (GC roots), a global
    object and `objects` objects in a ring the global holds, each also
    holding the next but one (cycles everywhere), an array and a weak edge
    back to the global."""
    strings = ["", "(GC roots)", "global", "Item", "next", "skip", "(object elements)", "back"]
    nodes, edges = [], []

    def node(type_, name, size, node_edges):
        nodes.extend([type_, name, 2 * (len(nodes) // 7) + 1, size, len(node_edges), 0, 0])
        edges.extend(e for edge in node_edges for e in edge)

    first = 3
    node(SYNTHETIC, 0, 0, [(SHORTCUT, 2, 14), (ELEMENT, 1, 7)])
    node(SYNTHETIC, 1, 0, [(ELEMENT, 1, first * 7)])
    node(OBJECT, 2, 40, [(PROPERTY, 3, first * 7)])
    for i in range(objects):
        nxt, skip = first + (i + 1) % objects, first + (i + 2) % objects
        node(OBJECT, 3, 24 + i % 7, [(PROPERTY, 4, nxt * 7), (PROPERTY, 5, skip * 7),
                                     (WEAK, 7, 14), (PROPERTY, 6, (first + objects + i) * 7)])
    for i in range(objects):
        node(ARRAY, 6, 16 + i % 3, [])
    return nodes, edges, strings


def snapshot_text(nodes, edges, strings, node_count=None, edge_count=None):
    """The snapshot as V8 writes it (a node or edge to a line)."""
    head = json.dumps({"snapshot": meta(len(nodes) // 7 if node_count is None else node_count,
                                        len(edges) // 3 if edge_count is None else edge_count)})
    rows = lambda values, width: ",\n".join(",".join(map(str, values[i:i + width]))
                                            for i in range(0, len(values), width))
    return (head[:-1] + ",\n\"nodes\":[" + rows(nodes, 7) + "],\n\"edges\":[" + rows(edges, 3) +
            "],\n\"trace_function_infos\":[],\"trace_tree\":[],\"samples\":[],\"locations\":[],\n"
            "\"strings\":" + json.dumps(strings) + "}\n")


def valid(objects=2000):
    return snapshot_text(*graph(objects))


def cut_points(text, count):
    """Where to cut text: evenly spread, and around the start and end of
    each part."""
    points = {len(text) * i // count for i in range(1, count)}
    for key in ("\"nodes\"", "\"edges\"", "\"strings\"", "]"):
        at = text.find(key)
        points |= {at - 1, at, at + 1, at + len(key) + 2}
    return sorted(p for p in points if 0 < p < len(text))


def nodes_end(text):
    """The offset just past the closing bracket of "nodes"."""
    return text.index("],\n\"edges\"") + 1


def with_value(text, section, index, value):
    """text with the index-th value of the "nodes" or "edges" array
    replaced by value (JSON text)."""
    start = text.index("\"%s\":[" % section) + len(section) + 4
    end = text.index("]", start)
    values = text[start:end].split(",")
    values[index] = value
    return text[:start] + ",".join(values) + text[end:]


def wrong_types():
    """(name, text, what the error must say) of files with a value of the
    wrong type where stoke reads one."""
    base = valid(20)
    cases = [("node_string", with_value(base, "nodes", 10, "\"x\""), "nodes[10] is a string"),
             ("node_null", with_value(base, "nodes", 3, "null"), "nodes[3] is null"),
             ("node_true", with_value(base, "nodes", 0, "true"), "nodes[0] is true"),
             ("node_object", with_value(base, "nodes", 5, "{}"), "nodes[5] is an object"),
             ("node_array", with_value(base, "nodes", 6, "[1]"), "nodes[6] is an array"),
             ("node_fraction", with_value(base, "nodes", 3, "1.5"), "nodes[3] is a fraction"),
             ("node_negative", with_value(base, "nodes", 3, "-4"), "nodes[3] is negative"),
             ("edge_string", with_value(base, "edges", 2, "\"to\""), "edges[2] is a string"),
             ("top_string", "\"snapshot\"", "is not a JSON object"),
             ("top_number", "42", "is not a JSON object"),
             ("snapshot_array", "{\"snapshot\":[]}", "\"snapshot\" is an array, not an object")]
    head = json.loads(base[:base.index(",\n\"nodes\"")] + "}")
    for name, change, message in [
            ("fields_number", ("node_fields", 7), "\"node_fields\" is a number, not an array"),
            ("fields_strings", ("node_fields", [1, 2]), "holds a number, not a name"),
            ("types_string", ("node_types", "object"), "\"node_types\" is a string"),
            ("no_types", ("node_types", []), "has no list of type names"),
            ("no_id", ("node_fields", NODE_FIELDS[:2] + NODE_FIELDS[3:]),
             "lists no \"id\" field of nodes")]:
        bent = json.loads(json.dumps(head))
        bent["snapshot"]["meta"][change[0]] = change[1]
        cases.append((name, json.dumps(bent)[:-1] + base[base.index(",\n\"nodes\""):], message))
    strings_at = base.index("\"strings\":[") + len("\"strings\":[")
    cases.append(("strings_number", base[:strings_at] + "7," + base[strings_at:],
                  "strings[0] is a number"))
    return cases


def lying_counts():
    """(name, text) of files whose counts claim far more than they hold:
    read with warnings, never allocated from the claim."""
    nodes, edges, strings = graph(50)
    return [("node_count", snapshot_text(nodes, edges, strings, node_count=10 ** 18)),
            ("edge_count", snapshot_text(nodes, edges, strings, edge_count=10 ** 18)),
            ("both_counts", snapshot_text(nodes, edges, strings, 2 ** 62, 2 ** 62)),
            ("short_edges", snapshot_text(nodes, edges[:-30], strings)),
            ("long_edges", snapshot_text(nodes, edges + [2, 4, 7] * 40, strings))]


def bad_edges():
    """(name, text) of files with edges to no node: dropped, with a warning."""
    nodes, edges, strings = graph(50)
    out_of_range = list(edges)
    out_of_range[2::3] = [7 * 10 ** 6 + i * 7 for i in range(len(edges) // 3)]
    not_multiple = list(edges)
    not_multiple[5] = 8
    huge = list(edges)
    huge[2] = 2 ** 62
    return [("to_out_of_range", snapshot_text(nodes, out_of_range, strings)),
            ("to_not_a_node", snapshot_text(nodes, not_multiple, strings)),
            ("to_huge", snapshot_text(nodes, huge, strings))]


def odd_values():
    """(name, text, error or None) of values that are valid JSON but odd,
    and of text that is not JSON."""
    nodes, edges, strings = graph(30)
    big_name = list(nodes)
    big_name[8] = 2 ** 40
    big_type = list(nodes)
    big_type[7] = 1000
    big_size = list(nodes)
    big_size[3] = 2 ** 61
    deep = valid(10).replace("\"trace_tree\":[]", "\"trace_tree\":" + "[" * 500000 + "]" * 500000)
    long_string = valid(10).replace("\"Item\"", "\"" + "I" * (20 << 20) + "\"")
    return [("name_out_of_range", snapshot_text(big_name, edges, strings), None),
            ("type_out_of_range", snapshot_text(big_type, edges, strings), None),
            ("huge_self_size", snapshot_text(big_size, edges, strings),
             "add up to more than 2^60 bytes"),
            ("deep_nesting", deep, None),
            ("long_string", long_string, None),
            ("two_nodes", valid(5).replace("\"trace_tree\":[]", "\"nodes\":[]"),
             "holds two \"nodes\" arrays"),
            ("bad_utf8", valid(5).replace("\"Item\"", "\"It\xffem\""),
             "not a V8 heap snapshot: JSON"),
            ("stoke_trace", "STOKETRC\x01\x00\x01\x00", "not a V8 heap snapshot: JSON"),
            ("blank", " \n\t ", "not a V8 heap snapshot: JSON"),
            ("empty", "", "is empty")]
