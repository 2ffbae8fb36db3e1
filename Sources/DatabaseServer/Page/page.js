// The page of `rules serve`: data, requests and rules, from the /.inspect/ endpoints.
// Everything shown is inserted as text (textContent, never HTML), so keys, values, paths and
// rules cannot inject markup.
(function () {
  'use strict';

  var AUTH = { Authorization: 'Bearer owner' };
  var CHILDREN_PER_PAGE = 50;
  var REQUESTS_PER_PAGE = 100;
  var VALUE_BUDGET = 2000;
  var SOURCE_CONTEXT = 6;

  function $(id) { return document.getElementById(id); }

  // el('li', {class: 'x', onclick: f}, 'text', child): an element; strings become text nodes.
  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) return;
        if (k === 'class') node.className = v;
        else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v);
        else node.setAttribute(k, v === true ? '' : String(v));
      });
    }
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }

  function query(params) {
    return Object.keys(params).filter(function (k) { return params[k] !== undefined && params[k] !== null; })
      .map(function (k) { return encodeURIComponent(k) + '=' + encodeURIComponent(params[k]); }).join('&');
  }

  function getText(path, params) {
    var q = query(params || {});
    return fetch(path + (q ? '?' + q : ''), { headers: AUTH, cache: 'no-store' }).then(function (r) {
      return r.text().then(function (text) {
        if (!r.ok) {
          var message = text;
          try { message = JSON.parse(text).error || text; } catch (e) { /* not JSON */ }
          var error = new Error(r.status + ' ' + message);
          error.status = r.status;
          throw error;
        }
        return text;
      });
    });
  }

  function getJSON(path, params) { return getText(path, params).then(JSON.parse); }

  function say(text) { $('status').textContent = text; }

  function split(path) { return path.split('/').filter(function (s) { return s.length > 0; }); }
  function pathOf(keys) { return '/' + keys.join('/'); }

  function time(ms) {
    var d = new Date(ms);
    function two(n) { return (n < 10 ? '0' : '') + n; }
    var millis = String(d.getMilliseconds()).padStart(3, '0');
    return two(d.getHours()) + ':' + two(d.getMinutes()) + ':' + two(d.getSeconds()) + '.' + millis;
  }

  function copyText(text) {
    function fallback() {
      var area = el('textarea', { 'aria-hidden': 'true', style: null });
      area.value = text;
      area.className = 'visually-hidden';
      document.body.append(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      area.remove();
      say(ok ? 'Copied ' + text : 'Copy failed: select the path and copy it');
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { say('Copied ' + text); }, fallback);
    } else {
      fallback();
    }
  }

  // Focus survives a re-render when the focused control has a data-focus key.
  function focusKey() {
    var a = document.activeElement;
    return a && a.dataset && a.dataset.focus ? a.dataset.focus : null;
  }
  function restoreFocus(container, key) {
    if (!key) return;
    var all = container.querySelectorAll('[data-focus]');
    for (var i = 0; i < all.length; i++) {
      if (all[i].dataset.focus === key) { all[i].focus(); return; }
    }
  }

  var state = {
    // The namespace shown: the one in the address, else the one chosen last time (if it
    // still exists), else the one with the latest request, else the default (see chooseNamespace).
    ns: new URLSearchParams(location.search).get('ns') || '',
    view: 'data',
    namespaces: [],
    timings: { treeRenderMs: 0, treeRows: 0, requestsRenderMs: 0, requestRows: 0 },
    data: {
      root: [], model: null, source: null, expanded: new Set(['/']), offsets: new Map(),
      selected: null, changed: new Set(), pending: 0, loaded: false
    },
    requests: { list: [], lastId: 0, total: 0, capacity: 0, page: 0, selected: null, dirty: true, detail: null, target: null, whole: false },
    rules: { text: '', report: null, target: null, timer: 0 }
  };
  window.rulesPage = { timings: state.timings };

  // ---------------------------------------------------------------- Tabs and routing

  var views = ['data', 'requests', 'rules'];

  function setView(name, focus) {
    state.view = name;
    views.forEach(function (v) {
      var tab = $('tab-' + v), panel = $('view-' + v);
      var on = v === name;
      tab.setAttribute('aria-selected', on ? 'true' : 'false');
      tab.tabIndex = on ? 0 : -1;
      panel.hidden = !on;
    });
    if (focus) $('tab-' + name).focus();
    if (name === 'requests') renderRequests();
    if (name === 'rules') loadRules();
    if (name === 'data') scheduleTree();
  }

  function setHash(hash) {
    if (location.hash !== hash) history.replaceState(null, '', location.pathname + location.search + hash);
  }

  function route() {
    var parts = location.hash.replace(/^#/, '').split('/');
    var name = views.indexOf(parts[0]) >= 0 ? parts[0] : 'data';
    setView(name, false);
    if (name === 'requests' && parts[1]) selectRequest(Number(parts[1]));
    if (name === 'rules' && parts[1]) { state.rules.target = Number(parts[1]); renderRules(); }
  }

  function setupTabs() {
    views.forEach(function (v, i) {
      var tab = $('tab-' + v);
      tab.addEventListener('click', function () { setHash('#' + v); setView(v, false); });
      tab.addEventListener('keydown', function (e) {
        var next = null;
        if (e.key === 'ArrowRight') next = views[(i + 1) % views.length];
        else if (e.key === 'ArrowLeft') next = views[(i + views.length - 1) % views.length];
        else if (e.key === 'Home') next = views[0];
        else if (e.key === 'End') next = views[views.length - 1];
        if (next) { e.preventDefault(); setHash('#' + next); setView(next, true); }
      });
    });
    window.addEventListener('hashchange', route);
  }

  // ---------------------------------------------------------------- Namespaces

  var defaultNamespace = document.querySelector('meta[name="rules-default-namespace"]').content || 'default';

  function remembered() {
    try { return localStorage.getItem('rules-page-namespace'); } catch (e) { return null; }
  }

  function remember(name) {
    try { localStorage.setItem('rules-page-namespace', name); } catch (e) { /* storage off: not remembered */ }
  }

  // Where the page opens when the address names no namespace.
  function chooseNamespace(list) {
    var last = remembered();
    if (last && list.some(function (d) { return d.name === last; })) return last;
    var busiest = null;
    list.forEach(function (d) { if (d.lastRequest > 0 && (!busiest || d.lastRequest > busiest.lastRequest)) busiest = d; });
    return busiest ? busiest.name : defaultNamespace;
  }

  function loadNamespaces() {
    return getJSON('/.inspect/databases.json').then(function (list) {
      if (!state.ns) {
        state.ns = chooseNamespace(list);
        connectData();
        if (state.view === 'rules') loadRules();
      }
      var names = list.map(function (d) { return d.name; });
      if (names.indexOf(state.ns) < 0) names.push(state.ns);
      names.sort();
      if (names.join('\n') === state.namespaces.join('\n')) return;
      state.namespaces = names;
      var select = $('namespace');
      select.replaceChildren.apply(select, names.map(function (n) { return el('option', { value: n }, n); }));
      select.value = state.ns;
    }).catch(function (e) { say('Databases: ' + e.message); });
  }

  function setNamespace(name) {
    state.ns = name;
    remember(name);
    history.replaceState(null, '', location.pathname + '?' + query({ ns: name }) + location.hash);
    state.data.selected = null;
    connectData();
    state.rules.text = '';
    if (state.view === 'rules') loadRules();
  }

  // ---------------------------------------------------------------- Data

  // The data below the view's location, as nodes {v: leaf value} or {c: Map of children}, with
  // p: the priority. Filled by the server's event stream (export format, so with priorities).
  function fromExport(json) {
    if (json === null || json === undefined) return null;
    if (typeof json !== 'object') return { v: json, p: null };
    if (Object.prototype.hasOwnProperty.call(json, '.value')) {
      return json['.value'] === null ? null : { v: json['.value'], p: priorityOf(json) };
    }
    var c = new Map();
    Object.keys(json).forEach(function (k) {
      if (k === '.priority') return;
      var child = fromExport(json[k]);
      if (child) c.set(k, child);
    });
    return c.size ? { c: c, p: priorityOf(json), sorted: null } : null;
  }

  function priorityOf(json) {
    return Object.prototype.hasOwnProperty.call(json, '.priority') ? json['.priority'] : null;
  }

  function nodeAt(keys) {
    var n = state.data.model;
    for (var i = 0; i < keys.length; i++) {
      if (!n || !n.c) return null;
      n = n.c.get(keys[i]) || null;
    }
    return n;
  }

  // Replaces the node at `keys` (relative to the view's location); null deletes, and objects
  // left empty disappear, as in the database.
  function setAt(keys, value) {
    var d = state.data;
    if (keys.length && keys[keys.length - 1] === '.priority') {
      var owner = nodeAt(keys.slice(0, -1));
      if (owner) owner.p = value ? value.v : null;
      return;
    }
    if (keys.length === 0) { d.model = value; return; }
    if (!d.model || !d.model.c) {
      if (!value) return;
      d.model = { c: new Map(), p: null, sorted: null };
    }
    var chain = [d.model], n = d.model;
    for (var i = 0; i < keys.length - 1; i++) {
      var next = n.c.get(keys[i]);
      if (!next || !next.c) {
        if (!value) return;
        next = { c: new Map(), p: null, sorted: null };
        n.c.set(keys[i], next);
        n.sorted = null;
      }
      n = next;
      chain.push(n);
    }
    var last = keys[keys.length - 1];
    if (value) {
      if (!n.c.has(last)) n.sorted = null;
      n.c.set(last, value);
    } else if (n.c.has(last)) {
      n.c.delete(last);
      n.sorted = null;
    }
    for (var j = chain.length - 1; j >= 0 && chain[j].c.size === 0; j--) {
      if (j === 0) { d.model = null; break; }
      chain[j - 1].c.delete(keys[j - 1]);
      chain[j - 1].sorted = null;
    }
  }

  // The database's key order: keys that are 32-bit integers first, by value; then the others.
  var INTEGER = /^-?(0|[1-9][0-9]*)$/;
  function keyRank(k) {
    if (INTEGER.test(k)) { var n = Number(k); if (n >= -2147483648 && n <= 2147483647) return n; }
    return null;
  }
  function compareKeys(a, b) {
    var x = keyRank(a), y = keyRank(b);
    if (x !== null && y !== null) return x - y;
    if (x !== null) return -1;
    if (y !== null) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  function sortedKeys(node) {
    if (!node.sorted) {
      var decorated = Array.from(node.c.keys(), function (k) { return { k: k, r: keyRank(k) }; });
      decorated.sort(function (a, b) {
        if (a.r !== null && b.r !== null) return a.r - b.r;
        if (a.r !== null) return -1;
        if (b.r !== null) return 1;
        return a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
      });
      node.sorted = decorated.map(function (e) { return e.k; });
    }
    return node.sorted;
  }

  function applyEvent(kind, path, data) {
    var keys = split(path);
    var base = state.data.root;
    if (kind === 'put') {
      setAt(keys, fromExport(data));
      state.data.changed.add(pathOf(base.concat(keys)));
    } else if (data && typeof data === 'object') {
      Object.keys(data).forEach(function (k) {
        var at = keys.concat(split(k));
        setAt(at, fromExport(data[k]));
        state.data.changed.add(pathOf(base.concat(at)));
      });
    }
    state.data.loaded = true;
    scheduleTree();
  }

  function live(text, cls) {
    var node = $('data-live');
    node.textContent = text;
    node.className = 'live ' + (cls || '');
  }

  function connectData() {
    var d = state.data;
    if (d.source) d.source.close();
    d.model = null;
    d.loaded = false;
    var where = pathOf(d.root);
    live('connecting…', '');
    var url = '/.inspect/data.json?' + query({ ns: state.ns, auth: 'owner', path: where });
    var source = new EventSource(url);
    d.source = source;
    function handler(kind) {
      return function (e) {
        if (d.source !== source) return;
        var message = JSON.parse(e.data);
        applyEvent(kind, message.path, message.data);
      };
    }
    source.addEventListener('put', handler('put'));
    source.addEventListener('patch', handler('patch'));
    source.addEventListener('cancel', function () {
      live('stream cancelled', 'off');
      source.close();
    });
    source.onopen = function () { live('live: ' + where + ' of ' + state.ns, 'on'); };
    source.onerror = function () {
      if (d.source === source) live(source.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting…', 'off');
    };
    scheduleTree();
  }

  function scheduleTree() {
    if (state.data.pending) return;
    state.data.pending = setTimeout(function () {
      state.data.pending = 0;
      if (state.view === 'data') renderTree();
      renderNodeDetail();
    }, 30);
  }

  function preview(v) {
    if (typeof v === 'string') {
      var s = JSON.stringify(v);
      return s.length > 120 ? s.slice(0, 119) + '…"' : s;
    }
    return String(v);
  }

  function renderTree() {
    var started = performance.now();
    var tree = $('data-tree');
    var keep = focusKey();
    var d = state.data;
    var rows = { n: 0 };
    var label = pathOf(d.root);
    if (!d.loaded) {
      tree.replaceChildren(el('li', { class: 'hint' }, 'Loading…'));
    } else {
      tree.replaceChildren(renderNode(d.root, label, d.model, rows));
    }
    restoreFocus(tree, keep);
    d.changed.clear();
    state.timings.treeRenderMs = performance.now() - started;
    state.timings.treeRows = rows.n;
  }

  function renderNode(keys, label, node, rows) {
    var d = state.data;
    var path = pathOf(keys);
    rows.n++;
    var li = el('li', { class: d.changed.has(path) ? 'changed' : null, 'data-path': path });
    var hasChildren = !!(node && node.c);
    var expanded = hasChildren && d.expanded.has(path);
    var row = el('div', { class: 'row' });
    if (hasChildren) {
      row.append(el('button', {
        type: 'button', class: 'toggle', 'aria-expanded': expanded ? 'true' : 'false',
        'aria-label': (expanded ? 'Collapse ' : 'Expand ') + path, 'data-focus': 'toggle ' + path,
        onclick: function () {
          if (expanded) d.expanded.delete(path); else d.expanded.add(path);
          renderTree();
        }
      }, expanded ? '▾' : '▸'));
    } else {
      row.append(el('span', { class: 'toggle-space', 'aria-hidden': 'true' }));
    }
    row.append(el('button', {
      type: 'button', class: 'key', 'data-focus': 'key ' + path, 'aria-current': d.selected === path ? 'true' : null,
      title: path, onclick: function () { selectNode(path); }
    }, label));
    if (!node) {
      row.append(el('span', { class: 'value v-null' }, 'null'));
    } else if (hasChildren) {
      var n = node.c.size;
      row.append(el('span', { class: 'count' }, '{' + n + (n === 1 ? ' child}' : ' children}')));
    } else {
      row.append(el('span', { class: 'value v-' + typeof node.v }, preview(node.v)));
    }
    if (node && node.p !== null && node.p !== undefined) {
      row.append(el('span', { class: 'count' }, ' (priority ' + JSON.stringify(node.p) + ')'));
    }
    li.append(row);
    if (expanded) {
      var keysSorted = sortedKeys(node);
      var total = keysSorted.length;
      var start = d.offsets.get(path) || 0;
      if (start >= total) start = Math.max(0, Math.floor((total - 1) / CHILDREN_PER_PAGE) * CHILDREN_PER_PAGE);
      var end = Math.min(total, start + CHILDREN_PER_PAGE);
      var ul = el('ul', { 'aria-label': 'Children of ' + path });
      for (var i = start; i < end; i++) {
        var k = keysSorted[i];
        ul.append(renderNode(keys.concat([k]), k, node.c.get(k), rows));
      }
      if (total > CHILDREN_PER_PAGE) ul.append(childPager(path, keysSorted, start, end));
      li.append(ul);
    }
    return li;
  }

  function childPager(path, keysSorted, start, end) {
    var d = state.data;
    var total = keysSorted.length;
    function go(to) {
      return function () {
        d.offsets.set(path, Math.max(0, Math.min(to, total - 1)));
        renderTree();
      };
    }
    var last = Math.floor((total - 1) / CHILDREN_PER_PAGE) * CHILDREN_PER_PAGE;
    var input = el('input', { type: 'text', size: 10, 'aria-label': 'Jump to key under ' + path, placeholder: 'key', 'data-focus': 'jump ' + path });
    var form = el('form', {
      class: 'pager', onsubmit: function (e) {
        e.preventDefault();
        var wanted = input.value;
        var lo = 0, hi = total;
        while (lo < hi) { var mid = (lo + hi) >> 1; if (compareKeys(keysSorted[mid], wanted) < 0) lo = mid + 1; else hi = mid; }
        d.offsets.set(path, Math.floor(Math.min(lo, total - 1) / CHILDREN_PER_PAGE) * CHILDREN_PER_PAGE);
        renderTree();
      }
    },
    el('button', { type: 'button', onclick: go(0), disabled: start === 0, 'data-focus': 'first ' + path }, 'First'),
    el('button', { type: 'button', onclick: go(start - CHILDREN_PER_PAGE), disabled: start === 0, 'data-focus': 'prev ' + path }, 'Previous'),
    el('span', { class: 'page-range' }, 'children ' + (start + 1) + '–' + end + ' of ' + total),
    el('button', { type: 'button', onclick: go(start + CHILDREN_PER_PAGE), disabled: end >= total, 'data-focus': 'next ' + path }, 'Next'),
    el('button', { type: 'button', onclick: go(last), disabled: end >= total, 'data-focus': 'last ' + path }, 'Last'),
    input, el('button', { type: 'submit' }, 'Go'));
    return el('li', { class: 'pager-item' }, form);
  }

  function selectNode(path) {
    state.data.selected = path;
    renderTree();
    renderNodeDetail();
  }

  // A node as JSON (export format when it has priorities), or null when it is too big to show.
  function toJSON(node, budget) {
    if (!node) return null;
    if (--budget.left < 0) throw new Error('too big');
    if (!node.c) {
      return node.p !== null && node.p !== undefined ? { '.value': node.v, '.priority': node.p } : node.v;
    }
    var out = {};
    sortedKeys(node).forEach(function (k) { out[k] = toJSON(node.c.get(k), budget); });
    if (node.p !== null && node.p !== undefined) out['.priority'] = node.p;
    return out;
  }

  function renderNodeDetail() {
    var body = $('node-body');
    var path = state.data.selected;
    var hint = document.querySelector('#node-detail .hint');
    if (!path) { hint.hidden = false; body.replaceChildren(); return; }
    hint.hidden = true;
    var keys = split(path).slice(state.data.root.length);
    var node = nodeAt(keys);
    var type;
    if (!node) type = 'no data (null)';
    else if (node.c) type = 'object, ' + node.c.size + (node.c.size === 1 ? ' child' : ' children');
    else type = typeof node.v;
    var value;
    try {
      value = el('pre', { class: 'json', 'aria-label': 'Value of ' + path }, JSON.stringify(toJSON(node, { left: VALUE_BUDGET }), null, 2));
    } catch (e) {
      value = el('p', { class: 'hint' }, 'Too large to show here (more than ' + VALUE_BUDGET + ' nodes): expand it in the tree.');
    }
    body.replaceChildren(el('dl', { class: 'props' },
      el('dt', null, 'Path'),
      el('dd', null, el('code', { id: 'node-path' }, path), ' ',
        el('button', { type: 'button', onclick: function () { copyText(path); } }, 'Copy path')),
      el('dt', null, 'Database'), el('dd', null, state.ns),
      el('dt', null, 'Priority'), el('dd', null, node && node.p !== null && node.p !== undefined ? JSON.stringify(node.p) : 'none'),
      el('dt', null, 'Type'), el('dd', null, type)),
    el('h3', null, 'Value'), value);
  }

  function setupData() {
    $('data-root-form').addEventListener('submit', function (e) {
      e.preventDefault();
      var keys = split($('data-root').value);
      state.data.root = keys;
      state.data.expanded = new Set([pathOf(keys)]);
      state.data.offsets = new Map();
      state.data.selected = null;
      $('data-root').value = pathOf(keys);
      connectData();
    });
  }

  // ---------------------------------------------------------------- Requests

  function pollRequests() {
    var r = state.requests;
    getJSON('/.inspect/requests.json', { after: r.lastId }).then(function (page) {
      if (page.total < r.lastId) { r.list = []; r.lastId = 0; }
      r.capacity = page.capacity;
      r.total = page.total;
      if (page.requests.length) {
        Array.prototype.push.apply(r.list, page.requests);
        if (r.list.length > r.capacity) r.list.splice(0, r.list.length - r.capacity);
        r.lastId = page.requests[page.requests.length - 1].id;
        r.dirty = true;
      }
      if (r.dirty && state.view === 'requests') renderRequests();
      var denied = r.list.filter(function (x) { return x.verdict === 'denied'; }).length;
      var badge = $('denied-badge');
      badge.hidden = denied === 0;
      badge.textContent = denied + ' denied';
      // A stale compare-and-set is a transaction's retry, counted apart from errors.
      var retries = r.list.filter(function (x) { return x.verdict === 'stale'; }).length;
      var retryBadge = $('retry-badge');
      retryBadge.hidden = retries === 0;
      retryBadge.textContent = retries + (retries === 1 ? ' retry' : ' retries');
    }).catch(function (e) {
      say('Requests: ' + e.message);
    }).then(function () {
      setTimeout(pollRequests, 1000);
    });
  }

  function filteredRequests() {
    var deniedOnly = $('filter-denied').checked;
    var path = $('filter-path').value.trim();
    var user = $('filter-user').value.trim().toLowerCase();
    var out = [];
    for (var i = state.requests.list.length - 1; i >= 0; i--) {
      var x = state.requests.list[i];
      if (deniedOnly && x.verdict !== 'denied') continue;
      if (path && x.path.indexOf(path) < 0) continue;
      if (user && x.identity.toLowerCase().indexOf(user) < 0 && (x.uid || '').toLowerCase().indexOf(user) < 0) continue;
      out.push(x);
    }
    return out;
  }

  function renderRequests() {
    var r = state.requests;
    r.dirty = false;
    var started = performance.now();
    var rows = filteredRequests();
    var pages = Math.max(1, Math.ceil(rows.length / REQUESTS_PER_PAGE));
    if (r.page >= pages) r.page = pages - 1;
    var shown = rows.slice(r.page * REQUESTS_PER_PAGE, (r.page + 1) * REQUESTS_PER_PAGE);
    var body = $('requests-body');
    var keep = focusKey();
    body.replaceChildren.apply(body, shown.map(requestRow));
    restoreFocus(body, keep);
    $('requests-count').textContent = rows.length + ' of ' + r.list.length + ' requests shown, newest first (the server keeps the last ' +
      r.capacity + '; ' + r.total + ' since it started).';
    var pager = $('requests-pager');
    function go(p) { return function () { r.page = p; renderRequests(); }; }
    pager.replaceChildren(
      el('button', { type: 'button', onclick: go(r.page - 1), disabled: r.page === 0, 'data-focus': 'newer' }, 'Newer'),
      el('span', null, 'page ' + (r.page + 1) + ' of ' + pages),
      el('button', { type: 'button', onclick: go(r.page + 1), disabled: r.page >= pages - 1, 'data-focus': 'older' }, 'Older'));
    restoreFocus(pager, keep);
    state.timings.requestsRenderMs = performance.now() - started;
    state.timings.requestRows = shown.length;
  }

  function requestRow(x) {
    var selected = state.requests.selected === x.id;
    function open() { setHash('#requests/' + x.id); selectRequest(x.id); }
    return el('tr', { 'aria-selected': selected ? 'true' : 'false', 'data-id': x.id, class: 'request-' + x.verdict, onclick: open },
      el('td', null, String(x.id)),
      el('td', { class: 'mono' }, time(x.time)),
      el('td', null, x.transport),
      el('td', null, x.method),
      el('td', null, x.ns),
      el('td', { class: 'path' }, el('button', {
        type: 'button', class: 'link', 'data-focus': 'request ' + x.id, title: x.path,
        'aria-label': 'Request ' + x.id + ': ' + x.method + ' ' + x.path + ', ' + x.verdict,
        onclick: function (e) { e.stopPropagation(); open(); }
      }, x.path)),
      el('td', null, x.identity),
      el('td', null, el('span', { class: 'verdict verdict-' + x.verdict }, x.verdict === 'stale' ? 'retry' : x.verdict)),
      el('td', null, String(x.status)),
      el('td', null, x.ms.toFixed(1)));
  }

  function selectRequest(id) {
    var r = state.requests;
    r.selected = id;
    r.target = null;
    r.whole = false;
    var rows = $('requests-body').querySelectorAll('tr');
    for (var i = 0; i < rows.length; i++) rows[i].setAttribute('aria-selected', Number(rows[i].dataset.id) === id ? 'true' : 'false');
    getJSON('/.inspect/requests/' + id + '.json').then(function (detail) {
      if (r.selected !== id) return;
      r.detail = detail;
      renderRequestDetail();
    }).catch(function (e) {
      if (r.selected !== id) return;
      r.detail = null;
      document.querySelector('#request-detail .hint').hidden = true;
      $('request-title').textContent = 'Request #' + id;
      $('request-body').replaceChildren(el('p', null, e.status === 404 ? 'This request is no longer in the request log.' : e.message));
    });
  }

  function position(e) { return e.file + ':' + e.line + ':' + e.column; }

  function renderRequestDetail() {
    var r = state.requests;
    var d = r.detail;
    if (!d) return;
    document.querySelector('#request-detail .hint').hidden = true;
    $('request-title').textContent = 'Request #' + d.id + ': ' + d.method + ' ' + d.path;
    var parts = [el('dl', { class: 'props' },
      el('dt', null, 'Verdict'), el('dd', null, el('span', { class: 'verdict verdict-' + d.verdict }, d.verdict), ' (' + d.status + ')'),
      el('dt', null, 'Time'), el('dd', null, time(d.time) + ', ' + d.ms.toFixed(2) + ' ms'),
      el('dt', null, 'Via'), el('dd', null, d.transport),
      el('dt', null, 'Database'), el('dd', null, d.ns),
      el('dt', null, 'Path'), el('dd', null, el('code', null, d.path)),
      el('dt', null, 'Who'), el('dd', null, d.identity))];
    if (d.reason) parts.push(el('p', { class: 'reason', id: 'request-reason' }, d.reason));
    var ex = d.explanation;
    if (!ex) {
      parts.push(el('p', { class: 'hint' }, d.identity === 'admin'
        ? 'An administrator: the rules are not evaluated (as in the emulator).'
        : 'No rule was evaluated for this request.'));
      $('request-body').replaceChildren.apply($('request-body'), parts);
      return;
    }
    var decisive = ex.decisive === null ? null : ex.evaluations[ex.decisive];
    if (r.target === null) r.target = decisive ? decisive.line : (ex.evaluations.length ? ex.evaluations[0].line : null);
    var box = el('div', { class: 'decision' + (ex.allowed ? ' allowed' : ''), id: 'deciding-rule' });
    box.append(el('p', null, el('strong', null, ex.operation + ': ' + (ex.allowed ? 'allowed' : 'denied'))));
    if (ex.rejection) box.append(el('p', null, 'Rejected before any rule ran: ' + ex.rejection));
    if (decisive) {
      box.append(el('p', null, ex.allowed ? 'Granted by ' : 'Deciding rule: ', el('code', null, decisive.rulePath), ' at ',
        el('button', { type: 'button', class: 'link', id: 'deciding-position', onclick: function () { showSourceLine(decisive.line); } }, position(decisive)),
        ' is ', el('span', { class: 'result-' + decisive.result }, decisive.result === 'error' ? 'an error: ' + decisive.error : decisive.result)));
      if (decisive.falsePart) {
        box.append(el('p', null, 'False sub-expression: ', el('code', { class: 'false-part-text', id: 'false-part' }, decisive.falsePart)));
      }
      if (decisive.falseDetail) box.append(el('p', { id: 'false-detail' }, 'Why: ', el('code', null, decisive.falseDetail)));
      if (decisive.falseAlternatives && decisive.falseAlternatives.length > 1) {
        var alternatives = el('ul', { id: 'false-alternatives' });
        decisive.falseAlternatives.forEach(function (a) {
          alternatives.append(el('li', null, el('code', null, a.part), ' was ' + a.value + (a.detail ? ': ' : ''), a.detail ? el('code', null, a.detail) : ''));
        });
        box.append(el('p', null, 'Every alternative of the || was false:'), alternatives);
      }
      if (decisive.bindings.length) box.append(el('p', null, 'with ' + decisive.bindings.map(function (b) { return b.name + ' = ' + b.value; }).join(', ')));
    } else if (!ex.rejection) {
      box.append(el('p', null, 'No rule grants it: there is no .read or .write that is true on this path or above.'));
    }
    parts.push(box);
    if (d.rules && ex.evaluations.length) parts.push(sourceExcerpt(d, ex));
    parts.push(el('h3', null, 'Rules evaluated (' + ex.evaluations.length + ')'));
    parts.push(el('ol', { class: 'evaluations' }, ex.evaluations.map(function (e, i) { return evaluationItem(e, i === ex.decisive, ex.allowed); })));
    $('request-body').replaceChildren.apply($('request-body'), parts);
  }

  function evaluationItem(e, decisive, allowed) {
    var li = el('li', { class: decisive ? 'decisive' + (allowed ? ' allowed' : '') : null });
    li.append(el('div', null,
      el('span', { class: 'tag' }, e.kind), ' ', el('code', null, e.rulePath), ' on ', el('code', null, e.dataPath), ' → ',
      el('span', { class: 'result-' + e.result }, e.result), ' ',
      decisive ? el('span', { class: 'tag decisive' + (allowed ? ' allowed' : '') }, 'deciding rule') : null));
    li.append(el('div', null, el('button', { type: 'button', class: 'link', onclick: function () { showSourceLine(e.line); } }, position(e))));
    if (e.error) li.append(el('p', { class: 'result-error' }, 'error: ' + e.error + (e.errorLine ? ' (at line ' + e.errorLine + ':' + e.errorColumn + ')' : '')));
    if (e.bindings.length) li.append(el('div', null, 'with ' + e.bindings.map(function (b) { return b.name + ' = ' + b.value; }).join(', ')));
    if (e.source) li.append(el('div', null, el('code', null, e.source)));
    if (e.falsePart) li.append(el('div', null, 'false part: ', el('code', { class: 'false-part-text' }, e.falsePart)));
    if (e.values.length) {
      var table = el('table', { class: 'values' }, el('caption', { class: 'visually-hidden' }, 'Sub-expression values of ' + e.rulePath),
        el('thead', null, el('tr', null, el('th', { scope: 'col' }, 'sub-expression'), el('th', { scope: 'col' }, 'value'))));
      var tbody = el('tbody');
      e.values.forEach(function (v) {
        tbody.append(el('tr', { class: e.falsePart && v.text === e.falsePart ? 'false-part' : null }, el('td', null, v.text), el('td', null, v.value)));
      });
      table.append(tbody);
      li.append(el('details', { open: decisive }, el('summary', null, e.values.length + ' sub-expression values'), table));
    }
    return li;
  }

  function showSourceLine(line) {
    state.requests.target = line;
    renderRequestDetail();
    var row = document.querySelector('#request-source tr.target');
    if (row) row.scrollIntoView({ block: 'center' });
  }

  function sourceLines(text) { return text.split('\n').map(function (l) { return l.replace(/\r$/, ''); }); }

  function sourceExcerpt(d, ex) {
    var r = state.requests;
    var lines = sourceLines(d.rules.source);
    var evaluated = new Map();
    ex.evaluations.forEach(function (e) { if (!evaluated.has(e.line)) evaluated.set(e.line, e.result); });
    var decisiveLine = ex.decisive === null ? null : ex.evaluations[ex.decisive].line;
    var target = r.target || 1;
    var from = r.whole ? 1 : Math.max(1, target - SOURCE_CONTEXT);
    var to = r.whole ? lines.length : Math.min(lines.length, target + SOURCE_CONTEXT);
    var tbody = el('tbody');
    for (var n = from; n <= to; n++) {
      var classes = [];
      if (n === target) classes.push('target');
      if (n === decisiveLine) classes.push('decisive');
      if (evaluated.has(n)) classes.push('cov-' + evaluated.get(n));
      tbody.append(el('tr', { class: classes.join(' ') || null, 'data-line': n },
        el('td', { class: 'ln' }, String(n)),
        el('td', { class: 'hits' }, n === decisiveLine ? 'deciding' : evaluated.has(n) ? evaluated.get(n) : ''),
        el('td', { class: 'code' }, lines[n - 1])));
    }
    return el('div', null,
      el('h3', null, 'Rules source'),
      el('p', { class: 'hint' }, d.rules.file + ' as it was when the request was decided (' + d.rules.origin + '), lines ' + from + '–' + to + ' of ' + lines.length),
      el('div', { class: 'source-wrap' }, el('table', { class: 'source', id: 'request-source' },
        el('caption', { class: 'visually-hidden' }, 'Rules source around line ' + target), tbody)),
      el('button', { type: 'button', onclick: function () { r.whole = !r.whole; renderRequestDetail(); } },
        r.whole ? 'Show only the lines around ' + target : 'Show the whole file'));
  }

  function setupRequests() {
    $('request-filters').addEventListener('submit', function (e) { e.preventDefault(); });
    ['filter-denied', 'filter-path', 'filter-user'].forEach(function (id) {
      $(id).addEventListener('input', function () { state.requests.page = 0; renderRequests(); });
    });
  }

  // ---------------------------------------------------------------- Rules

  function loadRules() {
    clearTimeout(state.rules.timer);
    if (state.view !== 'rules' || !state.ns) return;
    var ns = state.ns;
    getText('/.inspect/rules.json', { ns: ns }).then(function (text) {
      if (ns !== state.ns) return;
      if (text !== state.rules.text) {
        state.rules.text = text;
        state.rules.report = JSON.parse(text);
        renderRules();
      }
    }).catch(function (e) { say('Rules: ' + e.message); }).then(function () {
      clearTimeout(state.rules.timer);
      state.rules.timer = setTimeout(loadRules, 2000);
    });
  }

  function renderRules() {
    var report = state.rules.report;
    if (!report) return;
    var perLine = new Map();
    var evaluatedRules = 0;
    report.rules.forEach(function (rule) {
      if (rule.evaluations > 0) evaluatedRules++;
      var line = perLine.get(rule.line) || { evaluations: 0, t: 0, f: 0, e: 0, rules: [] };
      line.evaluations += rule.evaluations; line.t += rule['true']; line.f += rule['false']; line.e += rule.error;
      line.rules.push(rule.rulePath + ': ' + rule.evaluations + ' evaluated, ' + rule['true'] + ' true, ' + rule['false'] + ' false, ' + rule.error + ' errors');
      perLine.set(rule.line, line);
    });
    var summary = 'Rules of ' + report.namespace + ': ' + report.origin + '. ';
    summary += report.coverage
      ? evaluatedRules + ' of ' + report.rules.length + ' rules evaluated since start' + (report.pending ? ' (' + report.pending + ' decisions still being counted)' : '') + (report.dropped ? '; ' + report.dropped + ' decisions dropped' : '') + '.'
      : 'Coverage is off (--no-coverage).';
    $('rules-summary').textContent = summary;

    var diag = $('rules-diagnostics');
    var broken = report.disk && !report.disk.compiles;
    var badLines = new Set();
    if (broken) {
      diag.replaceChildren(el('div', { class: 'diagnostics', role: 'alert' },
        el('strong', null, report.disk.path + ' does not compile; the previous rules stay in force (shown below).'),
        el('ul', null, report.disk.diagnostics.map(function (g) {
          if (g.line) badLines.add(g.line);
          return el('li', null, report.disk.path + (g.line ? ':' + g.line + ':' + g.column : '') + ': ' + g.severity + ': ' + g.message);
        }))));
    } else {
      diag.replaceChildren();
    }
    var badge = $('rules-badge');
    badge.hidden = !broken;
    badge.textContent = broken ? 'does not compile' : '';

    var lines = sourceLines(report.source);
    var tbody = el('tbody');
    lines.forEach(function (text, i) {
      var n = i + 1;
      var c = perLine.get(n);
      var cls = [];
      var hits = '';
      if (c) {
        cls.push(!report.coverage ? '' : c.evaluations === 0 ? 'cov-none' : c.e > 0 ? 'cov-error' : c.t > 0 && c.f > 0 ? 'cov-mixed' : c.t > 0 ? 'cov-true' : 'cov-false');
        hits = c.evaluations + '× ✓' + c.t + ' ✗' + c.f + (c.e ? ' !' + c.e : '');
      }
      if (n === state.rules.target) cls.push('target');
      tbody.append(el('tr', { class: cls.join(' ').trim() || null, 'data-line': n },
        el('td', { class: 'ln' }, String(n)),
        el('td', { class: 'hits', title: c ? c.rules.join('\n') : null },
          c ? el('span', { 'aria-hidden': 'true' }, hits) : '',
          c ? el('span', { class: 'visually-hidden' }, c.rules.join('; ')) : ''),
        el('td', { class: 'code' }, text)));
    });
    $('rules-source').replaceChildren(el('caption', { class: 'visually-hidden' }, 'Rules source with coverage'), tbody);
    if (state.rules.target) {
      var row = document.querySelector('#rules-source tr.target');
      if (row) row.scrollIntoView({ block: 'center' });
    }
  }

  // ---------------------------------------------------------------- Start

  function start() {
    setupTabs();
    setupData();
    setupRequests();
    $('namespace').addEventListener('change', function (e) { setNamespace(e.target.value); });
    loadNamespaces().then(function () {
      if (!state.ns) { state.ns = defaultNamespace; connectData(); }
    });
    setInterval(loadNamespaces, 5000);
    if (state.ns) connectData();
    pollRequests();
    route();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();