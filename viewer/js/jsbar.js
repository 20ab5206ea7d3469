// jsbar.js - the bar of a tab that holds JavaScript (kinds.js:
// hasJavaScript): a filter button for each group of kinds present (pressed:
// shown; hidden kinds leave every stack, see transform.js), "Split by V8
// tier" where frames have tiers, "All frames" (the native frames below the
// first JavaScript frame of each stack shown instead of collapsed), and a
// note while a filter hides something. Hidden on other tabs. Shows the
// state it is given and reports the user's picks; never changes the state
// itself. Builds its controls with textContent only.

class JsBar {
  // els: { bar, filters, split, frames, note }; onChange(change) gets a state change.
  constructor(els, palette, onChange) {
    this.els = els;
    this.palette = palette;
    this.onChange = onChange;
    this.buttons = [];
    this.hidden = '';
    els.split.addEventListener('click', () => onChange({ tiers: isPressed(els.split) ? 'merged' : 'split' }));
    els.frames.addEventListener('click', () => onChange({ frames: isPressed(els.frames) ? 'js' : 'all' }));
  }

  get shown() {
    return !this.els.bar.hidden;
  }

  // present: the tab's kinds (flags by kind); tiered: its frames have tiers.
  show(state, present, tiered) {
    this.els.bar.hidden = !hasJavaScript(present);
    if (!this.shown) return;
    const groups = presentGroups(present);
    if (groups.map((g) => g.key).join() !== this.buttons.map((b) => b.dataset.group).join()) {
      this.buttons = groups.map((g) => this.filterButton(g));
      this.els.filters.replaceChildren(...this.buttons);
    }
    this.hidden = state.hide;
    const hidden = state.hide.split(',');
    groups.forEach((g, i) => {
      this.buttons[i].setAttribute('aria-pressed', String(!hidden.includes(g.key)));
      this.buttons[i].firstChild.style.backgroundColor = this.palette.kindColor(g.kinds[0]);
    });
    this.els.split.hidden = !tiered;
    this.els.split.setAttribute('aria-pressed', String(state.tiers === 'split'));
    this.els.frames.setAttribute('aria-pressed', String(state.frames === 'all'));
    const off = groups.filter((g) => hidden.includes(g.key)).map((g) => g.label);
    this.els.note.hidden = off.length === 0;
    this.els.note.textContent = 'Filter on: ' + off.join(', ') + (off.length === 1 ? ' is' : ' are') + ' hidden';
  }

  filterButton(group) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.group = group.key;
    b.title = 'Show or hide ' + group.label + ' frames (a hidden frame\'s time goes to its caller)';
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    b.append(swatch, group.label);
    b.addEventListener('click', () => {
      const keys = this.hidden.split(',');
      const hide = isPressed(b) ? [...keys, group.key] : keys.filter((k) => k !== group.key);
      this.onChange({ hide: canonicalHidden(hide.join(',')) });
    });
    return b;
  }
}

function isPressed(button) {
  return button.getAttribute('aria-pressed') === 'true';
}
