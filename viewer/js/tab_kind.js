// tab_kind.js - what a tab shows, as the report names it (report_data.h:
// its "kind"): CPU samples, the native heap or the JavaScript heap; and
// the words that go with it: the note under the toolbar that says which
// heap a heap tab shows (and in a differential tab what it compares, two
// snapshots or the two ends of a range of time, and what its colours
// mean), what the root and a process frame stand for, what a row of the
// function table is and where it was defined, and what the sandwich's two
// halves hold. Pure data and functions; never touches the page.

// A profile of stacks of code: CPU samples, or allocations of the native heap.
const CODE_WORDS = {
  root: 'all processes',
  kinds: {},
  rows: { one: 'function', many: 'functions', column: 'Function', place: 'Module' },
  pick: 'Pick a row to see its callers and callees.',
  halves: 'callers above, callees below',
};

const TAB_KINDS = {
  cpu: { ...CODE_WORDS, note: () => '' },
  heap: {
    ...CODE_WORDS,
    note: (differential, measure, profile) => 'Native heap (malloc and friends): ' + (differential
      ? heapChangeWords(profile) + '; width = after, red grew, blue shrank'
      : measure.label + ' by allocation stack' + snapshotWords(profile)),
  },
  js_heap: {
    root: 'all snapshots',
    kinds: { [KIND_PROCESS]: { label: 'snapshot', words: 'the whole snapshot: every object DevTools counts' } },
    rows: { one: 'constructor group', many: 'constructor groups', column: 'Constructor', place: 'Defined at' },
    pick: 'Pick a row to see the groups that hold it and the groups it holds.',
    halves: 'the groups that dominate it above, the groups it retains below',
    note: (differential, measure) => (differential
      ? 'JavaScript heap (two V8 snapshots): width = ' + measure.quantity +
        ' retained in the later one, along its dominator tree, by constructor; red grew, blue shrank'
      : 'JavaScript heap (V8 snapshot): width = ' + measure.quantity +
        ' retained, along the dominator tree, by constructor'),
  },
};

// What a differential heap tab compares: two snapshots, or the live heap
// over time at the two ends of the range picked on the timeline (the
// whole recording without one).
function heapChangeWords(profile) {
  if (!profile.timeline) return 'the change between two snapshots by allocation stack';
  const { range } = profile;
  const step = profile.timeline.bucketUs / US_PER_S;
  const ends = range ? 'at ' + formatSeconds(range.until, step) + ' minus at ' + formatSeconds(range.from, step)
    : 'at the end of the recording (drag across the timeline to pick a range)';
  return 'what grew in the live heap, by allocation stack: live bytes ' + ends;
}

// How exact a snapshot's values are and when it was taken: ", estimated from
// allocations sampled every 512.0 KiB · taken 2026-12-03 18:20:42 UTC"
// (of its first process; '' when the report does not say).
function snapshotWords(profile) {
  const snapshot = profile.processes.find((p) => p.heap_interval !== undefined);
  if (!snapshot) return '';
  const how = snapshot.heap_interval === 1 ? ', exact (every allocation tracked)'
    : ', estimated from allocations sampled every ' + formatBytes(snapshot.heap_interval);
  const at = new Date(snapshot.taken_us / 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  return how + ' \u00b7 taken ' + at;
}

// The words of the profile's kind (a CPU profile's for a kind unknown).
function tabWords(profile) {
  return Object.hasOwn(TAB_KINDS, profile.kind) ? TAB_KINDS[profile.kind] : TAB_KINDS.cpu;
}

// The note of a tab shown by measure: '' for a CPU profile.
function tabNote(profile, measure) {
  return tabWords(profile).note(profile.differential, measure, profile);
}

// The label (legend) and words (tooltip) of a kind of frame in the
// profile's tab: in a JavaScript heap the process frame is the snapshot.
function tabKindInfo(profile, kind) {
  const own = tabWords(profile).kinds;
  return Object.hasOwn(own, kind) ? own[kind] : kindInfo(kind);
}

// Where a table row's frame comes from: its module, or where the
// constructor of a JavaScript heap group is defined ("script 87:1:58").
function framePlace(profile, frame) {
  if (profile.frameKind[frame] === KIND_JS_HEAP) return jsHeapPlace(profile, frame);
  return profile.strings.at(profile.frameModule[frame]);
}

// "script 87:1:58" (V8's script id, line and column), '' when unknown.
function jsHeapPlace(profile, frame) {
  const file = profile.strings.at(profile.frameFile[frame]);
  const line = profile.frameLine[frame];
  if (!file || !(line > 0)) return file;
  return file + ':' + line + (profile.frameColumn[frame] > 0 ? ':' + profile.frameColumn[frame] : '');
}
