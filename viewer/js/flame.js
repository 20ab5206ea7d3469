// flame.js - the flame graph on a canvas: the zoomed node spans the full
// width with its ancestors below it, roots at the bottom (flame) or at the
// top (icicle, ancestors above). Ctrl+wheel (what a trackpad pinch sends)
// zooms further across, around the pointer: the width then shows a part
// [from, to] of the zoomed node's values, which a sideways wheel pans and
// a node zoom resets; a plain wheel scrolls the rows as ever. Draws any
// tree of calltree.js's form (the call tree, or a sandwich's callers or
// callees). Draws only the rows and frames in view and at least a pixel
// wide; narrower siblings are drawn merged into one block, so their value
// never drops out of the picture. A flame shallower than its view sits at
// the top when fitContent (the report's graph; a sandwich's callers stay
// on their function). Frames are coloured by the coloring it is given (by
// kind, or by change in a differential tab); the frame the keys selected
// (selection.js) and the one under the pointer are outlined. Remembers what
// it drew for hit testing. Also the canvas helpers the timeline strip
// shares: sizing for the screen's pixels, a label cut to fit. Never builds
// DOM besides its canvases.

const ROW_HEIGHT = 18;
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const TEXT_PAD = 4;
const MIN_LABEL_WIDTH = 22;  // px: narrower frames get no label
const MIN_FRAME_WIDTH = 1;   // px: narrower siblings are merged
const ELLIPSIS = '\u2026';
const ANCESTOR_ALPHA = 0.6;
const WHEEL_PX_PER_DOUBLING = 100; // ctrl+wheel: a notch of a mouse wheel (100 px) zooms twice as wide
const WHEEL_LINE_PX = 16;          // a wheel that counts lines, not pixels
const MIN_VISIBLE_SHARE = 1e-6;    // the deepest wheel zoom: this share of the zoomed node across the width

class FlameView {
  // options: { fitContent }: a shallow flame at the top of its view.
  constructor(elements, palette, options = {}) {
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
    this.visible = { from: 0, to: 0 }; // the values across the width: the zoomed node's, or a part (wheel zoom)
    this.selected = -1;         // the frame the keys selected, or -1
    this.hover = null;          // the hit under the pointer, outlined
    this.fitContent = Boolean(options.fitContent);
    this.icicle = false;
    this.nodeMatch = null;
    this.rows = [];             // rows[depth] = hits drawn in that row
    this.labelWidths = new Map();
    this.width = 0;
    this.height = 0;
    this.planeHeight = 0;
    this.baseline = 0;          // plane y of the bottom of the roots' row (flame)
    this.frameRequested = false;
    this.scroller.addEventListener('scroll', () => this.invalidate(), { passive: true });
    this.scroller.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    new ResizeObserver(() => this.resize()).observe(this.scroller);
  }

  // Takes another tree (another tab, or the same one weighed by another
  // measure), scrolled to the roots, unzoomed, without matches or a
  // selection; drawn at the next setZoom.
  show(tree, profile, coloring) {
    this.tree = tree;
    this.treeId++;
    this.profile = profile;
    this.coloring = coloring;
    this.zoom = ROOT;
    this.visible = extentOf(tree, ROOT);
    this.selected = -1;
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

  // Zooms to a node, all of it across; the selection, if any, moves to it.
  setZoom(node) {
    this.zoom = node;
    this.visible = extentOf(this.tree, node);
    if (this.selected >= 0) this.selected = node;
    this.render();
  }

  // Selects a node (-1: none) and scrolls its row into view (a scroll
  // draws again).
  select(node) {
    this.selected = node;
    if (node >= 0) this.scrollToRow(this.tree.depth[node]);
    this.drawOverlay();
  }

  // Scrolls the least that shows the row of depth whole.
  scrollToRow(depth) {
    const top = this.rowTop(depth);
    const s = this.scroller;
    if (top < s.scrollTop) s.scrollTop = top;
    else if (top + ROW_HEIGHT > s.scrollTop + this.height) s.scrollTop = top + ROW_HEIGHT - this.height;
  }

  // Ctrl+wheel zooms across around the pointer; a sideways wheel pans a
  // view zoomed so; the rest is the scroller's.
  onWheel(e) {
    if (!this.tree || !(this.tree.total[this.zoom] > 0)) return;
    const px = (delta) => delta * (e.deltaMode === 1 ? WHEEL_LINE_PX : e.deltaMode === 2 ? this.width : 1);
    const shown = this.visible.to - this.visible.from;
    if (e.ctrlKey) {
      e.preventDefault();
      this.zoomAround(e.clientX - this.canvas.getBoundingClientRect().left, 2 ** (px(e.deltaY) / WHEEL_PX_PER_DOUBLING));
    } else if (Math.abs(e.deltaX) > Math.abs(e.deltaY) && shown < this.tree.total[this.zoom]) {
      e.preventDefault();
      this.showPart(this.visible.from + (px(e.deltaX) * shown) / this.width, shown);
    }
  }

  // Shows stretch times the values across, the value at x (canvas px)
  // staying at x.
  zoomAround(x, stretch) {
    const whole = this.tree.total[this.zoom];
    const { from, to } = this.visible;
    const width = Math.min(whole, Math.max((to - from) * stretch, whole * MIN_VISIBLE_SHARE));
    this.showPart(from + (x / this.width) * (to - from - width), width);
  }

  // Shows width values from start, kept within the zoomed node.
  showPart(start, width) {
    const { from, to } = extentOf(this.tree, this.zoom);
    const left = Math.min(Math.max(start, from), to - width);
    this.visible = { from: left, to: left + width };
    this.invalidate();
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

  // Makes the plane as tall as the tree (and at least the view), scrolled
  // to the roots if toRoots; the roots' row at its bottom, or at the
  // bottom of the tree's rows when fitContent.
  layoutPlane(toRoots) {
    if (!this.tree) return;
    const content = (this.tree.maxDepth + 1) * ROW_HEIGHT + ROW_HEIGHT;
    this.planeHeight = Math.max(this.height, content);
    this.baseline = this.fitContent ? content : this.planeHeight;
    this.plane.style.height = this.planeHeight + 'px';
    if (toRoots) this.scroller.scrollTop = this.icicle ? 0 : this.planeHeight;
  }

  // Row top of a depth, in plane coordinates.
  rowTop(depth) {
    return this.icicle ? depth * ROW_HEIGHT : this.baseline - (depth + 1) * ROW_HEIGHT;
  }

  depthAt(planeY) {
    return Math.floor(this.icicle ? planeY / ROW_HEIGHT : (this.baseline - planeY) / ROW_HEIGHT);
  }

  // Draws the frames, then the outlines; what was under the pointer may
  // have moved, so its outline goes until the pointer moves.
  render() {
    this.hover = null;
    this.drawFrames();
    this.drawOverlay();
  }

  drawFrames() {
    const ctx = this.ctx;
    const dpr = this.canvas.width / Math.max(this.width, 1);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.width, this.height);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    this.rows = [];
    const tree = this.tree;
    const z = this.zoom;
    if (!tree || !(tree.total[z] > 0)) return;
    const top = this.scroller.scrollTop;
    const [near, far] = [this.depthAt(top), this.depthAt(top + this.height)];
    const range = {
      min: Math.max(0, Math.min(near, far)),
      max: Math.max(near, far),
      top,
      scale: this.width / (this.visible.to - this.visible.from),
      origin: this.visible.from,
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
      const left = (tree.x0[c] - range.origin) * range.scale;
      if (left >= this.width) break; // the rest are right of the view (wheel zoom)
      if (left + t * range.scale <= 0) continue;
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
    const left = Math.max(x, 0); // the label in the part in view
    const shown = Math.min(x + w, this.width) - left;
    if (shown >= MIN_LABEL_WIDTH) this.drawLabel(nodeLabel(tree, this.profile, node), left, y, shown);
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

  // Where a node of the zoomed subtree, or an ancestor, is drawn (drawn
  // or not: it may be narrower than a pixel), in canvas coordinates.
  boxOf(node) {
    const tree = this.tree;
    const y = this.rowTop(tree.depth[node]) - this.scroller.scrollTop;
    if (tree.depth[node] <= tree.depth[this.zoom]) return { x: 0, y, w: this.width };
    const scale = this.width / (this.visible.to - this.visible.from);
    return { x: (tree.x0[node] - this.visible.from) * scale, y, w: tree.total[node] * scale };
  }

  showHover(hit) {
    this.hover = hit;
    this.drawOverlay();
  }

  // The selected frame's outline, then the hovered one's.
  drawOverlay() {
    const ctx = this.overlayCtx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.overlay.width, this.overlay.height);
    const dpr = this.overlay.width / Math.max(this.width, 1);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (this.selected >= 0) this.outline(this.boxOf(this.selected), this.palette.hover, 2);
    if (this.hover) {
      const y = this.rowTop(this.hover.depth) - this.scroller.scrollTop;
      this.outline({ x: this.hover.x, y, w: this.hover.w }, this.palette.hover, 1);
    }
  }

  outline(box, color, width) {
    const ctx = this.overlayCtx;
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    const inset = width / 2;
    ctx.strokeRect(box.x + inset, box.y + inset, Math.max(box.w - 2 * inset, 1), ROW_HEIGHT - 1 - 2 * inset);
  }
}

// The values a node spans: { from, to }.
function extentOf(tree, node) {
  return { from: tree.x0[node], to: tree.x0[node] + tree.total[node] };
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
