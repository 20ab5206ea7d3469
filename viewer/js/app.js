// app.js - the report page: reads the embedded report and wires the tabs,
// the measure switch, the toolbar and the three views (flame graph,
// sandwich, function table) to one page state, { tab, value, zoom, query,
// view, icicle, color, fn, sort }, changed only through setState and kept
// in the URL fragment (hash.js). Each tab is decoded when first opened and
// remembers its measure and zoom; what a view needs (trees, colourings,
// sandwiches, function totals) is made when first shown.
// Never puts a name into HTML: textContent only.

const SEARCH_DELAY_MS = 120;

async function main() {
  const report = await readEmbeddedReport(document);
  performance.mark('stoke:data-read');
  $('title').textContent = report.title;
  const palette = new Palette();
  const app = {
    report,
    palette,
    tabs: report.tabs.map(() => null), // per tab, once opened: see openTab
    view: new FlameView({ scroller: $('graph'), plane: $('plane'), canvas: $('flame'), overlay: $('overlay') },
                        palette),
    sandwich: new SandwichPanel({ title: $('sandwich-title'), callers: $('callers'), callees: $('callees') },
                                palette),
    state: { ...STATE_DEFAULTS, tab: -1, value: 0 }, // tab -1: none open yet
    profile: null, // the open tab's profile, tree, measure and matcher
    tree: null,
    measure: null,
    matcher: null,
    pointers: [],
  };
  app.setState = (change) => setState(app, change);
  app.openSandwichAtPointer = () => openSandwichAtPointer(app);
  app.tabBar = new TabBar($('tabs'), $('graph'), report.tabs.map((t) => t.name),
                          (tab) => pickTab(app, tab));
  app.measureSwitch = new MeasureSwitch($('measure'), (value) => app.setState({ value }));
  app.controls = new Controls({ views: $('views'), icicle: $('icicle'), color: $('color'), reset: $('reset') },
                              (change) => app.setState(change));
  app.table = new FunctionTable($('table'), (sort) => app.setState({ sort }),
                                (fn) => app.setState({ view: 'sandwich', fn }));
  $('sandwich-zoom').addEventListener('click', () => zoomToFunction(app, app.state.fn));
  bindSearch(app);
  bindKeys(app, new HelpOverlay($('help'), $('help-button')));
  bindPointers(app, new Tooltip($('tooltip')));
  palette.onChange = () => {
    renderLegend($('legend'), coloringOf(app).legend());
    for (const v of [app.view, ...app.sandwich.views]) v.invalidate();
  };
  app.setState({ tab: 0, ...stateFromHash(location.hash) });
  // An address edited by hand: what it leaves out goes back to its default
  // (value -1 is no measure: the tab's default).
  window.addEventListener('hashchange', () => {
    if (location.hash !== stateToHash(app.state, defaultValueIndex(app.profile))) {
      app.setState({ ...STATE_DEFAULTS, value: -1, ...stateFromHash(location.hash) });
    }
  });
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

// { profile, shape, trees, functions and sandwiches (by value index),
//   colorings (by colour mode), value, zoom }
function openTab(app, index) {
  if (!app.tabs[index]) {
    const profile = decodeTab(app.report, index);
    app.tabs[index] = {
      profile,
      shape: buildTreeShape(profile),
      trees: [],
      functions: [],
      sandwiches: [],
      colorings: {},
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
  const changed = (key) => tabChanged || next[key] !== s[key];
  const retree = changed('value');
  const recolor = retree || changed('color');
  const researched = retree || changed('query');
  Object.assign(s, next);
  if (retree) showTree(app, tab);
  if (!(s.zoom >= 0 && s.zoom < app.tree.n && app.tree.total[s.zoom] > 0)) s.zoom = ROOT;
  tab.value = s.value;
  tab.zoom = s.zoom;
  if (recolor) showColoring(app);
  if (retree || 'zoom' in change) {
    app.view.setZoom(s.zoom);
    renderCrumbs($('crumbs'), app.tree, app.profile, s.zoom, (node) => app.setState({ zoom: node }));
  }
  app.view.setIcicle(s.icicle);
  if (researched) showSearch(app, s.query);
  showView(app, tab);
  app.controls.show(s, app.profile.differential);
  const hash = stateToHash(s, defaultValueIndex(app.profile));
  if (hash !== location.hash && !(hash === '' && location.hash === '#')) {
    history.replaceState(null, '', hash || location.pathname + location.search);
  }
}

// Shows the open tab weighed by the chosen measure.
function showTree(app, tab) {
  const { profile } = tab;
  const tree = treeOf(tab, app.state.value);
  performance.mark('stoke:tree-built');
  Object.assign(app, { profile, tree, measure: measureOf(profile, app.state.value) });
  app.view.show(tree, profile, coloringOf(app));
  app.tabBar.select(app.state.tab);
  app.measureSwitch.show(profile, app.state.value);
  $('summary').textContent = summaryText(app);
  if (tree.total[ROOT] > 0) hideMessage();
  else showMessage(emptyText(app), false);
}

// The colouring of the open tab: by change in a differential tab, else by
// the colour mode picked.
function coloringOf(app) {
  const tab = app.tabs[app.state.tab];
  const { profile } = tab;
  const mode = profile.differential ? 'diff' : app.state.color;
  if (!tab.colorings[mode]) {
    if (mode === 'diff') tab.colorings[mode] = new DiffColoring(app.palette, app.tree); // one tree
    else if (mode === 'name') tab.colorings[mode] = new NameColoring(app.palette, profile);
    else tab.colorings[mode] = new KindColoring(app.palette, profile, tab.shape);
  }
  return tab.colorings[mode];
}

function showColoring(app) {
  const coloring = coloringOf(app);
  app.view.setColoring(coloring);
  app.sandwich.setColoring(coloring);
  renderLegend($('legend'), coloring.legend());
}

// Shows the panel of the view picked, made up to date.
function showView(app, tab) {
  const { view } = app.state;
  $('graph').hidden = view !== 'flame';
  $('crumbs').hidden = view !== 'flame';
  $('sandwich').hidden = view !== 'sandwich';
  $('table').hidden = view !== 'table';
  if (view === 'sandwich') showSandwich(app, tab);
  if (view === 'table') showTable(app, tab);
}

function showSandwich(app, tab) {
  const { fn, value } = app.state;
  const key = value + ':' + fn;
  const panel = app.sandwich;
  if (panel.key !== key || panel.tree !== app.tree) {
    if (!tab.sandwiches[value] || tab.sandwiches[value].fn !== fn) {
      const name = fn === '' ? -1 : app.profile.strings.indexOf(fn);
      tab.sandwiches[value] = { fn, trees: name >= 0 ? sandwichTrees(app.tree, app.profile, name) : null };
    }
    panel.show(tab.sandwiches[value].trees, app.profile, coloringOf(app), fn, app.measure);
    panel.key = key;
    panel.tree = app.tree;
  }
  panel.setMatches(app.matcher, app.profile);
}

function showTable(app, tab) {
  const { value, sort } = app.state;
  if (!tab.functions[value]) tab.functions[value] = { rows: functionTotals(app.tree, app.profile), sort: null };
  const functions = tab.functions[value];
  if (functions.sort !== sort) {
    sortFunctions(functions.rows, sort);
    functions.sort = sort;
  }
  app.table.show({
    rows: functions.rows, profile: app.profile, measure: app.measure, whole: app.tree.whole, sort,
    matcher: app.matcher && !app.matcher.error ? app.matcher : null, differential: Boolean(app.tree.before),
  });
}

// The flame graph zoomed to the heaviest call of the function named fn.
function zoomToFunction(app, fn) {
  const { tree, profile } = app;
  const name = profile.strings.indexOf(fn);
  let best = -1;
  for (let i = 1; i < tree.n; i++) {
    if (profile.frameName[tree.frame[i]] === name && (best < 0 || tree.total[i] > tree.total[best])) best = i;
  }
  app.setState({ view: 'flame', zoom: best > 0 ? best : ROOT });
}

// The sandwich of the function under the pointer (in any view), else of
// the zoomed frame.
function openSandwichAtPointer(app) {
  const pointer = app.pointers.find((p) => p.hit && p.hit.count === 1);
  const tree = pointer ? pointer.view.tree : app.tree;
  const node = pointer ? pointer.hit.node : app.state.zoom;
  if (tree.frame[node] < 0) return;
  app.setState({ view: 'sandwich', fn: nodeLabel(tree, app.profile, node) });
}

// Hover shows the tooltip; a click zooms the flame graph, or in the
// sandwich centres it on the function clicked.
function bindPointers(app, tooltip) {
  const describe = (view) => (hit) => describeHit(hit, view.tree, app.profile, app.measure);
  app.pointers.push(bindPointer(app.view, tooltip, describe(app.view), (hit) => app.setState({ zoom: hit.node })));
  for (const view of app.sandwich.views) {
    app.pointers.push(bindPointer(view, tooltip, describe(view), (hit) => {
      if (hit.count === 1 && view.tree.frame[hit.node] >= 0) {
        app.setState({ fn: nodeLabel(view.tree, app.profile, hit.node) });
      }
    }));
  }
}

function bindSearch(app) {
  let timer = 0;
  $('search').addEventListener('input', (e) => {
    clearTimeout(timer);
    timer = setTimeout(() => app.setState({ query: e.target.value }), SEARCH_DELAY_MS);
  });
}

main().catch((e) => {
  showMessage('This report cannot be shown: ' + e.message, true);
  throw e;
});
