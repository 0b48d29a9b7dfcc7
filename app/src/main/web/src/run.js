// #/run/<id> and #/backfill/<id> : a run (steps with a timeline, the reconcile step too, warnings, the
// checks it judged, outputs) and a backfill (range, partitions, a timeline of the partitions' runs).
'use strict';

// One bar per step (or partition) in start order: left edge and width proportional to the recorded times
// (offset_ms and elapsed_ms over the timeline's span_ms), so that a slow one stands out.
function timeline(t, id) {
  const span = Math.max(t.span_ms, 1);
  const rows = t.bars.map(b => {
    const bar = el('div', { class: 'bar status-bar-' + b.status, title: `${b.name}: ${b.elapsed_ms} ms, from +${b.offset_ms} ms` });
    bar.style.left = (100 * b.offset_ms / span) + '%';
    bar.style.width = (100 * b.elapsed_ms / span) + '%';
    return el('div', { class: 'lane', 'data-name': b.name }, el('span', { class: 'lane-name' }, b.name),
      el('div', { class: 'track' }, bar), el('span', { class: 'lane-ms' }, b.elapsed_ms + ' ms'));
  });
  return el('div', { id, class: 'timeline' }, ...rows,
    el('p', { class: 'timeline-span' }, rows.length ? `${t.span_ms} ms from ${t.started_at}` : 'nothing ran yet'));
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
  const parts = [el('h1', {}, 'Run ' + r.run_id), head];
  if (r.kind === 'job') {
    // every step Spring Batch ran, in start order (the reconcile step too), with the summary's rows where it has them
    const summary = new Map((r.summary && r.summary.steps ? r.summary.steps : []).map(s => [s.step, s]));
    const steps = r.timeline.bars.map(b => {
      const s = summary.get(b.name);
      return [b.name, s ? s.layer : '-', status(b.status), String(s ? s.rowsRead : b.rows_read), String(s ? s.rowsWritten : b.rows_written),
        s ? String(s.quarantined) : '-', String(b.elapsed_ms)];
    });
    parts.push(el('h2', {}, 'Steps'), el('div', { id: 'steps' }, table(['step', 'layer', 'status', 'rows read', 'rows written', 'quarantined', 'ms'], steps)),
      el('h2', {}, 'Timeline'), timeline(r.timeline, 'timeline'),
      el('h2', {}, 'Warnings'), r.warnings.length ? el('ul', { id: 'warnings' }, ...r.warnings.map(w => el('li', {}, w)))
        : el('p', { id: 'warnings' }, 'none'),
      el('h2', {}, 'Checks judged'), el('div', { id: 'checks' }, table(['dataset', 'partition', 'check', 'family', 'status', 'metric', 'message'],
        r.checks.map(c => [c.dataset, c.partition, c.check, c.family, status(c.status), c.metric == null ? '-' : String(c.metric), c.message ?? '']))));
  }
  parts.push(el('h2', {}, 'Outputs (lineage)'), table(['output', 'version', 'rows', 'inputs'],
    (r.steps ?? r.outputs ?? []).map(s => [{ node: link('#/dataset/' + encodeURIComponent(s.output), s.output) }, String(s.version ?? '-'),
      String(s.rows ?? '-'), (s.inputs ?? []).join(', ')])));
  view.replaceChildren(...parts);
}

async function backfill(id) {
  const b = await api('backfills/' + encodeURIComponent(id));
  view.replaceChildren(el('h1', {}, 'Backfill ' + b.backfill_id),
    table(['pipeline', 'from', 'to', 'status', 'progress'], [[b.pipeline, b.from, b.to, status(b.process_gone ? 'KILLED' : b.status),
      JSON.stringify(b.progress)]]),
    b.process_gone ? el('p', { id: 'process-gone', class: 'problem' }, 'Its process is gone (killed while ' + b.status
      + '): run the same sluice backfill ' + b.pipeline + ' --from ' + b.from + ' --to ' + b.to + ' again to resume it.') : el('span', {}),
    el('h2', {}, 'Partitions'), el('div', { id: 'partitions' }, table(['partition', 'action', 'status', 'run', 'message'],
      b.partitions.map(p => [p.partition, p.action, status(p.status), p.run_id ? { node: link('#/run/' + p.run_id, p.run_id) } : '-', p.message ?? '']))),
    el('h2', {}, 'Timeline of the partitions it ran'), timeline(b.timeline, 'timeline'));
}
