// #/ : the home page (dataset search).
'use strict';

async function search(q) {
  view.replaceChildren(el('h1', {}, 'Datasets'), el('p', {}, 'loading…'));
  const r = await api('datasets?q=' + encodeURIComponent(q));
  const list = el('ul', { class: 'results', id: 'results' },
    ...r.datasets.map(d => el('li', {}, link('#/dataset/' + encodeURIComponent(d), d))));
  view.replaceChildren(el('h1', {}, q ? `Datasets matching “${q}”` : 'Datasets'), r.datasets.length ? list : el('p', {}, 'none'));
}

