// diff.js - a differential tab (value 0 before, value 1 after). Frames are
// as wide as their value after and coloured by their change: grew red,
// shrank blue, saturated by the change relative to the largest change of
// any frame (the root's, which may be larger, is capped), unchanged
// neutral; the legend says what full red and full blue stand for. The
// sides may have been scaled to shares of each one's total (the tab's
// sides.shares): the words say so, and each frame's share of either side.
// Frames that exist only before have no width, so they are not drawn:
// their parent's tooltip counts them, and search counts them too.
// Here: the weighing, the colours, the words on the sides and the tooltip
// facts. Never draws.

const DIFF_BEFORE = 0; // DIFF_AFTER (1) is in measure.js
const GREW_HUE = 2;
const SHRANK_HUE = 214;

// The tree drawn by after, carrying before totals as tree.before.
function weighDiffTree(shape, profile) {
  const tree = weighTree(shape, profile, DIFF_AFTER);
  tree.before = totalsOf(shape, profile, DIFF_BEFORE);
  return tree;
}

// The change of a frame's share from before to after, in points of the
// whole: "+16.0 pts".
function formatPoints(change, whole) {
  const points = whole > 0 ? (100 * change) / whole : 0;
  return (points > 0 ? '+' : points < 0 ? '-' : '') + Math.abs(points).toFixed(1) + ' pts';
}

// "30.1% → 46.1% (+16.0 pts)": a node's share of each side's total.
function shareChangeText(tree, before, after) {
  const b = tree.before[ROOT] > 0 ? before / tree.before[ROOT] : 0;
  const a = tree.whole > 0 ? after / tree.whole : 0;
  return formatPercent(b, 1) + ' \u2192 ' + formatPercent(a, 1) + ' (' + formatPoints(a - b, 1) + ')';
}

// How the sides compare, in words: "normalised: each side as shares of its
// own total" or "as recorded".
function sidesScaleText(sides) {
  return sides && sides.shares ? 'normalised: each side as shares of its own total' : 'as recorded';
}

// "after 1,303 samples (1 process)": a side's total as recorded and its
// processes, where the tab knows them (a JavaScript heap's are its
// snapshots: not said).
function sideText(profile, measure, side, total) {
  const { sides } = profile;
  const amount = measure.format(sides ? sides.total[side] : total) +
    (profile.kind === 'cpu' ? ' samples' : '');
  const procs = sides && profile.kind !== 'js_heap' ? sides.processes[side] : 0;
  return (side === DIFF_BEFORE ? 'before ' : 'after ') + amount +
    (procs > 0 ? ' (' + procs + (procs === 1 ? ' process)' : ' processes)') : '');
}

class DiffColoring {
  // sides: the tab's (its scale), measure: the one it is drawn by.
  constructor(palette, tree, measure, sides) {
    this.palette = palette;
    let max = 0;
    for (let i = 1; i < tree.n; i++) max = Math.max(max, Math.abs(tree.total[i] - tree.before[i]));
    this.maxChange = max;
    this.fullScale = sides && sides.shares ? formatPoints(max, tree.whole).slice(1) + ' of the total'
      : measure.format(max);
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

  // Full red and full blue are the largest change of any frame.
  legend() {
    return [
      { label: 'grew (full: +' + this.fullScale + ')', color: this.changeColor(1) },
      { label: 'shrank (full: -' + this.fullScale + ')', color: this.changeColor(-1) },
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

// Tooltip rows: before, after, the change, the share of each side, and
// what is gone below node (null for a merged block).
function diffFacts(tree, measure, before, after, node) {
  const rows = [
    [measure.columns.before, measure.format(before)],
    [measure.columns.after, measure.format(after)],
    ['Change', formatChange(before, after, measure.format)],
    ['Share', shareChangeText(tree, before, after)],
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
