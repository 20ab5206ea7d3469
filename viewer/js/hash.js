// hash.js - the page state in the URL fragment, so a link (or a reload)
// reopens the same view: tab, measure, range of time (from, until: seconds
// since the recording began), zoom, search, view, orientation, colouring,
// frame order (by name or left heavy), recursion merged or not,
// sandwich function, table order, and for JavaScript the kinds hidden,
// tiers split and all frames shown. Only what differs from the
// defaults is written. Reading never trusts the text: each field is
// checked, and one that does not fit is left out.

const STATE_DEFAULTS = {
  tab: 0, zoom: ROOT, query: '', view: 'flame', icicle: false, color: 'kind', order: 'name', recursion: 'all',
  fn: '', sort: 'self',
  hide: '', tiers: 'merged', frames: 'js', // hide: group keys of kinds.js, 'app,native'
  range: null, // { from, until }: timeline.js
};
const VIEWS = ['flame', 'sandwich', 'table'];
const COLORS = ['kind', 'name'];
const ORDERS = ['name', 'heavy'];       // siblings by name, or heaviest first
const RECURSION_MODES = ['all', 'merged']; // merged: transform.js
const SORTS = ['total', 'self', 'name', 'change'];
const TIER_MODES = ['merged', 'split'];
const FRAME_MODES = ['js', 'all'];

// The fragment ("#..." or "") for a state; defaultValue: the open tab's
// default measure.
function stateToHash(state, defaultValue) {
  const params = new URLSearchParams();
  const put = (key, value, fallback) => {
    if (value !== fallback) params.set(key, String(value));
  };
  put('tab', state.tab, STATE_DEFAULTS.tab);
  put('measure', state.value, defaultValue);
  if (state.range) {
    params.set('from', secondsText(state.range.from));
    params.set('until', secondsText(state.range.until));
  }
  put('zoom', state.zoom, STATE_DEFAULTS.zoom);
  put('search', state.query, STATE_DEFAULTS.query);
  put('view', state.view, STATE_DEFAULTS.view);
  if (state.icicle) params.set('icicle', '1');
  put('color', state.color, STATE_DEFAULTS.color);
  put('order', state.order, STATE_DEFAULTS.order);
  put('recursion', state.recursion, STATE_DEFAULTS.recursion);
  put('function', state.fn, STATE_DEFAULTS.fn);
  put('sort', state.sort, STATE_DEFAULTS.sort);
  put('hide', state.hide, STATE_DEFAULTS.hide);
  put('tiers', state.tiers, STATE_DEFAULTS.tiers);
  put('frames', state.frames, STATE_DEFAULTS.frames);
  const text = params.toString();
  return text ? '#' + text : '';
}

// The state change a fragment asks for (fields absent keep their default).
function stateFromHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const change = {};
  const count = (key) => {
    const v = params.get(key);
    return v !== null && /^\d{1,9}$/.test(v) ? Number(v) : null;
  };
  const oneOf = (key, allowed) => {
    const v = params.get(key);
    return allowed.includes(v) ? v : null;
  };
  const fields = {
    tab: count('tab'),
    value: count('measure'),
    zoom: count('zoom'),
    query: params.get('search'),
    view: oneOf('view', VIEWS),
    color: oneOf('color', COLORS),
    order: oneOf('order', ORDERS),
    recursion: oneOf('recursion', RECURSION_MODES),
    fn: params.get('function'),
    sort: oneOf('sort', SORTS),
    hide: params.has('hide') ? canonicalHidden(params.get('hide')) : null,
    tiers: oneOf('tiers', TIER_MODES),
    frames: oneOf('frames', FRAME_MODES),
  };
  for (const [key, value] of Object.entries(fields)) if (value !== null) change[key] = value;
  if (params.get('icicle') === '1') change.icicle = true;
  const range = rangeFromParams(params);
  if (range) change.range = range;
  return change;
}

// { from, until } from the fragment's seconds, or null when either is
// missing or malformed, or they are not in order.
function rangeFromParams(params) {
  const seconds = (key) => {
    const v = params.get(key);
    return v !== null && /^\d{1,9}(\.\d{1,6})?$/.test(v) ? Number(v) : null;
  };
  const from = seconds('from');
  const until = seconds('until');
  return from !== null && until !== null && from < until ? { from, until } : null;
}
