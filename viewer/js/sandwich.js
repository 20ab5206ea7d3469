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

// Grows a tree node by node, parents before children, adding up the
// totals (and before and tier totals) of the call tree's nodes put in each.
class TreeBuilder {
  constructor(source, rootFrame) {
    this.source = source;
    this.frame = [rootFrame];
    this.parent = [-1];
    this.depth = [0];
    this.total = [0];
    this.before = source.before ? [0] : null;
    this.tiers = source.tiers ? new Array(NTIERS).fill(0) : null;
    this.childOf = [new Map()]; // per node: frame -> child node
  }

  child(parent, frame) {
    let c = this.childOf[parent].get(frame);
    if (c === undefined) {
      c = this.frame.length;
      this.childOf[parent].set(frame, c);
      this.childOf.push(new Map());
      this.frame.push(frame);
      this.parent.push(parent);
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
    const n = this.frame.length;
    const tree = {
      n,
      frame: Int32Array.from(this.frame),
      parent: Int32Array.from(this.parent),
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
