// The page of `sluice serve`: hash routes over the read-only catalog API (/api/v1/…).
//   #/                 dataset search
//   #/dataset/<name>[?before=<partition>]   graph (upstream and downstream, click to move along it,
//                      '+' to see one level more: graph.js),
//                      one page of partitions and their quality results (newest first; 'older
//                      partitions' pages on), freshness
//   #/run/<id>         a run: status, times, steps with rows and inputs on a timeline (the reconcile
//                      step too), its warnings and the checks it judged; a run of another tool:
//                      state, parent, nominal time, error message, its run facets
//   #/backfill/<id>    a backfill: range, progress, each partition, a timeline of the partitions it ran
// A bearer token given once as ?token=… is kept for the tab (sessionStorage) and sent to the API;
// once kept, it is taken out of the address (history.replaceState: the address bar and the tab's
// back/forward entry; other parameters and the route stay), so it is not left on screen, in a
// bookmark or in an address copied from the bar. The browser's own history list may still hold the
// address first opened: docs/serve.md says so.
'use strict';
// The page's scripts, in the order index.html loads them: common.js, home.js, graph.js, dataset.js, run.js, app.js (this one: the token and the router).

const view = document.getElementById('view');
const params = new URLSearchParams(location.search);
if (params.has('token')) {
  if (params.get('token')) sessionStorage.setItem('sluice.token', params.get('token'));
  const kept = location.search.slice(1).split('&').filter(p => p && !new URLSearchParams(p).has('token')); // the others as written
  history.replaceState(history.state, '', location.pathname + (kept.length ? '?' + kept.join('&') : '') + location.hash);
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
