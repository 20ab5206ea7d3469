// selection.js - the frame of the flame graph the keyboard selects. The
// arrow keys move it: toward the roots to its caller (Down in a flame
// graph, Up in an icicle), the other way to its heaviest callee, Left and
// Right to the frame drawn beside it under the same caller; Enter zooms to
// it; Esc (keys.js) lets it go. With none selected, a move starts from the
// zoomed frame. It stays where frames are drawn: in the zoomed frame's
// subtree or on its ancestors (which span the width: no sideways move
// there). The tooltip tells about it as about a frame under the pointer;
// FlameView outlines it. Acts on the flame graph only.

const FRAME_MOVES = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'previous', ArrowRight: 'next' };

// The action of a key on the selection, or null when it is not one of
// its keys there (a key that a focused control acts on, a field's, or
// another view's).
function selectionKeyAction(app, e) {
  if (app.state.view !== 'flame' || e.shiftKey) return null;
  if (Object.hasOwn(FRAME_MOVES, e.key)) return () => moveSelection(app, FRAME_MOVES[e.key]);
  const onGraph = e.target === document.body || app.view.scroller.contains(e.target);
  if (e.key === 'Enter' && onGraph && app.view.selected >= 0) return () => zoomToSelection(app);
  return null;
}

function moveSelection(app, move) {
  const { view } = app;
  const from = selectedOrZoomed(app);
  view.select(frameStep(view.tree, from, app.state.zoom, move, app.state.icicle));
  tellSelection(app);
}

function zoomToSelection(app) {
  app.setState({ zoom: app.view.selected });
  tellSelection(app);
}

function clearSelection(app) {
  if (app.view.selected < 0) return;
  app.view.select(-1);
  app.tooltip.hide();
}

function selectedOrZoomed(app) {
  return app.view.selected >= 0 ? app.view.selected : app.state.zoom;
}

// The tooltip of the selected frame, under it.
function tellSelection(app) {
  const { view, tooltip } = app;
  const node = view.selected;
  const box = view.boxOf(node);
  const r = view.canvas.getBoundingClientRect();
  const x = r.left + Math.min(Math.max(box.x + box.w / 2, 0), view.width);
  const hit = { node, count: 1, total: view.tree.total[node] };
  tooltip.show('selected:' + view.treeId + ':' + node, () => describeHit(hit, view.tree, app.profile, app.measure),
               x, r.top + box.y + ROW_HEIGHT);
}

// Where a move from node leads in tree zoomed to zoom: node itself where
// there is no frame that way.
function frameStep(tree, node, zoom, move, icicle) {
  if (move === 'up' || move === 'down') {
    const towardRoots = (move === 'down') !== icicle;
    if (towardRoots) return tree.parent[node] >= 0 ? tree.parent[node] : node;
    return heaviestChild(tree, node);
  }
  if (tree.depth[node] <= tree.depth[zoom]) return node;
  return besideOf(tree, node, move === 'next' ? 1 : -1);
}

// The child of the largest total (the first drawn of equals), or node.
function heaviestChild(tree, node) {
  let best = node;
  for (let k = tree.childStart[node]; k < tree.childStart[node + 1]; k++) {
    const c = tree.children[k];
    if (tree.total[c] > 0 && (best === node || tree.total[c] > tree.total[best])) best = c;
  }
  return best;
}

// The nearest sibling with a value, drawn on that side (step -1 left, 1
// right), or node.
function besideOf(tree, node, step) {
  const p = tree.parent[node];
  const first = tree.childStart[p];
  const end = tree.childStart[p + 1];
  let k = first;
  while (tree.children[k] !== node) k++;
  for (k += step; k >= first && k < end; k += step) {
    if (tree.total[tree.children[k]] > 0) return tree.children[k];
  }
  return node;
}
