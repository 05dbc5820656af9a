// The Firestore view's collection filter form: field path, condition, typed value(s) and sort
// order, with a preview of the query in the SDKs' words. The query itself: ../query.js.

import { el, button, labelled } from '../app.js';
import { OPERATORS, VALUE_TYPES, takesList, structuredQuery, describe } from '../query.js';

/**
 * The filter form for collection `collectionId`. `initial`: the filter in force (or null).
 * `onApply(filter)` gets `{field, op, type, text, sort}` once it compiles to a query (it may
 * be async; a throw is shown in the form); `onClear()` removes the filter; `onCancel()` closes
 * the form unchanged (also on Escape). `form.focusFirst()` focuses the field path.
 */
export function filterForm({ collectionId, initial, onApply, onClear, onCancel }) {
  const f = { field: '', op: '', type: 'string', text: '', sort: '', ...(initial || {}) };
  const field = el('input', { id: 'filter-field', type: 'text', spellcheck: 'false', autocomplete: 'off', placeholder: 'e.g. address.city', value: f.field });
  const op = el('select', { id: 'filter-op' },
    el('option', { value: '' }, 'No condition'),
    OPERATORS.map(([o, , label]) => el('option', { value: o }, label)));
  op.value = f.op;
  const type = el('select', { id: 'filter-type', 'aria-label': 'Value type' }, VALUE_TYPES.map((t) => el('option', { value: t }, t)));
  type.value = f.type;
  // The type stays put while the value control under it changes (focus is not lost).
  const valueBox = el('div', { class: 'filter-value-box' });
  const hint = el('p', { class: 'hint', id: 'filter-value-hint' });
  const valueSlot = el('div', { class: 'filter-value' }, el('div', { class: 'editor-inputs' }, labelled('Value type', type), valueBox), hint);
  const sortBox = el('fieldset', { class: 'sort' }, el('legend', {}, 'Sort results by this field'),
    [['', 'None'], ['asc', 'Ascending'], ['desc', 'Descending']].map(([v, label]) => {
      const id = `filter-sort-${v || 'none'}`;
      return el('span', { class: 'radio' },
        el('input', { type: 'radio', name: 'filter-sort', id, value: v, checked: f.sort === v }),
        el('label', { for: id }, label));
    }));
  const preview = el('code', { class: 'filter-preview', id: 'filter-preview', 'aria-label': 'Query preview' });
  const error = el('p', { class: 'editor-error', role: 'alert', id: 'filter-error' });
  let value = null; // the value control in `valueSlot`

  /** The value control for the operator and type chosen, keeping what was typed. */
  function renderValue() {
    const old = value && value.tagName !== 'SELECT' && !value.disabled ? value.value : f.text;
    const list = takesList(op.value);
    valueSlot.hidden = !op.value;
    if (!op.value) { value = null; valueBox.replaceChildren(); return; }
    if (type.value === 'null') {
      value = el('input', { id: 'filter-value', type: 'text', value: 'null', disabled: true });
    } else if (type.value === 'boolean' && !list) {
      value = el('select', { id: 'filter-value' }, el('option', { value: 'true' }, 'true'), el('option', { value: 'false' }, 'false'));
      if (old.trim() === 'false') value.value = 'false';
    } else if (list) {
      value = el('textarea', { id: 'filter-value', rows: '3', spellcheck: 'false', class: 'mono', value: old, 'aria-describedby': 'filter-value-hint' });
    } else {
      value = el('input', { id: 'filter-value', type: 'text', spellcheck: 'false', autocomplete: 'off', value: old, class: type.value === 'string' ? null : 'mono', 'aria-describedby': 'filter-value-hint' });
    }
    hint.textContent = list ? 'One value per line.'
      : (type.value === 'JSON' ? 'JSON: {"a": 1} is a map; {"timestampValue": "2026-01-01T00:00:00Z"} a typed value.' : '');
    hint.hidden = !hint.textContent;
    valueBox.replaceChildren(labelled(list ? 'Values' : 'Value', value));
    value.addEventListener('input', update);
    value.addEventListener('change', update);
  }

  /** The filter as the form holds it now. */
  function current() {
    const sort = sortBox.querySelector('input:checked')?.value || '';
    return { field: field.value, op: op.value, type: type.value, text: value ? value.value : '', sort };
  }

  function update() {
    const c = current();
    error.textContent = '';
    preview.textContent = `.collection(${JSON.stringify(collectionId)})` + (c.field.trim() && (c.op || c.sort) ? '.' + describe(c).replace(/ · /g, '.') : '');
  }

  op.addEventListener('change', () => { renderValue(); update(); });
  type.addEventListener('change', () => { renderValue(); update(); });
  field.addEventListener('input', update);
  sortBox.addEventListener('change', update);

  const form = el('form', { class: 'field-editor collection-filter', id: 'filter-form', 'aria-label': `Filter ${collectionId}` },
    labelled('Field path', field),
    labelled('Condition', op),
    valueSlot,
    sortBox,
    el('div', { class: 'preview-box' }, el('span', { class: 'hint' }, 'Query: '), preview),
    error,
    el('div', { class: 'actions' },
      el('button', { type: 'submit', id: 'filter-apply', class: 'primary' }, 'Apply'),
      button('Clear', () => onClear(), { id: 'filter-clear' }),
      button('Cancel', () => onCancel(), { id: 'filter-cancel' })));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const c = current();
    try {
      if (!c.field.trim()) {
        if (c.op || c.sort) { field.focus(); throw new Error('Enter the field path to filter or sort by'); }
        onClear();
        return;
      }
      if (!c.op && !c.sort) { op.focus(); throw new Error('Choose a condition or a sort order'); }
      structuredQuery(collectionId, c); // throws on a bad field path or value
      await onApply(c);
    } catch (err) {
      error.textContent = err.message;
    }
  });
  form.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') { ev.preventDefault(); onCancel(); } });
  form.focusFirst = () => field.focus();
  renderValue();
  update();
  return form;
}
