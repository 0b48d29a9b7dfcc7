// The lineage graph of a dataset page, drawn by Cytoscape.js.
'use strict';

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

