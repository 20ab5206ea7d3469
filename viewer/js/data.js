// data.js - reads the profile html.c embedded in the page (the JSON block
// #stoke-data) into typed arrays: a string pool, a frame table and a call
// tree in preorder. Names stay plain strings: they are only ever shown with
// textContent or drawn on the canvas, never parsed as HTML.

const DATA_VERSION = 1;

function readEmbeddedProfile(doc) {
  const block = doc.getElementById('stoke-data');
  return decodeProfile(JSON.parse(block.textContent));
}

function decodeProfile(raw) {
  if (raw.version !== DATA_VERSION) {
    throw new Error('this report holds data version ' + raw.version +
                    ', the viewer reads version ' + DATA_VERSION);
  }
  const frames = raw.frames;
  const tree = raw.tree;
  return {
    title: raw.title,
    values: raw.values,            // [{name, unit}], one per value type
    periodNs: raw.period_ns,       // ns one sample stands for, 0 if none
    processes: raw.processes,      // [{pid, comm, samples, lost, duration_us}]
    strings: raw.strings,
    frameName: Int32Array.from(frames.name),
    frameModule: Int32Array.from(frames.module),
    frameFile: Int32Array.from(frames.file),
    frameLine: Int32Array.from(frames.line),
    frameKind: Uint8Array.from(frames.kind),
    frameInlined: Uint8Array.from(frames.inlined),
    nodeDepth: Int32Array.from(tree.depth),
    nodeFrame: Int32Array.from(tree.frame),
    nodeSelf: tree.self.map((column) => Float64Array.from(column)),
  };
}

function frameNameOf(profile, frame) {
  return profile.strings[profile.frameName[frame]];
}
