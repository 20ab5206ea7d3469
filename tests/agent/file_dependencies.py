#!/usr/bin/env python3
"""file_dependencies.py - no circle between the agent's files.

One file of the agent depends on another when it uses a symbol the other
defines, as nm reads them from the object files: `U` a use, any other
upper-case letter (and GNU's unique `u`) a definition. The symbols the
agent's library exports are left out: they are the program's entry points
(the libc functions the agent interposes, stoke.h's API), and where the agent
calls one of those names itself (malloc, close) it calls the C library's
function, whoever answers it, not a file of its own (profiler/common/
agent_export.h).

The files must then form no cycle: a strongly connected component of more
than one file fails the check, which names one cycle in it and the symbols
that close each step. docs/internals.md says why (the agent's layers).

usage: file_dependencies.py NM LIBRARY OBJECT...
"""
import os
import subprocess
import sys


def nm(tool, *args):
    run = subprocess.run([tool, *args], capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"FAIL: {tool} {' '.join(args)}: {run.stderr.strip()}")
    return run.stdout.splitlines()


def symbols(tool, obj):
    """(defined, used) names of one object file."""
    defined, used = set(), set()
    for line in nm(tool, obj):
        parts = line.split()
        if len(parts) == 2 and parts[0] in "Uwv":
            used.add(parts[1])
        elif len(parts) == 3 and (parts[1].isupper() or parts[1] == "u"):
            defined.add(parts[2])
    return defined, used


def file_names(objects):
    """profiler/common/log.c for .../stoke_agent.dir/common/log.c.o."""
    root = os.path.commonpath([os.path.dirname(o) for o in objects])
    return {o: os.path.relpath(o, root).removesuffix(".o") for o in objects}


def dependencies(tool, library, objects):
    """{file: {file it uses: [symbols]}}"""
    exported = {line.split()[-1] for line in nm(tool, "-D", "--defined-only", library)}
    if not exported:
        sys.exit(f"FAIL: {library} exports nothing: not the agent?")
    names = file_names(objects)
    definers, uses = {}, {}
    for obj, name in names.items():
        defined, used = symbols(tool, obj)
        if not defined:
            sys.exit(f"FAIL: {tool} read no symbol defined in {obj} (an object of link-time "
                     "optimization needs the compiler's own nm)")
        for symbol in defined - exported:
            definers.setdefault(symbol, []).append(name)
        uses[name] = used - exported
    graph = {name: {} for name in names.values()}
    for name, used in uses.items():
        for symbol in sorted(used):
            for other in definers.get(symbol, []):
                if other != name:
                    graph[name].setdefault(other, []).append(symbol)
    return graph


def components(graph):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                found.append(sorted(component))
    return found


def one_cycle(graph, component):
    """A path from the component's first file back to it, inside the component."""
    members, start = set(component), component[0]
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for step in sorted(graph[path[-1]]):
            if step == start:
                return path + [start]
            if step in members and step not in seen:
                seen.add(step)
                paths.append(path + [step])
    return [start]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    tool, library, objects = sys.argv[1], sys.argv[2], sys.argv[3:]
    graph = dependencies(tool, library, objects)
    cycles = [c for c in components(graph) if len(c) > 1]
    for component in cycles:
        cycle = one_cycle(graph, component)
        print(f"FAIL: the agent's files {', '.join(component)} depend on each other; one cycle:")
        for here, there in zip(cycle, cycle[1:]):
            print(f"  {here} -> {there} ({', '.join(graph[here][there])})")
    edges = sum(len(uses) for uses in graph.values())
    print(f"{len(graph)} files, {edges} dependencies between them, "
          f"{len(cycles)} cycle{'' if len(cycles) == 1 else 's'}")
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main())
