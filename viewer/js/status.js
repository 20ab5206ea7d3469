// status.js - the page's words about what it shows: the summary of the
// open tab, the note under the toolbar (which heap a heap tab shows), the
// range of time shown, the search (it marks the matches in the flame graph
// and says their share), the colour legend, and the message that replaces
// an empty or unreadable profile. Text only, set with textContent.

const $ = (id) => document.getElementById(id);

function summaryText(app) {
  const { profile, tree, measure } = app;
  const total = tree.total[ROOT];
  const parts = [];
  if (profile.differential) {
    const before = tree.before[ROOT];
    const named = measure.label === 'after' ? '' : measure.label + ': ';
    parts.push(named + sideText(profile, measure, DIFF_AFTER, total), sideText(profile, measure, DIFF_BEFORE, before));
    if (!(profile.sides && profile.sides.shares)) parts.push('change ' + formatChange(before, total, measure.format));
    parts.push(sidesScaleText(profile.sides));
  } else {
    parts.push(measure.amount(total));
    if (measure.time) parts.push(measure.time(total));
  }
  const procs = profile.kind === 'js_heap' || profile.sides ? 0 : profile.processes.length; // a JS heap's are its snapshots; a diff's sides say theirs
  if (procs > 0) parts.push(procs + (procs === 1 ? ' process' : ' processes'));
  const lost = profile.processes.reduce((sum, p) => sum + p.lost, 0);
  if (lost > 0) parts.push(formatCount(lost) + ' lost');
  const kept = profile.processes.filter((p) => p.kept_from_us !== undefined);
  if (kept.length > 0) {
    const from = Math.max(...kept.map((p) => p.kept_from_us)) / US_PER_S;
    parts.push('older parts removed by --max-size: kept from ' + from.toFixed(1) + ' s');
  }
  return parts.join(' \u00b7 ');
}

function showTabNote(app) {
  const el = $('tab-note');
  const text = tabNote(app.profile, app.measure);
  el.textContent = text;
  el.title = text;
  el.hidden = text === '';
}

// Above the timeline: "0.50 s to 1.50 s of 4.21 s: 997 samples" (in the
// live heap's tab "...: live heap +8.0 MiB (+200.0%)"), or how to pick a
// range.
function rangeWords(app) {
  const { profile, tree, measure } = app;
  const step = profile.timeline.bucketUs / US_PER_S;
  const whole = formatSeconds(spanSeconds(app.report.span), step);
  const growth = profile.kind === 'heap';
  if (!profile.range) {
    return 'Timeline, ' + whole + ': drag across it to ' +
      (growth ? 'see what grew in the live heap between two moments' : 'show a range of time only');
  }
  const amount = growth ? 'live heap ' + formatChange(tree.before[ROOT], tree.total[ROOT], measure.format)
    : measure.amount(tree.total[ROOT]);
  return formatSeconds(profile.range.from, step) + ' to ' + formatSeconds(profile.range.until, step) + ' of ' +
    whole + ': ' + amount;
}

function emptyText(app) {
  const { profile, tree, measure } = app;
  if (profile.range) {
    return 'This range of time holds no ' + measure.label + ': Clear range (or Esc) shows the whole recording.';
  }
  if (profile.differential && tree.before[ROOT] > 0) {
    return 'Nothing is left after: all ' + measure.format(tree.before[ROOT]) +
           ' was only in before (search still finds those frames).';
  }
  return 'This profile holds no ' + measure.label + '.';
}

function framesText(n) {
  return formatCount(n) + (n === 1 ? ' frame' : ' frames');
}

function showSearch(app, text) {
  const { tree, profile, view, measure } = app;
  const out = $('match');
  const matcher = parseQuery(text);
  app.matcher = matcher;
  $('search').classList.toggle('invalid', Boolean(matcher && matcher.error));
  if ($('search').value !== text && document.activeElement !== $('search')) $('search').value = text;
  if (!matcher || matcher.error) {
    view.setMatches(null);
    out.hidden = !matcher;
    if (matcher) out.textContent = out.title = 'Bad regex: ' + matcher.error;
    return;
  }
  const found = findMatches(tree, profile, matcher);
  const total = tree.total[ROOT];
  view.setMatches(found.nodeMatch);
  out.hidden = false;
  if (profile.differential) {
    out.textContent = 'Matched ' + formatPercent(found.matchedTotal, total) + ' of after (' +
      measure.format(found.matchedTotal) + ' of ' + measure.format(total) + '; before ' +
      measure.format(found.matchedBefore) + ' of ' + measure.format(tree.before[ROOT]) + '), ' +
      framesText(found.matchedNodes) + ', ' + formatCount(found.goneNodes) + ' only in before';
  } else {
    out.textContent = 'Matched ' + formatPercent(found.matchedTotal, total) + ' of total (' +
      measure.format(found.matchedTotal) + ' of ' + measure.amount(total) + ', ' +
      framesText(found.matchedNodes) + ')';
  }
  out.title = out.textContent;
}

// items: [{ label, color }]
function renderLegend(el, items) {
  el.replaceChildren(...items.map(({ label, color }) => {
    const item = document.createElement('span');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.backgroundColor = color;
    item.append(swatch, label);
    return item;
  }));
}

function showMessage(text, isError) {
  const el = $('message');
  el.textContent = text;
  el.classList.toggle('error', isError);
  el.hidden = false;
}

function hideMessage() {
  $('message').hidden = true;
}
