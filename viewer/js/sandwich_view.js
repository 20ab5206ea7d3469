// sandwich_view.js - the sandwich panel: one function's callers drawn as a
// flame graph above it (the function at the bottom, its callers stacked
// on top) and its callees as an icicle below it (the function at the top),
// with a title saying what it shows, and the function's hottest lines
// under them (hot_lines.js). The trees come from sandwich.js. Names are
// set with textContent only.

class SandwichPanel {
  // elements: { title, callers, callees (empty scrollers for the halves),
  // lines (where the hottest lines go) }
  constructor(elements, palette) {
    this.title = elements.title;
    this.lines = new HotLinesPanel(elements.lines);
    this.callers = new FlameView(flameElements(elements.callers), palette);
    this.callees = new FlameView(flameElements(elements.callees), palette);
    this.callees.setIcicle(true);
    this.name = null;
  }

  get views() {
    return [this.callers, this.callees];
  }

  // trees: { callers, callees } of the function named name, or null.
  show(trees, profile, coloring, name, measure) {
    this.name = name;
    if (!trees) {
      this.title.textContent = name
        ? 'No function named "' + name + '" in this profile.'
        : 'Pick a function: press s over a frame, or pick a row of the table.';
      for (const v of this.views) v.show(emptyTree(), profile, coloring);
      this.lines.show(profile, null, measure.index, 0, measure);
    } else {
      const total = trees.callees.total[ROOT];
      this.title.textContent = name + ': ' + measure.amount(total) + ' (' +
        formatPercent(total, trees.callees.whole) + ' of total); ' + tabWords(profile).halves;
      this.callers.show(trees.callers, profile, coloring);
      this.callees.show(trees.callees, profile, coloring);
      this.lines.show(profile, name, measure.index, total, measure);
    }
    for (const v of this.views) v.setZoom(ROOT);
  }

  // matcher from search.js, or null.
  setMatches(matcher, profile) {
    for (const v of this.views) {
      v.setMatches(matcher && !matcher.error && v.tree.n > 1 ? findMatches(v.tree, profile, matcher).nodeMatch : null);
    }
  }

  setColoring(coloring) {
    for (const v of this.views) v.setColoring(coloring);
  }
}

// Fills an empty scroller with what a FlameView draws in: a plane as tall
// as the graph, holding a viewport with the canvas and its overlay.
function flameElements(scroller) {
  const plane = document.createElement('div');
  plane.className = 'plane';
  const viewport = document.createElement('div');
  viewport.className = 'viewport';
  const canvas = document.createElement('canvas');
  canvas.className = 'flame';
  const overlay = document.createElement('canvas');
  overlay.className = 'overlay';
  overlay.setAttribute('aria-hidden', 'true');
  viewport.append(canvas, overlay);
  plane.append(viewport);
  scroller.replaceChildren(plane);
  return { scroller, plane, canvas, overlay };
}

function emptyTree() {
  const tree = { n: 1, frame: Int32Array.of(-1), parent: Int32Array.of(-1), depth: Int32Array.of(0),
                 total: Float64Array.of(0), self: Float64Array.of(0), whole: 0,
                 childStart: Int32Array.of(0, 0), children: new Int32Array(0) };
  return placeTree(tree);
}
