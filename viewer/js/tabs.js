// tabs.js - the tab bar of a report with several profiles (a CPU profile and
// heap snapshots of one run, a diff, ...): one button per tab in a tablist.
// Left/Right, Home and End move between tabs and open the one reached; only
// the open tab is in the Tab order, as a tablist should be. Shown only for
// two tabs or more. Names are set with textContent only.

class TabBar {
  // onPick(index) is called when the user opens another tab.
  constructor(el, panel, names, onPick) {
    this.el = el;
    this.panel = panel;
    this.buttons = names.map((name, i) => this.button(name, i, onPick));
    el.replaceChildren(...this.buttons);
    el.hidden = names.length < 2;
    if (!el.hidden) panel.setAttribute('role', 'tabpanel');
    el.addEventListener('keydown', (e) => this.onKey(e, onPick));
  }

  button(name, index, onPick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.id = 'tab-' + index;
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-controls', this.panel.id);
    b.textContent = name;
    b.title = name;
    b.addEventListener('click', () => onPick(index));
    return b;
  }

  select(index) {
    this.buttons.forEach((b, i) => {
      b.setAttribute('aria-selected', String(i === index));
      b.tabIndex = i === index ? 0 : -1;
    });
    if (!this.el.hidden) this.panel.setAttribute('aria-labelledby', this.buttons[index].id);
  }

  onKey(e, onPick) {
    const at = this.buttons.indexOf(document.activeElement);
    if (at < 0) return;
    const n = this.buttons.length;
    const to = { ArrowLeft: (at + n - 1) % n, ArrowRight: (at + 1) % n, Home: 0, End: n - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.buttons[to].focus();
    onPick(to);
  }
}
