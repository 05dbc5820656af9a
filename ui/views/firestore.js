// Firestore data viewer: collections | documents of the selected collection | fields of
// the selected document, for the route `#/firestore/<path>`.
//
// The three panes follow the path: for a collection path the panes show its parent's
// collections and its documents; for a document path also the document. Documents are
// listed a page at a time (never the whole collection). Live `change` events patch the
// document list in place and refetch only the pane whose data changed. A collection may be
// filtered and sorted (one filter per collection path, kept while the view is open): its
// list is then a structured query, paged with a cursor, that a live change re-runs.

import { el, button, showError, showInfo, onEvent, debounce, firestoreHash, keepFocus } from '../app.js';
import * as api from '../api.js';
import { fieldEditor, typeOf, typeLabel, display, children, patchFor, DELETE, refPath, fieldPath, arrayValues, valueAt } from '../values.js';
import { structuredQuery, cursorAfter, describe } from '../query.js';
import { filterForm } from './collection-filter.js';

const PAGE_SIZE = 50;
const DELETE_PAGE = 500; // commit batches are at most 500 writes

const segsOf = (path) => (path ? path.split('/') : []);
const lastSeg = (path) => segsOf(path).pop() || '';

export function mount(root, rest) {
  const s = {
    parent: undefined, coll: undefined, doc: undefined, // relative paths ('' = root; undefined = not yet shown)
    collections: [], docs: [], nextPageToken: null, docsLoading: false,
    missing: new Set(), // listed ids with no document of their own, only subcollections
    document: undefined, subcollections: [], // undefined = loading, null = does not exist
    expanded: new Set(), editing: null, editSeq: 0,
    gen: { cols: 0, docs: 0, doc: 0 }, busy: false,
    writes: 0, // count of our PATCH answers applied to `document` (newer than reads in flight)
    filters: new Map(), // collection path → filter ({field, op, type, text, sort}, ../query.js)
    filter: null, filterOpen: false, // the filter of `coll` in force; its form shown
  };
  const crumbs = el('nav', { class: 'crumbs', 'aria-label': 'Firestore path' });
  const colsPane = el('section', { class: 'pane', id: 'collections-pane', 'aria-label': 'Collections' });
  const docsPane = el('section', { class: 'pane', id: 'documents-pane', 'aria-label': 'Documents' });
  const docPane = el('section', { class: 'pane', id: 'document-pane', 'aria-label': 'Document' });
  root.append(
    el('div', { class: 'toolbar' },
      el('h1', {}, 'Firestore'), crumbs, el('span', { class: 'spacer' }),
      button('Clear all data', clearAll, { id: 'clear-all', class: 'danger' })),
    el('div', { class: 'panes' }, colsPane, docsPane, docPane));

  let prefix = null; // resource-name prefix "projects/p/databases/(default)/documents/"
  api.resourceName('').then((p) => { prefix = p; }).catch(showError);

  // -------------------------------------------------------------------------------------
  // Navigation

  function apply(segs) {
    const n = segs.length;
    const join = (a) => a.join('/');
    let parent = '', coll = null, doc = null;
    if (n % 2 === 1) { coll = join(segs); parent = join(segs.slice(0, -1)); }
    else if (n > 0) { doc = join(segs); coll = join(segs.slice(0, -1)); parent = join(segs.slice(0, -2)); }
    const parentChanged = parent !== s.parent, collChanged = coll !== s.coll, docChanged = doc !== s.doc;
    s.parent = parent;
    if (collChanged) {
      s.coll = coll; s.docs = []; s.missing = new Set(); s.nextPageToken = null;
      s.filter = (coll && s.filters.get(coll)) || null; s.filterOpen = false;
    }
    if (docChanged) { s.doc = doc; s.editing = null; s.expanded.clear(); s.document = undefined; s.subcollections = []; }
    renderCrumbs(segs);
    if (parentChanged) loadCollections(); else markSelected(colsPane, 'collection-item', coll ? lastSeg(coll) : null);
    if (collChanged) loadDocs(false); else markSelected(docsPane, 'doc-item', doc ? lastSeg(doc) : null);
    if (docChanged) loadDoc(); else if (!doc) renderDoc();
  }

  /** Moves the selection mark in a list without rebuilding it (found elements stay valid). */
  function markSelected(pane, testid, id) {
    for (const a of pane.querySelectorAll(`[data-testid="${testid}"]`)) {
      const on = a.dataset.id === id;
      a.classList.toggle('selected', on);
      if (on) a.setAttribute('aria-current', 'true'); else a.removeAttribute('aria-current');
    }
    // The id `start-collection` moves to the document pane's button while a document is open.
    const start = colsPane.querySelector('[data-testid="start-collection"]');
    if (start) { if (s.doc) start.removeAttribute('id'); else start.id = 'start-collection'; }
  }

  const go = (path) => { location.hash = firestoreHash(segsOf(path)); };

  function renderCrumbs(segs) {
    const items = [el('a', { href: '#/firestore' }, 'Root')];
    segs.forEach((seg, i) => {
      items.push(el('span', { class: 'sep', 'aria-hidden': 'true' }, '/'));
      const here = i === segs.length - 1;
      items.push(el('a', { href: firestoreHash(segs.slice(0, i + 1)), 'aria-current': here ? 'location' : null }, seg));
    });
    crumbs.replaceChildren(...items);
  }

  // -------------------------------------------------------------------------------------
  // Loading

  async function loadCollections() {
    const gen = ++s.gen.cols;
    const refresh = s.shownParent === s.parent; // a live refresh keeps the list until the answer
    if (!refresh) renderCollections(true);
    try {
      const ids = await api.listCollectionIds(s.parent);
      if (gen !== s.gen.cols) return;
      if (refresh && JSON.stringify(ids) === JSON.stringify(s.collections)) return;
      s.collections = ids;
    } catch (err) {
      if (gen === s.gen.cols) { s.collections = []; showError(err); }
    }
    if (gen === s.gen.cols) renderCollections();
  }

  async function loadDocs(more) {
    const gen = ++s.gen.docs;
    if (!s.coll) { renderDocs(); return; }
    s.docsLoading = true;
    // A live refresh (same collection, same filter) keeps the list shown until the answer.
    const refresh = !more && dom.coll === s.coll && dom.filter === s.filter;
    if (!more && !refresh) renderDocs();
    try {
      const r = await (s.filter ? queryPage(more, refresh) : listPage(more));
      if (gen !== s.gen.docs) return;
      const { ids, missing } = r;
      s.nextPageToken = r.next;
      s.docsLoading = false;
      if (more) {
        // Append the page to the list in place (the items already shown stay as they are).
        const hadFocus = document.activeElement?.id === 'load-more';
        const fresh = ids.filter((id) => !s.docs.includes(id));
        for (const id of missing) s.missing.add(id);
        s.docs.push(...fresh);
        for (const id of fresh) dom.docList?.append(docItem(id));
        updateDocsMeta();
        // The last page loaded: "Load more" is gone, so focus the first new document.
        if (hadFocus && !document.getElementById('load-more')) {
          dom.docList?.querySelector(`[data-id="${CSS.escape(fresh[0] ?? '')}"]`)?.focus();
        }
      } else if (!refresh || JSON.stringify(ids) !== JSON.stringify(s.docs)
        || JSON.stringify(missing) !== JSON.stringify(s.docs.filter((id) => s.missing.has(id)))) {
        s.docs = ids;
        s.missing = new Set(missing);
        renderDocs();
      } else {
        updateDocsMeta(); // same first page (e.g. a refresh): keep the items as they are
      }
    } catch (err) {
      if (gen !== s.gen.docs) return;
      s.docsLoading = false;
      showError(err);
      updateDocsMeta();
    }
  }

  /** The next (or first) page of the collection: `{ids, missing, next}` (next: a page token). */
  async function listPage(more) {
    // showMissing: also the ids that only hold subcollections (they come without createTime).
    const r = await api.listDocuments(s.coll, { pageSize: PAGE_SIZE, pageToken: more ? s.nextPageToken : undefined, namesOnly: true, showMissing: true });
    return {
      ids: r.documents.map((d) => lastSeg(refPath(d.name))),
      missing: r.documents.filter((d) => !d.createTime).map((d) => lastSeg(refPath(d.name))),
      next: r.nextPageToken,
    };
  }

  /**
   * The next (or first) page of the filter's query: `{ids, missing: [], next}` (next: the
   * cursor after the page's last document). A refresh asks for as many as are shown. One
   * more than the page is asked for, so "Load more" shows only when there is more.
   */
  async function queryPage(more, refresh) {
    const { query, orderPaths } = structuredQuery(lastSeg(s.coll), s.filter);
    const limit = refresh ? Math.max(PAGE_SIZE, s.docs.length) : PAGE_SIZE;
    if (more) query.startAt = s.nextPageToken;
    query.limit = limit + 1;
    const docs = await api.runQuery(segsOf(s.coll).slice(0, -1).join('/'), query);
    const page = docs.slice(0, limit);
    return {
      ids: page.map((d) => lastSeg(refPath(d.name))),
      missing: [],
      next: docs.length > limit ? cursorAfter(page[page.length - 1], orderPaths) : null,
    };
  }

  async function loadDoc() {
    const gen = ++s.gen.doc;
    if (!s.doc) { renderDoc(); return; }
    if (s.document === undefined) renderDoc();
    const writes = s.writes;
    try {
      const [d, subs] = await Promise.all([api.getDocument(s.doc), api.listCollectionIds(s.doc)]);
      if (gen !== s.gen.doc) return;
      // A write of ours answered meanwhile: its answer is at least as new as this read.
      if (writes !== s.writes && s.document) return;
      // Nothing new (e.g. the event of our own write): keep the DOM as it is.
      if (s.document !== undefined && JSON.stringify([d, subs]) === JSON.stringify([s.document, s.subcollections])) return;
      s.document = d;
      s.subcollections = subs;
    } catch (err) {
      if (gen !== s.gen.doc) return;
      showError(err);
      if (s.document === undefined) s.document = null;
    }
    renderDoc(); // an open editor survives: renderDoc reuses its node
  }

  // -------------------------------------------------------------------------------------
  // Collections pane

  function renderCollections(loading = false) {
    s.shownParent = loading ? null : s.parent;
    const parentSegs = segsOf(s.parent);
    const selected = s.coll ? lastSeg(s.coll) : null;
    const title = s.parent ? `Collections of ${lastSeg(s.parent)}` : 'Root collections';
    // The id `start-collection` belongs to the document pane's button while a document is open.
    const start = button('Start collection', () => startCollection(s.parent),
      { id: s.doc ? null : 'start-collection', 'data-testid': 'start-collection', dataset: { fk: 'start-root' } });
    const list = el('ul', { class: 'items', 'aria-label': title });
    for (const id of s.collections) {
      list.append(el('li', {}, el('a', {
        href: firestoreHash([...parentSegs, id]), class: 'item' + (id === selected ? ' selected' : ''),
        'data-testid': 'collection-item', dataset: { id }, 'aria-current': id === selected ? 'true' : null,
      }, id)));
    }
    keepFocus(colsPane, () => colsPane.replaceChildren(
      el('header', { class: 'pane-head' }, el('h2', { title: s.parent || '/' }, title), start),
      loading ? el('p', { class: 'empty' }, 'Loading…') : (s.collections.length ? list : el('p', { class: 'empty' }, 'No collections'))));
  }

  /** Prompts for "collection" or "collection/docId" and creates the first document. */
  async function startCollection(parent) {
    const answer = prompt('Collection ID (optionally collection/documentId for the first document; default: auto ID)');
    if (answer == null) return;
    const [col, docId, ...extra] = answer.trim().split('/');
    if (!col || extra.length) throw new Error('Enter a collection ID, or collection/documentId');
    const collPath = parent ? `${parent}/${col}` : col;
    const created = await api.createDocument(collPath, docId || undefined, {});
    showInfo(`Created ${refPath(created.name)}`);
    if (parent === s.parent) loadCollections();
    go(refPath(created.name));
  }

  // -------------------------------------------------------------------------------------
  // Documents pane

  // The list is built once per collection; live changes and "Load more" then insert and
  // remove single items, so elements a user (or a test) holds stay valid.
  const dom = { coll: null, filter: null, docList: null, docCount: null, docEmpty: null, moreBox: null, filterForm: null };

  function renderDocs() {
    dom.coll = s.coll;
    if (!s.coll) {
      dom.docList = null;
      docsPane.replaceChildren(el('p', { class: 'empty' }, 'Select a collection'));
      return;
    }
    dom.filter = s.filter;
    dom.docList = el('ul', { class: 'items', 'aria-label': `Documents of ${lastSeg(s.coll)}` }, s.docs.map(docItem));
    dom.docCount = el('p', { class: 'meta', id: 'doc-count', 'aria-live': 'polite' });
    dom.docEmpty = el('p', { class: 'empty', id: 'doc-empty' }, s.filter ? 'No documents match the filter' : 'No documents');
    dom.moreBox = el('div', { class: 'more' });
    // The form survives redraws of the list (a live change while typing in it).
    if (s.filterOpen && dom.filterForm?.coll !== s.coll) {
      dom.filterForm = filterForm({
        collectionId: lastSeg(s.coll), initial: s.filter,
        onApply: (f) => setFilter(f), onClear: () => setFilter(null), onCancel: () => toggleFilter(false),
      });
      dom.filterForm.coll = s.coll;
    } else if (!s.filterOpen) dom.filterForm = null;
    const summary = s.filter
      ? el('div', { class: 'filter-summary', id: 'filter-summary' },
        el('code', { 'data-testid': 'filter-description' }, describe(s.filter)),
        button('Clear filter', () => setFilter(null), { class: 'small', id: 'clear-filter' }))
      : null;
    keepFocus(docsPane, () => docsPane.replaceChildren(
      el('header', { class: 'pane-head' },
        el('h2', { title: s.coll }, lastSeg(s.coll)),
        el('div', { class: 'actions' },
          button(s.filter ? 'Filter (on)' : 'Filter', () => toggleFilter(!s.filterOpen), {
            id: 'filter-toggle', 'aria-expanded': String(s.filterOpen), 'aria-controls': 'filter-form', class: s.filter ? 'on' : null,
          }),
          button('Add document', addDocument, { id: 'add-document' }),
          button('Delete collection', deleteCollection, { id: 'delete-collection', class: 'danger' }))),
      ...[dom.filterForm, summary].filter(Boolean), dom.docCount, dom.docEmpty, dom.docList, dom.moreBox));
    updateDocsMeta();
  }

  /** Shows or hides the filter form (focus goes into it, or back to its button). */
  function toggleFilter(open) {
    s.filterOpen = open;
    if (!open) dom.filterForm = null;
    renderDocs();
    if (open) dom.filterForm?.focusFirst();
    else document.getElementById('filter-toggle')?.focus();
  }

  /** Puts `f` in force for the open collection (null: no filter) and lists from the start. */
  function setFilter(f) {
    if (f) s.filters.set(s.coll, f); else s.filters.delete(s.coll);
    s.filter = f;
    s.filterOpen = false;
    dom.filterForm = null;
    s.docs = []; s.missing = new Set(); s.nextPageToken = null;
    loadDocs(false);
    document.getElementById('filter-toggle')?.focus();
  }

  /** The count line, the "No documents" note and the "Load more" button. */
  function updateDocsMeta() {
    if (!dom.docList) return;
    const n = s.docs.length;
    dom.docCount.textContent = s.docsLoading && !n ? 'Loading…'
      : `${n} ${s.filter ? 'matching ' : ''}document${n === 1 ? '' : 's'}${s.nextPageToken ? ' loaded (more available)' : ''}`;
    dom.docEmpty.hidden = n > 0 || s.docsLoading;
    const more = document.getElementById('load-more');
    if (s.nextPageToken && !more) dom.moreBox.append(button('Load more', () => loadDocs(true), { id: 'load-more' }));
    else if (!s.nextPageToken && more) more.remove();
  }

  function docItem(id) {
    const selected = s.doc ? lastSeg(s.doc) === id : false;
    const a = el('a', {
      href: firestoreHash([...segsOf(s.coll), id]), class: 'item' + (selected ? ' selected' : ''),
      'data-testid': 'doc-item', dataset: { id }, 'aria-current': selected ? 'true' : null,
    }, id);
    markMissing(a, s.missing.has(id));
    return el('li', {}, a);
  }

  /** Italic with a tooltip while the id has no document, only subcollections. */
  function markMissing(a, missing) {
    a.classList.toggle('missing', missing);
    if (missing) a.title = 'no document; has subcollections'; else a.removeAttribute('title');
  }

  /** Updates the missing mark of a listed id in place (the element stays the same). */
  function setMissing(id, missing) {
    if (s.filter) { if (missing) removeDoc(id); return; } // a missing document matches no filter
    if (missing) s.missing.add(id); else s.missing.delete(id);
    const a = dom.docList?.querySelector(`[data-testid="doc-item"][data-id="${CSS.escape(id)}"]`);
    if (a) markMissing(a, missing);
  }

  async function addDocument() {
    const answer = prompt('Document ID (leave empty for an auto ID)');
    if (answer == null) return;
    const id = answer.trim();
    if (id.includes('/')) throw new Error('A document ID cannot contain "/"');
    const created = await api.createDocument(s.coll, id || undefined, {});
    showInfo(`Created ${refPath(created.name)}`);
    insertDoc(lastSeg(refPath(created.name)));
    go(refPath(created.name));
  }

  async function deleteCollection() {
    if (s.busy) return;
    const coll = s.coll;
    if (!confirm(`Delete collection ${coll}? This deletes all its documents and their subcollections. It cannot be undone.`)) return;
    s.busy = true;
    const progress = { count: 0 };
    try {
      showInfo(`Deleting ${coll}…`);
      await deleteRecursively(coll, progress);
      showInfo(`Deleted collection ${coll} (${progress.count} document${progress.count === 1 ? '' : 's'})`);
    } finally {
      s.busy = false;
    }
    if (s.coll === coll) go(segsOf(coll).slice(0, -1).join('/'));
    loadCollections();
  }

  // -------------------------------------------------------------------------------------
  // Document pane

  // The pane is redrawn from `s` on every change, but nodes whose content is unchanged are
  // reused (cached by field path): after a save only the edited row is replaced, so the
  // elements a user or a test holds stay valid and an open editor keeps what was typed.
  let view = null; // {doc, head, meta, fields, empty, subs, subsSig, blocks: Map, pass, addEditor}

  function renderDoc() {
    if (!s.doc) {
      view = null;
      docPane.replaceChildren(el('p', { class: 'empty' }, s.coll ? 'Select a document' : ''));
      return;
    }
    if (view?.doc !== s.doc) {
      view = {
        doc: s.doc, blocks: new Map(), pass: 0, addEditor: null,
        head: el('header', { class: 'pane-head' },
          el('h2', { title: s.doc }, lastSeg(s.doc)),
          el('div', { class: 'actions' },
            button('Add field', () => openEditor('add:[]'), { id: 'add-field', dataset: { fk: 'add-field' } }),
            button('Delete document', deleteDocument, { id: 'delete-document', class: 'danger' }))),
        meta: el('p', { class: 'meta', id: 'document-meta' }),
        fields: el('div', { class: 'fields', role: 'list', 'aria-label': 'Fields' }),
        empty: el('p', { class: 'empty' }, 'No fields'),
        subs: null, subsSig: null,
      };
    }
    view.pass++;
    const d = s.document;
    view.meta.className = d === null ? 'note' : (d === undefined ? 'empty' : 'meta');
    view.meta.textContent = d === undefined ? 'Loading…'
      : d === null ? (s.subcollections.length
        ? 'No document here: this path only holds the subcollections below (reading it gives 404 Not Found). Adding a field creates the document.'
        : 'This document does not exist. Adding a field creates it.')
        : `Created ${d.createTime || '?'} · Updated ${d.updateTime || '?'}`;
    const parts = [view.head, view.meta];
    if (s.editing === 'add:[]') parts.push(view.addEditor ||= editorFor([], null));
    else view.addEditor = null;
    const fields = d?.fields || {};
    const names = Object.keys(fields).sort();
    if (d) {
      setChildren(view.fields, names.map((n) => fieldBlock(n, fields[n], [n])));
      parts.push(names.length ? view.fields : view.empty);
    }
    for (const [k, c] of view.blocks) if (c.pass !== view.pass) view.blocks.delete(k); // fields gone
    if (d !== undefined) {
      const sig = JSON.stringify(s.subcollections);
      if (sig !== view.subsSig) { view.subs = subcollectionsSection(); view.subsSig = sig; }
      parts.push(view.subs);
    }
    keepFocus(docPane, () => setChildren(docPane, parts));
    if (s.focusEditor) {
      s.focusEditor = false;
      docPane.querySelector('form.field-editor')?.focusFirst?.();
    }
  }

  /** Replaces `parent`'s children by `nodes` unless they are already exactly those. */
  function setChildren(parent, nodes) {
    const now = parent.childNodes;
    if (now.length === nodes.length && nodes.every((n, i) => now[i] === n)) return;
    parent.replaceChildren(...nodes);
  }

  function subcollectionsSection() {
    const docSegs = segsOf(s.doc);
    const start = button('Start collection', () => startCollection(s.doc), { id: 'start-collection', 'data-testid': 'start-collection' });
    const list = el('ul', { class: 'items' }, s.subcollections.map((id) => el('li', {},
      el('a', { href: firestoreHash([...docSegs, id]), class: 'item', 'data-testid': 'subcollection-item', dataset: { id } }, id))));
    return el('section', { class: 'subcollections', 'aria-label': 'Subcollections' },
      el('div', { class: 'pane-head' }, el('h3', {}, 'Subcollections'), start),
      s.subcollections.length ? list : el('p', { class: 'empty' }, 'None'));
  }

  /** One field (and, when expanded, its children); `path` is its segment path. */
  function fieldBlock(label, value, path) {
    const key = JSON.stringify(path);
    const t = typeOf(value);
    const open = (t === 'map' || t === 'array') && s.expanded.has(key);
    let c = view.blocks.get(key);
    if (!c) { c = { block: el('div', { class: 'field-block' }) }; view.blocks.set(key, c); }
    c.pass = view.pass;
    const rowSig = JSON.stringify([label, value, open]);
    if (c.rowSig !== rowSig) { c.row = fieldRow(label, value, path, open); c.rowSig = rowSig; }
    const parts = [c.row];
    // An editor lives as long as its editing session (`editSeq`), across redraws.
    if (s.editing === 'edit:' + key) {
      if (c.editSeq !== s.editSeq) { c.editor = editorFor(path, value); c.editSeq = s.editSeq; }
      parts.push(c.editor);
    } else c.editSeq = null;
    if (open) {
      c.kids ||= el('div', { class: 'children', role: 'list' });
      c.kids.setAttribute('aria-label', `Fields of ${typeof label === 'number' ? `[${label}]` : label}`);
      const kids = children(value).map(([seg, v]) => fieldBlock(seg, v, [...path, seg]));
      if (s.editing === 'add:' + key) {
        if (c.addSeq !== s.editSeq) { c.adder = editorFor(path, null, t); c.addSeq = s.editSeq; }
        kids.push(c.adder);
      } else c.addSeq = null;
      if (c.addType !== t) {
        c.addBtn = button(t === 'map' ? 'Add field' : 'Add item', () => openEditor('add:' + key), {
          class: 'small', 'data-testid': 'add-nested-field', dataset: { fk: 'add:' + key },
        });
        c.addType = t;
      }
      kids.push(c.addBtn);
      setChildren(c.kids, kids);
      parts.push(c.kids);
    }
    setChildren(c.block, parts);
    return c.block;
  }

  /** The row of one field: toggle, name, type, value, Edit and Delete. */
  function fieldRow(label, value, path, open) {
    const key = JSON.stringify(path);
    const t = typeOf(value);
    const shown = typeof label === 'number' ? `[${label}]` : label;
    const toggle = t === 'map' || t === 'array'
      ? button(open ? '▾' : '▸', () => { if (open) s.expanded.delete(key); else s.expanded.add(key); renderDoc(); }, {
        class: 'toggle', 'aria-expanded': String(open), 'aria-label': `${open ? 'Collapse' : 'Expand'} ${shown}`, dataset: { fk: 'toggle:' + key },
      })
      : el('span', { class: 'toggle-space', 'aria-hidden': 'true' });
    const valueEl = t === 'reference'
      ? el('a', { href: firestoreHash(segsOf(refPath(value.referenceValue))), class: 'fvalue mono', 'data-testid': 'field-value' }, display(value))
      : el('span', { class: 'fvalue' + (t === 'string' ? '' : ' mono'), 'data-testid': 'field-value' }, display(value));
    return el('div', {
      class: 'field-row', role: 'listitem', 'data-testid': 'field-row',
      dataset: { field: String(label), path: path.map(String).join('.'), type: t },
    },
      toggle,
      el('span', { class: 'fname' }, shown),
      el('span', { class: 'ftype' }, typeLabel(t)),
      valueEl,
      el('span', { class: 'row-actions' },
        button('Edit', () => openEditor('edit:' + key), { class: 'small', 'data-testid': 'edit-field', 'aria-label': `Edit ${shown}`, dataset: { fk: 'edit:' + key } }),
        button('Delete', () => deleteField(path), { class: 'small danger', 'data-testid': 'delete-field', 'aria-label': `Delete ${shown}`, dataset: { fk: 'del:' + key } })));
  }

  function openEditor(which) {
    s.editing = which;
    s.editSeq = (s.editSeq || 0) + 1;
    s.focusEditor = true;
    renderDoc();
  }

  function closeEditor() {
    const was = s.editing;
    s.editing = null;
    renderDoc();
    focusOpener(was);
  }

  /** Focuses the button that opened editor `which` (keyboard users keep their place). */
  function focusOpener(which) {
    const fk = which === 'add:[]' ? 'add-field' : which;
    if (fk) docPane.querySelector(`[data-fk="${CSS.escape(fk)}"]`)?.focus();
  }

  /**
   * The editor for `path`: editing its `value`, or (value null) adding a field to the document
   * (path []) or to the map/array at `path` (`containerType`).
   */
  function editorFor(path, value, containerType = 'map') {
    const adding = value === null;
    const toArray = adding && containerType === 'array';
    const form = fieldEditor({
      value: adding ? undefined : value,
      withName: adding && !toArray,
      referencePrefix: prefix || '',
      onCancel: closeEditor,
      onSave: async (name, v) => {
        const fields = s.document?.fields || {};
        let target = path;
        if (adding) {
          const container = valueAt(fields, path);
          if (toArray) target = [...path, arrayValues(container).length];
          else {
            if (Object.prototype.hasOwnProperty.call(container?.mapValue?.fields || {}, name)) throw new Error(`Field "${name}" already exists`);
            target = [...path, name];
          }
        }
        const which = s.editing;
        if (path.length && adding) s.expanded.add(JSON.stringify(path));
        await writeField(target, v);
        focusOpener(which);
      },
    });
    return form;
  }

  /** PATCHes one field (value or DELETE) with an update mask and shows the result. */
  async function writeField(path, v) {
    const docPath = s.doc;
    const { mask, fields } = patchFor(s.document?.fields || {}, path, v);
    const updated = await api.patchDocument(docPath, fields, mask);
    if (s.doc !== docPath) return;
    s.writes++;
    const wasMissing = !s.document;
    s.document = updated;
    s.editing = null;
    renderDoc();
    if (wasMissing) insertDoc(lastSeg(docPath));
    showInfo(`${v === DELETE ? 'Deleted' : 'Saved'} ${fieldPath(path.filter((x) => typeof x === 'string'))}`);
  }

  async function deleteField(path) {
    // Keyboard users keep their place: afterwards focus the next field's Delete (or Add field).
    const block = view?.blocks.get(JSON.stringify(path))?.block;
    const next = (block?.nextElementSibling || block?.previousElementSibling)?.querySelector('[data-testid="delete-field"]')?.dataset.fk;
    const hadFocus = block?.contains(document.activeElement);
    await writeField(path, DELETE);
    if (hadFocus) (docPane.querySelector(`[data-fk="${CSS.escape(next || '')}"]`) || document.getElementById('add-field'))?.focus();
  }

  async function deleteDocument() {
    const docPath = s.doc;
    const subs = s.subcollections.length;
    if (!confirm(`Delete document ${docPath}?${subs ? ' Its subcollections are kept.' : ''} This cannot be undone.`)) return;
    await api.deleteDocument(docPath);
    showInfo(`Deleted document ${docPath}`);
    if (subs) setMissing(lastSeg(docPath), true); // still listed: it holds subcollections
    else removeDoc(lastSeg(docPath));
    go(segsOf(docPath).slice(0, -1).join('/'));
  }

  // -------------------------------------------------------------------------------------
  // Clear all, recursive delete

  async function clearAll() {
    if (!confirm('Delete ALL Firestore data of this project? This cannot be undone.')) return;
    await api.clearAllData();
    showInfo('All Firestore data cleared');
    reloadAll();
    if (location.hash !== '#/firestore') go('');
  }

  function reloadAll() {
    loadCollections();
    loadDocs(false);
    loadDoc();
  }

  // -------------------------------------------------------------------------------------
  // Live updates

  /** Adds a document id to the open list when it falls inside the loaded range. */
  function insertDoc(id, missing = false) {
    if (s.filter) { refreshFiltered(); return; } // where it goes is the query's to say
    if (s.docs.includes(id)) { if (!missing && s.missing.has(id)) setMissing(id, false); return; }
    const last = s.docs[s.docs.length - 1];
    if (s.nextPageToken && last !== undefined && !(id < last)) return; // it will come with "Load more"
    if (missing) s.missing.add(id); else s.missing.delete(id);
    let i = s.docs.findIndex((x) => id < x);
    if (i === -1) i = s.docs.length;
    s.docs.splice(i, 0, id);
    dom.docList?.insertBefore(docItem(id), dom.docList.children[i] || null);
    updateDocsMeta();
  }

  function removeDoc(id) {
    if (!s.docs.includes(id)) return;
    s.docs = s.docs.filter((x) => x !== id);
    s.missing.delete(id);
    dom.docList?.querySelector(`[data-id="${CSS.escape(id)}"]`)?.closest('li')?.remove();
    updateDocsMeta();
  }

  const refreshCollections = debounce(loadCollections, 250);
  const refreshFiltered = debounce(() => { if (s.filter) loadDocs(false); }, 250);
  const refreshDoc = debounce(loadDoc, 150);

  function onChange(ev) {
    // `truncated`: the server left changes out of the event, so refetch what is shown.
    if (ev.cleared || ev.truncated) { reloadAll(); return; }
    for (const c of ev.changes || []) {
      const rel = refPath(c.path);
      const segs = segsOf(rel);
      const parentColl = segs.slice(0, -1).join('/');
      if (s.filter) {
        // Whether and where a document is listed: the query says (a modified one too). One
        // deeper down only makes a missing ancestor, which no filter matches.
        if (parentColl === s.coll) refreshFiltered();
      } else if (s.coll && parentColl === s.coll) {
        const id = segs[segs.length - 1];
        if (c.kind === 'removed') {
          // An id that still holds subcollections stays listed, as a missing document.
          if (rel === s.doc && s.subcollections.length) setMissing(id, true);
          else removeDoc(id);
        } else if (c.kind === 'added') insertDoc(id);
      } else if (s.coll && c.kind === 'added' && rel.startsWith(s.coll + '/')) {
        // A document deeper down: its ancestor in this collection is listed (maybe missing).
        insertDoc(segs[segsOf(s.coll).length], true);
      }
      if (s.doc && (rel === s.doc || (rel.startsWith(s.doc + '/') && c.kind !== 'modified'))) refreshDoc();
      // A collection appears in or disappears from the first pane.
      const base = s.parent ? s.parent + '/' : '';
      if (rel.startsWith(base) && c.kind !== 'modified') {
        const colId = rel.slice(base.length).split('/')[0];
        const known = s.collections.includes(colId);
        if ((c.kind === 'added' && !known) || (c.kind === 'removed' && known)) refreshCollections();
      }
    }
  }

  const off = onEvent('change', onChange);
  apply(rest);
  return {
    update: apply,
    destroy() {
      off();
      refreshCollections.cancel(); refreshDoc.cancel(); refreshFiltered.cancel();
      s.gen.cols++; s.gen.docs++; s.gen.doc++;
    },
  };
}

/**
 * Deletes a collection and everything below it. First its documents, a page of ≤ 500 per
 * commit (re-listing from the start, since the deleted ones are gone). What is left then
 * are missing documents — ids that only have subcollections (`showMissing` lists them) —
 * whose subcollections are deleted the same way. So ListCollectionIds is asked only about
 * documents known to have subcollections, not once per document. `progress.count` counts
 * the deleted documents.
 */
async function deleteRecursively(collPath, progress) {
  for (;;) {
    const { documents } = await api.listDocuments(collPath, { pageSize: DELETE_PAGE, namesOnly: true });
    if (!documents.length) break;
    await api.commit(documents.map((d) => ({ delete: d.name })));
    progress.count += documents.length;
    showInfo(`Deleting ${collPath}… ${progress.count} documents deleted`);
  }
  let pageToken;
  for (;;) {
    const page = await api.listDocuments(collPath, { pageSize: DELETE_PAGE, namesOnly: true, showMissing: true, pageToken });
    await eachLimited(page.documents, 4, async (d) => {
      if (d.createTime) { // written meanwhile
        await api.commit([{ delete: d.name }]);
        progress.count++;
      }
      const rel = refPath(d.name);
      for (const sub of await api.listCollectionIds(rel)) await deleteRecursively(`${rel}/${sub}`, progress);
    });
    if (!page.nextPageToken || !page.documents.length) break;
    pageToken = page.nextPageToken;
  }
}

/** Runs `fn` over `items` with at most `limit` running at once. */
async function eachLimited(items, limit, fn) {
  let next = 0;
  const worker = async () => { while (next < items.length) await fn(items[next++]); };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
