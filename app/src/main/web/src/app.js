// The page of `sluice serve`: hash routes over the read-only catalog API (/api/v1/…).
//   #/                 dataset search
//   #/dataset/<name>[?before=<partition>]   graph (upstream and downstream, click to move along it),
//                      one page of partitions and their quality results (newest first; 'older
//                      partitions' pages on), freshness
//   #/run/<id>         a run: status, times, steps with rows and inputs; a run of another tool:
//                      state, parent, nominal time, error message, its run facets
//   #/backfill/<id>    a backfill: range, progress, each partition
// A bearer token given once as ?token=… is kept for the tab (sessionStorage) and sent to the API;
// once kept, it is taken out of the address (history.replaceState: the address bar and the tab's
// back/forward entry; other parameters and the route stay), so it is not left on screen, in a
// bookmark or in an address copied from the bar. The browser's own history list may still hold the
// address first opened: docs/serve.md says so.
'use strict';

const view = document.getElementById('view');
const params = new URLSearchParams(location.search);
if (params.has('token')) {
  if (params.get('token')) sessionStorage.setItem('sluice.token', params.get('token'));
  const kept = location.search.slice(1).split('&').filter(p => p && !new URLSearchParams(p).has('token')); // the others as written
  history.replaceState(history.state, '', location.pathname + (kept.length ? '?' + kept.join('&') : '') + location.hash);
}

async function api(path) {
  const headers = {};
  const token = sessionStorage.getItem('sluice.token');
  if (token) headers.Authorization = 'Bearer ' + token;
  const r = await fetch('/api/v1/' + path, { headers });
  const body = await r.json();
  if (!r.ok) throw new Error(body.error + (body.try ? ' (try ' + body.try + ')' : ''));
  return body;
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(c ?? ''));
  return e;
}

function table(headers, rows) {
  return el('table', {}, el('thead', {}, el('tr', {}, ...headers.map(h => el('th', {}, h)))),
    el('tbody', {}, ...rows.map(r => el('tr', {}, ...r.map(c => el('td', c && c.cls ? { class: c.cls } : {}, c && c.node ? c.node : (c && c.cls ? c.text : c)))))));
}

const link = (hash, text) => el('a', { href: hash }, text);
const status = (s, prefix = 'status') => ({ cls: prefix + '-' + s, text: s });

async function search(q) {
  view.replaceChildren(el('h1', {}, 'Datasets'), el('p', {}, 'loading…'));
  const r = await api('datasets?q=' + encodeURIComponent(q));
  const list = el('ul', { class: 'results', id: 'results' },
    ...r.datasets.map(d => el('li', {}, link('#/dataset/' + encodeURIComponent(d), d))));
  view.replaceChildren(el('h1', {}, q ? `Datasets matching “${q}”` : 'Datasets'), r.datasets.length ? list : el('p', {}, 'none'));
}

function drawGraph(container, d) {
  const nodes = new Map([[d.name, { data: { id: d.name, label: d.name, focus: 1 } }]]);
  const edges = [];
  for (const e of [...d.upstream, ...d.downstream]) {
    for (const n of [e.from, e.to]) if (!nodes.has(n)) nodes.set(n, { data: { id: n, label: n } });
    edges.push({ data: { id: e.from + '->' + e.to, source: e.from, target: e.to, label: e.job } });
  }
  const cy = cytoscape({
    container, elements: [...nodes.values(), ...edges], wheelSensitivity: 0.3,
    layout: { name: 'breadthfirst', directed: true, spacingFactor: 1.1 },
    style: [
      { selector: 'node', style: { label: 'data(label)', 'font-size': 10, 'background-color': '#5b8db8', 'text-valign': 'bottom' } },
      { selector: 'node[focus]', style: { 'background-color': '#e3a21a' } },
      { selector: 'edge', style: { 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', width: 1.5 } },
    ],
  });
  cy.on('tap', 'node', ev => { location.hash = '#/dataset/' + encodeURIComponent(ev.target.id()); });
  window.sluiceGraph = cy; // for tests and the console
}

async function dataset(name, before) {
  const d = await api('datasets/' + encodeURIComponent(name) + (before ? '?before=' + encodeURIComponent(before) : ''));
  const graph = el('div', { id: 'graph' });
  const near = (edges, side) => [...new Set(edges.filter(e => (side === 'up' ? e.to : e.from) === d.name).map(e => side === 'up' ? e.from : e.to))];
  const links = (names, id) => el('span', { id }, ...names.flatMap((n, i) => [i ? ', ' : '', link('#/dataset/' + encodeURIComponent(n), n)]));
  const parts = [el('h1', {}, d.name), el('h2', {}, 'Lineage (upstream and downstream; click a dataset to move to it)'), graph,
    el('p', {}, 'built from: ', links(near(d.upstream, 'up'), 'upstream'), el('br'), 'feeds: ', links(near(d.downstream, 'down'), 'downstream'))];
  parts.push(el('h2', {}, 'Schema and column lineage'), table(['column', 'type', 'built from'],
    d.schema.map(c => [c.column, c.type ?? '-', { node: el('span', {}, ...c.from.flatMap((f, i) => {
      const ds = f.replace(/\.[^.]+ \(.*$/, '');
      return [i ? ', ' : '', link('#/dataset/' + encodeURIComponent(ds), f)];
    })) }])));
  if (d.freshness) {
    parts.push(el('h2', {}, 'Freshness'), table(['state', 'last partition', 'TSLU (s)', 'warn after', 'SLA', 'owner'],
      [[status(d.freshness.state, 'state'), d.freshness.last_partition, String(d.freshness.tslu_s ?? '-'), d.freshness.warn_after,
        d.freshness.sla, d.freshness.owner]]));
  }
  const pg = d.page;
  const shown = [...new Set([...d.partitions.map(p => p.partition), ...d.quality.map(q => q.partition)])].sort();
  parts.push(el('p', { id: 'page' }, (pg.partial ? `partitions ${shown[0] ?? '-'} … ${shown[shown.length - 1] ?? '-'}, ` : '')
    + `${shown.length} of ${pg.partitions_total} partition(s)` + (pg.partial ? ' (a page: the list is partial)' : ''),
  ...(pg.next_before ? [' · ', link('#/dataset/' + encodeURIComponent(d.name) + '?before=' + encodeURIComponent(pg.next_before), 'older partitions')] : []),
  ...(pg.before ? [' · ', link('#/dataset/' + encodeURIComponent(d.name), 'newest')] : [])));
  parts.push(el('h2', {}, 'Partitions'), table(['partition', 'version', 'run', 'published'],
    d.partitions.map(p => [p.partition, String(p.version), { node: link('#/run/' + p.run_id, p.run_id) }, p.published_at])));
  parts.push(el('h2', {}, 'Quality'), table(['partition', 'check', 'family', 'status', 'metric', 'message'],
    d.quality.map(q => [q.partition, q.check, q.family, status(q.status), q.metric == null ? '-' : String(q.metric), q.message])));
  view.replaceChildren(...parts);
  drawGraph(graph, d);
}

async function run(id) {
  const r = await api('runs/' + encodeURIComponent(id));
  const head = r.kind === 'job'
    ? table(['pipeline', 'partition', 'attempt', 'status', 'started', 'ended', 'message'],
      [[r.pipeline, r.partition, String(r.attempt), status(r.status), r.started_at, r.ended_at ?? '-', r.message ?? '']])
    : r.kind === 'ingested'
      ? el('div', { id: 'ingested' }, table(['job', 'state', 'parent', 'nominal time', 'started', 'ended', 'error'],
        [[r.job, status(r.state), r.parent_run_id ? { node: link('#/run/' + r.parent_run_id, (r.parent_job ?? '') + ' ' + r.parent_run_id) } : '-',
          r.nominal_start_time ?? '-', r.started_at, r.ended_at ?? '-', { cls: 'error', text: r.error_message ?? '' }]]),
        el('h2', {}, 'Run facets (as sent)'), el('pre', { id: 'facets' }, JSON.stringify(r.facets, null, 2)))
      : el('p', {}, 'a step run');
  const steps = (r.summary && r.summary.steps ? r.summary.steps : []).map(s => [s.step, s.layer, status(s.status), String(s.rowsRead),
    String(s.rowsWritten), String(s.quarantined), String(s.elapsedMs)]);
  view.replaceChildren(el('h1', {}, 'Run ' + r.run_id), head,
    el('h2', {}, 'Steps'), table(['step', 'layer', 'status', 'rows read', 'rows written', 'quarantined', 'ms'], steps),
    el('h2', {}, 'Outputs (lineage)'), table(['output', 'version', 'rows', 'inputs'],
      (r.steps ?? r.outputs ?? []).map(s => [{ node: link('#/dataset/' + encodeURIComponent(s.output), s.output) }, String(s.version ?? '-'),
        String(s.rows ?? '-'), (s.inputs ?? []).join(', ')])));
}

async function backfill(id) {
  const b = await api('backfills/' + encodeURIComponent(id));
  view.replaceChildren(el('h1', {}, 'Backfill ' + b.backfill_id),
    table(['pipeline', 'from', 'to', 'status', 'progress'], [[b.pipeline, b.from, b.to, status(b.status), JSON.stringify(b.progress)]]),
    el('h2', {}, 'Partitions'), el('div', { id: 'partitions' }, table(['partition', 'action', 'status', 'run', 'message'],
      b.partitions.map(p => [p.partition, p.action, status(p.status), p.run_id ? { node: link('#/run/' + p.run_id, p.run_id) } : '-', p.message ?? '']))));
}

async function route() {
  const [, kind, arg] = location.hash.match(/^#\/?([a-z]*)\/?(.*)$/) ?? [];
  try {
    if (kind === 'dataset') {
      const [name, query] = arg.split('?');
      await dataset(decodeURIComponent(name), new URLSearchParams(query ?? '').get('before'));
    }
    else if (kind === 'run') await run(decodeURIComponent(arg));
    else if (kind === 'backfill') await backfill(decodeURIComponent(arg));
    else await search(document.getElementById('search').value);
  } catch (e) {
    view.replaceChildren(el('p', { class: 'error', id: 'error' }, e.message));
  }
}

document.getElementById('search-form').addEventListener('submit', ev => {
  ev.preventDefault();
  if (location.hash === '#/') route(); else location.hash = '#/';
});
window.addEventListener('hashchange', route);
route();
