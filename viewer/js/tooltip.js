// tooltip.js - the box that follows the pointer over the flame graph: what a
// frame (or a block of merged narrow frames) is and how much it weighs.
// Builds its content with textContent only; a name is never parsed as HTML.

const TOOLTIP_GAP = 14;

class Tooltip {
  constructor(el) {
    this.el = el;
    this.shownKey = null;
  }

  // content: { title, rows: [[label, value], ...] }; key: identity of content.
  show(key, makeContent, clientX, clientY) {
    if (key !== this.shownKey) {
      this.fill(makeContent());
      this.shownKey = key;
    }
    this.el.hidden = false;
    this.place(clientX, clientY);
  }

  hide() {
    this.el.hidden = true;
    this.shownKey = null;
  }

  fill(content) {
    const title = document.createElement('div');
    title.className = 'name';
    title.textContent = content.title;
    const list = document.createElement('dl');
    for (const [label, value] of content.rows) {
      const dt = document.createElement('dt');
      dt.textContent = label;
      const dd = document.createElement('dd');
      dd.textContent = value;
      list.append(dt, dd);
    }
    this.el.replaceChildren(title, list);
  }

  place(clientX, clientY) {
    const w = this.el.offsetWidth;
    const h = this.el.offsetHeight;
    let x = clientX + TOOLTIP_GAP;
    let y = clientY + TOOLTIP_GAP;
    if (x + w > window.innerWidth - 4) x = Math.max(4, clientX - TOOLTIP_GAP - w);
    if (y + h > window.innerHeight - 4) y = Math.max(4, clientY - TOOLTIP_GAP - h);
    this.el.style.left = x + 'px';
    this.el.style.top = y + 'px';
  }
}

// What the tooltip says about a hit of FlameView.hitAt, in the measure shown.
function describeHit(hit, tree, profile, measure) {
  const merged = hit.count > 1;
  const parentTotal = merged ? tree.total[hit.node] : tree.total[tree.parent[hit.node]];
  const rows = [];
  let title;
  if (merged) {
    title = hit.count + ' ' + tabWords(profile).rows.many + ', each narrower than a pixel';
  } else {
    title = nodeLabel(tree, profile, hit.node);
    if (tree.frame[hit.node] >= 0) {
      rows.push(...frameFacts(profile, tree.frame[hit.node]), ...tierFacts(tree, profile, hit.node));
    }
  }
  if (tree.before) {
    const before = merged ? runBefore(tree, hit.first, hit.last) : tree.before[hit.node];
    rows.push(...diffFacts(tree, measure, before, hit.total, merged ? null : hit.node));
  } else {
    rows.push(...weightFacts(measure, hit.total, merged ? null : tree.self[hit.node]));
  }
  rows.push(['Of total', formatPercent(hit.total, tree.whole)]);
  if (hit.node !== ROOT || merged) rows.push(['Of parent', formatPercent(hit.total, parentTotal)]);
  return { title, rows };
}

// What the frame is: its module and kind, source, inlining; for a
// JavaScript frame its kind in words, full file path and line:column; for
// a frame of a JavaScript heap its kind in words and where its
// constructor is defined; for a collapsed prefix the frames it holds.
function frameFacts(profile, frame) {
  const kind = profile.frameKind[frame];
  if (kind === KIND_COLLAPSED) return collapsedFacts(profile, profile.collapsed.get(frame));
  if (profile.kind === 'js_heap') return jsHeapFacts(profile, frame);
  const facts = [];
  const module = profile.strings.at(profile.frameModule[frame]);
  const file = profile.strings.at(profile.frameFile[frame]);
  const line = profile.frameLine[frame];
  if (isJsKind(kind)) {
    facts.push(['Kind', kindInfo(kind).words]);
    if (file) facts.push(['File', file]);
    if (line > 0) facts.push(['Line', line + (profile.frameColumn[frame] > 0 ? ':' + profile.frameColumn[frame] : '')]);
  } else {
    facts.push(['Module', (module || '\u2014') + ' (' + kindInfo(kind).label + ')']);
    if (file) facts.push(['Defined at', line > 0 ? file + ':' + line : file]);
  }
  if (profile.frameInlined[frame]) facts.push(['Inlined', 'yes, into its caller']);
  return facts;
}

function jsHeapFacts(profile, frame) {
  const place = jsHeapPlace(profile, frame);
  return [['Kind', tabKindInfo(profile, profile.frameKind[frame]).words], ...(place ? [['Defined at', place]] : [])];
}

function collapsedFacts(profile, prefix) {
  const name = (frame) => profile.strings.at(profile.frameName[frame]);
  return [
    ['Kind', kindInfo(KIND_COLLAPSED).words],
    ['Frames', prefix.count + ', from ' + name(prefix.first) + ' to ' + name(prefix.last)],
    ['All frames', 'press j, or the All frames button, to show them'],
  ];
}

// The V8 tier of a node: its frame's (tiers split), or the share of its
// total each tier ran (tiers merged).
function tierFacts(tree, profile, node) {
  const code = profile.frameTier[tree.frame[node]];
  if (code !== 0) return [['Tier', tierText(code)]];
  const mix = tree.tiers ? tierMixText(tree.tiers, node * NTIERS) : '';
  return mix ? [['Tiers', mix]] : [];
}

// The value of a node, or of a merged block (self null): in a JavaScript
// heap what it retains and its shallow value, else its total and self.
function weightFacts(measure, total, self) {
  if (measure.retained) {
    const { columns, format } = measure;
    return [[columns.total, format(total)], ...(self === null ? [] : [[columns.self, format(self)]])];
  }
  const facts = [[capitalized(measure.label),
                  measure.format(total) + (self > 0 ? ' (self ' + measure.format(self) + ')' : '')]];
  if (measure.time) facts.push(['Time', measure.time(total)]);
  return facts;
}
