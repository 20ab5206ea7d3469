// crumbs.js - the breadcrumbs: the path from the root to the zoomed node,
// each ancestor a button that zooms to it; a long path keeps its ends.
// Names are set with textContent only.

const CRUMBS_KEPT_AT_END = 6;

function renderCrumbs(nav, tree, profile, zoom, onPick) {
  const path = pathFromRoot(tree, zoom);
  const shown = path.length > CRUMBS_KEPT_AT_END + 2
    ? [path[0], -1, ...path.slice(-CRUMBS_KEPT_AT_END)]
    : path;
  const items = [];
  for (const node of shown) {
    if (items.length > 0) items.push(crumbText('sep', '\u203a'));
    if (node === -1) items.push(crumbText('sep', '\u2026'));
    else items.push(crumbButton(nodeLabel(tree, profile, node), node === zoom, () => onPick(node)));
  }
  nav.replaceChildren(...items);
}

function crumbText(className, text) {
  const span = document.createElement('span');
  span.className = className;
  span.textContent = text;
  return span;
}

function crumbButton(label, current, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.title = label;
  if (current) b.setAttribute('aria-current', 'true');
  else b.addEventListener('click', onClick);
  return b;
}
