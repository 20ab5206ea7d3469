// check_formats.mjs - reads stoke's files with other tools' own readers and
// prints what they found as one JSON line, for test_formats.py to compare:
//
//   node check_formats.mjs speedscope FILE   validates FILE against the schema
//       the speedscope package publishes; prints {valid, errors, profiles:
//       [{name, type, unit, total, samples, startValue, endValue, stacks,
//       nesting}]}: stacks maps "frame;frame" to its weight (sampled) or the
//       time it was open (evented, replayed as speedscope does); nesting
//       lists the events that close a frame other than the innermost open
//   node check_formats.mjs pprof FILE        decodes gzipped FILE with the
//       pprof-format package; prints {sampleTypes: ["type/unit"...],
//       totals: [...], samples, periodType, period}
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import Ajv from 'ajv';
import { Profile } from 'pprof-format';

const require = createRequire(import.meta.url);

// The weight of each stack of a sampled profile.
function sampledStacks(p, names) {
  const stacks = {};
  p.samples.forEach((s, i) => {
    const key = s.map(names).join(';');
    stacks[key] = (stacks[key] || 0) + p.weights[i];
  });
  return { stacks, nesting: [], samples: p.samples.length };
}

// The time each stack of an evented profile was open, and the events that
// break nesting (or go back in time).
function eventedStacks(p, names) {
  const stacks = {};
  const open = [];
  const nesting = [];
  let last = p.startValue;
  for (const e of p.events) {
    if (e.at < last) nesting.push(`event at ${e.at} after ${last}`);
    if (open.length) {
      const key = open.map(names).join(';');
      stacks[key] = (stacks[key] || 0) + (e.at - last);
    }
    last = e.at;
    if (e.type === 'O') open.push(e.frame);
    else if (open.pop() !== e.frame) nesting.push(`close of ${e.frame} at ${e.at}`);
  }
  if (open.length) nesting.push(`${open.length} frames left open`);
  return { stacks, nesting, samples: 0 };
}

function speedscope(file) {
  const schema = require('speedscope/dist/release/file-format-schema.json');
  const validate = new Ajv({ strict: false }).compile(schema);
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  const valid = validate(doc);
  const names = (i) => doc.shared.frames[i].name;
  return {
    valid,
    errors: validate.errors || [],
    profiles: doc.profiles.map((p) => {
      const replay = p.type === 'evented' ? eventedStacks(p, names) : sampledStacks(p, names);
      return {
        name: p.name,
        type: p.type,
        unit: p.unit,
        total: Object.values(replay.stacks).reduce((a, b) => a + b, 0),
        samples: replay.samples,
        startValue: p.startValue,
        endValue: p.endValue,
        stacks: replay.stacks,
        nesting: replay.nesting,
      };
    }),
  };
}

function pprof(file) {
  const p = Profile.decode(gunzipSync(readFileSync(file)));
  const str = (i) => p.stringTable.strings[Number(i)];
  const typeName = (t) => `${str(t.type)}/${str(t.unit)}`;
  const totals = p.sampleType.map((_, i) =>
    p.sample.reduce((sum, s) => sum + Number(s.value[i]), 0));
  return {
    sampleTypes: p.sampleType.map(typeName),
    totals,
    samples: p.sample.length,
    periodType: p.periodType ? typeName(p.periodType) : null,
    period: Number(p.period),
  };
}

const [kind, file] = process.argv.slice(2);
const readers = { speedscope, pprof };
if (!readers[kind]) {
  console.error('usage: check_formats.mjs speedscope|pprof FILE');
  process.exit(2);
}
console.log(JSON.stringify(readers[kind](file)));
