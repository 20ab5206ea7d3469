// calltree.js - the call tree the views draw, built from the embedded
// preorder tree. Node 0 is the synthetic root ("all processes", "all
// snapshots" in a JavaScript heap: tab_kind.js); the process frames are
// its children. The shape (parent, depth, children in the
// embedded order: by name) is built once per tab; weighing it by one value
// type gives each node its self and total value and its left edge x0 in
// value units, so drawing any zoom level is arithmetic, and switching the
// measure only re-weighs. A weighed tree can be ordered left heavy
// (siblings heaviest first), its nodes keeping their numbers. Never draws.

const ROOT = 0;

function buildTreeShape(profile) {
  const n = profile.nodeDepth.length + 1;
  const shape = {
    n,
    frame: new Int32Array(n),
    parent: new Int32Array(n),
    depth: new Int32Array(n),
    childStart: new Int32Array(n + 1),
    children: new Int32Array(Math.max(n - 1, 0)),
  };
  linkParents(shape, profile);
  indexChildren(shape);
  return shape;
}

// Preorder with depths: a node's parent is the last node seen one level up.
function linkParents(shape, profile) {
  const depths = profile.nodeDepth;
  const lastAtDepth = [ROOT];
  shape.frame[ROOT] = -1;
  shape.parent[ROOT] = -1;
  for (let i = 1; i < shape.n; i++) {
    const d = depths[i - 1] + 1;
    if (d < 1 || d > shape.depth[i - 1] + 1) throw new Error('corrupt call tree at node ' + i);
    shape.parent[i] = lastAtDepth[d - 1];
    lastAtDepth[d] = i;
    shape.depth[i] = d;
    shape.frame[i] = profile.nodeFrame[i - 1];
  }
}

function indexChildren(shape) {
  const { childStart, children, parent } = shape;
  for (let i = 1; i < shape.n; i++) childStart[parent[i] + 1]++;
  for (let i = 0; i < shape.n; i++) childStart[i + 1] += childStart[i];
  const fill = childStart.slice(0, shape.n);
  for (let i = 1; i < shape.n; i++) children[fill[parent[i]]++] = i;
}

// The shape weighed by value valueIndex: { ...shape, valueIndex, self,
// total, tiers, whole, x0, maxDepth } (whole: the profile's total, which
// percentages are of; maxDepth: of the nodes with a positive total;
// tiers: NTIERS totals a node, by V8 tier, at node * NTIERS, or null for
// a profile without tiers, see transform.js).
function weighTree(shape, profile, valueIndex) {
  const self = selfColumn(shape, profile, valueIndex);
  const total = sumTotals(shape, self);
  const tiers = profile.nodeTiers ? profile.nodeTiers[valueIndex] : null;
  return placeTree({ ...shape, valueIndex, self, total, tiers, whole: total[ROOT] });
}

// Adds x0 and maxDepth to a weighed tree whose parents come before their
// children.
function placeTree(tree) {
  tree.x0 = new Float64Array(tree.n);
  tree.maxDepth = 0;
  placeNodes(tree);
  for (let i = 1; i < tree.n; i++) {
    if (tree.total[i] > 0 && tree.depth[i] > tree.maxDepth) tree.maxDepth = tree.depth[i];
  }
  return tree;
}

// Self values of every node (the root has none).
function selfColumn(shape, profile, valueIndex) {
  const self = new Float64Array(shape.n);
  self.set(profile.nodeSelf[valueIndex], 1);
  return self;
}

// Children come after their parent (in preorder, or as any builder adds
// them), so one backward pass adds up.
function sumTotals(shape, self) {
  const total = Float64Array.from(self);
  const parent = shape.parent;
  for (let i = shape.n - 1; i > 0; i--) total[parent[i]] += total[i];
  return total;
}

// The totals of another value over the same shape (a differential tab's
// before, next to the after it is drawn by).
function totalsOf(shape, profile, valueIndex) {
  return sumTotals(shape, selfColumn(shape, profile, valueIndex));
}

// The tree with each node's children heaviest first (equal ones in the
// order they had), placed again; node numbers, totals and depths stay.
function heaviestFirst(tree) {
  const { total, childStart } = tree;
  const children = tree.children.slice();
  const heavier = (a, b) => total[b] - total[a] || a - b;
  for (let p = 0; p < tree.n; p++) {
    if (childStart[p + 1] - childStart[p] > 1) children.subarray(childStart[p], childStart[p + 1]).sort(heavier);
  }
  return placeTree({ ...tree, children });
}

// Children sit side by side from their parent's left edge; self value is the
// gap left at the right.
function placeNodes(tree) {
  const { childStart, children, x0, total } = tree;
  for (let p = 0; p < tree.n; p++) {
    let x = x0[p];
    for (let k = childStart[p]; k < childStart[p + 1]; k++) {
      x0[children[k]] = x;
      x += total[children[k]];
    }
  }
}

function pathFromRoot(tree, node) {
  const path = [];
  for (let v = node; v !== -1; v = tree.parent[v]) path.push(v);
  return path.reverse();
}

// The node of shape reached from the root by the frames of the path to
// node in another shape of the same tab (from), or ROOT where one is
// missing.
function nodeAlong(shape, from, node) {
  let at = ROOT;
  for (const v of pathFromRoot(from, node).slice(1)) {
    let next = -1;
    for (let k = shape.childStart[at]; k < shape.childStart[at + 1] && next < 0; k++) {
      if (shape.frame[shape.children[k]] === from.frame[v]) next = shape.children[k];
    }
    if (next < 0) return ROOT;
    at = next;
  }
  return at;
}

function nodeLabel(tree, profile, node) {
  return tree.frame[node] < 0 ? tabWords(profile).root : frameNameOf(profile, tree.frame[node]);
}
