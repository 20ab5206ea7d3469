// pointer.js - the mouse over a FlameView: hover outlines the frame and
// shows the tooltip, a click hands the frame to onClick. Remembers the last
// hit so a key can act on the frame under the pointer.

// describe(hit) gives the tooltip content; onClick(hit) acts on a click.
function bindPointer(view, tooltip, describe, onClick) {
  const pointer = { view, hit: null };
  const canvas = view.canvas;
  canvas.addEventListener('mousemove', (e) => {
    const hit = view.hitAt(e.clientX, e.clientY);
    pointer.hit = hit;
    view.showHover(hit);
    if (!hit) {
      tooltip.hide();
      return;
    }
    // The tree object and the hit's place identify what the tooltip says.
    const key = [view.treeId, hit.node, hit.count, hit.x].join(':');
    tooltip.show(key, () => describe(hit), e.clientX, e.clientY);
  });
  canvas.addEventListener('mouseleave', () => {
    pointer.hit = null;
    view.showHover(null);
    tooltip.hide();
  });
  canvas.addEventListener('click', (e) => {
    const hit = view.hitAt(e.clientX, e.clientY);
    if (hit) onClick(hit);
  });
  return pointer;
}
