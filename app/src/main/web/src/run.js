// #/run/<id> and #/backfill/<id> : a run (steps, outputs) and a backfill (range, partitions).
'use strict';

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

