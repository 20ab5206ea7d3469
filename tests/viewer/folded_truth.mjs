// folded_truth.mjs - ground truth for the browser tests, computed straight
// from folded stacks ("a;b;c 12" lines), independently of the viewer: per
// function its self and total (a stack counts once however often it
// recurses), the value under a call path, the direct callers and callees
// of its outermost call, and the number of distinct call paths that end in
// it (the call tree's nodes); the callees of a call path with their values,
// and the stacks with direct recursion merged (a frame equal to the one
// below it dropped).

import { readFileSync } from 'node:fs';

// [{ frames: [...], count }]
export function readFolded(path) {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((line) => {
    const at = line.lastIndexOf(' ');
    return { frames: line.slice(0, at).split(';'), count: Number(line.slice(at + 1)) };
  });
}

export function grandTotal(stacks) {
  return stacks.reduce((sum, s) => sum + s.count, 0);
}

// Map name -> { self, total } over every frame name but those in skip.
export function functionTotals(stacks, skip = new Set()) {
  const out = new Map();
  const get = (name) => out.get(name) || out.set(name, { self: 0, total: 0 }).get(name);
  for (const { frames, count } of stacks) {
    for (const name of new Set(frames)) if (!skip.has(name)) get(name).total += count;
    const leaf = frames[frames.length - 1];
    if (!skip.has(leaf)) get(leaf).self += count;
  }
  return out;
}

// The value of the stacks that begin with path (frame names, root first):
// the total of the call tree's node at the end of that path.
export function pathTotal(stacks, path) {
  const starts = (frames) => path.length <= frames.length && path.every((name, i) => frames[i] === name);
  return stacks.reduce((sum, s) => sum + (starts(s.frames) ? s.count : 0), 0);
}

// Map name -> value of the frames called at the end of path (the children
// of its call tree node), in the order the stacks first name them.
export function pathChildren(stacks, path) {
  const out = new Map();
  for (const { frames, count } of stacks) {
    if (frames.length > path.length && path.every((name, i) => frames[i] === name)) {
      out.set(frames[path.length], (out.get(frames[path.length]) || 0) + count);
    }
  }
  return out;
}

// The stacks with each run of one function calling itself as one frame.
export function mergeDirectRecursion(stacks) {
  return stacks.map(({ frames, count }) => ({ frames: frames.filter((f, i) => i === 0 || f !== frames[i - 1]), count }));
}

// { total, callers: Map name -> value, callees: Map name -> value, nodes }
// for the function name: around the first (outermost) call in each stack.
export function sandwichTruth(stacks, name) {
  const truth = { total: 0, callers: new Map(), callees: new Map(), nodes: 0 };
  const add = (map, key, count) => map.set(key, (map.get(key) || 0) + count);
  const paths = new Set();
  for (const { frames, count } of stacks) {
    frames.forEach((f, i) => {
      if (f === name) paths.add(frames.slice(0, i + 1).join(';'));
    });
    const first = frames.indexOf(name);
    if (first < 0) continue;
    truth.total += count;
    if (first > 0) add(truth.callers, frames[first - 1], count);
    if (first + 1 < frames.length) add(truth.callees, frames[first + 1], count);
  }
  truth.nodes = paths.size;
  return truth;
}
