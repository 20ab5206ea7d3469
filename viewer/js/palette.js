// palette.js - the colours of the canvas. Palette is the page's theme
// (light or dark, following the OS): text, match, hover and merged-block
// colours, the timeline strip's, and one hue family per kind of code (enum
// stoke_frame_kind in model/profile.h; kinds.js names them). KindColoring
// colours a tab's frames by kind, varied a little per function name so
// neighbours stay apart; NameColoring by a hash of the name alone (a
// function keeps its colour everywhere). Never draws a frame itself.

// Indexed by enum stoke_frame_kind.
const KIND_STYLES = [
  { hue: 14, hueSpread: 24, sat: 82, light: 60 },  // program: red to orange
  { hue: 40, hueSpread: 16, sat: 78, light: 54 },  // library: amber
  { hue: 192, hueSpread: 22, sat: 55, light: 62 }, // libc: cyan
  { hue: 100, hueSpread: 30, sat: 50, light: 56 }, // JIT: yellow-green
  { hue: 0, hueSpread: 0, sat: 0, light: 72 },     // unknown: grey
  { hue: 255, hueSpread: 10, sat: 32, light: 60 }, // process: slate violet
  { hue: 300, hueSpread: 10, sat: 40, light: 76 }, // thread: pale orchid
  { hue: 140, hueSpread: 20, sat: 52, light: 56 }, // JavaScript app: green
  { hue: 216, hueSpread: 16, sat: 72, light: 68 }, // dependencies: blue
  { hue: 328, hueSpread: 14, sat: 55, light: 70 }, // node core: rose
  { hue: 54, hueSpread: 10, sat: 80, light: 58 },  // V8 / runtime: yellow
  { hue: 26, hueSpread: 8, sat: 38, light: 46 },   // GC: brown
  { hue: 205, hueSpread: 6, sat: 22, light: 82 },  // idle: pale grey-blue
  { hue: 172, hueSpread: 36, sat: 46, light: 60 }, // JS heap constructor group: teal
];
const COLLAPSED_STYLE = { hue: 40, hueSpread: 0, sat: 8, light: 86 }; // a neutral, warm pale grey
const ROOT_STYLE = { hue: 220, hueSpread: 0, sat: 8, light: 80 };

function kindStyle(kind) {
  if (kind === KIND_COLLAPSED) return COLLAPSED_STYLE;
  return KIND_STYLES[kind] || KIND_STYLES[KIND_UNKNOWN];
}

class Palette {
  constructor() {
    this.darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
    this.generation = 0; // bumped when the theme changes: colour caches compare it
    this.mergedPattern = null;
    this.onChange = null;
    this.darkQuery.addEventListener('change', () => {
      this.generation++;
      this.mergedPattern = null;
      if (this.onChange) this.onChange();
    });
  }

  get dark() {
    return this.darkQuery.matches;
  }

  get text() {
    return this.dark ? '#f1f2f4' : '#15171a';
  }

  get match() {
    return this.dark ? 'hsl(300, 70%, 48%)' : 'hsl(300, 90%, 62%)';
  }

  get hover() {
    return this.dark ? '#ffffff' : '#000000';
  }

  // Hatched grey: a block of merged sub-pixel frames, unlike any one frame.
  mergedFill(ctx) {
    if (!this.mergedPattern) {
      const tile = document.createElement('canvas');
      tile.width = tile.height = 6;
      const t = tile.getContext('2d');
      t.fillStyle = this.dark ? 'hsl(220, 6%, 30%)' : 'hsl(220, 6%, 82%)';
      t.fillRect(0, 0, 6, 6);
      t.strokeStyle = this.dark ? 'hsl(220, 6%, 48%)' : 'hsl(220, 6%, 62%)';
      t.beginPath();
      t.moveTo(-1, 7);
      t.lineTo(7, -1);
      t.stroke();
      this.mergedPattern = ctx.createPattern(tile, 'repeat');
    }
    return this.mergedPattern;
  }

  // The timeline strip: samples of a process and of a thread, the live
  // heap, the lanes' stripes, the marks, the range picked and the time
  // outside it.
  get timeline() {
    return this.dark
      ? { process: 'hsl(14, 62%, 58%)', thread: 'hsl(292, 32%, 66%)', heap: 'hsl(200, 60%, 58%)',
          stripe: 'hsl(220, 8%, 19%)', mark: 'hsl(300, 70%, 70%)', range: 'hsla(300, 70%, 60%, 0.9)',
          outside: 'rgba(22, 24, 28, 0.62)' }
      : { process: 'hsl(14, 78%, 54%)', thread: 'hsl(292, 30%, 52%)', heap: 'hsl(200, 70%, 42%)',
          stripe: 'hsl(220, 14%, 96%)', mark: 'hsl(300, 90%, 38%)', range: 'hsla(300, 90%, 40%, 0.9)',
          outside: 'rgba(255, 255, 255, 0.66)' };
  }

  rootColor() {
    return this.color(ROOT_STYLE, 0.5);
  }

  kindColor(kind) {
    return this.color(kindStyle(kind), 0.5);
  }

  // v in [0, 1) picks a shade inside the kind's family.
  color(style, v) {
    const hue = style.hue + style.hueSpread * (v - 0.5);
    const light = style.light + 10 * (((v * 7) % 1) - 0.5);
    if (this.dark) {
      // Darker, and never so light that the light label text fades.
      const darkLight = Math.min(light - 20, 44);
      return 'hsl(' + hue.toFixed(1) + ',' + style.sat * 0.75 + '%,' + darkLight.toFixed(1) + '%)';
    }
    return 'hsl(' + hue.toFixed(1) + ',' + style.sat + '%,' + light.toFixed(1) + '%)';
  }
}

// Frames by kind of code, shaded by a hash of the function name.
class KindColoring {
  // shape: the tab's tree shape (which frames the tab uses).
  constructor(palette, profile, shape) {
    this.palette = palette;
    this.profile = profile;
    this.shape = shape;
    this.frameColors = new Array(profile.frameKind.length);
    this.generation = palette.generation;
  }

  nodeColor(tree, node) {
    if (tree.frame[node] < 0) return this.palette.rootColor();
    if (this.generation !== this.palette.generation) {
      this.frameColors.fill(undefined);
      this.generation = this.palette.generation;
    }
    const frame = tree.frame[node];
    let c = this.frameColors[frame];
    if (c === undefined) {
      const p = this.profile;
      const style = kindStyle(p.frameKind[frame]);
      c = this.palette.color(style, nameHash(p.strings.at(p.frameName[frame])));
      this.frameColors[frame] = c;
    }
    return c;
  }

  // [{ label, color }] for the kinds of the tab's frames (the frame table
  // is shared by all tabs).
  legend() {
    const present = new Uint8Array(KIND_SLOTS);
    const { frameKind } = this.profile;
    for (let i = 1; i < this.shape.n; i++) present[frameKind[this.shape.frame[i]]] = 1;
    return LEGEND_KINDS.filter((k) => present[k])
      .map((k) => ({ label: tabKindInfo(this.profile, k).label, color: this.palette.kindColor(k) }));
  }
}

const NAME_STYLE = { hue: 28, hueSpread: 56, sat: 80, light: 58 }; // red to yellow

// Frames by a hash of the function name, in warm colours.
class NameColoring {
  constructor(palette, profile) {
    this.palette = palette;
    this.profile = profile;
    this.stringColors = new Map();
    this.generation = palette.generation;
  }

  nodeColor(tree, node) {
    const frame = tree.frame[node];
    if (frame < 0) return this.palette.rootColor();
    if (this.generation !== this.palette.generation) {
      this.stringColors.clear();
      this.generation = this.palette.generation;
    }
    const name = this.profile.frameName[frame];
    let c = this.stringColors.get(name);
    if (c === undefined) {
      c = this.palette.color(NAME_STYLE, nameHash(this.profile.strings.at(name)));
      this.stringColors.set(name, c);
    }
    return c;
  }

  legend() {
    return [{ label: 'by function name', color: this.palette.color(NAME_STYLE, 0.5) }];
  }
}

// FNV-1a over the UTF-16 code units, mapped to [0, 1).
function nameHash(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 4294967296;
}
