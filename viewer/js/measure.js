// measure.js - the measure a tab's frames are weighed by (one of its value
// types) and how its numbers read, and the switch that picks it: live or
// allocated x bytes or objects for a heap profile, a plain list for any
// other profile with several values, nothing for one value or a
// differential tab (drawn by its "after"). Builds its controls with
// textContent only.

// The values of a heap profile (symbolizer/profile.h), as the switch names them.
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

const HEAP_LIFETIMES = [['live', 'Live'], ['alloc', 'Allocated']];
const HEAP_QUANTITIES = [['bytes', 'Bytes'], ['objects', 'Objects']];
const DIFF_AFTER = 1; // a differential tab: value 0 before, value 1 after

// { index, label ("live bytes"), noun (after an amount: "live"), format(n),
//   amount(n) ("1.5 MiB live"), time(n) or null }
function measureOf(profile, valueIndex) {
  const value = profile.values[valueIndex];
  const heap = heapValue(value.name);
  const label = heap ? heap.label : value.name.replace(/_/g, ' ');
  const noun = heap ? heap.noun : label === value.unit ? '' : label;
  const format = value.unit === 'bytes' ? formatBytes : formatCount;
  const timed = profile.periodNs > 0 && value.unit === 'count' && !heap;
  return {
    index: valueIndex,
    label,
    noun,
    format,
    amount: (n) => format(n) + (noun ? ' ' + noun : ''),
    time: timed ? (n) => formatDuration(n * profile.periodNs) : null,
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
    const heap = profile.differential ? null : heapValueIndices(profile);
    let controls = [];
    if (heap) controls = this.heapControls(profile, heap, valueIndex);
    else if (!profile.differential && profile.values.length > 1) controls = [this.select(profile, valueIndex)];
    this.el.replaceChildren(...controls);
    this.el.hidden = controls.length === 0;
  }

  // Two button groups; each keeps the other's choice.
  heapControls(profile, heap, valueIndex) {
    const current = heapValue(profile.values[valueIndex].name);
    const group = (label, options, pickOf) => {
      const box = document.createElement('span');
      box.className = 'segmented';
      box.setAttribute('role', 'group');
      box.setAttribute('aria-label', label);
      for (const [key, text] of options) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = text;
        b.dataset.measure = key;
        b.setAttribute('aria-pressed', String(key === current.lifetime || key === current.quantity));
        b.addEventListener('click', () => this.onPick(pickOf(key)));
        box.append(b);
      }
      return box;
    };
    return [
      group('Live or allocated', HEAP_LIFETIMES, (k) => heap.get(k + ':' + current.quantity)),
      group('Bytes or objects', HEAP_QUANTITIES, (k) => heap.get(current.lifetime + ':' + k)),
    ];
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
