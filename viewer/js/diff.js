// diff.js - a differential tab (value 0 before, value 1 after). Frames are
// as wide as their value after and coloured by their change: grew red,
// shrank blue, saturated by the change relative to the largest change of
// any frame (the root's, which may be larger, is capped), unchanged
// neutral. Frames that exist only before have no width, so they are not
// drawn: their parent's tooltip counts them, and search counts them too.
// Here: the weighing, the colours and the tooltip facts. Never draws.

const DIFF_BEFORE = 0; // DIFF_AFTER (1) is in measure.js
const GREW_HUE = 2;
const SHRANK_HUE = 214;

// The tree drawn by after, carrying before totals as tree.before.
function weighDiffTree(shape, profile) {
  const tree = weighTree(shape, profile, DIFF_AFTER);
  tree.before = totalsOf(shape, profile, DIFF_BEFORE);
  return tree;
}

class DiffColoring {
  constructor(palette, tree) {
    this.palette = palette;
    let max = 0;
    for (let i = 1; i < tree.n; i++) max = Math.max(max, Math.abs(tree.total[i] - tree.before[i]));
    this.maxChange = max;
  }

  nodeColor(tree, node) {
    const change = tree.total[node] - tree.before[node];
    return this.changeColor(this.maxChange > 0 ? change / this.maxChange : 0);
  }

  // r in [-1, 1]: the change relative to the largest one; 0 is neutral.
  changeColor(r) {
    const size = Math.min(Math.abs(r), 1);
    const hue = r > 0 ? GREW_HUE : SHRANK_HUE;
    if (this.palette.dark) {
      if (size === 0) return 'hsl(220,5%,32%)';
      return 'hsl(' + hue + ',' + (15 + 55 * size).toFixed(1) + '%,' + (32 + 8 * size).toFixed(1) + '%)';
    }
    if (size === 0) return 'hsl(220,5%,84%)';
    return 'hsl(' + hue + ',' + (15 + 70 * size).toFixed(1) + '%,' + (84 - 24 * size).toFixed(1) + '%)';
  }

  legend() {
    return [
      { label: 'grew', color: this.changeColor(1) },
      { label: 'shrank', color: this.changeColor(-1) },
      { label: 'unchanged', color: this.changeColor(0) },
    ];
  }
}

// The children of node that exist only before (not drawn):
// { count, before } with before their total value before.
function goneChildren(tree, node) {
  let count = 0;
  let before = 0;
  for (let k = tree.childStart[node]; k < tree.childStart[node + 1]; k++) {
    const c = tree.children[k];
    if (!(tree.total[c] > 0) && tree.before[c] > 0) {
      count++;
      before += tree.before[c];
    }
  }
  return { count, before };
}

// The before total of the drawn children children[first..last] of a merged block.
function runBefore(tree, first, last) {
  let before = 0;
  for (let k = first; k <= last; k++) {
    const c = tree.children[k];
    if (tree.total[c] > 0) before += tree.before[c];
  }
  return before;
}

// Tooltip rows: before, after, the change, and what is gone below node
// (null for a merged block).
function diffFacts(tree, measure, before, after, node) {
  const rows = [
    [measure.columns.before, measure.format(before)],
    [measure.columns.after, measure.format(after)],
    ['Change', formatChange(before, after, measure.format)],
  ];
  if (node !== null) {
    const gone = goneChildren(tree, node);
    if (gone.count > 0) {
      rows.push(['Gone', gone.count + (gone.count === 1 ? ' frame' : ' frames') +
                 ' only in before (' + measure.format(gone.before) + ')']);
    }
  }
  return rows;
}
