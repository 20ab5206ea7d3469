// hash.js - the page state in the URL fragment, so a link (or a reload)
// reopens the same view: tab, measure, zoom, search, view, orientation,
// colouring, sandwich function and table order. Only what differs from the
// defaults is written. Reading never trusts the text: each field is
// checked, and one that does not fit is left out.

const STATE_DEFAULTS = {
  tab: 0, zoom: ROOT, query: '', view: 'flame', icicle: false, color: 'kind', fn: '', sort: 'total',
};
const VIEWS = ['flame', 'sandwich', 'table'];
const COLORS = ['kind', 'name'];
const SORTS = ['total', 'self', 'name', 'change'];

// The fragment ("#..." or "") for a state; defaultValue: the open tab's
// default measure.
function stateToHash(state, defaultValue) {
  const params = new URLSearchParams();
  const put = (key, value, fallback) => {
    if (value !== fallback) params.set(key, String(value));
  };
  put('tab', state.tab, STATE_DEFAULTS.tab);
  put('measure', state.value, defaultValue);
  put('zoom', state.zoom, STATE_DEFAULTS.zoom);
  put('search', state.query, STATE_DEFAULTS.query);
  put('view', state.view, STATE_DEFAULTS.view);
  if (state.icicle) params.set('icicle', '1');
  put('color', state.color, STATE_DEFAULTS.color);
  put('function', state.fn, STATE_DEFAULTS.fn);
  put('sort', state.sort, STATE_DEFAULTS.sort);
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
    fn: params.get('function'),
    sort: oneOf('sort', SORTS),
  };
  for (const [key, value] of Object.entries(fields)) if (value !== null) change[key] = value;
  if (params.get('icicle') === '1') change.icicle = true;
  return change;
}
