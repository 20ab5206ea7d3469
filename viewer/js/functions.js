// functions.js - the profile by function (all frames of one name): self,
// the value of the stacks ending in it, and total, the value of the stacks
// that pass through it, each stack counted once however often it recurses
// (and before, for a differential tab; and the share of each V8 tier, for
// a tree with tier totals), sorted as the function table asks. Process,
// thread and collapsed frames are not functions. Never touches the page.

const NOT_FUNCTIONS = new Set([KIND_PROCESS, KIND_THREAD, KIND_COLLAPSED]);

// [{ name (string index), frame (one of its frames), self, total, before,
// tiers (NTIERS totals or null) }] for every function of some value in
// the tree.
function functionTotals(tree, profile) {
  const nstrings = profile.strings.length;
  const self = new Float64Array(nstrings);
  const total = new Float64Array(nstrings);
  const before = tree.before ? new Float64Array(nstrings) : null;
  const tiers = tree.tiers ? new Map() : null; // name -> NTIERS totals
  const frameOf = new Int32Array(nstrings).fill(-1);
  const active = new Int32Array(nstrings); // calls of the name on the current path
  const path = [];
  for (let i = 1; i < tree.n; i++) {
    while (path.length > 0 && tree.depth[path[path.length - 1]] >= tree.depth[i]) {
      active[nameAt(tree, profile, path.pop())]--;
    }
    const frame = tree.frame[i];
    const name = profile.frameName[frame];
    path.push(i);
    const outermost = active[name]++ === 0;
    if (NOT_FUNCTIONS.has(profile.frameKind[frame])) continue;
    if (frameOf[name] < 0) frameOf[name] = frame;
    self[name] += tree.self[i]; // self counts at every depth: it is never nested
    if (outermost) {
      total[name] += tree.total[i];
      if (before) before[name] += tree.before[i];
      if (tiers) addTiers(tiers, name, tree.tiers, i);
    }
  }
  const rows = [];
  for (let s = 0; s < nstrings; s++) {
    if (frameOf[s] >= 0 && (total[s] > 0 || (before && before[s] > 0))) {
      rows.push({ name: s, frame: frameOf[s], self: self[s], total: total[s], before: before ? before[s] : 0,
                  tiers: tiers ? tiers.get(s) || null : null });
    }
  }
  return rows;
}

// Adds node's tier totals to those of the function named name.
function addTiers(byName, name, nodeTiers, node) {
  let sum = byName.get(name);
  for (let t = 0; t < NTIERS; t++) {
    const v = nodeTiers[node * NTIERS + t];
    if (v === 0) continue;
    if (!sum) byName.set(name, sum = new Float64Array(NTIERS));
    sum[t] += v;
  }
}

function nameAt(tree, profile, node) {
  return profile.frameName[tree.frame[node]];
}

const SORT_KEYS = {
  total: (a, b) => b.total - a.total || b.self - a.self,
  self: (a, b) => b.self - a.self || b.total - a.total,
  change: (a, b) => Math.abs(b.total - b.before) - Math.abs(a.total - a.before) || b.total - a.total,
};

// Sorts rows in place by key ('total', 'self', 'change' or 'name').
function sortFunctions(rows, key, strings) {
  if (key === 'name') {
    rows.sort((a, b) => strings.compare(a.name, b.name));
  } else {
    rows.sort(SORT_KEYS[key] || SORT_KEYS.total);
  }
  return rows;
}
