// app.js - the report page: reads the embedded report and wires the tabs,
// the measure switch, the toolbar, the JavaScript bar, the timeline strip
// and the three views (flame graph, sandwich, function table) to one page
// state, { tab, value, zoom, query, view, icicle, color, order, recursion,
// fn, sort, hide, tiers, frames, range }, changed only through setState
// and kept in the URL fragment (hash.js). Each tab is decoded when first opened and
// remembers its measure; its tree as the frame options and the range of
// time show it (timeline.js, transform.js) is made when first asked for
// and remembers its zoom (a new range keeps the zoom of the tree it
// replaces); what a view needs (trees, colourings, sandwiches, function
// totals) is made when first shown.
// Never puts a name into HTML: textContent only.

const SEARCH_DELAY_MS = 120;
const FRAME_VIEWS_KEPT = 4; // per tab: its trees under the last frame options and ranges used

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
                        palette, { fitContent: true }),
    sandwich: new SandwichPanel({ title: $('sandwich-title'), callers: $('callers'), callees: $('callees'),
                                  lines: $('hot-lines') },
                                palette),
    state: { ...STATE_DEFAULTS, tab: -1, value: 0 }, // tab -1: none open yet
    profile: null, // the open tab's frame view, its profile, tree, measure and matcher
    frameView: null,
    tree: null,
    measure: null,
    matcher: null,
    pointers: [],
  };
  const tooltip = new Tooltip($('tooltip'));
  app.tooltip = tooltip;
  app.setState = (change) => setState(app, change);
  app.openSandwichAtPointer = () => openSandwichAtPointer(app);
  app.copyNameAtPointer = () => copyNameAtPointer(app);
  app.strip = new TimelineStrip({ section: $('timeline'), canvas: $('strip'), words: $('range-words'),
                                  clear: $('range-clear'), left: $('lanes-left') },
                                palette, tooltip, (range) => app.setState({ range }));
  app.tabBar = new TabBar($('tabs'), $('graph'), report.tabs.map((t) => t.name),
                          (tab) => pickTab(app, tab));
  app.measureSwitch = new MeasureSwitch($('measure'), (value) => app.setState({ value }));
  app.controls = new Controls({ views: $('views'), icicle: $('icicle'), color: $('color'), order: $('heavy'),
                                recursion: $('merge-recursion'), reset: $('reset') },
                              (change) => app.setState(change));
  app.jsBar = new JsBar({ bar: $('js-bar'), filters: $('kind-filters'), split: $('split-tiers'),
                          frames: $('all-frames'), note: $('filter-note') }, palette, (change) => app.setState(change));
  app.table = new FunctionTable($('table'), (sort) => app.setState({ sort }),
                                (fn) => app.setState({ view: 'sandwich', fn }));
  $('sandwich-zoom').addEventListener('click', () => zoomToFunction(app, app.state.fn));
  bindSearch(app);
  bindKeys(app, new HelpOverlay($('help'), $('help-button')));
  bindPointers(app, tooltip);
  palette.onChange = () => {
    renderLegend($('legend'), coloringOf(app).legend());
    showJsBar(app);
    for (const v of [app.view, ...app.sandwich.views]) v.invalidate();
    app.strip.draw();
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

// { profile (as decoded), kinds (flags by kind), tiered, lanes (of its
//   timeline, or null), views (frame options and range -> frame view),
//   value }
function openTab(app, index) {
  if (!app.tabs[index]) {
    const profile = decodeTab(app.report, index);
    app.tabs[index] = {
      profile,
      kinds: kindsPresent(profile),
      tiered: hasTiers(profile),
      lanes: profile.timeline ? timelineLanes(profile) : null,
      views: new Map(),
      value: defaultValueIndex(profile),
    };
  }
  return app.tabs[index];
}

// The tab as the frame options and the range of time of state show it:
// { tab, optionsKey, profile, shape, trees, functions and sandwiches (by
// value index), colorings (by colour mode), zoom }; a tab keeps the last
// few. A tab without a timeline shows every range whole.
function frameViewOf(app, tab, state) {
  const options = frameOptions(tab.kinds, state);
  const range = tab.profile.timeline ? state.range : null;
  const key = options.key + '@' + rangeKey(range);
  let view = tab.views.get(key);
  if (!view) {
    const started = performance.now();
    const profile = transformProfile(rangeProfile(tab.profile, app.report.span, range), options);
    performance.measure('stoke:transform', { start: started });
    view = { tab, optionsKey: options.key, profile, shape: buildTreeShape(profile), trees: new Map(), functions: [],
             sandwiches: [], colorings: {}, zoom: ROOT };
    if (tab.views.size >= FRAME_VIEWS_KEPT) tab.views.delete(tab.views.keys().next().value);
    tab.views.set(key, view);
  }
  return view;
}

// The zoom a frame view opens at: the node of the view shown before, found
// by its path, where the two differ only in their range of time; else its
// own.
function zoomIn(view, shown) {
  if (!shown || shown.tab !== view.tab || shown.optionsKey !== view.optionsKey) return view.zoom;
  return nodeAlong(view.shape, shown.shape, shown.zoom);
}

// The frame view weighed by value, its siblings in order ('name' or
// 'heavy': heaviest first).
function treeOf(view, value, order) {
  const key = order + ':' + value;
  if (!view.trees.has(key)) {
    let tree;
    if (order === 'heavy') tree = heaviestFirst(treeOf(view, value, 'name'));
    else if (view.profile.differential) tree = weighDiffTree(view.shape, view.profile);
    else tree = weighTree(view.shape, view.profile, value);
    view.trees.set(key, tree);
  }
  return view.trees.get(key);
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
  const tab = openTab(app, next.tab);
  if (next.tab !== s.tab && !('value' in change)) next.value = tab.value;
  next.value = validValue(tab.profile, next.value);
  const frameView = frameViewOf(app, tab, next);
  const viewChanged = frameView !== app.frameView; // another tab, other frame options or range
  if (viewChanged && !('zoom' in change)) next.zoom = zoomIn(frameView, app.frameView);
  const changed = (key) => viewChanged || next[key] !== s[key];
  const retree = changed('value') || changed('order');
  const recolor = retree || changed('color');
  const researched = retree || changed('query');
  Object.assign(s, next);
  if (retree) showTree(app, frameView);
  if (!(s.zoom >= 0 && s.zoom < app.tree.n && app.tree.total[s.zoom] > 0)) s.zoom = ROOT;
  tab.value = s.value;
  frameView.zoom = s.zoom;
  if (recolor) showColoring(app);
  if (retree || 'zoom' in change) {
    app.view.setZoom(s.zoom);
    renderCrumbs($('crumbs'), app.tree, app.profile, s.zoom, (node) => app.setState({ zoom: node }));
  }
  app.view.setIcicle(s.icicle);
  if (researched) showSearch(app, s.query);
  showView(app, frameView);
  app.controls.show(s, app.profile.differential);
  showJsBar(app);
  const hash = stateToHash(s, defaultValueIndex(app.profile));
  if (hash !== location.hash && !(hash === '' && location.hash === '#')) {
    history.replaceState(null, '', hash || location.pathname + location.search);
  }
}

// Shows the open tab's frame view weighed by the chosen measure.
function showTree(app, frameView) {
  const { profile } = frameView;
  const tree = treeOf(frameView, app.state.value, app.state.order);
  performance.mark('stoke:tree-built');
  Object.assign(app, { profile, frameView, tree, measure: measureOf(profile, app.state.value) });
  app.view.show(tree, profile, coloringOf(app));
  app.tabBar.select(app.state.tab);
  app.measureSwitch.show(profile, app.state.value);
  $('summary').textContent = summaryText(app);
  showTabNote(app);
  showTimeline(app);
  if (tree.total[ROOT] > 0) hideMessage();
  else showMessage(emptyText(app), false);
}

// The strip of the open tab's timeline, or none.
function showTimeline(app) {
  const tab = app.tabs[app.state.tab];
  const { timeline } = tab.profile;
  app.strip.show(timeline ? {
    timeline, span: app.report.span, marks: app.report.marks, lanes: tab.lanes, heap: app.report.liveHeap,
    range: app.profile.range || null, words: rangeWords(app), measure: app.measure,
  } : null);
}

// The colouring of the open tab: by change in a differential tab, else by
// the colour mode picked.
function coloringOf(app) {
  const { frameView, profile } = app;
  const { colorings } = frameView;
  const mode = profile.differential ? 'diff' : app.state.color;
  if (!colorings[mode]) {
    if (mode === 'diff') colorings[mode] = new DiffColoring(app.palette, app.tree, app.measure, profile.sides); // one tree
    else if (mode === 'name') colorings[mode] = new NameColoring(app.palette, profile);
    else colorings[mode] = new KindColoring(app.palette, profile, frameView.shape);
  }
  return colorings[mode];
}

function showJsBar(app) {
  const tab = app.tabs[app.state.tab];
  app.jsBar.show(app.state, tab.kinds, tab.tiered);
}

function showColoring(app) {
  const coloring = coloringOf(app);
  app.view.setColoring(coloring);
  app.sandwich.setColoring(coloring);
  renderLegend($('legend'), coloring.legend());
}

// Shows the panel of the view picked, made up to date.
function showView(app, frameView) {
  const { view } = app.state;
  $('graph').hidden = view !== 'flame';
  $('crumbs').hidden = view !== 'flame';
  $('sandwich').hidden = view !== 'sandwich';
  $('table').hidden = view !== 'table';
  if (view === 'sandwich') showSandwich(app, frameView);
  if (view === 'table') showTable(app, frameView);
}

function showSandwich(app, frameView) {
  const { fn, value, order } = app.state;
  const key = value + ':' + fn + ':' + order;
  const panel = app.sandwich;
  if (panel.key !== key || panel.tree !== app.tree) {
    const { sandwiches } = frameView;
    if (!sandwiches[value] || sandwiches[value].fn !== fn) {
      const name = fn === '' ? -1 : app.profile.strings.indexOf(fn);
      sandwiches[value] = { fn, trees: name >= 0 ? sandwichTrees(app.tree, app.profile, name) : null };
    }
    panel.show(inOrder(sandwiches[value].trees, order), app.profile, coloringOf(app), fn, app.measure);
    panel.key = key;
    panel.tree = app.tree;
  }
  panel.setMatches(app.matcher, app.profile);
}

// A sandwich's trees (or null) with their siblings in the order picked.
function inOrder(trees, order) {
  if (!trees || order !== 'heavy') return trees;
  return { callers: heaviestFirst(trees.callers), callees: heaviestFirst(trees.callees) };
}

function showTable(app, frameView) {
  const { value, sort } = app.state;
  if (!frameView.functions[value]) frameView.functions[value] = { rows: functionTotals(app.tree, app.profile), sort: null };
  const functions = frameView.functions[value];
  if (functions.sort !== sort) {
    sortFunctions(functions.rows, sort, app.profile.strings);
    functions.sort = sort;
  }
  app.table.show({
    rows: functions.rows, profile: app.profile, measure: app.measure, whole: app.tree.whole,
    wholeBefore: app.tree.before ? app.tree.before[ROOT] : 0, sort,
    matcher: app.matcher && !app.matcher.error ? app.matcher : null, differential: Boolean(app.tree.before),
    tiered: Boolean(app.tree.tiers),
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

// The name of the function under the pointer (a frame of a flame graph or
// of the sandwich), else of the frame selected with the keys, else of the
// frame zoomed to; null on the root.
function functionAtPointer(app) {
  const pointer = app.pointers.find((p) => p.hit && p.hit.count === 1);
  const tree = pointer ? pointer.view.tree : app.tree;
  const node = pointer ? pointer.hit.node : selectedOrZoomed(app);
  return tree.frame[node] < 0 ? null : nodeLabel(tree, app.profile, node);
}

// The sandwich of the function under the pointer (in any view), else of
// the selected or zoomed frame.
function openSandwichAtPointer(app) {
  const fn = functionAtPointer(app);
  if (fn !== null) app.setState({ view: 'sandwich', fn });
}

// Canvas text cannot be selected: y puts the name on the clipboard.
function copyNameAtPointer(app) {
  const fn = functionAtPointer(app);
  if (fn !== null && navigator.clipboard) navigator.clipboard.writeText(fn).catch(() => {});
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

// Typing searches after a pause; Esc (which empties a search box without an
// input event in Chromium) and Enter search at once.
function bindSearch(app) {
  const box = $('search');
  let timer = 0;
  const searchNow = () => {
    clearTimeout(timer);
    app.setState({ query: box.value });
  };
  box.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(searchNow, SEARCH_DELAY_MS);
  });
  box.addEventListener('search', searchNow);
  box.addEventListener('change', searchNow);
}

main().catch((e) => {
  showMessage('This report cannot be shown: ' + e.message, true);
  throw e;
});
