import { DISPUTE_REASON_MAX, NOTE_MAX, REVIEWER_MAX } from '../review/review-schema';
import { EXPLORER_MAX_PAGE } from './explorer-filter';

/** At most this many verifications of each outcome join the review queue (the loop is bounded). */
export const REVIEW_QUEUE_PER_OUTCOME = 1_000;

/**
 * The review panel's browser script (served page only). A queue of the run's verifications,
 * disagreements with gold first, then unscored, then agreements; keys: j/k next/previous, r/w/u mark
 * the verdict right/wrong/unmarked, d disputes the gold label, n goes to the note, s saves, o opens
 * the transcript, Esc leaves a text field. Every write carries the page's token header; everything
 * stored is rendered with textContent.
 */
export const REVIEW_SCRIPT = String.raw`
(() => {
  'use strict';
  const token = document.querySelector('meta[name="verity-token"]').getAttribute('content');
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? '' : String(value));
    for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) node.append(child instanceof Node ? child : String(child));
    return node;
  };
  const state = { queue: [], index: 0 };
  const api = async (path, init) => {
    const response = await fetch(path, { ...(init || {}), headers: { 'x-verity-token': token, ...((init && init.headers) || {}) } });
    if (!response.ok) throw new Error(response.status + ' ' + ((await response.text()) || response.statusText));
    return response.json();
  };
  const status = (text, saved) => { $('review-status').textContent = text; $('review-status').setAttribute('data-state', saved); };
  const reviewer = () => $('reviewer-name').value.trim();

  async function loadQueue() {
    const queue = [];
    for (const outcome of ['incorrect', 'unscored', 'correct']) {
      for (let from = 0; from < ${REVIEW_QUEUE_PER_OUTCOME}; from += ${EXPLORER_MAX_PAGE}) {
        const page = await api('api/claims?' + new URLSearchParams({ outcome, from: String(from), size: '${EXPLORER_MAX_PAGE}' }));
        queue.push(...page.rows.map((row) => ({ ...row, outcome })));
        if (from + ${EXPLORER_MAX_PAGE} >= page.total) break;
      }
    }
    state.queue = queue;
    state.index = 0;
    await show();
  }

  function reviewLine(review) {
    return el('li', { class: 'review' }, el('b', {}, review.reviewer), ' · ', review.reviewedAt, ' · verdict ', review.verdictMark || 'unmarked',
      review.goldDisputed ? el('span', { class: 'bad' }, ' · gold disputed: ', review.disputeReason) : '', review.note ? el('div', { class: 'note' }, review.note) : '');
  }

  async function show() {
    const item = state.queue[state.index];
    const panel = $('review-item');
    if (!item) { panel.replaceChildren(el('p', {}, 'nothing to review')); panel.removeAttribute('data-workflow-id'); return; }
    const reviews = await api('api/reviews?' + new URLSearchParams({ workflowId: item.workflowId }));
    const own = reviews.find((r) => r.reviewer === reviewer());
    panel.setAttribute('data-workflow-id', item.workflowId);
    panel.replaceChildren(
      el('h3', {}, (state.index + 1) + ' / ' + state.queue.length + ' · ' + item.outcome + ' · ' + item.method + ' · ' + item.model + ' · ' + item.claimId),
      el('p', { class: 'claim' }, item.claim),
      el('p', {}, 'predicted ', el('span', { class: 'label big' }, item.label), ' · gold ', el('span', { class: 'label big' }, item.gold || '—')),
      el('div', {},
        el('label', {}, el('input', { type: 'radio', name: 'verdict-mark', id: 'mark-right', value: 'right' }), ' verdict right (r)'), ' ',
        el('label', {}, el('input', { type: 'radio', name: 'verdict-mark', id: 'mark-wrong', value: 'wrong' }), ' verdict wrong (w)'), ' ',
        el('label', {}, el('input', { type: 'radio', name: 'verdict-mark', id: 'mark-none', value: '' }), ' unmarked (u)')),
      el('div', {}, el('label', {}, el('input', { type: 'checkbox', id: 'review-disputed' }), ' gold label disputed (d)'), ' ',
        el('input', { id: 'review-reason', maxlength: ${DISPUTE_REASON_MAX}, size: 50, placeholder: 'why the gold label is wrong' })),
      el('textarea', { id: 'review-note', maxlength: ${NOTE_MAX}, rows: 3, cols: 80, placeholder: 'note (n)' }),
      el('div', {}, el('button', { id: 'review-save' }, 'save (s)'), ' ', el('button', { id: 'review-prev' }, 'previous (k)'), ' ', el('button', { id: 'review-next' }, 'next (j)'), ' ',
        el('button', { id: 'review-open' }, 'transcript (o)')),
      el('h4', {}, 'Reviews (' + reviews.length + ')'), el('ul', { id: 'review-list' }, reviews.map(reviewLine)));
    $((own && own.verdictMark) ? 'mark-' + own.verdictMark : 'mark-none').checked = true;
    $('review-disputed').checked = Boolean(own && own.goldDisputed);
    $('review-reason').value = (own && own.disputeReason) || '';
    $('review-note').value = (own && own.note) || '';
    $('review-save').addEventListener('click', () => save().catch(fail));
    $('review-prev').addEventListener('click', () => move(-1));
    $('review-next').addEventListener('click', () => move(1));
    $('review-open').addEventListener('click', () => { location.hash = '#claim=' + item.workflowId; });
    status(own ? 'your review of ' + own.reviewedAt : 'not reviewed by you', 'loaded');
  }

  async function save() {
    const item = state.queue[state.index];
    if (!item) return;
    if (!reviewer()) { status('enter your name first', 'error'); $('reviewer-name').focus(); return; }
    const mark = document.querySelector('input[name="verdict-mark"]:checked');
    status('saving…', 'saving');
    await api('api/review', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({
      workflowId: item.workflowId, reviewer: reviewer(), verdictMark: (mark && mark.value) || null,
      goldDisputed: $('review-disputed').checked, disputeReason: $('review-reason').value, note: $('review-note').value }) });
    await show();
    status('saved', 'saved');
  }

  function move(step) {
    state.index = Math.min(Math.max(0, state.index + step), Math.max(0, state.queue.length - 1));
    show().catch(fail);
  }
  function fail(err) { status('review: ' + err.message, 'error'); }

  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !state.queue.length) return;
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName) && event.target.type !== 'radio' && event.target.type !== 'checkbox';
    if (typing) { if (event.key === 'Escape') event.target.blur(); return; }
    const actions = {
      j: () => move(1), k: () => move(-1), s: () => save().catch(fail), o: () => $('review-open').click(),
      r: () => { $('mark-right').checked = true; }, w: () => { $('mark-wrong').checked = true; }, u: () => { $('mark-none').checked = true; },
      d: () => { const box = $('review-disputed'); box.checked = !box.checked; if (box.checked) $('review-reason').focus(); },
      n: () => $('review-note').focus(),
    };
    const action = actions[event.key];
    if (action) { event.preventDefault(); action(); }
  });

  $('reviewer-name').value = localStorage.getItem('verity-reviewer') || '';
  $('reviewer-name').addEventListener('change', () => { localStorage.setItem('verity-reviewer', reviewer()); show().catch(fail); });
  $('review-start').addEventListener('click', () => loadQueue().then(() => $('review-start').blur()).catch(fail));
  $('reviewer-name').setAttribute('maxlength', '${REVIEWER_MAX}');
})();
`;
