// check_formats.mjs - reads stoke's files with other tools' own readers and
// prints what they found as one JSON line, for test_formats.py to compare:
//
//   node check_formats.mjs speedscope FILE   validates FILE against the schema
//       the speedscope package publishes; prints {valid, errors, profiles:
//       [{name, unit, total, samples}]}
//   node check_formats.mjs pprof FILE        decodes gzipped FILE with the
//       pprof-format package; prints {sampleTypes: ["type/unit"...],
//       totals: [...], samples, periodType, period}
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import Ajv from 'ajv';
import { Profile } from 'pprof-format';

const require = createRequire(import.meta.url);

function speedscope(file) {
  const schema = require('speedscope/dist/release/file-format-schema.json');
  const validate = new Ajv({ strict: false }).compile(schema);
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  const valid = validate(doc);
  return {
    valid,
    errors: validate.errors || [],
    profiles: doc.profiles.map((p) => ({
      name: p.name,
      unit: p.unit,
      total: p.weights.reduce((a, b) => a + b, 0),
      samples: p.samples.length,
      endValue: p.endValue,
    })),
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
