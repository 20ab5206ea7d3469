// timeline_truth.mjs - ground truth for the timeline's browser test,
// computed without the viewer's code: the report's document read with
// node's own zlib (the data block is deflated JSON in base64,
// output/html/data_block.h), the samples of a range of time summed from a
// tab's timeline buckets (output/html/timeline_data.h), and the same
// figures from the rules html_timeline.c builds its phases recording by.

import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

const DATA_BLOCK = /<script type="application\/octet-stream" id="stoke-data"[^>]*>([\s\S]*?)<\/script>/;

// The report's JSON document, its string pool decoded into data.strings.
export function readDocument(path) {
  const block = DATA_BLOCK.exec(readFileSync(path, 'utf8'));
  if (!block) throw new Error(path + ': no stoke-data block');
  const data = JSON.parse(inflateRawSync(Buffer.from(block[1].trim(), 'base64')).toString('utf8'));
  let previous = '';
  data.strings = data.strings.rest.map((rest, i) => (previous = previous.slice(0, data.strings.shared[i]) + rest));
  return data;
}

// What the buckets of tab's timeline that start in [from, until) (seconds
// since the recording began) hold: { total, byName: Map name -> the
// samples of the stacks through a frame of that name }. The recording
// begins at the earliest start of the document's timelines.
export function rangeTruth(doc, tab, from, until) {
  const origin = Math.min(...doc.tabs.filter((t) => t.timeline).map((t) => t.timeline.start_us));
  const { timeline, tree } = doc.tabs[tab];
  const self = new Array(tree.depth.length).fill(0);
  for (let b = 0; b + 1 < timeline.offsets.length; b++) {
    const at = (timeline.start_us - origin + b * timeline.bucket_us) / 1e6;
    if (at < from - 1e-9 || at >= until - 1e-9) continue;
    for (let k = timeline.offsets[b]; k < timeline.offsets[b + 1]; k++) self[timeline.node[k]] += timeline.weight[k];
  }
  const byName = new Map();
  const path = [];
  tree.depth.forEach((depth, i) => {
    path.length = depth;
    path.push(doc.strings[doc.frames.name[tree.frame[i]]]);
    for (const name of new Set(path)) byName.set(name, (byName.get(name) || 0) + self[i]);
  });
  return { total: self.reduce((a, v) => a + v, 0), byName };
}

// html_timeline phases: sample i at i * 1,003,009 ns; the main thread's
// in phase_a before 2 s, in phase_b after, every tenth of weight 2; the
// worker's every fourth; the helper's every eighth in [1 s, 3 s).
const PERIOD_NS = 1003009;

export function phasesTruth(from, until) {
  const out = { phase_a: 0, phase_b: 0, worker_loop: 0, helper_main: 0 };
  for (let i = 0; i * PERIOD_NS < 4e9; i++) {
    const t = i * PERIOD_NS;
    if (t < from * 1e9 || t >= until * 1e9) continue;
    out[t < 2e9 ? 'phase_a' : 'phase_b'] += i % 10 === 9 ? 2 : 1;
    if (i % 4 === 0) out.worker_loop++;
    if (i % 8 === 0 && t >= 1e9 && t < 3e9) out.helper_main++;
  }
  out.total = out.phase_a + out.phase_b + out.worker_loop + out.helper_main;
  return out;
}
