// search.js - turns the search box text into a matcher (a case-insensitive
// substring, or /regex/flags) and finds the nodes of a call tree whose
// function name matches, with the value they cover: a sample under several
// matching frames (recursion) counts once. Frames of no value in the
// measure shown are not counted, except in a differential tab those that
// exist only before (tree.before), which are counted apart. Never touches
// the page.

// Returns null for an empty query, { error } for a bad regex, or { test }.
function parseQuery(text) {
  const query = text.trim();
  if (query === '') return null;
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(query);
  if (regex) {
    try {
      // 'g' and 'y' would make test() stateful; they mean nothing here.
      const re = new RegExp(regex[1], regex[2].replace(/[gy]/g, ''));
      return { test: (s) => re.test(s) };
    } catch (e) {
      return { error: e.message };
    }
  }
  const needle = query.toLowerCase();
  return { test: (s) => s.toLowerCase().includes(needle) };
}

// Returns { nodeMatch: Uint8Array, matchedTotal, matchedNodes,
// matchedBefore, goneNodes } (the last two for a tree with before totals).
function findMatches(tree, profile, matcher) {
  const frameMatch = matchFrames(profile, matcher);
  const { total, before } = tree;
  const nodeMatch = new Uint8Array(tree.n);
  const underMatch = new Uint8Array(tree.n); // node or an ancestor matches
  const found = { nodeMatch, matchedTotal: 0, matchedNodes: 0, matchedBefore: 0, goneNodes: 0 };
  for (let i = 1; i < tree.n; i++) {
    const p = tree.parent[i];
    if (frameMatch[tree.frame[i]]) {
      nodeMatch[i] = 1;
      if (total[i] > 0) found.matchedNodes++;
      else if (before && before[i] > 0) found.goneNodes++;
      if (!underMatch[p]) {
        found.matchedTotal += total[i];
        if (before) found.matchedBefore += before[i];
      }
    }
    underMatch[i] = nodeMatch[i] | underMatch[p];
  }
  return found;
}

// Each distinct name is tested once, however many frames share it.
function matchFrames(profile, matcher) {
  const byString = new Int8Array(profile.strings.length); // 0 untested, 1 yes, -1 no
  const frameMatch = new Uint8Array(profile.frameName.length);
  for (let f = 0; f < frameMatch.length; f++) {
    const s = profile.frameName[f];
    if (byString[s] === 0) byString[s] = matcher.test(profile.strings.at(s)) ? 1 : -1;
    frameMatch[f] = byString[s] === 1 ? 1 : 0;
  }
  return frameMatch;
}
