// timeline.js - a CPU tab's samples over time (data.js: profile.timeline,
// the recording cut into buckets, each holding the weight of every call
// tree node its samples ended at; in the tab of a --heap recording's live
// heap over time, the change of live bytes of every allocation stack) and
// the range of time the page shows:
// { from, until }, seconds since the recording began (report.span.startUs,
// as stoke report --from and --until count them), one span for every tab.
// Here: which buckets a range holds, the tab's profile rebuilt from the
// samples of those buckets only (every view of the tab is made from it),
// or from the live heap's changes what grew between the range's ends,
// a range snapped to whole buckets, and the lanes the strip draws: one per
// process and one per thread, their weight in each bucket. Pure data and
// functions; never touches the page.

const US_PER_S = 1e6;

// The text that tells ranges apart ('' for none): the link's form.
function rangeKey(range) {
  return range ? secondsText(range.from) + '-' + secondsText(range.until) : '';
}

// Seconds as the link writes them: at most six decimals (microseconds), no
// trailing zeros.
function secondsText(s) {
  return s.toFixed(6).replace(/\.?0+$/, '');
}

// How long the recording lasted, in seconds.
function spanSeconds(span) {
  return (span.endUs - span.startUs) / US_PER_S;
}

// Where bucket edge e of a timeline lies, in seconds since the span's start.
function edgeSeconds(timeline, span, e) {
  return (timeline.startUs - span.startUs + e * timeline.bucketUs) / US_PER_S;
}

// Where a moment (seconds since the span's start) lies on the timeline,
// in buckets from its first edge (a fraction; outside it before or after).
function bucketsInto(timeline, span, seconds) {
  return (seconds * US_PER_S - (timeline.startUs - span.startUs)) / timeline.bucketUs;
}

// An edge index kept within the timeline.
function clampEdge(timeline, e) {
  return Math.min(Math.max(e, 0), timeline.buckets);
}

// The bucket edge nearest to a moment, within the timeline.
function nearestEdge(timeline, span, seconds) {
  return clampEdge(timeline, Math.round(bucketsInto(timeline, span, seconds)));
}

// The bucket a moment falls in; may be outside the timeline.
function bucketAt(timeline, span, seconds) {
  return Math.floor(bucketsInto(timeline, span, seconds));
}

// { first, end }: the buckets [first, end) whose middle lies in the range.
function bucketsOf(timeline, span, range) {
  const after = (s) => clampEdge(timeline, Math.ceil(bucketsInto(timeline, span, s) - 0.5));
  const first = after(range.from);
  return { first, end: Math.max(first, after(range.until)) };
}

// The range between bucket edges from and until.
function edgesRange(timeline, span, from, until) {
  return { from: edgeSeconds(timeline, span, from), until: edgeSeconds(timeline, span, until) };
}

// The range between two moments, its ends on the timeline's bucket edges
// nearest to them, at least one bucket long.
function snappedRange(timeline, span, a, b) {
  let from = nearestEdge(timeline, span, Math.min(a, b));
  let until = nearestEdge(timeline, span, Math.max(a, b));
  if (until === from) {
    if (until < timeline.buckets) until++;
    else from--;
  }
  return edgesRange(timeline, span, from, until);
}

// The range moved by step buckets (both ends), or with end only, widened
// or narrowed by step (never below one bucket); steps of +-Infinity go to
// the end or the start. Without a range, the move starts just before the
// first bucket.
function movedRange(timeline, span, range, step, endOnly) {
  const n = timeline.buckets;
  let from = range ? nearestEdge(timeline, span, range.from) : -1;
  let until = range ? nearestEdge(timeline, span, range.until) : 0;
  if (endOnly) {
    until = Math.min(Math.max(until + step, from + 1, 1), n);
    from = Math.max(from, 0);
  } else {
    const width = Math.max(until - from, 1);
    from = Math.min(Math.max(from + step, 0), n - width);
    until = from + width;
  }
  return edgesRange(timeline, span, from, until);
}

// The profile as the samples of the range make it: value 0's self values
// summed from the range's buckets (a CPU tab read from traces has no other
// value), everything else as it was; of a tab of the live heap over time,
// what grew in it (heapRangeProfile). A tab without a timeline, or no
// range, is the profile itself.
function rangeProfile(profile, span, range) {
  const { timeline } = profile;
  if (!timeline || !range) return profile;
  const { first, end } = bucketsOf(timeline, span, range);
  if (profile.kind === 'heap') return heapRangeProfile(profile, first, end, range);
  const self = new Float64Array(profile.nodeDepth.length);
  const { offsets, node, weight } = timeline;
  for (let k = offsets[first]; k < offsets[end]; k++) self[node[k]] += weight[k];
  return { ...profile, nodeSelf: [self, ...profile.nodeSelf.slice(1)], range };
}

// A tab of the live heap over time (its timeline weighs each allocation
// stack's change of live bytes): a differential profile whose value 0 is
// the live heap at the range's start (the sum of the buckets before it)
// and value 1 at its end (up to bucket end).
function heapRangeProfile(profile, first, end, range) {
  const n = profile.nodeDepth.length;
  const before = new Float64Array(n);
  const { offsets, node, weight } = profile.timeline;
  for (let k = 0; k < offsets[first]; k++) before[node[k]] += weight[k];
  const after = Float64Array.from(before);
  for (let k = offsets[first]; k < offsets[end]; k++) after[node[k]] += weight[k];
  return { ...profile, nodeSelf: [before, after], range };
}

// The lanes of a tab's timeline, in the tree's order: [{ node (its process
// or thread node in the embedded tree), label (its frame's name), thread
// (a thread's lane), total, sums: weight by bucket }]. A process lane
// holds all its samples; a thread lane those of its thread (kind THREAD
// at depth 1, stoke report --threads). A tab of the live heap over time
// has none: the strip draws the live heap itself (data.js, readLiveHeap).
function timelineLanes(profile) {
  const { timeline, nodeDepth, nodeFrame, frameKind } = profile;
  const lanes = [];
  if (profile.kind === 'heap') return lanes;
  const processOf = new Int32Array(nodeDepth.length);
  const threadOf = new Int32Array(nodeDepth.length).fill(-1);
  for (let i = 0; i < nodeDepth.length; i++) {
    const d = nodeDepth[i];
    if (d === 0) processOf[i] = lanes.push(newLane(profile, i, false)) - 1;
    else processOf[i] = processOf[i - 1];
    if (d === 1 && frameKind[nodeFrame[i]] === KIND_THREAD) threadOf[i] = lanes.push(newLane(profile, i, true)) - 1;
    else if (d > 1) threadOf[i] = threadOf[i - 1];
  }
  sumLanes(timeline, lanes, processOf, threadOf);
  return lanes;
}

function newLane(profile, node, thread) {
  return { node, label: frameNameOf(profile, profile.nodeFrame[node]), thread, total: 0,
           sums: new Float64Array(profile.timeline.buckets) };
}

function sumLanes(timeline, lanes, processOf, threadOf) {
  const { offsets, node, weight } = timeline;
  for (let b = 0; b < timeline.buckets; b++) {
    for (let k = offsets[b]; k < offsets[b + 1]; k++) {
      lanes[processOf[node[k]]].sums[b] += weight[k];
      if (threadOf[node[k]] >= 0) lanes[threadOf[node[k]]].sums[b] += weight[k];
    }
  }
  for (const lane of lanes) lane.total = lane.sums.reduce((a, v) => a + v, 0);
}

// At most max lanes, in the tree's order, chosen processes first and
// threads next, the busiest first. Returns { shown, left } (left: how
// many were not chosen).
function pickLanes(lanes, max) {
  if (lanes.length <= max) return { shown: lanes, left: 0 };
  const chosen = new Set(lanes.slice().sort((a, b) => a.thread - b.thread || b.total - a.total).slice(0, max));
  return { shown: lanes.filter((l) => chosen.has(l)), left: lanes.length - chosen.size };
}
