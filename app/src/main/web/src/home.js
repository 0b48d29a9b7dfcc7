// #/ : the home page. Without a search: is everything all right? (GET /api/v1/status): summary
// pills (red: something failed, was killed or is past its SLA; amber: stopped, warned, late or
// lagging; green: none), the pipelines, the datasets (problems first) and the hot path's lag.
// With a search: the datasets whose name contains it.
'use strict';

async function search(q) {
  if (!q) return home();
  view.replaceChildren(el('h1', {}, 'Datasets'), el('p', {}, 'loading…'));
  const r = await api('datasets?q=' + encodeURIComponent(q));
  const list = el('ul', { class: 'results', id: 'results' },
    ...r.datasets.map(d => el('li', {}, link('#/dataset/' + encodeURIComponent(d), d))));
  view.replaceChildren(el('h1', {}, `Datasets matching “${q}”`), r.datasets.length ? list : el('p', {}, 'none'));
}

// [summary key, words, colour when above zero]
const PILLS = [
  ['failed_partitions', 'failed partition(s)', 'red'],
  ['killed_partitions', 'killed partition(s)', 'red'],
  ['stopped_partitions', 'stopped partition(s)', 'amber'],
  ['failed_checks', 'failed check(s)', 'red'],
  ['warned_checks', 'warned check(s)', 'amber'],
  ['late_datasets', 'late dataset(s)', 'amber'],
  ['killed_backfills', 'killed backfill(s)', 'red'],
  ['running_backfills', 'running backfill(s)', 'green'],
  ['hot_path_lag_records', 'record(s) of hot-path lag', 'amber'],
];

function pill([key, words, colour], summary) {
  const n = summary[key];
  const c = n === null ? 'none' : n === 0 ? 'green'
    : key === 'late_datasets' && summary.breached_datasets > 0 ? 'red' : colour;
  return el('span', { class: 'pill pill-' + c, id: 'pill-' + key }, `${n ?? '-'} ${words}`);
}

const runLink = (id, text, s) => el('a', { href: '#/run/' + encodeURIComponent(id), class: 'status-' + s }, text);
const lines = (...nodes) => ({ node: el('div', {}, ...nodes.map(n => el('div', {}, n))) });
const hours = s => s == null ? '-' : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;

function pipelineRow(p) {
  const newest = p.newest
    ? { node: el('span', {}, runLink(p.newest.run_id, `${p.newest.partition} ${p.newest.status}`, p.newest.status), ' ' + p.newest.started_at) }
    : { cls: 'empty', text: `no runs yet: sluice run ${p.pipeline} --partition …` };
  const problems = p.problems.length ? lines(...p.problems.map(x => el('span', {},
    runLink(x.run_id, `${x.partition} ${x.status}`, x.status), x.message ? el('span', { class: 'msg' }, ' ' + x.message) : ''))) : 'none';
  const backfills = p.backfills.length ? lines(...p.backfills.map(b => el('a', { href: '#/backfill/' + encodeURIComponent(b.backfill_id),
    class: 'status-' + b.status }, `${b.from} … ${b.to} ${b.status} ${JSON.stringify(b.progress)}`))) : 'none';
  return [p.pipeline, newest, p.last_completed_partition ?? '-', p.freshness ? status(p.freshness, 'state') : '-', problems,
    p.running.length ? lines(...p.running.map(r => runLink(r.run_id, r.partition, 'STARTED'))) : 'none', backfills];
}

function datasetRow(d) {
  const f = d.freshness;
  const checks = d.failing_checks.length ? lines(...d.failing_checks.map(c => runLink(c.run_id, `${c.partition} ${c.check} ${c.status}`, c.status)))
    : 'none';
  return [{ node: link('#/dataset/' + encodeURIComponent(d.dataset), d.dataset) }, f ? status(f.state, 'state') : '-',
    f ? `${hours(f.tslu_s)} (warn after ${f.warn_after}, SLA ${f.sla})` : '-', d.last_partition ?? '-', String(d.partitions), checks];
}

async function home() {
  view.replaceChildren(el('h1', {}, 'Is everything all right?'), el('p', {}, 'loading…'));
  const s = await api('status');
  const parts = [el('h1', {}, 'Is everything all right?'), el('div', { class: 'pills', id: 'pills' }, ...PILLS.map(p => pill(p, s.summary)))];
  parts.push(el('h2', {}, 'Pipelines'), s.pipelines.length
    ? el('div', { id: 'pipelines' }, table(['pipeline', 'newest attempt', 'last completed', 'freshness', 'failed, stopped or killed',
      'running', 'backfills'], s.pipelines.map(pipelineRow)))
    : el('p', { class: 'empty', id: 'pipelines' }, 'no runs yet: sluice run flights --partition …'));
  parts.push(el('h2', {}, 'Datasets (problems first)'), s.datasets.length
    ? el('div', { id: 'datasets' }, table(['dataset', 'freshness', 'TSLU', 'last partition', 'partitions', 'failing checks'],
      s.datasets.map(datasetRow)))
    : el('p', { class: 'empty', id: 'datasets' }, 'no datasets yet: run a pipeline (sluice run flights --partition …)'));
  const hot = s.hot_path.partitions;
  parts.push(el('h2', {}, 'Hot path lag'), hot.length
    ? el('div', { id: 'hot-path' }, table(['group', 'topic', 'partition', 'lag (records)', 'next offset', 'last store'],
      hot.map(h => [h.group, h.topic, String(h.partition), String(h.lag_records ?? '-'), String(h.next_offset), hours(h.last_store_age_s) + ' ago'])),
    el('p', { class: 'note' }, s.hot_path.lag_source))
    : el('p', { class: 'empty', id: 'hot-path' }, 'no hot-path consumer has stored a position yet: sluice hot-path flights'));
  parts.push(el('p', { class: 'note' }, 'Search for any dataset with the box above.'));
  view.replaceChildren(...parts);
}
