// help.js - the keyboard shortcuts and the overlay that lists them (opened
// with ? or the Help button, closed with Esc, a click outside or Close).
// The list below is the one place the keys are named: the overlay shows it,
// keys.js acts on it, and the timeline strip (timeline_view.js) on the keys
// of a range of time.

const SHORTCUTS = [
  ['/', 'search (text, or /regex/ with flags)'],
  ['Esc', 'close this help, leave the search box, reset the zoom (letting the selected frame go), or else show the whole recording again'],
  ['0', 'reset the zoom'],
  ['i', 'flame (roots at the bottom) or icicle (roots at the top)'],
  ['f', 'the flame graph'],
  ['s', 'the sandwich (callers and callees) of the function under the pointer'],
  ['t', 'the table of functions'],
  ['y', 'copy the name of the function under the pointer (or of the frame zoomed to)'],
  ['c', 'colour by module type or by function name'],
  ['h', 'frames by name or left heavy (the heaviest first under each caller)'],
  ['m', 'merge recursion: a function that calls itself shows as one frame'],
  ['\u2191 \u2193', 'select a frame of the flame graph, then its caller or its heaviest callee (\u2193 goes toward the roots in a flame graph, \u2191 in an icicle)'],
  ['\u2190 \u2192', 'the selected frame: the frame beside it under the same caller'],
  ['Enter', 'zoom to the selected frame (Esc lets it go)'],
  ['j', 'JavaScript first (native callers collapsed) or all frames, in a Node.js profile'],
  ['\u2190 \u2192', 'on the tabs (click one, or reach it with Tab): the previous or the next profile (Home, End: the first, the last)'],
  ['r', 'the timeline (a CPU tab, or what grew in the live heap): pick a range of time with the keys below'],
  ['\u2190 \u2192', 'on the timeline: move the range of time by one slice (Page Up, Page Down: a tenth)'],
  ['Shift+\u2190 \u2192', 'on the timeline: narrow or widen the range'],
  ['Home End', 'on the timeline: move the range to the start or the end'],
  ['?', 'this help'],
];

class HelpOverlay {
  constructor(el, openButton) {
    this.el = el;
    const box = document.createElement('div');
    box.className = 'help-box';
    const title = document.createElement('h2');
    title.id = 'help-title';
    title.textContent = 'Keyboard shortcuts';
    const list = document.createElement('dl');
    for (const [key, what] of SHORTCUTS) {
      const dt = document.createElement('dt');
      const kbd = document.createElement('kbd');
      kbd.textContent = key;
      dt.append(kbd);
      const dd = document.createElement('dd');
      dd.textContent = what;
      list.append(dt, dd);
    }
    const mouse = document.createElement('p');
    mouse.textContent = 'Click a frame to zoom to it; hover for its numbers. ' +
      'Ctrl+wheel (or a pinch) zooms the flame graph across around the pointer; a sideways wheel then pans. ' +
      'In the sandwich, click a frame to centre on its function. ' +
      'Drag across the timeline to show that range of time only; click it to show the whole recording.';
    this.close = document.createElement('button');
    this.close.type = 'button';
    this.close.textContent = 'Close';
    this.close.addEventListener('click', () => this.hide());
    box.append(title, list, mouse, this.close);
    el.replaceChildren(box);
    el.setAttribute('aria-labelledby', title.id);
    el.addEventListener('click', (e) => {
      if (e.target === el) this.hide();
    });
    openButton.addEventListener('click', () => this.show());
  }

  get open() {
    return !this.el.hidden;
  }

  show() {
    this.el.hidden = false;
    this.close.focus();
  }

  hide() {
    this.el.hidden = true;
  }
}
