"""table.py - a result table of the benchmark, printed as Markdown so it can
go into docs/benchmarks.md as it is.

Owns: layout. Never computes the numbers it shows.
"""


class Table:
    def __init__(self, title, headers):
        self.title = title
        self.headers = headers
        self.rows = []
        self.notes = []

    def add(self, *cells):
        self.rows.append([str(c) for c in cells])

    def note(self, text):
        self.notes.append(text)

    def markdown(self):
        widths = [max(len(h), *(len(r[i]) for r in self.rows)) if self.rows else len(h)
                  for i, h in enumerate(self.headers)]
        lines = ["#### " + self.title, ""]
        lines.append(_row(self.headers, widths))
        lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
        lines.extend(_row(r, widths) for r in self.rows)
        if self.notes:
            lines.append("")
            lines.extend(self.notes)
        return "\n".join(lines) + "\n"


def _row(cells, widths):
    return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
