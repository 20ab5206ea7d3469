// transform.js - a tab's call tree as its frame options show it, in one
// pass over the embedded preorder tree:
//  - tiers merged: frames equal in every field but their V8 tier are one
//    frame, so siblings that become equal merge, recursively, their values
//    added; split: each keeps its tier, written after its name;
//  - kinds hidden: a hidden frame leaves every stack, its children and
//    self value going to the nearest kept ancestor (process and thread
//    frames are never hidden);
//  - JavaScript first: the frames between the roots (process, thread) and
//    the first JavaScript frame of a stack become one synthetic frame, one
//    per distinct prefix; stacks without JavaScript stay as they are;
//  - recursion merged: a frame of the same function (the same name as
//    shown) as the frame its caller landed on merges into it, as a hidden
//    frame does, so render_tree -> render_tree -> ... -> draw is one
//    render_tree with every level's self value and draw below it; its
//    children that become equal merge, their values added. Direct
//    recursion only: in a -> b -> a the second a stays (merging it would
//    show b calling what a called). Process and thread frames never merge.
// The result is a profile of data.js's form (a preorder tree over a frame
// table and a string pool, both extended with what it makes), so every
// view reads it as any tab; each node also carries how much of its total
// each V8 tier ran (nodeTiers). A tab without JavaScript (kinds.js:
// hasJavaScript) is shown as written unless recursion is merged. Never
// draws or touches the page.

const PLAIN_OPTIONS = { key: 'plain' };
const MERGED_OPTIONS = { key: 'merged', hidden: hiddenKinds(''), splitTiers: false, collapse: false, mergeRecursion: true };
const MIN_COLLAPSED = 2;  // a single frame is shown as itself
const COLLAPSED_ROOM = 1024; // view nodes beyond the data's before the view tree grows
const ZONE_ROOT = 0;      // process and thread frames at the top
const ZONE_PREFIX = 1;    // below them, no JavaScript frame yet
const ZONE_JS = 2;        // at or below a stack's first JavaScript frame

// The options of a tab whose kinds are present (Uint8Array by kind) in
// page state (hash.js: hide, tiers, frames, recursion).
function frameOptions(present, state) {
  const mergeRecursion = state.recursion === 'merged';
  if (!hasJavaScript(present)) return mergeRecursion ? MERGED_OPTIONS : PLAIN_OPTIONS;
  const hidden = canonicalHidden(presentGroups(present).map((g) => g.key)
    .filter((key) => state.hide.split(',').includes(key)).join(','));
  const splitTiers = state.tiers === 'split';
  const collapse = state.frames !== 'all';
  return { key: [hidden, splitTiers, collapse, mergeRecursion].join('|'), hidden: hiddenKinds(hidden), splitTiers,
           collapse, mergeRecursion };
}

// Flags by kind: 1 for each kind of a frame of the tab's tree.
function kindsPresent(profile) {
  const present = new Uint8Array(KIND_SLOTS);
  for (const f of profile.nodeFrame) present[profile.frameKind[f]] = 1;
  return present;
}

// Whether a frame of the tab's tree has a V8 tier.
function hasTiers(profile) {
  return profile.nodeFrame.some((f) => profile.frameTier[f] !== 0);
}

function transformProfile(profile, options) {
  if (options === PLAIN_OPTIONS) return profile;
  const table = new ViewFrames(profile, options);
  const grown = growTree(profile, table, options);
  return flattenTree(profile, table.finish(), grown);
}

// The string pool of a view: the report's, then the names a view makes
// (each made once by its maker).
class ViewStrings {
  constructor(base) {
    this.base = base;
    this.extra = [];
    this.length = base.length;
  }

  at(i) {
    return i < this.base.length ? this.base.at(i) : this.extra[i - this.base.length];
  }

  add(text) {
    this.extra.push(text);
    return this.length++;
  }

  indexOf(text) {
    const i = this.base.indexOf(text);
    if (i >= 0) return i;
    const e = this.extra.indexOf(text);
    return e >= 0 ? this.base.length + e : -1;
  }

  // Name order; the report's pool is sorted already.
  compare(a, b) {
    if (a < this.base.length && b < this.base.length) return a - b;
    const [x, y] = [this.at(a), this.at(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
}

// The frame table of a view: each report frame's representative (the
// first of the frames equal to it but for the tier, when tiers merge),
// the name it shows (with its tier when tiers split), the synthetic frames
// of collapsed prefixes, and each frame's place among its siblings
// (sortKey: by the report's name, then tier; collapsed prefixes first).
class ViewFrames {
  constructor(profile, options) {
    this.profile = profile;
    this.hidden = options.hidden;
    this.strings = new ViewStrings(profile.strings);
    this.name = profile.frameName.slice();
    this.tier = profile.frameTier.slice();
    this.used = framesUsed(profile);
    this.canon = options.splitTiers ? this.nameTiers() : this.mergeTiers();
    this.synthetic = [];       // { name, count, first, last } of each collapsed prefix
    this.collapsedNames = new Map(); // count -> string index
    this.count = profile.frameName.length;
  }

  isHidden(frame) {
    const kind = this.profile.frameKind[frame];
    return this.hidden[kind] === 1 && !isRootKind(kind);
  }

  // Frames alike but for the tier get one representative, shown without a tier.
  mergeTiers() {
    const p = this.profile;
    const canon = new Int32Array(p.frameName.length);
    const firstOfName = new Map(); // name -> first tiered frame of that name
    const next = new Int32Array(canon.length).fill(-1); // chains of representatives by name
    for (let f = 0; f < canon.length; f++) {
      canon[f] = f;
      if (!this.used[f] || (p.frameTier[f] === 0 && !isJsKind(p.frameKind[f]))) continue;
      this.tier[f] = 0;
      let r = firstOfName.get(p.frameName[f]);
      if (r === undefined) {
        firstOfName.set(p.frameName[f], f);
        continue;
      }
      while (!sameButTier(p, r, f) && next[r] >= 0) r = next[r];
      if (sameButTier(p, r, f)) canon[f] = r;
      else next[r] = f;
    }
    return canon;
  }

  // Each tiered frame is its own, its tier written after its name.
  nameTiers() {
    const p = this.profile;
    const canon = new Int32Array(p.frameName.length);
    for (let f = 0; f < canon.length; f++) {
      canon[f] = f;
      const slot = tierSlot(p.frameTier[f]);
      if (slot >= 0 && this.used[f]) {
        this.name[f] = this.strings.add(p.strings.at(p.frameName[f]) + ' [' + TIERS[slot].name + ']');
      }
    }
    return canon;
  }

  // A new frame for a prefix of count frames, outermost first, innermost last.
  addCollapsed(count, first, last) {
    const frame = this.count + this.synthetic.length;
    let name = this.collapsedNames.get(count);
    if (name === undefined) this.collapsedNames.set(count, name = this.strings.add('[native: ' + count + ' frames]'));
    this.synthetic.push({ name, count, first, last });
    return frame;
  }

  // The frame columns of data.js's profile, the synthetic frames last.
  finish() {
    const p = this.profile;
    const n = this.count + this.synthetic.length;
    const grown = (type, column) => {
      const out = new type(n);
      out.set(column);
      return out;
    };
    const cols = {
      strings: this.strings,
      frameName: grown(Int32Array, this.name),
      frameModule: grown(Int32Array, p.frameModule),
      frameFile: grown(Int32Array, p.frameFile),
      frameLine: grown(Int32Array, p.frameLine),
      frameKind: grown(Uint8Array, p.frameKind),
      frameInlined: grown(Uint8Array, p.frameInlined),
      frameColumn: grown(Int32Array, p.frameColumn),
      frameTier: grown(Uint8Array, this.tier),
      collapsed: new Map(),
      sortKey: new Float64Array(n),
    };
    for (let f = 0; f < this.count; f++) cols.sortKey[f] = p.frameName[f] * (NTIERS + 1) + tierSlot(p.frameTier[f]) + 1;
    this.synthetic.forEach((s, k) => {
      cols.frameName[this.count + k] = s.name;
      cols.frameKind[this.count + k] = KIND_COLLAPSED;
      cols.sortKey[this.count + k] = -1;
      cols.collapsed.set(this.count + k, { count: s.count, first: s.first, last: s.last });
    });
    return cols;
  }
}

// 1 for each frame of the tab's tree.
function framesUsed(profile) {
  const used = new Uint8Array(profile.frameName.length);
  for (const f of profile.nodeFrame) used[f] = 1;
  return used;
}

function sameButTier(p, a, b) {
  return p.frameName[a] === p.frameName[b] && p.frameModule[a] === p.frameModule[b] &&
    p.frameFile[a] === p.frameFile[b] && p.frameLine[a] === p.frameLine[b] &&
    p.frameColumn[a] === p.frameColumn[b] && p.frameKind[a] === p.frameKind[b] &&
    p.frameInlined[a] === p.frameInlined[b];
}

// The view's tree while it grows: node 0 is the root above the processes;
// a node is added as the child of a parent for a frame once, and the data's
// nodes that land on it add their values. Parents come before children.
// A node's children are found by a walk of its list of children, or by a
// map from frame to child once it has more than WIDE_NODE of them.
const WIDE_NODE = 12;

class GrowingTree {
  constructor(capacity, nvalues, tiered) {
    this.nvalues = nvalues;
    this.tiered = tiered;
    this.count = 1;
    this.wide = new Map(); // node -> Map frame -> child, for wide nodes
    this.allocate(capacity);
    this.parent[0] = -1;
    this.frame[0] = -1;
  }

  // (Re)makes the arrays for capacity nodes, keeping the nodes so far.
  allocate(capacity) {
    const keep = (type, old, size) => {
      const a = new type(size);
      if (old) a.set(old.subarray(0, Math.min(old.length, size)));
      return a;
    };
    const old = this.parent ? this : {};
    this.capacity = capacity;
    this.parent = keep(Int32Array, old.parent, capacity);
    this.frame = keep(Int32Array, old.frame, capacity);
    this.firstChild = keep(Int32Array, old.firstChild, capacity);
    this.nextSibling = keep(Int32Array, old.nextSibling, capacity);
    this.childCount = keep(Int32Array, old.childCount, capacity);
    if (!old.parent) this.firstChild.fill(-1);
    else this.firstChild.fill(-1, old.capacity);
    this.self = Array.from({ length: this.nvalues }, (_, v) => keep(Float64Array, old.self && old.self[v], capacity));
    this.tiers = this.tiered
      ? Array.from({ length: this.nvalues }, (_, v) => keep(Float64Array, old.tiers && old.tiers[v], capacity * NTIERS))
      : null;
  }

  child(parent, frame) {
    let c = -1;
    if (this.childCount[parent] > WIDE_NODE) {
      c = this.wide.get(parent).get(frame) ?? -1;
    } else {
      for (c = this.firstChild[parent]; c >= 0 && this.frame[c] !== frame; c = this.nextSibling[c]);
    }
    return c >= 0 ? c : this.add(parent, frame);
  }

  add(parent, frame) {
    if (this.count === this.capacity) this.allocate(2 * this.capacity);
    const c = this.count++;
    this.parent[c] = parent;
    this.frame[c] = frame;
    this.nextSibling[c] = this.firstChild[parent];
    this.firstChild[parent] = c;
    const count = ++this.childCount[parent];
    if (count === WIDE_NODE + 1) {
      const byFrame = new Map();
      for (let k = c; k >= 0; k = this.nextSibling[k]) byFrame.set(this.frame[k], k);
      this.wide.set(parent, byFrame);
    } else if (count > WIDE_NODE + 1) {
      this.wide.get(parent).set(frame, c);
    }
    return c;
  }
}

// Walks the data's preorder tree once, placing each node (see placeNode)
// and adding its values where it lands.
function growTree(profile, table, options) {
  const n = profile.nodeDepth.length;
  const tiered = hasTiers(profile);
  const w = {
    table,
    collapse: options.collapse,
    mergeRecursion: options.mergeRecursion,
    frameIn: profile.nodeFrame,
    out: new GrowingTree(n + 1 + COLLAPSED_ROOM, profile.nodeSelf.length, tiered),
    outOf: new Int32Array(n),     // where each data node landed
    zone: new Uint8Array(n),
    prefixLength: new Int32Array(n), // kept frames below the roots, in ZONE_PREFIX
    anchor: new Int32Array(n),    // the view node of the innermost root frame above
    collapsedOf: new Map(),       // view node ending a prefix -> its collapsed node
  };
  const parentIn = parentsOf(profile.nodeDepth);
  for (let i = 0; i < n; i++) {
    placeNode(w, i, parentIn[i]);
    for (let v = 0; v < w.out.self.length; v++) w.out.self[v][w.outOf[i]] += profile.nodeSelf[v][i];
  }
  if (tiered) addTierTotals(w, profile, parentIn);
  return w.out;
}

// The parent of each node of a preorder tree given by depths (-1: a root).
function parentsOf(depths) {
  const parent = new Int32Array(depths.length);
  const lastAt = [];
  for (let i = 0; i < depths.length; i++) {
    lastAt[depths[i]] = i;
    parent[i] = depths[i] > 0 ? lastAt[depths[i] - 1] : -1;
  }
  return parent;
}

// Sets where data node i lands (outOf) and what its children inherit.
function placeNode(w, i, p) {
  const f = w.frameIn[i];
  const kind = w.table.profile.frameKind[f];
  const canon = w.table.canon[f];
  if (p < 0) { // a root of the data: kept whatever it is
    startRoot(w, i, ROOT, canon);
  } else if (w.table.isHidden(f) || (w.mergeRecursion && recursesInto(w, canon, w.outOf[p]))) {
    inherit(w, i, p, w.outOf[p]);
  } else if (w.zone[p] === ZONE_ROOT && isRootKind(kind)) {
    startRoot(w, i, w.outOf[p], canon);
  } else if (w.zone[p] !== ZONE_JS && isJsKind(kind)) {
    const collapsed = w.collapse && w.prefixLength[p] >= MIN_COLLAPSED;
    w.outOf[i] = w.out.child(collapsed ? collapsedNode(w, p) : w.outOf[p], canon);
    w.zone[i] = ZONE_JS;
  } else if (w.zone[p] !== ZONE_JS) {
    inherit(w, i, p, w.out.child(w.outOf[p], canon));
    w.zone[i] = ZONE_PREFIX;
    w.prefixLength[i]++;
  } else {
    inherit(w, i, p, w.out.child(w.outOf[p], canon));
  }
}

// Whether a frame is the function of the view node its caller landed on
// (direct recursion); process and thread frames never are.
function recursesInto(w, frame, callerOut) {
  const { table } = w;
  const caller = w.out.frame[callerOut];
  return caller >= 0 && caller < table.count && table.name[caller] === table.name[frame] &&
    !isRootKind(table.profile.frameKind[frame]) && !isRootKind(table.profile.frameKind[caller]);
}

function startRoot(w, i, parentOut, canon) {
  w.outOf[i] = w.anchor[i] = w.out.child(parentOut, canon);
  w.zone[i] = ZONE_ROOT;
}

// Node i lands on out and carries its parent's place in the stack.
function inherit(w, i, p, out) {
  w.outOf[i] = out;
  w.zone[i] = w.zone[p];
  w.prefixLength[i] = w.prefixLength[p];
  w.anchor[i] = w.anchor[p];
}

// The collapsed node of the prefix that data node p ends, made when first
// needed: a child of the innermost root frame.
function collapsedNode(w, p) {
  const last = w.outOf[p];
  let node = w.collapsedOf.get(last);
  if (node === undefined) {
    const { out } = w;
    let first = last;
    while (out.parent[first] !== w.anchor[p]) first = out.parent[first];
    node = out.child(w.anchor[p], w.table.addCollapsed(w.prefixLength[p], out.frame[first], out.frame[last]));
    w.collapsedOf.set(last, node);
  }
  return node;
}

// Each view node below a stack's first JavaScript frame gets the totals of
// the data's tiered nodes that landed on it, by tier. Nodes that land on
// one view node are never one inside another, but for a node that lands
// where its parent did (hidden, or merged recursion): its parent's total
// holds it already.
function addTierTotals(w, profile, parentIn) {
  const n = parentIn.length;
  for (let v = 0; v < w.out.tiers.length; v++) {
    const total = Float64Array.from(profile.nodeSelf[v]);
    for (let i = n - 1; i > 0; i--) if (parentIn[i] >= 0) total[parentIn[i]] += total[i];
    const tiers = w.out.tiers[v];
    for (let i = 0; i < n; i++) {
      const f = w.frameIn[i];
      const slot = tierSlot(profile.frameTier[f]);
      if (slot >= 0 && w.zone[i] === ZONE_JS && w.outOf[i] !== w.outOf[parentIn[i]]) {
        tiers[w.outOf[i] * NTIERS + slot] += total[i];
      }
    }
  }
}

// The grown tree as data.js's profile: nodes of no value in any column
// left out (prefixes that led only to JavaScript), siblings in name order,
// preorder. nodeTiers[v] holds NTIERS totals per node, the root's first.
function flattenTree(profile, frames, grown) {
  const order = childrenInNameOrder(grown, valuedNodes(grown), frames);
  const m = order.count;
  const view = {
    ...profile,
    ...frames,
    nodeDepth: new Int32Array(m),
    nodeFrame: new Int32Array(m),
    nodeSelf: grown.self.map(() => new Float64Array(m)),
    nodeTiers: grown.tiers ? grown.tiers.map(() => new Float64Array((m + 1) * NTIERS)) : null,
  };
  const nodes = [ROOT];
  const depths = [-1];
  let k = 0;
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop();
    if (node !== ROOT) emitNode(view, grown, node, k++, depth);
    for (let c = order.start[node + 1] - 1; c >= order.start[node]; c--) {
      nodes.push(order.children[c]);
      depths.push(depth + 1);
    }
  }
  return view;
}

function emitNode(view, grown, node, k, depth) {
  view.nodeDepth[k] = depth;
  view.nodeFrame[k] = grown.frame[node];
  for (let v = 0; v < grown.self.length; v++) view.nodeSelf[v][k] = grown.self[v][node];
  if (!grown.tiers) return;
  for (let v = 0; v < grown.tiers.length; v++) {
    for (let t = 0; t < NTIERS; t++) view.nodeTiers[v][(k + 1) * NTIERS + t] = grown.tiers[v][node * NTIERS + t];
  }
}

// 1 for each node with a value in some column below it (magnitudes, so a
// kept node's parent is kept).
function valuedNodes(grown) {
  const weight = new Float64Array(grown.count);
  for (const self of grown.self) for (let i = 1; i < grown.count; i++) weight[i] += Math.abs(self[i]);
  const keep = new Uint8Array(grown.count);
  for (let i = grown.count - 1; i > 0; i--) {
    weight[grown.parent[i]] += weight[i];
    keep[i] = weight[i] > 0 ? 1 : 0;
  }
  return keep;
}

// { start, children, count }: the kept children of node i are
// children[start[i] .. start[i + 1]), in name order (frames.sortKey).
function childrenInNameOrder(grown, keep, frames) {
  const n = grown.count;
  const start = new Int32Array(n + 1);
  let count = 0;
  for (let i = 1; i < n; i++) {
    if (keep[i]) {
      start[grown.parent[i] + 1]++;
      count++;
    }
  }
  for (let i = 0; i < n; i++) start[i + 1] += start[i];
  const fill = start.slice(0, n);
  const children = new Int32Array(count);
  for (let i = 1; i < n; i++) if (keep[i]) children[fill[grown.parent[i]]++] = i;
  const { sortKey } = frames;
  const byName = (a, b) => sortKey[grown.frame[a]] - sortKey[grown.frame[b]] || grown.frame[a] - grown.frame[b];
  for (let i = 0; i < n; i++) sortRange(children, start[i], start[i + 1], byName);
  return { start, children, count };
}

// Sorts a[from..to) unless it is in order already (mostly it is: the
// report's siblings come by name).
function sortRange(a, from, to, compare) {
  for (let k = from + 1; k < to; k++) {
    if (compare(a[k - 1], a[k]) > 0) {
      a.set(Array.from(a.subarray(from, to)).sort(compare), from);
      return;
    }
  }
}
