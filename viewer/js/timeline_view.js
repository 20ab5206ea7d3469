// timeline_view.js - the timeline strip above the views of a tab read
// from traces (a CPU tab, or the live heap's growth in a range): one lane
// per process (and per thread, stoke report --threads) on a canvas, each
// bucket of time a bar as tall as its samples; under them, for a --heap
// recording, a taller lane per process with its live heap over time as an
// area, all to one scale its label gives ("live heap 0-48.0 MiB"); a time
// axis in seconds since the recording began; the marks (load start and
// end, heap snapshots) as labelled vertical lines; the range of time
// shown, the rest shaded; and above it the words that say what it shows,
// with a button that clears the range. Dragging across it picks a range,
// snapped to its buckets (a click without a drag clears it); with the
// strip focused the arrow keys move the range and Shift with them widens
// or narrows it (help.js lists the keys). Hovering tells a bucket's
// samples, its live heap, or a mark's name. Reports picks through
// onPick(range or null); never changes the state itself. Text is drawn on
// the canvas or set with textContent only.

const LANE_HEIGHT = 14;
const HEAP_LANE_HEIGHT = 28;
const HEAP_LANES_SHOWN = 4; // at most: the largest peaks
const AXIS_HEIGHT = 16;
const MARK_ROW_HEIGHT = 14;
const LANES_SHARE = 0.16;  // of the window's height, at most, for the lanes
const MIN_LANES = 2;
const LABEL_WIDTH = 150;   // px at most; a sixth of a narrow strip
const LABEL_PAD = 6;
const THREAD_INDENT = 10;
const RIGHT_PAD = 8;
const TICK_SPACING = 90;   // px between the axis's labels, at least
const CLICK_SLOP = 3;      // px: a pointer that moved less clicked
const MARK_SLOP = 3;       // px either side of a mark's line that hover it
const STRIP_FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const PAGE_SHARE = 0.1;    // of the buckets, a Page Up or Page Down
const pageOf = (n) => Math.max(1, Math.round(PAGE_SHARE * n));
// Each key's move of the range, in buckets of a timeline of n.
const RANGE_KEYS = {
  ArrowLeft: () => -1, ArrowRight: () => 1, PageUp: (n) => -pageOf(n), PageDown: pageOf,
  Home: () => -Infinity, End: () => Infinity,
};

class TimelineStrip {
  // els: { section, canvas, words, clear, left }; onPick(range or null)
  // when the user picks a range or clears it.
  constructor(els, palette, tooltip, onPick) {
    this.els = els;
    this.ctx = els.canvas.getContext('2d');
    this.palette = palette;
    this.tooltip = tooltip;
    this.onPick = onPick;
    this.model = null;
    this.lanes = [];
    this.heapLanes = [];
    this.marksDrawn = []; // { x, mark }
    this.drag = null;     // { from, to (seconds), x (where it began, px) }
    this.labelWidths = new Map();
    els.clear.addEventListener('click', () => onPick(null));
    this.bindPointer();
    els.canvas.addEventListener('keydown', (e) => this.onKey(e));
    new ResizeObserver(() => this.draw()).observe(els.section);
  }

  get shown() {
    return !this.els.section.hidden;
  }

  // model: { timeline, span, marks, lanes (timeline.js), heap (the live
  // heap lanes, data.js), range, words, measure } of the open tab, or null
  // for a tab without a timeline.
  show(model) {
    this.model = model;
    this.els.section.hidden = !model;
    this.tooltip.hide();
    if (!model) return;
    this.els.words.textContent = model.words;
    this.els.words.classList.toggle('picked', Boolean(model.range));
    this.els.clear.hidden = !model.range;
    this.draw();
  }

  // The lanes the window has room for, the live heap's first (the largest
  // peaks, in the report's order); says how many are left out.
  lanesShown() {
    const { heap } = this.model;
    const largest = new Set(heap.slice().sort((x, y) => y.peak - x.peak).slice(0, HEAP_LANES_SHOWN));
    this.heapLanes = heap.filter((l) => largest.has(l));
    const heapHeight = this.heapLanes.length * HEAP_LANE_HEIGHT;
    const room = Math.floor((LANES_SHARE * window.innerHeight - heapHeight) / LANE_HEIGHT);
    const picked = pickLanes(this.model.lanes, Math.max(room, MIN_LANES));
    const left = picked.left + heap.length - this.heapLanes.length;
    this.els.left.hidden = left === 0;
    this.els.left.textContent = left + (left === 1 ? ' quieter lane' : ' quieter lanes') + ' not shown';
    return picked.shown;
  }

  focus() {
    this.els.canvas.focus();
  }

  // Where things go, in CSS pixels: x(seconds) on the plot.
  geometry() {
    const { timeline, span, marks } = this.model;
    const width = this.els.section.clientWidth;
    const top = AXIS_HEIGHT + (marks.length > 0 ? MARK_ROW_HEIGHT : 0);
    const gutter = Math.min(LABEL_WIDTH, Math.round(width / 6));
    const plot = Math.max(width - gutter - RIGHT_PAD, 1);
    const seconds = Math.max(spanSeconds(span), edgeSeconds(timeline, span, timeline.buckets));
    const heapTop = top + this.lanes.length * LANE_HEIGHT;
    return { width, height: heapTop + this.heapLanes.length * HEAP_LANE_HEIGHT, top, heapTop, gutter, plot, seconds,
             x: (s) => gutter + (s / seconds) * plot };
  }

  draw() {
    if (!this.model || !this.shown) return;
    this.lanes = this.lanesShown();
    const g = this.geometry();
    const canvas = this.els.canvas;
    if (canvas.style.width !== g.width + 'px' || canvas.style.height !== g.height + 'px') {
      sizeCanvas(canvas, g.width, g.height);
    }
    const ctx = this.ctx;
    const dpr = canvas.width / Math.max(g.width, 1);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, g.width, g.height);
    ctx.font = STRIP_FONT;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    this.drawLanes(g);
    this.drawHeapLanes(g);
    this.drawRange(g);
    this.drawAxis(g);
    this.drawMarks(g);
  }

  // Each lane's stripe, label and bars: the bars of processes to one
  // scale, those of threads to another (a process holds all its threads).
  drawLanes(g) {
    const ctx = this.ctx;
    const colors = this.palette.timeline;
    const { timeline, span } = this.model;
    const max = [0, 0]; // processes, threads
    for (const lane of this.lanes) for (const v of lane.sums) max[+lane.thread] = Math.max(max[+lane.thread], v);
    this.lanes.forEach((lane, i) => {
      const y = g.top + i * LANE_HEIGHT;
      if (i % 2 === 0) {
        ctx.fillStyle = colors.stripe;
        ctx.fillRect(0, y, g.width, LANE_HEIGHT);
      }
      const indent = lane.thread ? THREAD_INDENT : 0;
      ctx.fillStyle = this.palette.text;
      ctx.fillText(this.fit(lane.label, g.gutter - 2 * LABEL_PAD - indent), LABEL_PAD + indent, y + LANE_HEIGHT / 2);
      ctx.fillStyle = lane.thread ? colors.thread : colors.process;
      for (let b = 0; b < lane.sums.length; b++) {
        if (!(lane.sums[b] > 0)) continue;
        const x0 = Math.round(g.x(edgeSeconds(timeline, span, b)));
        const x1 = Math.round(g.x(edgeSeconds(timeline, span, b + 1)));
        const h = Math.max(1, Math.round(((LANE_HEIGHT - 2) * lane.sums[b]) / max[+lane.thread]));
        ctx.fillRect(x0, y + LANE_HEIGHT - 1 - h, Math.max(x1 - x0, 1), h);
      }
    });
  }

  // Each process's live heap as an area under a line, one scale for all;
  // nothing where it had not started or had ended.
  drawHeapLanes(g) {
    const ctx = this.ctx;
    const colors = this.palette.timeline;
    const { timeline, span } = this.model;
    const max = this.heapScale();
    this.heapLanes.forEach((lane, i) => {
      const y = g.heapTop + i * HEAP_LANE_HEIGHT;
      ctx.fillStyle = colors.stripe;
      ctx.fillRect(0, y, g.width, HEAP_LANE_HEIGHT);
      ctx.fillStyle = this.palette.text;
      ctx.fillText(this.fit(this.heapLabel(lane), g.gutter - 2 * LABEL_PAD), LABEL_PAD, y + HEAP_LANE_HEIGHT / 2);
      ctx.fillStyle = colors.heap;
      const n = Math.min(lane.steps.length, timeline.buckets);
      for (let b = 0; b < n; b++) {
        if (!(lane.steps[b] > 0)) continue;
        const x0 = Math.round(g.x(edgeSeconds(timeline, span, b)));
        const x1 = Math.round(g.x(edgeSeconds(timeline, span, b + 1)));
        const h = Math.max(1, Math.round(((HEAP_LANE_HEIGHT - 2) * lane.steps[b]) / max));
        ctx.fillRect(x0, y + HEAP_LANE_HEIGHT - 1 - h, Math.max(x1 - x0, 1), h);
      }
    });
  }

  // The top of the live heap's scale: the largest peak of any process.
  heapScale() {
    return Math.max(1, ...this.model.heap.map((l) => l.peak));
  }

  // "live heap 0-48.0 MiB", or in a recording of several processes "demo
  // (4242) heap 0-48.0 MiB".
  heapLabel(lane) {
    return (lane.named ? lane.label + ' heap ' : 'live heap ') + '0\u2013' + formatBytes(this.heapScale());
  }

  // Ticks every round number of seconds, labelled.
  drawAxis(g) {
    const ctx = this.ctx;
    const step = roundStep((g.seconds * TICK_SPACING) / g.plot);
    ctx.fillStyle = this.palette.text;
    ctx.strokeStyle = this.palette.text;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let k = 0; k * step <= g.seconds; k++) {
      const x = Math.round(g.x(k * step)) + 0.5;
      ctx.moveTo(x, AXIS_HEIGHT - 5);
      ctx.lineTo(x, AXIS_HEIGHT);
      if (x + 3 + this.width(formatSeconds(k * step, step)) <= g.width) {
        ctx.fillText(formatSeconds(k * step, step), x + 3, AXIS_HEIGHT / 2 - 1);
      }
    }
    ctx.stroke();
  }

  // A line across the lanes for each mark, its name beside it unless it
  // would cover the name before (hovering the line tells it then).
  drawMarks(g) {
    const ctx = this.ctx;
    const { span, marks } = this.model;
    ctx.strokeStyle = ctx.fillStyle = this.palette.timeline.mark;
    this.marksDrawn = [];
    let free = g.gutter; // where the next name may start
    ctx.beginPath();
    for (const mark of marks.filter((m) => m.atUs >= span.startUs)) {
      const x = Math.round(g.x((mark.atUs - span.startUs) / US_PER_S)) + 0.5;
      this.marksDrawn.push({ x, mark });
      ctx.moveTo(x, AXIS_HEIGHT);
      ctx.lineTo(x, g.height);
      const w = this.width(mark.name);
      const left = x + 3 + w <= g.width ? x + 3 : x - 3 - w;
      if (left >= free) {
        ctx.fillText(mark.name, left, AXIS_HEIGHT + MARK_ROW_HEIGHT / 2);
        free = left + w + 6;
      }
    }
    ctx.stroke();
  }

  // The range shown, or the one being dragged (as it will snap): the time
  // outside it shaded, its ends drawn.
  drawRange(g) {
    const range = this.drag ? snappedRange(this.model.timeline, this.model.span, this.drag.from, this.drag.to)
      : this.model.range;
    if (!range) return;
    const ctx = this.ctx;
    const colors = this.palette.timeline;
    const [x0, x1] = [g.x(range.from), g.x(range.until)];
    ctx.fillStyle = colors.outside;
    ctx.fillRect(g.gutter, AXIS_HEIGHT, Math.max(x0 - g.gutter, 0), g.height - AXIS_HEIGHT);
    ctx.fillRect(x1, AXIS_HEIGHT, Math.max(g.width - x1, 0), g.height - AXIS_HEIGHT);
    ctx.fillStyle = colors.range;
    ctx.fillRect(x0 - 1, AXIS_HEIGHT, 2, g.height - AXIS_HEIGHT);
    ctx.fillRect(x1 - 1, AXIS_HEIGHT, 2, g.height - AXIS_HEIGHT);
  }

  fit(text, width) {
    return fitText(this.ctx, text, width, (t) => this.width(t));
  }

  width(text) {
    let w = this.labelWidths.get(text);
    if (w === undefined) this.labelWidths.set(text, w = this.ctx.measureText(text).width);
    return w;
  }

  // The moment under a point of the page, within the axis.
  secondsAt(clientX) {
    const g = this.geometry();
    const x = clientX - this.els.canvas.getBoundingClientRect().left;
    return Math.min(Math.max(((x - g.gutter) / g.plot) * g.seconds, 0), g.seconds);
  }

  // A drag picks a range; a click (a drag shorter than CLICK_SLOP) clears it.
  bindPointer() {
    const canvas = this.els.canvas;
    canvas.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || !this.model) return;
      canvas.setPointerCapture(e.pointerId);
      const at = this.secondsAt(e.clientX);
      this.drag = { from: at, to: at, x: e.clientX };
      this.tooltip.hide();
    });
    canvas.addEventListener('pointermove', (e) => {
      if (!this.drag) {
        this.hover(e);
        return;
      }
      this.drag.to = this.secondsAt(e.clientX);
      this.draw();
    });
    canvas.addEventListener('pointerup', (e) => {
      const drag = this.drag;
      if (!drag) return;
      this.drag = null;
      this.draw();
      const { timeline, span } = this.model;
      const moved = Math.abs(e.clientX - drag.x) >= CLICK_SLOP;
      this.onPick(moved ? snappedRange(timeline, span, drag.from, this.secondsAt(e.clientX)) : null);
    });
    canvas.addEventListener('pointercancel', () => {
      this.drag = null;
      this.draw();
    });
    canvas.addEventListener('pointerleave', () => this.tooltip.hide());
  }

  hover(e) {
    const r = this.els.canvas.getBoundingClientRect();
    const hit = this.hitAt(e.clientX - r.left, e.clientY - r.top);
    if (hit) this.tooltip.show(hit.key, hit.content, e.clientX, e.clientY);
    else this.tooltip.hide();
  }

  // What a point of the canvas shows: { key, content } of a mark or of a
  // lane's bucket (Tooltip.show's), or null.
  hitAt(x, y) {
    const g = this.geometry();
    const { timeline, span } = this.model;
    const near = this.marksDrawn.find((m) => Math.abs(m.x - x) <= MARK_SLOP && y >= AXIS_HEIGHT);
    if (near) return this.markHit(near);
    const b = bucketAt(timeline, span, ((x - g.gutter) / g.plot) * g.seconds);
    if (x < g.gutter || b < 0 || b >= timeline.buckets) return null;
    if (y >= g.heapTop) {
      const heap = this.heapLanes[Math.floor((y - g.heapTop) / HEAP_LANE_HEIGHT)];
      return heap && Number.isFinite(heap.steps[b]) ? this.heapHit(heap, b) : null;
    }
    const lane = y >= g.top ? this.lanes[Math.floor((y - g.top) / LANE_HEIGHT)] : null;
    return lane ? this.bucketHit(lane, b) : null;
  }

  // A bucket's time and live heap (the peak of its moments, else the one
  // before it).
  heapHit(lane, b) {
    const { timeline, span } = this.model;
    const edge = (e) => formatSeconds(edgeSeconds(timeline, span, e), timeline.bucketUs / US_PER_S);
    const bytes = lane.steps[b];
    return {
      key: 'heap:' + lane.label + ':' + b,
      content: () => ({
        title: 'Live heap of ' + lane.label,
        rows: [['Time', edge(b) + ' to ' + edge(b + 1)],
               ['Live heap', formatBytes(bytes) + ' (' + formatCount(bytes) + ' bytes)']],
      }),
    };
  }

  markHit({ x, mark }) {
    const { timeline, span } = this.model;
    const at = formatSeconds((mark.atUs - span.startUs) / US_PER_S, timeline.bucketUs / US_PER_S / 10);
    return { key: 'mark:' + x, content: () => ({ title: mark.name, rows: [['At', at]] }) };
  }

  bucketHit(lane, b) {
    const { timeline, span, measure } = this.model;
    const edge = (e) => formatSeconds(edgeSeconds(timeline, span, e), timeline.bucketUs / US_PER_S);
    return {
      key: 'lane:' + lane.node + ':' + b,
      content: () => ({
        title: lane.label,
        rows: [['Time', edge(b) + ' to ' + edge(b + 1)], [capitalized(measure.label), measure.format(lane.sums[b])]],
      }),
    };
  }

  // The arrow keys move the range, Shift with them its end; Page Up and
  // Page Down by a tenth of the recording; Home and End to the ends.
  onKey(e) {
    const move = Object.hasOwn(RANGE_KEYS, e.key) ? RANGE_KEYS[e.key] : null;
    if (!move || !this.model || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    const { timeline, span, range } = this.model;
    this.onPick(movedRange(timeline, span, range, move(timeline.buckets), e.shiftKey));
  }
}

// The smallest of 1, 2 or 5 times a power of ten that is at least x.
function roundStep(x) {
  const power = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= x * (1 - 1e-9));
}
