// kinds.js - what the report knows about kinds of code (enum
// stoke_frame_kind in model/profile.h) and V8 tiers (enum
// stoke_js_tier): their names in the legend and in words, the groups the
// kind filters hide or keep, which kinds are JavaScript and which are
// roots, and the text of a tier mix. Colours live in palette.js. Pure data
// and functions; never touches the page.

const KIND_PROCESS = 5;
const KIND_THREAD = 6;
const KIND_UNKNOWN = 4;
const KIND_JS_APP = 7;
const KIND_JS_DEPENDENCY = 8;
const KIND_JS_CORE = 9;
const KIND_RUNTIME = 10;
const KIND_GC = 11;
const KIND_IDLE = 12;
const KIND_JS_HEAP = 13; // a constructor group (or root) of a JavaScript heap snapshot
// The viewer's own kind: native frames collapsed into one (transform.js).
// Far above the enum so that a new kind of the C side never meets it.
const KIND_COLLAPSED = 255;
const KIND_SLOTS = 256; // a Uint8Array of this size holds one flag per kind

// Indexed by enum stoke_frame_kind: label (legend, filters), words (tooltip).
const KINDS = [
  { label: 'program', words: 'the program' },
  { label: 'library', words: 'a shared library' },
  { label: 'libc', words: 'libc, the loader, libm, libpthread or the vDSO' },
  { label: 'JIT', words: 'JIT-compiled code (not JavaScript)' },
  { label: 'unknown', words: 'code that could not be named' },
  { label: 'process', words: 'a process' },
  { label: 'thread', words: 'a thread' },
  { label: 'app', words: "JavaScript: the application's own code" },
  { label: 'dependencies', words: 'JavaScript: a package under node_modules' },
  { label: 'node core', words: "JavaScript: node's own modules (node:)" },
  { label: 'V8 / runtime', words: 'V8 runtime: builtins, stubs, bytecode handlers, regexp code' },
  { label: 'GC', words: 'the garbage collector' },
  { label: 'idle', words: 'idle: waiting for events' },
  { label: 'constructor group', words: 'JavaScript objects of one constructor (as DevTools groups them) or a V8 root' },
];
const COLLAPSED_INFO = { label: 'native, collapsed', words: 'native frames collapsed into one' };

// The kinds the legend may list, in its order.
const LEGEND_KINDS = [...KINDS.keys(), KIND_COLLAPSED];

function kindInfo(kind) {
  if (kind === KIND_COLLAPSED) return COLLAPSED_INFO;
  return KINDS[kind] || KINDS[KIND_UNKNOWN];
}

function isJsKind(kind) {
  return kind === KIND_JS_APP || kind === KIND_JS_DEPENDENCY || kind === KIND_JS_CORE;
}

function isRootKind(kind) {
  return kind === KIND_PROCESS || kind === KIND_THREAD;
}

// What the kind filters hide or keep, as 0x groups them; key is the
// group's name in the link.
const FILTER_GROUPS = [
  { key: 'app', label: 'app', kinds: [KIND_JS_APP] },
  { key: 'deps', label: 'dependencies', kinds: [KIND_JS_DEPENDENCY] },
  { key: 'core', label: 'node core', kinds: [KIND_JS_CORE] },
  { key: 'v8', label: 'V8 / runtime', kinds: [KIND_RUNTIME] },
  { key: 'native', label: 'native', kinds: [0, 1, 2, 3, KIND_UNKNOWN] },
  { key: 'gc', label: 'GC', kinds: [KIND_GC] },
  { key: 'idle', label: 'idle', kinds: [KIND_IDLE] },
];

// Whether a tab holds JavaScript (or V8's own code): its filters show then.
// Idle waits and GC alone do not make one: native programs have them too;
// nor do the constructor groups of a JavaScript heap: objects, not code.
function hasJavaScript(present) {
  for (let k = KIND_JS_APP; k <= KIND_RUNTIME; k++) if (present[k]) return true;
  return false;
}

// The groups of which some kind is present.
function presentGroups(present) {
  return FILTER_GROUPS.filter((g) => g.kinds.some((k) => present[k]));
}

// 'native,idle' (group keys in FILTER_GROUPS order, known keys only) from
// any text of keys separated by commas.
function canonicalHidden(text) {
  const keys = new Set(String(text).split(','));
  return FILTER_GROUPS.filter((g) => keys.has(g.key)).map((g) => g.key).join(',');
}

// One flag per kind: 1 where a group in hidden (canonical text) holds it.
function hiddenKinds(hidden) {
  const mask = new Uint8Array(KIND_SLOTS);
  const keys = new Set(hidden.split(','));
  for (const g of FILTER_GROUPS) if (keys.has(g.key)) for (const k of g.kinds) mask[k] = 1;
  return mask;
}

// The tiers of V8 (enum stoke_js_tier, a character code), fastest first;
// a tier mix is a Float64Array of TIERS.length shares in this order.
const TIERS = [
  { code: 42, name: 'optimized', engine: 'TurboFan' },  // '*'
  { code: 43, name: 'Maglev', engine: 'mid-tier optimizer' }, // '+'
  { code: 94, name: 'baseline', engine: 'Sparkplug' },  // '^'
  { code: 126, name: 'interpreted', engine: 'Ignition' }, // '~'
];
const NTIERS = TIERS.length;
const TIER_SLOT = new Int8Array(256).fill(-1);
TIERS.forEach((t, i) => { TIER_SLOT[t.code] = i; });

// The index of a tier code in TIERS, or -1 (no tier, or one unknown).
function tierSlot(code) {
  return code > 0 && code < 256 ? TIER_SLOT[code] : -1;
}

// "optimized (TurboFan)" for a tier code, '' for none.
function tierText(code) {
  const slot = tierSlot(code);
  return slot < 0 ? '' : TIERS[slot].name + ' (' + TIERS[slot].engine + ')';
}

// "optimized 81% · baseline 12% · interpreted 7%" for the NTIERS values of
// mix from offset (largest first), '' when they add up to nothing.
function tierMixText(mix, offset) {
  let sum = 0;
  for (let t = 0; t < NTIERS; t++) sum += mix[offset + t];
  if (!(sum > 0)) return '';
  const parts = [];
  for (let t = 0; t < NTIERS; t++) {
    if (mix[offset + t] > 0) parts.push({ t, share: (100 * mix[offset + t]) / sum });
  }
  parts.sort((a, b) => b.share - a.share || a.t - b.t);
  return parts.map(({ t, share }) => TIERS[t].name + ' ' + (share < 0.5 ? '<1' : Math.round(share)) + '%')
    .join(' \u00b7 ');
}
