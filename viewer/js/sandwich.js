// sandwich.js - the callers and the callees of one function (every frame
// of that name), as two trees of calltree.js's form that FlameView draws.
// The callees tree merges the subtrees of each outermost call of the
// function (a recursive call inside one is not counted again); the callers
// tree turns each such call's path to the root around, the function at its
// root. Both roots hold the function's total. Trees with before totals (a
// differential tab) give trees with before totals; trees with tier totals
// give them to the callees and to the function itself (a caller's share
// of a call did not run in the call's tier). Never draws.

// { callers, callees } for the function whose name is string nameString,
// or null when no drawn or gone frame has that name.
function sandwichTrees(tree, profile, nameString) {
  const calls = outermostCalls(tree, profile, nameString);
  if (calls.length === 0) return null;
  return { callers: callerTree(tree, calls), callees: calleeTree(tree, calls) };
}

// The nodes of that name with no ancestor of that name, in preorder.
function outermostCalls(tree, profile, nameString) {
  const calls = [];
  const inside = new Uint8Array(tree.n); // the node or an ancestor has the name
  for (let i = 1; i < tree.n; i++) {
    const named = profile.frameName[tree.frame[i]] === nameString;
    const p = tree.parent[i];
    if (named && !inside[p]) calls.push(i);
    inside[i] = named || inside[p] ? 1 : 0;
  }
  return calls;
}

function callerTree(tree, calls) {
  const out = new TreeBuilder(tree, tree.frame[calls[0]]);
  for (const call of calls) {
    let node = ROOT;
    out.add(node, call);
    for (let a = tree.parent[call]; a > ROOT; a = tree.parent[a]) {
      node = out.child(node, tree.frame[a]);
      out.add(node, call, false);
    }
  }
  return out.finish();
}

// A node of the call tree and its copy in the callees tree have the same
// total: two nodes merged into one copy are never one inside the other.
function calleeTree(tree, calls) {
  if (calls.length === 1) return subtreeTree(tree, calls[0]);
  const out = new TreeBuilder(tree, tree.frame[calls[0]]);
  const copy = new Int32Array(tree.n);
  for (const call of calls) {
    copy[call] = ROOT;
    out.add(ROOT, call);
    for (let v = call + 1; v < tree.n && tree.depth[v] > tree.depth[call]; v++) {
      copy[v] = out.child(copy[tree.parent[v]], tree.frame[v]);
      out.add(copy[v], v);
    }
  }
  return out.finish();
}

// The callees of a function called from one place: that call's subtree as
// the call tree has it (its nodes in preorder, one slice), the call its root.
function subtreeTree(tree, call) {
  let end = call + 1;
  while (end < tree.n && tree.depth[end] > tree.depth[call]) end++;
  const n = end - call;
  const out = {
    n,
    frame: tree.frame.slice(call, end),
    parent: tree.parent.slice(call, end),
    depth: tree.depth.slice(call, end),
    total: tree.total.slice(call, end),
    self: tree.self.slice(call, end),
    tiers: tree.tiers ? tree.tiers.slice(call * NTIERS, end * NTIERS) : null,
    whole: tree.whole,
    childStart: new Int32Array(n + 1),
    children: new Int32Array(Math.max(n - 1, 0)),
  };
  const depth0 = out.depth[0];
  for (let i = 0; i < n; i++) {
    out.parent[i] -= call;
    out.depth[i] -= depth0;
  }
  out.parent[0] = -1;
  if (tree.before) out.before = tree.before.slice(call, end);
  indexChildren(out);
  return placeTree(out);
}

// Grows a tree node by node, parents before children, adding up the
// totals (and before and tier totals) of the call tree's nodes put in each.
// Its shape (which node is the child of which for a frame) is transform.js's
// GrowingTree.
class TreeBuilder {
  constructor(source, rootFrame) {
    this.source = source;
    this.shape = new GrowingTree(1024, 0, false);
    this.shape.frame[0] = rootFrame;
    this.depth = [0];
    this.total = [0];
    this.before = source.before ? [0] : null;
    this.tiers = source.tiers ? new Array(NTIERS).fill(0) : null;
  }

  child(parent, frame) {
    const c = this.shape.child(parent, frame);
    if (c === this.total.length) {
      this.depth.push(this.depth[parent] + 1);
      this.total.push(0);
      if (this.before) this.before.push(0);
      if (this.tiers) for (let t = 0; t < NTIERS; t++) this.tiers.push(0);
    }
    return c;
  }

  // Adds the totals of the source's node to node, and its tier totals
  // unless withTiers is false.
  add(node, sourceNode, withTiers = true) {
    this.total[node] += this.source.total[sourceNode];
    if (this.before) this.before[node] += this.source.before[sourceNode];
    if (this.tiers && withTiers) {
      for (let t = 0; t < NTIERS; t++) this.tiers[node * NTIERS + t] += this.source.tiers[sourceNode * NTIERS + t];
    }
  }

  finish() {
    const n = this.shape.count;
    const tree = {
      n,
      frame: this.shape.frame.slice(0, n),
      parent: this.shape.parent.slice(0, n),
      depth: Int32Array.from(this.depth),
      total: Float64Array.from(this.total),
      self: Float64Array.from(this.total),
      tiers: this.tiers ? Float64Array.from(this.tiers) : null,
      whole: this.source.whole,
      childStart: new Int32Array(n + 1),
      children: new Int32Array(Math.max(n - 1, 0)),
    };
    if (this.before) tree.before = Float64Array.from(this.before);
    for (let i = 1; i < n; i++) tree.self[tree.parent[i]] -= tree.total[i];
    indexChildren(tree);
    return placeTree(tree);
  }
}
