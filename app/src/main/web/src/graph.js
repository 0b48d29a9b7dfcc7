// The lineage graph of a dataset page (GET /api/v1/graph/{name}), drawn by Cytoscape.js in a layered
// left-to-right layout of our own: upstream levels to the left, downstream to the right, the datasets of
// a level stacked in one column. Every node of a column is as wide as the column's widest label, so an
// edge runs from the right side of a node box to the left side of a box in the next column, through the
// empty gap between the columns only; an edge spanning several levels passes each column between in a
// slot of its own (a thin 'bend' node, as in Sugiyama's layered drawing), so no edge crosses a label.
// A '+' on a node that has more lineage beyond the shown depth adds one level that way; 'all levels'
// shows everything. Clicking a dataset moves to it.
'use strict';

const GRAPH = { font: 11, family: 'sans-serif', pad: 10, mark: 18, height: 30, gap: 18, columnGap: 72, all: 100 };

async function lineageGraph(container, controls, name) {
  const depth = { up: 3, down: 3 };
  const measure = document.createElement('canvas').getContext('2d');
  measure.font = GRAPH.font + 'px ' + GRAPH.family;
  const say = el('span', { id: 'graph-depth' });
  const all = el('button', { id: 'graph-all', type: 'button' }, 'all levels');
  controls.replaceChildren(say, ' ', all);
  all.addEventListener('click', () => { depth.up = GRAPH.all; depth.down = GRAPH.all; draw(); });

  async function draw() {
    const g = await api('graph/' + encodeURIComponent(name) + '?upstream=' + depth.up + '&downstream=' + depth.down);
    const more = g.nodes.some(n => n.expandable.upstream || n.expandable.downstream);
    say.textContent = `upstream ${g.upstream} level(s), downstream ${g.downstream} level(s)` + (more ? ' (+ shows one more level)' : ' (all of it)');
    const cy = cytoscape({
      container, elements: layered(g, text => measure.measureText(text).width), wheelSensitivity: 0.3, layout: { name: 'preset' },
      style: [
        { selector: 'node.dataset', style: { shape: 'round-rectangle', width: 'data(w)', height: GRAPH.height, label: 'data(label)',
          'font-size': GRAPH.font, 'font-family': GRAPH.family, 'text-valign': 'center', 'text-halign': 'center', color: '#fff',
          'text-margin-x': 'data(shift)', 'background-color': '#5b8db8' } },
        { selector: 'node.dataset[?focus]', style: { 'background-color': '#c98a0b' } },
        { selector: 'node.expand', style: { shape: 'ellipse', width: 14, height: 14, label: '+', 'font-size': 12, 'text-valign': 'center',
          'text-halign': 'center', 'background-color': '#fff', color: '#12324a', 'z-index': 10 } },
        { selector: 'node.bend', style: { shape: 'rectangle', width: 'data(w)', height: 1.5, 'background-color': '#8a94a6', events: 'no' } },
        { selector: 'edge', style: { 'curve-style': 'straight', width: 1.5, 'line-color': '#8a94a6', 'source-endpoint': '50% 0%',
          'target-endpoint': '-50% 0%' } },
        { selector: 'edge.into', style: { 'target-arrow-shape': 'triangle', 'target-arrow-color': '#8a94a6' } },
        { selector: 'edge.back', style: { 'curve-style': 'bezier', 'source-endpoint': 'outside-to-node', 'target-endpoint': 'outside-to-node',
          'line-style': 'dashed' } },
      ],
    });
    cy.fit(undefined, 20);
    cy.on('tap', 'node.dataset', ev => { location.hash = '#/dataset/' + encodeURIComponent(ev.target.id()); });
    cy.on('tap', 'node.expand', ev => {
      if (ev.target.data('side') === 'up') depth.up = Math.min(GRAPH.all, depth.up + 1); else depth.down = Math.min(GRAPH.all, depth.down + 1);
      draw();
    });
    if (window.sluiceGraph) window.sluiceGraph.destroy();
    window.sluiceGraph = cy; // for tests and the console
    window.sluiceGraphDrawn = (window.sluiceGraphDrawn ?? 0) + 1;
  }
  await draw();
}

// The graph's elements with their positions: ranks (columns), an order within each rank, bends for long edges.
function layered(g, width) {
  const rank = new Map(g.nodes.map(n => [n.name, n.level]));
  const side = new Map(g.nodes.map(n => [n.name, Math.sign(n.level)]));
  // longest-path ranks on each side, so that each edge points rightwards where it can (bounded: cycles stay finite)
  for (let i = 0; i < g.nodes.length; i++) {
    let changed = false;
    for (const e of g.edges) {
      if (e.from === e.to) continue;
      const [f, t] = [rank.get(e.from), rank.get(e.to)];
      if (side.get(e.from) < 0 && side.get(e.to) <= 0 && f > t - 1) { rank.set(e.from, t - 1); changed = true; }
      if (side.get(e.to) > 0 && side.get(e.from) >= 0 && t < f + 1) { rank.set(e.to, f + 1); changed = true; }
    }
    if (!changed) break;
  }
  const columns = new Map();
  const put = (r, item) => { if (!columns.has(r)) columns.set(r, []); columns.get(r).push(item); };
  const elements = [];
  const pieces = [];
  for (const n of g.nodes) put(rank.get(n.name), { id: n.name, node: n });
  g.edges.forEach((e, i) => {
    const [f, t] = [rank.get(e.from), rank.get(e.to)];
    if (t <= f) { pieces.push({ id: 'e' + i, source: e.from, target: e.to, job: e.job, cls: 'into back' }); return; }
    let prev = e.from;
    for (let r = f + 1; r < t; r++) {
      const bend = 'bend:' + i + ':' + r;
      put(r, { id: bend, bend: true, from: prev });
      pieces.push({ id: 'e' + i + ':' + r, source: prev, target: bend, job: e.job, cls: '' });
      prev = bend;
    }
    pieces.push({ id: 'e' + i, source: prev, target: e.to, job: e.job, cls: 'into' });
  });
  // order each column by the mean position of its neighbours in the column nearer the dataset (two sweeps outwards)
  const ranks = [...columns.keys()].sort((a, b) => a - b);
  const index = new Map();
  const reindex = () => columns.forEach(c => c.forEach((it, i) => index.set(it.id, i)));
  reindex();
  for (let sweep = 0; sweep < 2; sweep++) {
    for (const r of [...ranks.filter(r => r > 0), ...ranks.filter(r => r < 0).reverse()]) {
      const inner = r > 0 ? r - 1 : r + 1;
      const near = it => pieces.filter(p => (p.source === it.id && rank.get(p.target) === inner) || (p.target === it.id && rank.get(p.source) === inner))
        .map(p => index.get(p.source === it.id ? p.target : p.source)).filter(x => x !== undefined);
      const mean = it => { const v = near(it); return v.length ? v.reduce((a, b) => a + b, 0) / v.length : index.get(it.id); };
      columns.get(r).sort((a, b) => mean(a) - mean(b));
      reindex();
    }
  }
  // bends take their rank from the column they pass; give them one
  columns.forEach((items, r) => items.forEach(it => { if (it.bend) rank.set(it.id, r); }));
  let x = 0;
  for (const r of ranks) {
    const items = columns.get(r);
    const w = Math.ceil(Math.max(...items.map(it => it.bend ? 0 : width(it.id))) + 2 * GRAPH.pad + 2 * GRAPH.mark);
    const pitch = GRAPH.height + GRAPH.gap;
    items.forEach((it, i) => {
      const pos = { x: x + w / 2, y: (i - (items.length - 1) / 2) * pitch };
      if (it.bend) { elements.push({ group: 'nodes', classes: 'bend', data: { id: it.id, w }, position: pos }); return; }
      const n = it.node;
      const shift = (n.expandable.upstream ? GRAPH.mark / 2 : 0) - (n.expandable.downstream ? GRAPH.mark / 2 : 0);
      elements.push({ group: 'nodes', classes: 'dataset', data: { id: n.name, label: n.name, w, shift, level: n.level, focus: n.level === 0 },
        position: pos });
      for (const [s, on, dx] of [['up', n.expandable.upstream, -1], ['down', n.expandable.downstream, 1]]) {
        if (on) elements.push({ group: 'nodes', classes: 'expand ' + s, data: { id: 'expand:' + s + ':' + n.name, of: n.name, side: s },
          position: { x: pos.x + dx * (w / 2 - GRAPH.pad), y: pos.y } });
      }
    });
    x += w + GRAPH.columnGap;
  }
  for (const p of pieces) elements.push({ group: 'edges', classes: p.cls, data: { id: p.id, source: p.source, target: p.target, job: p.job } });
  return elements;
}
