// #/dataset/<name>[?before=<partition>] : a dataset's lineage, schema, freshness, partitions and quality.
'use strict';

async function dataset(name, before) {
  const d = await api('datasets/' + encodeURIComponent(name) + (before ? '?before=' + encodeURIComponent(before) : ''));
  const graph = el('div', { id: 'graph' });
  const controls = el('p', { id: 'graph-controls' });
  const near = (edges, side) => [...new Set(edges.filter(e => (side === 'up' ? e.to : e.from) === d.name).map(e => side === 'up' ? e.from : e.to))];
  const links = (names, id) => el('span', { id }, ...names.flatMap((n, i) => [i ? ', ' : '', link('#/dataset/' + encodeURIComponent(n), n)]));
  const parts = [el('h1', {}, d.name), el('h2', {}, 'Lineage (upstream and downstream; click a dataset to move to it, + to see one level more)'), controls, graph,
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
  await lineageGraph(graph, controls, d.name);
}

