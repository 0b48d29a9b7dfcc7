// The page's shared helpers: the API call (with the tab's bearer token), element and table builders.
'use strict';

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

