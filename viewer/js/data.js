// data.js - reads the report html.c embedded in the page (the block
// #stoke-data: a JSON document, layout in report_data.h, deflated and in
// base64, see data_block.h): a string pool, a frame table and the moments
// a timeline marks and the source kept around the hot lines, shared by all
// tabs, and per tab a call tree in preorder, the lines its frames were at
// and, for a CPU tab read from traces, its samples over time (for
// the live heap over time of a --heap recording, its changes by bucket,
// and each process's live heap, read at once for every timeline). A
// tab's arrays become typed arrays only when the tab is first opened. Names stay plain strings: they
// are only ever shown with textContent or drawn on the canvas, never parsed
// as HTML.

const DATA_VERSION = 4;

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

// Resolves to { title, strings (a StringPool), frames, marks: [{ name,
// atUs }], span: { startUs, endUs } (see recordingSpan), liveHeap (see
// readLiveHeap), sources (see readSources), tabs: [{ name, differential,
// raw }] }.
async function readEmbeddedReport(doc) {
  const packed = base64Bytes(doc.getElementById('stoke-data').textContent.trim());
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  const raw = JSON.parse(await new Response(stream).text());
  if (raw.version !== DATA_VERSION) {
    throw new Error('this report holds data version ' + raw.version +
                    ', the viewer reads version ' + DATA_VERSION);
  }
  if (!Array.isArray(raw.tabs) || raw.tabs.length === 0) throw new Error('it holds no profile');
  const frames = raw.frames;
  return {
    title: raw.title,
    strings: new StringPool(raw.strings),
    frames: {
      name: Int32Array.from(frames.name),
      module: Int32Array.from(frames.module),
      file: Int32Array.from(frames.file),
      line: Int32Array.from(frames.line),
      kind: Uint8Array.from(frames.kind),
      inlined: Uint8Array.from(frames.inlined),
      column: optionalColumn(Int32Array, frames.column, frames.name.length),
      tier: optionalColumn(Uint8Array, frames.tier, frames.name.length),
    },
    ...readTimes(raw),
    liveHeap: readLiveHeap(raw.tabs),
    sources: readSources(raw.sources),
    tabs: raw.tabs.map((t) => ({ name: String(t.name), differential: t.differential === 1, raw: t })),
  };
}

// { marks, span } of the document.
function readTimes(raw) {
  const marks = readMarks(raw.marks);
  return { marks, span: recordingSpan(raw, marks) };
}

// The marks of the document that are well formed, in time order.
function readMarks(marks) {
  if (!Array.isArray(marks)) return [];
  return marks.filter((m) => m && Number.isFinite(m.at_us))
    .map((m) => ({ name: String(m.name), atUs: m.at_us }))
    .sort((a, b) => a.atUs - b.atUs);
}

// When the recording began and ended, in us since the epoch: the earliest
// start of the tabs' timelines (the time axis of every timeline starts at 0
// there, as stoke report --from counts) and the latest of their ends and
// the marks, or null for a report without a timeline.
function recordingSpan(raw, marks) {
  const timelines = raw.tabs.map((t) => t.timeline).filter(isTimeline);
  if (timelines.length === 0) return null;
  return {
    startUs: Math.min(...timelines.map((t) => t.start_us)),
    endUs: Math.max(...timelines.map((t) => t.end_us), ...marks.map((m) => m.atUs)),
  };
}

// The live heap over time of each process of a --heap recording, from the
// tab whose timeline holds it (live_heap_data.h; every timeline of a
// report shares its buckets): [{ label ("comm (pid)"), named (whether
// the recording has other processes), peak, steps (by bucket: the most
// live bytes of its moments there, else the bucket's before; NaN before
// its first moment and after its last) }], [] without.
function readLiveHeap(tabs) {
  const tab = tabs.find((t) => t && isTimeline(t.timeline) && Array.isArray(t.timeline.live_heap));
  if (!tab) return [];
  const buckets = tab.timeline.offsets.length - 1;
  const procs = Array.isArray(tab.processes) ? tab.processes : [];
  return tab.timeline.live_heap.filter((lane) => isLiveHeapLane(lane, buckets)).map((lane) => {
    const proc = procs[lane.process] || { comm: '?', pid: 0 };
    return { label: String(proc.comm) + ' (' + proc.pid + ')', named: procs.length > 1,
             peak: Math.max(...lane.bytes), steps: liveHeapSteps(lane, buckets) };
  });
}

function isLiveHeapLane(lane, buckets) {
  const { bucket, bytes } = lane || {};
  return Array.isArray(bucket) && Array.isArray(bytes) && bucket.length > 0 && bucket.length === bytes.length &&
    bucket.every((b, i) => Number.isInteger(b) && b >= 0 && b < buckets && (i === 0 || b > bucket[i - 1])) &&
    bytes.every((n) => Number.isFinite(n) && n >= 0);
}

function liveHeapSteps({ bucket, bytes }, buckets) {
  const steps = new Float64Array(buckets).fill(NaN);
  for (let i = 0; i < bucket.length; i++) {
    steps.fill(bytes[i], bucket[i], i + 1 < bucket.length ? bucket[i + 1] : bucket[i] + 1);
  }
  return steps;
}

function isTimeline(t) {
  return Boolean(t) && Number.isFinite(t.start_us) && Number.isFinite(t.end_us) && t.bucket_us > 0 &&
    Array.isArray(t.offsets) && t.offsets.length >= 2;
}

// A frame column a report made before it existed lacks: zeros then.
function optionalColumn(type, values, n) {
  return Array.isArray(values) && values.length === n ? type.from(values) : new type(n);
}

// The bytes of base64 text: natively where the browser can, else by table.
function base64Bytes(text) {
  return typeof Uint8Array.fromBase64 === 'function' ? Uint8Array.fromBase64(text) : base64BytesByTable(text);
}

function base64BytesByTable(text) {
  const values = new Uint8Array(128).fill(255);
  for (let i = 0; i < BASE64_ALPHABET.length; i++) values[BASE64_ALPHABET.charCodeAt(i)] = i;
  let n = text.length;
  while (n > 0 && text[n - 1] === '=') n--;
  const bytes = new Uint8Array(Math.floor((n * 3) / 4));
  let bits = 0;
  let acc = 0;
  let out = 0;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    const v = code < 128 ? values[code] : 255;
    if (v === 255) throw new Error('its data block is damaged (not base64 at character ' + i + ')');
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[out++] = (acc >> bits) & 255;
    }
  }
  return bytes;
}

// The front-coded string pool (report_data.h), each string decoded when
// first asked for (a first paint needs the few names it draws): at(i) and
// indexOf(text), as an array of strings has them, and compare(i, j). The writer starts over
// with a whole string every STRING_RESTART strings, so a string decodes
// from at most that many before it.
class StringPool {
  constructor({ shared, rest }) {
    this.shared = shared;
    this.rest = rest;
    this.decoded = new Array(rest.length);
    this.length = rest.length;
  }

  at(i) {
    if (this.decoded[i] !== undefined) return this.decoded[i];
    const { shared, rest, decoded } = this;
    let from = i;
    while (from > 0 && shared[from] > 0 && decoded[from - 1] === undefined) from--;
    let previous = from > 0 && shared[from] > 0 ? decoded[from - 1] : '';
    for (let k = from; k <= i; k++) {
      previous = decoded[k] = shared[k] > 0 ? previous.slice(0, shared[k]) + rest[k] : rest[k];
    }
    return previous;
  }

  // The pool is sorted (by code point: the writer compares UTF-8 bytes): a
  // binary search, then a scan for a text it missed, as JavaScript orders
  // strings by UTF-16 unit, not code point, around characters past U+FFFF.
  indexOf(text) {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.at(mid);
      if (at === text) return mid;
      if (at < text) lo = mid + 1;
      else hi = mid - 1;
    }
    for (let i = 0; i < this.length; i++) if (this.at(i) === text) return i;
    return -1;
  }

  // Name order: the pool is sorted.
  compare(a, b) {
    return a - b;
  }
}

// The profile of tab index, in the form every view reads. The raw arrays
// are dropped once converted.
function decodeTab(report, index) {
  const tab = report.tabs[index];
  const raw = tab.raw;
  const frames = report.frames;
  const tree = raw.tree;
  const nodeSelf = tree.self.map((column) => Float64Array.from(column));
  if (nodeSelf.length === 0 || raw.values.length !== nodeSelf.length) {
    throw new Error('tab "' + tab.name + '" has ' + raw.values.length + ' value types but ' +
                    nodeSelf.length + ' value columns');
  }
  tab.raw = null;
  return {
    name: tab.name,
    kind: raw.kind,                // what it measures: 'cpu', 'heap' or 'js_heap'
    differential: tab.differential && nodeSelf.length >= 2, // value 0 before, value 1 after
    values: raw.values,            // [{name, unit}], one per value type
    periodNs: raw.period_ns,       // ns one sample stands for, 0 if none
    processes: raw.processes,      // [{pid, comm, samples, lost, duration_us, kept_from_us?,
                                   //   heap_interval?, taken_us? (a heap snapshot's)}]
    sides: raw.sides || null,      // a differential tab's: { shares, total: [before, after] as
                                   // recorded, processes: [before's, after's] }
    strings: report.strings,       // shared by all tabs, as the frames are
    frameName: frames.name,
    frameModule: frames.module,
    frameFile: frames.file,
    frameLine: frames.line,
    frameKind: frames.kind,
    frameInlined: frames.inlined,
    frameColumn: frames.column,    // 0 when unknown
    frameTier: frames.tier,        // enum stoke_js_tier: a character code, 0 for none
    nodeDepth: Int32Array.from(tree.depth),
    nodeFrame: Int32Array.from(tree.frame),
    nodeSelf,
    timeline: decodeTimeline(raw.timeline, tree.depth.length),
    lines: decodeLines(raw.lines, frames),
    sources: report.sources,       // shared by all tabs: see readSources
  };
}

// The lines a tab's frames were at (line_table.h) as typed arrays: { name
// (of each entry's frame), file (strings), line, self and total (by value
// index) }, or null for a tab without.
function decodeLines(raw, frames) {
  if (!raw || !Array.isArray(raw.frame)) return null;
  return {
    name: Int32Array.from(raw.frame, (f) => frames.name[f]),
    file: Int32Array.from(raw.file),
    line: Int32Array.from(raw.line),
    self: raw.self.map((column) => Float64Array.from(column)),
    total: raw.total.map((column) => Float64Array.from(column)),
  };
}

// The source the report kept around its hot lines (source_snippets.h): a
// Map from a file (its string) to its SourceLines, empty without.
function readSources(raw) {
  const files = new Map();
  if (!raw || !Array.isArray(raw.file)) return files;
  raw.file.forEach((file, i) => {
    if (!files.has(file)) files.set(file, new SourceLines());
    files.get(file).add(raw.first[i], raw.text[i]);
  });
  return files;
}

// Lines of one source file, by line number.
class SourceLines {
  constructor() {
    this.lines = new Map();
  }

  add(first, text) {
    if (Array.isArray(text)) text.forEach((t, k) => this.lines.set(first + k, String(t)));
  }

  lineText(line) {
    return this.lines.get(line) ?? '';
  }
}

// A tab's samples over time (timeline_data.h) as typed arrays: { startUs,
// endUs, bucketUs, buckets, offsets (bucket b's entries are offsets[b] ..
// offsets[b + 1]), node (a node of the embedded tree), weight (of value 0)
// }, or null for a tab without one. A damaged one is an error.
function decodeTimeline(raw, nodes) {
  if (raw === undefined) return null;
  const offsets = isTimeline(raw) ? Int32Array.from(raw.offsets) : null;
  const node = offsets && Int32Array.from(raw.node);
  const weight = offsets && Float64Array.from(raw.weight);
  const end = offsets ? offsets[offsets.length - 1] : -1;
  if (!offsets || node.length !== end || weight.length !== end || !sortedWithin(offsets, 0, end) ||
      !node.every((i) => i >= 0 && i < nodes)) {
    throw new Error('its timeline is damaged');
  }
  return { startUs: raw.start_us, endUs: raw.end_us, bucketUs: raw.bucket_us, buckets: offsets.length - 1,
           offsets, node, weight };
}

// Whether a begins at first, never decreases and ends at last.
function sortedWithin(a, first, last) {
  if (a[0] !== first || a[a.length - 1] !== last) return false;
  for (let i = 1; i < a.length; i++) if (a[i] < a[i - 1]) return false;
  return true;
}

function frameNameOf(profile, frame) {
  return profile.strings.at(profile.frameName[frame]);
}
