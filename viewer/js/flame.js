// flame.js - the flame graph on a canvas: the zoomed node spans the full
// width with its ancestors below it, roots at the bottom (flame) or at the
// top (icicle, ancestors above). Draws any tree of calltree.js's form (the
// call tree, or a sandwich's callers or callees). Draws only the rows
// in view and the frames at least a pixel wide; narrower siblings are drawn
// merged into one block, so their value never drops out of the picture.
// Frames are coloured by the coloring it is given (by kind, or by change in
// a differential tab). Remembers what it drew for hit testing. Also the
// canvas helpers the timeline strip shares: sizing for the screen's pixels,
// a label cut to fit. Never builds DOM besides its canvases.

const ROW_HEIGHT = 18;
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const TEXT_PAD = 4;
const MIN_LABEL_WIDTH = 22;  // px: narrower frames get no label
const MIN_FRAME_WIDTH = 1;   // px: narrower siblings are merged
const ELLIPSIS = '\u2026';
const ANCESTOR_ALPHA = 0.6;

class FlameView {
  constructor(elements, palette) {
    this.scroller = elements.scroller;
    this.plane = elements.plane;
    this.canvas = elements.canvas;
    this.overlay = elements.overlay;
    this.ctx = this.canvas.getContext('2d');
    this.overlayCtx = this.overlay.getContext('2d');
    this.palette = palette;
    this.tree = null;
    this.treeId = 0;            // changes with every tree shown
    this.profile = null;
    this.coloring = null;       // { nodeColor(tree, node) }
    this.zoom = ROOT;
    this.icicle = false;
    this.nodeMatch = null;
    this.rows = [];             // rows[depth] = hits drawn in that row
    this.labelWidths = new Map();
    this.width = 0;
    this.height = 0;
    this.planeHeight = 0;
    this.frameRequested = false;
    this.scroller.addEventListener('scroll', () => this.invalidate(), { passive: true });
    new ResizeObserver(() => this.resize()).observe(this.scroller);
  }

  // Takes another tree (another tab, or the same one weighed by another
  // measure), scrolled to the roots, unzoomed and without matches; drawn at
  // the next setZoom.
  show(tree, profile, coloring) {
    this.tree = tree;
    this.treeId++;
    this.profile = profile;
    this.coloring = coloring;
    this.zoom = ROOT;
    this.nodeMatch = null;
    this.resize();
    this.layoutPlane(true);
  }

  // Roots at the top (icicle) or at the bottom (flame); scrolled to them.
  setIcicle(icicle) {
    if (icicle === this.icicle) return;
    this.icicle = icicle;
    this.layoutPlane(true);
    this.invalidate();
  }

  setZoom(node) {
    this.zoom = node;
    this.render();
  }

  setMatches(nodeMatch) {
    this.nodeMatch = nodeMatch;
    this.invalidate();
  }

  setColoring(coloring) {
    this.coloring = coloring;
    this.invalidate();
  }

  invalidate() {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.render();
    });
  }

  resize() {
    const width = this.scroller.clientWidth;
    const height = this.scroller.clientHeight;
    if (width === this.width && height === this.height) return;
    const wasAtRoots = this.icicle ? this.scroller.scrollTop <= 0
      : this.scroller.scrollTop + this.height >= this.planeHeight - 1;
    this.width = width;
    this.height = height;
    for (const c of [this.canvas, this.overlay]) sizeCanvas(c, width, height);
    this.layoutPlane(wasAtRoots);
    this.render();
  }

  // Makes the plane as tall as the tree, scrolled to the roots if toRoots.
  layoutPlane(toRoots) {
    if (!this.tree) return;
    this.planeHeight = Math.max(this.height, (this.tree.maxDepth + 1) * ROW_HEIGHT + ROW_HEIGHT);
    this.plane.style.height = this.planeHeight + 'px';
    if (toRoots) this.scroller.scrollTop = this.icicle ? 0 : this.planeHeight;
  }

  // Row top of a depth, in plane coordinates.
  rowTop(depth) {
    return this.icicle ? depth * ROW_HEIGHT : this.planeHeight - (depth + 1) * ROW_HEIGHT;
  }

  depthAt(planeY) {
    return Math.floor(this.icicle ? planeY / ROW_HEIGHT : (this.planeHeight - planeY) / ROW_HEIGHT);
  }

  render() {
    const ctx = this.ctx;
    const dpr = this.canvas.width / Math.max(this.width, 1);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.width, this.height);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    this.rows = [];
    this.clearHover();
    const tree = this.tree;
    const z = this.zoom;
    if (!tree || !(tree.total[z] > 0)) return;
    const top = this.scroller.scrollTop;
    const [near, far] = [this.depthAt(top), this.depthAt(top + this.height)];
    const range = {
      min: Math.max(0, Math.min(near, far)),
      max: Math.max(near, far),
      top,
      scale: this.width / tree.total[z],
      origin: tree.x0[z],
    };
    ctx.globalAlpha = ANCESTOR_ALPHA;
    for (let a = tree.parent[z]; a !== -1; a = tree.parent[a]) {
      if (tree.depth[a] >= range.min && tree.depth[a] <= range.max) {
        this.drawNode(a, 0, this.width, range);
      }
    }
    ctx.globalAlpha = 1;
    this.drawSubtree(z, range);
  }

  drawSubtree(z, range) {
    const tree = this.tree;
    const stack = [z];
    const wide = [];
    while (stack.length > 0) {
      const i = stack.pop();
      const d = tree.depth[i];
      if (d >= range.min) {
        this.drawNode(i, (tree.x0[i] - range.origin) * range.scale, tree.total[i] * range.scale, range);
      }
      if (d >= range.max) continue;
      wide.length = 0;
      this.visitChildren(i, range, wide);
      for (let k = wide.length - 1; k >= 0; k--) stack.push(wide[k]);
    }
  }

  // Collects the children wide enough to draw, and draws each run of
  // narrower neighbours as one merged block.
  visitChildren(parent, range, wide) {
    const tree = this.tree;
    const drawRow = tree.depth[parent] + 1 >= range.min;
    let runCount = 0;
    let runStart = 0;
    let runTotal = 0;
    let runFirst = 0;
    let runLast = 0;
    const flush = () => {
      if (runCount > 0 && drawRow) {
        const x = (runStart - range.origin) * range.scale;
        const w = runTotal * range.scale;
        if (runCount === 1) this.drawNode(tree.children[runLast], x, w, range);
        else this.drawMerged(parent, { count: runCount, total: runTotal, first: runFirst, last: runLast }, x, w, range);
      }
      runCount = 0;
      runTotal = 0;
    };
    for (let k = tree.childStart[parent]; k < tree.childStart[parent + 1]; k++) {
      const c = tree.children[k];
      const t = tree.total[c];
      if (t * range.scale >= MIN_FRAME_WIDTH) {
        flush();
        wide.push(c);
      } else if (t > 0) {
        if (runCount === 0) {
          runStart = tree.x0[c];
          runFirst = k;
        }
        runCount++;
        runTotal += t;
        runLast = k;
      }
    }
    flush();
  }

  drawNode(node, x, w, range) {
    const tree = this.tree;
    let color;
    if (this.nodeMatch && this.nodeMatch[node]) color = this.palette.match;
    else color = this.coloring.nodeColor(tree, node);
    const depth = tree.depth[node];
    const y = this.rowTop(depth) - range.top;
    this.fillFrame(color, x, y, w);
    if (w >= MIN_LABEL_WIDTH) this.drawLabel(nodeLabel(tree, this.profile, node), x, y, w);
    this.remember(depth, { x, w, node, count: 1, total: tree.total[node] });
  }

  // run: { count, total, first, last }, the children[first..last] merged.
  drawMerged(parent, run, x, w, range) {
    const depth = this.tree.depth[parent] + 1;
    const y = this.rowTop(depth) - range.top;
    this.fillFrame(this.palette.mergedFill(this.ctx), x, y, w);
    this.remember(depth, { x, w, node: parent, ...run });
  }

  fillFrame(color, x, y, w) {
    const ctx = this.ctx;
    ctx.fillStyle = color;
    ctx.fillRect(x, y, w > 3 ? w - 1 : w, ROW_HEIGHT - 1);
  }

  drawLabel(text, x, y, w) {
    const label = this.fitLabel(text, w - 2 * TEXT_PAD);
    if (label === '') return;
    const ctx = this.ctx;
    ctx.fillStyle = this.palette.text;
    ctx.fillText(label, x + TEXT_PAD, y + ROW_HEIGHT / 2);
  }

  fitLabel(text, width) {
    return fitText(this.ctx, text, width, (t) => this.measure(t));
  }

  measure(text) {
    let w = this.labelWidths.get(text);
    if (w === undefined) {
      w = this.ctx.measureText(text).width;
      this.labelWidths.set(text, w);
    }
    return w;
  }

  remember(depth, hit) {
    hit.depth = depth;
    (this.rows[depth] || (this.rows[depth] = [])).push(hit);
  }

  // The frame (or merged block) under a point of the page, or null.
  hitAt(clientX, clientY) {
    const r = this.canvas.getBoundingClientRect();
    const x = clientX - r.left;
    const row = this.rows[this.depthAt(clientY - r.top + this.scroller.scrollTop)];
    if (!row) return null;
    for (const hit of row) {
      if (x >= hit.x && x < hit.x + Math.max(hit.w, MIN_FRAME_WIDTH)) return hit;
    }
    return null;
  }

  // Where a node was drawn, in page coordinates, or null if it was not.
  clientRectOf(node) {
    const row = this.rows[this.tree.depth[node]] || [];
    const hit = row.find((h) => h.node === node && h.count === 1);
    if (!hit) return null;
    const r = this.canvas.getBoundingClientRect();
    const y = this.rowTop(hit.depth) - this.scroller.scrollTop;
    return { x: r.left + hit.x, y: r.top + y, width: hit.w, height: ROW_HEIGHT - 1 };
  }

  showHover(hit) {
    this.clearHover();
    if (!hit) return;
    const ctx = this.overlayCtx;
    const dpr = this.overlay.width / Math.max(this.width, 1);
    const y = this.rowTop(hit.depth) - this.scroller.scrollTop;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.strokeStyle = this.palette.hover;
    ctx.lineWidth = 1;
    ctx.strokeRect(hit.x + 0.5, y + 0.5, Math.max(hit.w - 1, 1), ROW_HEIGHT - 2);
  }

  clearHover() {
    this.overlayCtx.setTransform(1, 0, 0, 1, 0, 0);
    this.overlayCtx.clearRect(0, 0, this.overlay.width, this.overlay.height);
  }
}

// Makes a canvas width x height CSS pixels, with a pixel of its own for each
// pixel of the screen.
function sizeCanvas(canvas, width, height) {
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  canvas.style.width = width + 'px';
  canvas.style.height = height + 'px';
}

// The text, or its longest prefix with an ellipsis that fits in width px
// of ctx's font; measure(t) gives a text's width (cached by the caller).
function fitText(ctx, text, width, measure) {
  const full = measure(text);
  if (full <= width) return text;
  let n = Math.floor((text.length * (width - measure(ELLIPSIS))) / full);
  while (n > 0) {
    if (isHighSurrogate(text.charCodeAt(n - 1))) n--;
    const label = text.slice(0, n) + ELLIPSIS;
    if (ctx.measureText(label).width <= width) return label;
    n--;
  }
  return '';
}

function isHighSurrogate(code) {
  return code >= 0xd800 && code <= 0xdbff;
}
