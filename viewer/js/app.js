// app.js - the report page: reads the embedded report and wires the tabs,
// the measure switch and the flame graph to the header (title, summary,
// search, reset, breadcrumbs, legend) and the tooltip. Page state lives in
// one object, { tab, value, zoom, query }, changed only through setState,
// so a later view (icicle, sandwich, tables, URL hash) plugs in there. Each
// tab is decoded when first opened and remembers its measure and zoom.
// Never puts a name into HTML: textContent only.

const SEARCH_DELAY_MS = 120;
const $ = (id) => document.getElementById(id);

function main() {
  const report = readEmbeddedReport(document);
  performance.mark('stoke:data-read');
  $('title').textContent = report.title;
  const palette = new Palette();
  const app = {
    report,
    palette,
    tabs: report.tabs.map(() => null), // per tab, once opened: see openTab
    view: new FlameView(
      { scroller: $('graph'), plane: $('plane'), canvas: $('flame'), overlay: $('overlay') }, palette),
    state: { tab: -1, value: 0, zoom: ROOT, query: '' },
    profile: null, // the open tab's profile, tree, measure and coloring
    tree: null,
    measure: null,
    coloring: null,
  };
  app.setState = (change) => setState(app, change);
  app.tabBar = new TabBar($('tabs'), $('graph'), report.tabs.map((t) => t.name),
                          (tab) => pickTab(app, tab));
  app.measureSwitch = new MeasureSwitch($('measure'), (value) => app.setState({ value }));
  bindSearch(app);
  bindKeys(app);
  bindPointer(app, new Tooltip($('tooltip')));
  palette.onChange = () => {
    renderLegend($('legend'), app.coloring.legend());
    app.view.invalidate();
  };
  app.setState({ tab: 0 });
  performance.mark('stoke:drawn');
  // For tests and the browser console; the page itself never reads it.
  window.stokeReport = app;
}

// A tab whose data cannot be read says so; the others still work.
function pickTab(app, tab) {
  try {
    app.setState({ tab });
  } catch (e) {
    showMessage('The tab "' + app.report.tabs[tab].name + '" cannot be shown: ' + e.message, true);
  }
}

// { profile, shape, trees (by value index), coloring (made at first show),
//   value, zoom }
function openTab(app, index) {
  if (!app.tabs[index]) {
    const profile = decodeTab(app.report, index);
    app.tabs[index] = {
      profile,
      shape: buildTreeShape(profile),
      trees: [],
      coloring: null,
      value: defaultValueIndex(profile),
      zoom: ROOT,
    };
  }
  return app.tabs[index];
}

function treeOf(tab, value) {
  if (!tab.trees[value]) {
    tab.trees[value] = tab.profile.differential
      ? weighDiffTree(tab.shape, tab.profile)
      : weighTree(tab.shape, tab.profile, value);
  }
  return tab.trees[value];
}

function validValue(profile, value) {
  if (profile.differential) return DIFF_AFTER;
  return Number.isInteger(value) && value >= 0 && value < profile.values.length
    ? value : defaultValueIndex(profile);
}

function setState(app, change) {
  const s = app.state;
  const next = { ...s, ...change };
  if (!(next.tab >= 0 && next.tab < app.tabs.length)) next.tab = 0;
  const tabChanged = next.tab !== s.tab;
  if (tabChanged) {
    const tab = openTab(app, next.tab);
    if (!('value' in change)) next.value = tab.value;
    if (!('zoom' in change)) next.zoom = tab.zoom;
  }
  const tab = app.tabs[next.tab];
  next.value = validValue(tab.profile, next.value);
  const retree = tabChanged || next.value !== s.value;
  Object.assign(s, next);
  if (retree) showTree(app, tab);
  if (!(s.zoom >= 0 && s.zoom < app.tree.n && app.tree.total[s.zoom] > 0)) s.zoom = ROOT;
  tab.value = s.value;
  tab.zoom = s.zoom;
  if (retree || 'zoom' in change) {
    app.view.setZoom(s.zoom);
    renderCrumbs($('crumbs'), app.tree, app.profile, s.zoom, (node) => app.setState({ zoom: node }));
  }
  if (retree || 'query' in change) showSearch(app, s.query);
}

// Shows the open tab weighed by the chosen measure.
function showTree(app, tab) {
  const { profile } = tab;
  const tree = treeOf(tab, app.state.value);
  performance.mark('stoke:tree-built');
  if (!tab.coloring) {
    tab.coloring = profile.differential
      ? new DiffColoring(app.palette, tree) // a diff tab has one tree
      : new KindColoring(app.palette, profile, tab.shape);
  }
  Object.assign(app, { profile, tree, measure: measureOf(profile, app.state.value), coloring: tab.coloring });
  app.view.show(tree, profile, tab.coloring);
  app.tabBar.select(app.state.tab);
  app.measureSwitch.show(profile, app.state.value);
  $('summary').textContent = summaryText(app);
  renderLegend($('legend'), tab.coloring.legend());
  if (tree.total[ROOT] > 0) hideMessage();
  else showMessage(emptyText(app), false);
}

function summaryText(app) {
  const { profile, tree, measure } = app;
  const total = tree.total[ROOT];
  const parts = [];
  if (profile.differential) {
    const before = tree.before[ROOT];
    const named = measure.label === 'after' ? '' : measure.label + ': ';
    parts.push(named + 'after ' + measure.format(total), 'before ' + measure.format(before),
               'change ' + formatChange(before, total, measure.format));
  } else {
    parts.push(measure.amount(total));
    if (measure.time) parts.push(measure.time(total));
  }
  const procs = profile.processes.length;
  if (procs > 0) parts.push(procs + (procs === 1 ? ' process' : ' processes'));
  const lost = profile.processes.reduce((sum, p) => sum + p.lost, 0);
  if (lost > 0) parts.push(formatCount(lost) + ' lost');
  return parts.join(' \u00b7 ');
}

function emptyText(app) {
  const { profile, tree, measure } = app;
  if (profile.differential && tree.before[ROOT] > 0) {
    return 'Nothing is left after: all ' + measure.format(tree.before[ROOT]) +
           ' was only in before (search still finds those frames).';
  }
  return 'This profile holds no ' + measure.label + '.';
}

function framesText(n) {
  return formatCount(n) + (n === 1 ? ' frame' : ' frames');
}

function showSearch(app, text) {
  const { tree, profile, view, measure } = app;
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
  const total = tree.total[ROOT];
  view.setMatches(found.nodeMatch);
  out.hidden = false;
  if (profile.differential) {
    out.textContent = 'Matched ' + formatPercent(found.matchedTotal, total) + ' of after (' +
      measure.format(found.matchedTotal) + ' of ' + measure.format(total) + '; before ' +
      measure.format(found.matchedBefore) + ' of ' + measure.format(tree.before[ROOT]) + '), ' +
      framesText(found.matchedNodes) + ', ' + formatCount(found.goneNodes) + ' only in before';
  } else {
    out.textContent = 'Matched ' + formatPercent(found.matchedTotal, total) + ' of total (' +
      measure.format(found.matchedTotal) + ' of ' + measure.amount(total) + ', ' +
      framesText(found.matchedNodes) + ')';
  }
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
  const canvas = $('flame');
  canvas.addEventListener('mousemove', (e) => {
    const hit = app.view.hitAt(e.clientX, e.clientY);
    app.view.showHover(hit);
    if (!hit) {
      tooltip.hide();
      return;
    }
    const key = [app.state.tab, app.state.value, hit.node, hit.count, hit.x].join(':');
    tooltip.show(key, () => describeHit(hit, app.tree, app.profile, app.measure), e.clientX, e.clientY);
  });
  canvas.addEventListener('mouseleave', () => {
    app.view.showHover(null);
    tooltip.hide();
  });
  canvas.addEventListener('click', (e) => {
    const hit = app.view.hitAt(e.clientX, e.clientY);
    if (hit) app.setState({ zoom: hit.node });
  });
}

// items: [{ label, color }]
function renderLegend(el, items) {
  el.replaceChildren(...items.map(({ label, color }) => {
    const item = document.createElement('span');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.backgroundColor = color;
    item.append(swatch, label);
    return item;
  }));
}

function showMessage(text, isError) {
  const el = $('message');
  el.textContent = text;
  el.classList.toggle('error', isError);
  el.hidden = false;
}

function hideMessage() {
  $('message').hidden = true;
}

try {
  main();
} catch (e) {
  showMessage('This report cannot be shown: ' + e.message, true);
  throw e;
}
