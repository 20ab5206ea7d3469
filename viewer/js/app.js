// app.js - the report page: reads the embedded profile, builds the call tree
// and wires the flame graph to the header (title, summary, search, reset,
// breadcrumbs, legend) and the tooltip. Page state lives in one object so a
// later view (icicle, sandwich, tables, URL hash) plugs in at setState.
// Never puts a name into HTML: textContent only.

const VALUE_INDEX = 0;
const SEARCH_DELAY_MS = 120;
const $ = (id) => document.getElementById(id);

function main() {
  const profile = readEmbeddedProfile(document);
  performance.mark('stoke:data-read');
  const tree = buildCallTree(profile, VALUE_INDEX);
  performance.mark('stoke:tree-built');
  $('title').textContent = profile.title;
  $('summary').textContent = summaryText(profile, tree);
  if (!(tree.total[ROOT] > 0)) {
    showMessage('This profile holds no samples.', false);
    return;
  }
  const palette = new Palette(profile);
  const view = new FlameView(
    { scroller: $('graph'), plane: $('plane'), canvas: $('flame'), overlay: $('overlay') },
    tree, profile, palette);
  const app = { profile, tree, palette, view, state: { zoom: ROOT, query: '' } };
  app.setState = (change) => setState(app, change);
  bindSearch(app);
  bindKeys(app);
  bindPointer(app, new Tooltip($('tooltip')));
  palette.onChange = () => {
    renderLegend($('legend'), profile, palette);
    view.invalidate();
  };
  renderLegend($('legend'), profile, palette);
  app.setState({ zoom: ROOT });
  performance.mark('stoke:drawn');
  // For tests and the browser console; the page itself never reads it.
  window.stokeReport = app;
}

function setState(app, change) {
  Object.assign(app.state, change);
  if ('zoom' in change) {
    app.view.setZoom(app.state.zoom);
    renderCrumbs($('crumbs'), app.tree, app.profile, app.state.zoom,
                 (node) => app.setState({ zoom: node }));
  }
  if ('query' in change) showSearch(app, app.state.query);
}

function showSearch(app, text) {
  const { tree, profile, view } = app;
  const out = $('match');
  const matcher = parseQuery(text);
  $('search').classList.toggle('invalid', Boolean(matcher && matcher.error));
  if (!matcher || matcher.error) {
    view.setMatches(null);
    out.hidden = !matcher;
    if (matcher) out.textContent = 'Bad regex: ' + matcher.error;
    return;
  }
  const found = findMatches(tree, profile, matcher);
  view.setMatches(found.nodeMatch);
  out.hidden = false;
  out.textContent = 'Matched ' + formatPercent(found.matchedTotal, tree.total[ROOT]) +
    ' of total (' + formatCount(found.matchedTotal) + ' of ' + formatCount(tree.total[ROOT]) +
    ' ' + profile.values[VALUE_INDEX].name + ', ' + formatCount(found.matchedNodes) +
    (found.matchedNodes === 1 ? ' frame)' : ' frames)');
}

function bindSearch(app) {
  let timer = 0;
  $('search').addEventListener('input', (e) => {
    clearTimeout(timer);
    timer = setTimeout(() => app.setState({ query: e.target.value }), SEARCH_DELAY_MS);
  });
  $('reset').addEventListener('click', () => app.setState({ zoom: ROOT }));
}

// '/' goes to the search box; Escape leaves it, or else resets the zoom.
function bindKeys(app) {
  document.addEventListener('keydown', (e) => {
    const inSearch = document.activeElement === $('search');
    if (e.key === '/' && !inSearch) {
      e.preventDefault();
      $('search').focus();
    } else if (e.key === 'Escape') {
      if (inSearch) $('search').blur();
      else app.setState({ zoom: ROOT });
    }
  });
}

// Hover shows the tooltip and outlines the frame; a click zooms to it.
function bindPointer(app, tooltip) {
  const { tree, profile, view } = app;
  const canvas = $('flame');
  canvas.addEventListener('mousemove', (e) => {
    const hit = view.hitAt(e.clientX, e.clientY);
    view.showHover(hit);
    if (!hit) {
      tooltip.hide();
      return;
    }
    const key = hit.node + ':' + hit.count + ':' + hit.x;
    tooltip.show(key, () => describeHit(hit, tree, profile), e.clientX, e.clientY);
  });
  canvas.addEventListener('mouseleave', () => {
    view.showHover(null);
    tooltip.hide();
  });
  canvas.addEventListener('click', (e) => {
    const hit = view.hitAt(e.clientX, e.clientY);
    if (hit) app.setState({ zoom: hit.node });
  });
}

function summaryText(profile, tree) {
  const procs = profile.processes.length;
  const value = profile.values[VALUE_INDEX];
  const parts = [formatCount(tree.total[ROOT]) + ' ' + value.name];
  if (profile.periodNs > 0) parts.push(formatDuration(tree.total[ROOT] * profile.periodNs));
  if (procs > 0) parts.push(procs + (procs === 1 ? ' process' : ' processes'));
  const lost = profile.processes.reduce((sum, p) => sum + p.lost, 0);
  if (lost > 0) parts.push(formatCount(lost) + ' lost');
  return parts.join(' \u00b7 ');
}

// The path from the root to the zoomed node; a long one keeps its ends.
const CRUMBS_KEPT_AT_END = 6;

function renderCrumbs(nav, tree, profile, zoom, onPick) {
  const path = pathFromRoot(tree, zoom);
  const shown = path.length > CRUMBS_KEPT_AT_END + 2
    ? [path[0], -1, ...path.slice(-CRUMBS_KEPT_AT_END)]
    : path;
  const items = [];
  for (const node of shown) {
    if (items.length > 0) items.push(crumbText('sep', '\u203a'));
    if (node === -1) items.push(crumbText('sep', '\u2026'));
    else items.push(crumbButton(nodeLabel(tree, profile, node), node === zoom, () => onPick(node)));
  }
  nav.replaceChildren(...items);
}

function crumbText(className, text) {
  const span = document.createElement('span');
  span.className = className;
  span.textContent = text;
  return span;
}

function crumbButton(label, current, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.title = label;
  if (current) b.setAttribute('aria-current', 'true');
  else b.addEventListener('click', onClick);
  return b;
}

function renderLegend(el, profile, palette) {
  const present = new Uint8Array(256);
  for (const k of profile.frameKind) present[k] = 1;
  const items = [];
  KINDS.forEach((kind, k) => {
    if (!present[k]) return;
    const item = document.createElement('span');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.backgroundColor = palette.kindColor(k);
    item.append(swatch, kind.label);
    items.push(item);
  });
  el.replaceChildren(...items);
}

function showMessage(text, isError) {
  const el = $('message');
  el.textContent = text;
  el.classList.toggle('error', isError);
  el.hidden = false;
}

try {
  main();
} catch (e) {
  showMessage('This report cannot be shown: ' + e.message, true);
  throw e;
}
