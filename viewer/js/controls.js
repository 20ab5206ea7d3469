// controls.js - the toolbar: which view shows (flame graph, sandwich,
// table), flame or icicle, colour by module type or by function name,
// frames by name or left heavy, recursion merged or not, and reset zoom. Shows the state it is given and reports the user's picks;
// never changes the state itself.

const VIEW_LABELS = [['flame', 'Flame graph'], ['sandwich', 'Sandwich'], ['table', 'Table']];

class Controls {
  // els: { views, icicle, color, order, recursion, reset }; onChange(change)
  // gets a state change.
  constructor(els, onChange) {
    this.els = els;
    this.viewButtons = VIEW_LABELS.map(([key, label]) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.dataset.view = key;
      b.addEventListener('click', () => onChange({ view: key }));
      return b;
    });
    els.views.replaceChildren(...this.viewButtons);
    els.icicle.addEventListener('click', () => onChange({ icicle: !isPressed(els.icicle) }));
    els.color.addEventListener('change', () => onChange({ color: els.color.value }));
    els.order.addEventListener('click', () => onChange({ order: isPressed(els.order) ? 'name' : 'heavy' }));
    els.recursion.addEventListener('click', () => onChange({ recursion: isPressed(els.recursion) ? 'all' : 'merged' }));
    els.reset.addEventListener('click', () => onChange({ zoom: ROOT }));
  }

  // differential: the colour choice does not apply (colours are changes).
  show(state, differential) {
    for (const b of this.viewButtons) b.setAttribute('aria-pressed', String(b.dataset.view === state.view));
    this.els.icicle.setAttribute('aria-pressed', String(state.icicle));
    this.els.order.setAttribute('aria-pressed', String(state.order === 'heavy'));
    this.els.recursion.setAttribute('aria-pressed', String(state.recursion === 'merged'));
    this.els.icicle.hidden = state.view !== 'flame';
    this.els.reset.hidden = state.view !== 'flame';
    this.els.order.hidden = state.view === 'table'; // the table's numbers are the same either way
    this.els.recursion.hidden = state.view === 'table';
    this.els.color.value = state.color;
    this.els.color.disabled = differential;
  }
}
