// keys.js - the keyboard shortcuts listed in help.js, acting on the page
// state and on the flame graph's selected frame (selection.js). A key a
// focused control acted on is its own (the tab bar's and the timeline
// strip's arrow keys). Keys typed into a field (the search box, a select)
// are the field's, except Esc, which leaves it.

function bindKeys(app, help) {
  const search = document.getElementById('search');
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
    if (e.key === 'Escape') {
      if (help.open) help.hide();
      else if (typing) e.target.blur();
      else if (app.state.zoom === ROOT && app.state.range && app.strip.shown) app.setState({ range: null });
      else {
        app.setState({ zoom: ROOT });
        clearSelection(app);
      }
      return;
    }
    if (typing || help.open && e.key !== '?') return;
    const action = keyAction(app, help, e.key, search) || selectionKeyAction(app, e);
    if (action) {
      e.preventDefault();
      action();
    }
  });
}

function keyAction(app, help, key, search) {
  switch (key) {
    case '/': return () => search.focus();
    case '0': return () => app.setState({ zoom: ROOT });
    case 'i': return () => app.setState({ icicle: !app.state.icicle });
    case 'f': return () => app.setState({ view: 'flame' });
    case 't': return () => app.setState({ view: 'table' });
    case 's': return () => app.openSandwichAtPointer();
    case 'y': return () => app.copyNameAtPointer();
    case 'c': return () => app.setState({ color: app.state.color === 'kind' ? 'name' : 'kind' });
    case 'h': return () => app.setState({ order: app.state.order === 'heavy' ? 'name' : 'heavy' });
    case 'm': return () => app.setState({ recursion: app.state.recursion === 'merged' ? 'all' : 'merged' });
    case 'r': return app.strip.shown ? () => app.strip.focus() : null;
    case 'j': return app.jsBar.shown ? () => app.setState({ frames: app.state.frames === 'all' ? 'js' : 'all' }) : null;
    case '?': return () => (help.open ? help.hide() : help.show());
    default: return null;
  }
}
