// calltree.js - the call tree the views draw, built once at load from the
// embedded preorder tree. Node 0 is the synthetic "all processes" root; the
// process frames are its children. Each node knows its parent, depth, self
// and total value, its children (in the embedded order: by name), and its
// left edge x0 in value units, so drawing any zoom level is arithmetic.
// Never draws.

const ROOT = 0;
const ROOT_LABEL = 'all processes';

function buildCallTree(profile, valueIndex) {
  const n = profile.nodeDepth.length + 1;
  const tree = {
    n,
    valueIndex,
    frame: new Int32Array(n),
    parent: new Int32Array(n),
    depth: new Int32Array(n),
    self: new Float64Array(n),
    total: new Float64Array(n),
    childStart: new Int32Array(n + 1),
    children: new Int32Array(Math.max(n - 1, 0)),
    x0: new Float64Array(n),
    maxDepth: 0,
  };
  linkParents(tree, profile, valueIndex);
  sumTotals(tree);
  indexChildren(tree);
  placeNodes(tree);
  return tree;
}

// Preorder with depths: a node's parent is the last node seen one level up.
function linkParents(tree, profile, valueIndex) {
  const depths = profile.nodeDepth;
  const selfColumn = profile.nodeSelf[valueIndex];
  const lastAtDepth = [ROOT];
  tree.frame[ROOT] = -1;
  tree.parent[ROOT] = -1;
  for (let i = 1; i < tree.n; i++) {
    const d = depths[i - 1] + 1;
    if (d < 1 || d > tree.depth[i - 1] + 1) throw new Error('corrupt call tree at node ' + i);
    tree.parent[i] = lastAtDepth[d - 1];
    lastAtDepth[d] = i;
    tree.depth[i] = d;
    tree.frame[i] = profile.nodeFrame[i - 1];
    tree.self[i] = selfColumn[i - 1];
    if (d > tree.maxDepth) tree.maxDepth = d;
  }
}

// Children come after their parent in preorder, so one backward pass adds up.
function sumTotals(tree) {
  const { total, self, parent } = tree;
  for (let i = tree.n - 1; i > 0; i--) {
    total[i] += self[i];
    total[parent[i]] += total[i];
  }
  total[ROOT] += self[ROOT];
}

function indexChildren(tree) {
  const { childStart, children, parent } = tree;
  for (let i = 1; i < tree.n; i++) childStart[parent[i] + 1]++;
  for (let i = 0; i < tree.n; i++) childStart[i + 1] += childStart[i];
  const fill = childStart.slice(0, tree.n);
  for (let i = 1; i < tree.n; i++) children[fill[parent[i]]++] = i;
}

// Children sit side by side from their parent's left edge; self time is the
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

function nodeLabel(tree, profile, node) {
  return node === ROOT ? ROOT_LABEL : frameNameOf(profile, tree.frame[node]);
}
