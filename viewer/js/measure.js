// measure.js - the measure a tab's frames are weighed by (one of its value
// types) and how its numbers read (amounts, the names of the self and
// total columns), and the switch that picks it: live or allocated x bytes
// or objects for a heap profile, JS bytes or JS objects for a JavaScript
// heap (where a frame's total is what it retains and its self is shallow,
// as DevTools says), a plain list for any other profile with several
// values, nothing for one value or a differential tab (drawn by its
// "after"). Builds its controls with textContent only.

// The values of a heap profile (model/profile.h), as the switch names them.
const HEAP_VALUES = {
  live_bytes: { label: 'live bytes', noun: 'live', lifetime: 'live', quantity: 'bytes' },
  live_objects: { label: 'live objects', noun: 'live objects', lifetime: 'live', quantity: 'objects' },
  alloc_bytes: { label: 'allocated bytes', noun: 'allocated', lifetime: 'alloc', quantity: 'bytes' },
  alloc_objects: {
    label: 'allocated objects', noun: 'allocated objects', lifetime: 'alloc', quantity: 'objects',
  },
};

// The heap value of that name, or null (own keys only: a value may be named anything).
function heapValue(name) {
  return Object.hasOwn(HEAP_VALUES, name) ? HEAP_VALUES[name] : null;
}

// The values of a JavaScript heap profile (a tab of kind js_heap), by unit:
// its differential tabs name theirs "before" and "after".
const RETAINED_COLUMNS = { total: 'Retained', before: 'Retained before', after: 'Retained after' };
const JS_HEAP_VALUES = {
  bytes: { label: 'JS bytes', noun: 'retained', quantity: 'bytes', columns: { self: 'Shallow', ...RETAINED_COLUMNS } },
  count: {
    label: 'JS objects', noun: 'objects retained', quantity: 'objects', columns: { self: 'Objects', ...RETAINED_COLUMNS },
  },
};
const PLAIN_COLUMNS = { self: 'Self', total: 'Total', before: 'Before', after: 'After' };

// The JavaScript heap value of a tab's value, or null.
function jsHeapValue(profile, valueIndex) {
  if (profile.kind !== 'js_heap') return null;
  const unit = profile.values[valueIndex].unit;
  return Object.hasOwn(JS_HEAP_VALUES, unit) ? JS_HEAP_VALUES[unit] : null;
}

const HEAP_LIFETIMES = [['live', 'Live'], ['alloc', 'Allocated']];
const HEAP_QUANTITIES = [['bytes', 'Bytes'], ['objects', 'Objects']];
const DIFF_AFTER = 1; // a differential tab: value 0 before, value 1 after

// { index, label ("live bytes"), noun (after an amount: "live"), format(n),
//   amount(n) ("1.5 MiB live"), time(n) or null, quantity ("bytes",
//   "objects" or null), retained (totals are retained sizes, selves
//   shallow ones), columns: the names of self, total, before and after }
function measureOf(profile, valueIndex) {
  const value = profile.values[valueIndex];
  const js = jsHeapValue(profile, valueIndex);
  const known = js || heapValue(value.name);
  const label = known ? known.label : value.name.replace(/_/g, ' ');
  const noun = known ? known.noun : label === value.unit ? '' : label;
  const format = value.unit === 'bytes' ? formatBytes : formatCount;
  const timed = profile.periodNs > 0 && value.unit === 'count' && !known;
  return {
    index: valueIndex,
    label,
    noun,
    format,
    amount: (n) => format(n) + (noun ? ' ' + noun : ''),
    time: timed ? (n) => formatDuration(n * profile.periodNs) : null,
    quantity: known ? known.quantity : null,
    retained: js !== null,
    columns: js ? js.columns : PLAIN_COLUMNS,
  };
}

function defaultValueIndex(profile) {
  if (profile.differential) return DIFF_AFTER;
  const live = profile.values.findIndex((v) => v.name === 'live_bytes');
  return live >= 0 ? live : 0;
}

// 'live:bytes' -> value index for a profile with all four heap values, else null.
function heapValueIndices(profile) {
  const indices = new Map();
  profile.values.forEach((v, i) => {
    const heap = heapValue(v.name);
    if (heap) indices.set(heap.lifetime + ':' + heap.quantity, i);
  });
  return indices.size === Object.keys(HEAP_VALUES).length ? indices : null;
}

class MeasureSwitch {
  // onPick(valueIndex) is called when the user picks another measure.
  constructor(el, onPick) {
    this.el = el;
    this.onPick = onPick;
  }

  show(profile, valueIndex) {
    const controls = this.controls(profile, valueIndex);
    this.el.replaceChildren(...controls);
    this.el.hidden = controls.length === 0;
  }

  controls(profile, valueIndex) {
    if (profile.differential) return [];
    const heap = heapValueIndices(profile);
    if (heap) return this.heapControls(profile, heap, valueIndex);
    if (profile.kind === 'js_heap') return [this.jsHeapControls(profile, valueIndex)];
    return profile.values.length > 1 ? [this.select(profile, valueIndex)] : [];
  }

  // Two button groups; each keeps the other's choice.
  heapControls(profile, heap, valueIndex) {
    const current = heapValue(profile.values[valueIndex].name);
    const options = (choices, pickOf) => choices.map(([key, text]) => ({
      key, text, pressed: key === current.lifetime || key === current.quantity, pick: pickOf(key),
    }));
    return [
      this.group('Live or allocated', options(HEAP_LIFETIMES, (k) => heap.get(k + ':' + current.quantity))),
      this.group('Bytes or objects', options(HEAP_QUANTITIES, (k) => heap.get(current.lifetime + ':' + k))),
    ];
  }

  // One button per value: JS bytes, JS objects.
  jsHeapControls(profile, valueIndex) {
    return this.group('JavaScript bytes or objects', profile.values.map((v, i) => ({
      key: v.name, text: measureOf(profile, i).label, pressed: i === valueIndex, pick: i,
    })));
  }

  // A group of buttons, options [{ key, text, pressed, pick (a value index) }].
  group(label, options) {
    const box = document.createElement('span');
    box.className = 'segmented';
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', label);
    for (const { key, text, pressed, pick } of options) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = text;
      b.dataset.measure = key;
      b.setAttribute('aria-pressed', String(pressed));
      b.addEventListener('click', () => this.onPick(pick));
      box.append(b);
    }
    return box;
  }

  select(profile, valueIndex) {
    const select = document.createElement('select');
    select.setAttribute('aria-label', 'Measure');
    profile.values.forEach((v, i) => {
      const option = document.createElement('option');
      option.value = String(i);
      option.textContent = measureOf(profile, i).label;
      select.append(option);
    });
    select.value = String(valueIndex);
    select.addEventListener('change', () => this.onPick(Number(select.value)));
    return select;
  }
}
