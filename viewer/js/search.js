// search.js - turns the search box text into a matcher (a case-insensitive
// substring, or /regex/flags) and finds the nodes of a call tree whose
// function name matches, with the value they cover: a sample under several
// matching frames (recursion) counts once. Never touches the page.

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

// Returns { nodeMatch: Uint8Array, matchedTotal, matchedNodes }.
function findMatches(tree, profile, matcher) {
  const frameMatch = matchFrames(profile, matcher);
  const nodeMatch = new Uint8Array(tree.n);
  const underMatch = new Uint8Array(tree.n); // node or an ancestor matches
  let matchedTotal = 0;
  let matchedNodes = 0;
  for (let i = 1; i < tree.n; i++) {
    const p = tree.parent[i];
    if (frameMatch[tree.frame[i]]) {
      nodeMatch[i] = 1;
      matchedNodes++;
      if (!underMatch[p]) matchedTotal += tree.total[i];
    }
    underMatch[i] = nodeMatch[i] | underMatch[p];
  }
  return { nodeMatch, matchedTotal, matchedNodes };
}

// Each distinct name is tested once, however many frames share it.
function matchFrames(profile, matcher) {
  const byString = new Int8Array(profile.strings.length); // 0 untested, 1 yes, -1 no
  const frameMatch = new Uint8Array(profile.frameName.length);
  for (let f = 0; f < frameMatch.length; f++) {
    const s = profile.frameName[f];
    if (byString[s] === 0) byString[s] = matcher.test(profile.strings[s]) ? 1 : -1;
    frameMatch[f] = byString[s] === 1 ? 1 : 0;
  }
  return frameMatch;
}
