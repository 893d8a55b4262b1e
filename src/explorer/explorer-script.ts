import { humanDuration } from '../shared/human-duration';

/**
 * The explorer page's browser script (plain ES2020, no dependencies). It reads through `source`:
 * the served JSON API (`verity view`), or the page embedded in explorer.html (`verity report`).
 * Everything is rendered with textContent, never innerHTML, so stored text cannot inject markup.
 */
export const EXPLORER_SCRIPT = String.raw`
(() => {
  'use strict';
  /** Durations in human units ("3 min 30 s"): the same function as the report's (src/shared/human-duration.ts). */
  const humanDuration = ${humanDuration.toString()};
  const embedded = window.__VERITY_EXPLORER__ || null;
  const state = { filter: { from: 0, size: 50 }, total: 0 };

  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) node.append(child instanceof Node ? child : String(child));
    return node;
  };
  const $ = (id) => document.getElementById(id);
  const usd = (v) => '$' + (v || 0).toFixed(v >= 1 ? 2 : 5);
  const json = (v) => JSON.stringify(v, null, 2);

  // ---- data source -------------------------------------------------------------------------
  const served = {
    get: async (path, params) => {
      const query = new URLSearchParams(Object.entries(params || {}).filter(([, v]) => v !== undefined && v !== ''));
      const response = await fetch(path + (query.toString() ? '?' + query : ''));
      if (!response.ok) throw new Error((await response.text()) || response.statusText);
      return response.json();
    },
    summary: () => served.get('api/summary'),
    claims: (filter) => served.get('api/claims', filter),
    claim: (workflowId) => served.get('api/claim', { workflowId }),
    compare: (claimId) => served.get('api/compare', { claimId }),
    failures: (from, size) => served.get('api/failures', { from, size }),
    documents: (from, size) => served.get('api/documents', { from, size }),
    document: (documentId) => served.get('api/document', { documentId }),
    charts: (filter) => served.get('api/charts', filter),
  };
  const matches = (row, f) =>
    (!f.method || row.method === f.method) && (!f.model || row.model === f.model) && (!f.dataset || row.dataset === f.dataset) &&
    (!f.predicted || row.label === f.predicted) && (!f.gold || row.gold === f.gold) &&
    (f.status !== 'invalid' || row.invalidLlmCalls > 0) &&
    (!f.outcome || (f.outcome === 'correct' ? row.correct === true : f.outcome === 'incorrect' ? row.correct === false : row.correct === null)) &&
    (!f.text || f.text.toLowerCase().split(/\s+/).every((w) => row.claim.toLowerCase().includes(w))) &&
    (f.minCost === undefined || f.minCost === '' || row.costUsd >= Number(f.minCost)) && (f.maxCost === undefined || f.maxCost === '' || row.costUsd <= Number(f.maxCost)) &&
    (f.minCalls === undefined || f.minCalls === '' || row.llmCalls >= Number(f.minCalls)) && (f.maxCalls === undefined || f.maxCalls === '' || row.llmCalls <= Number(f.maxCalls));
  // A failed verification as a table row (the served API answers status=failed the same way).
  const failureRow = (f) => ({ workflowId: f.workflowId, claimId: f.claimId, dataset: f.dataset, method: f.method || '', model: f.model || '', claim: f.reason, label: 'FAILED', gold: null, correct: null,
    llmCalls: 0, toolCalls: 0, totalTokens: 0, costUsd: 0, durationMs: 0, invalidLlmCalls: 0, failure: { type: f.type, reason: f.reason, temporalUrl: f.temporalUrl } });
  const offline = embedded && {
    summary: async () => embedded.summary,
    claims: async (f) => {
      const all = f.status === 'failed' ? embedded.failures.map(failureRow) : embedded.rows;
      const rows = all.filter((row) => matches({ ...row, claim: row.claim || '' }, { ...f, status: f.status === 'failed' ? undefined : f.status }));
      return { total: rows.length, rows: rows.slice(Number(f.from), Number(f.from) + Number(f.size)) };
    },
    claim: async (id) => embedded.claims[id] || null,
    compare: async (claimId) => Object.values(embedded.claims).filter((c) => c.verdict.claimId === claimId),
    failures: async (from, size) => ({ total: embedded.failures.length, failures: embedded.failures.slice(from, from + size) }),
    documents: async (from, size) => ({ total: embedded.documents.rows.length, documents: embedded.documents.rows.slice(from, from + size) }),
    document: async (documentId) => (Object.prototype.hasOwnProperty.call(embedded.documents.verdicts, documentId) ? embedded.documents.verdicts[documentId] : null),
    // Charts were drawn for each combination of the method, model and dataset filters when the page was written.
    charts: async (f) => {
      const sets = (embedded.charts && embedded.charts.sets) || {};
      const key = JSON.stringify([f.method || '', f.model || '', f.dataset || '']);
      const others = Object.keys(f).some((k) => !['method', 'model', 'dataset'].includes(k) && f[k] !== undefined && f[k] !== '');
      const answer = Object.prototype.hasOwnProperty.call(sets, key) ? sets[key] : { charts: [], verifications: 0, truncated: false };
      return { ...answer, note: others ? 'offline page: charts follow the method, model and dataset filters (verity view follows every filter)' : undefined };
    },
  };
  const source = offline || served;

  // ---- claims table ------------------------------------------------------------------------
  const FILTERS = ['method', 'model', 'dataset', 'predicted', 'gold'];
  function renderFilters(summary) {
    const bar = $('filters');
    bar.replaceChildren();
    const update = (key) => (event) => { state.filter[key] = event.target.value || undefined; state.filter.from = 0; loadClaims(); loadCharts(); };
    for (const key of FILTERS) {
      bar.append(el('label', {}, key + ' ', el('select', { id: 'filter-' + key, onchange: update(key) }, el('option', { value: '' }, 'all'), ...summary.facets[key].map((v) => el('option', { value: v }, v)))));
    }
    bar.append(el('label', {}, 'status ', el('select', { id: 'filter-status', onchange: update('status') }, ...[['', 'verdicts'], ['invalid', 'invalid LLM answers'], ['failed', 'failed (no verdict)']].map(([v, t]) => el('option', { value: v }, t)))));
    bar.append(el('label', {}, 'outcome ', el('select', { id: 'filter-outcome', onchange: update('outcome') }, ...[['', 'all'], ['correct', 'correct'], ['incorrect', 'incorrect'], ['unscored', 'no gold']].map(([v, t]) => el('option', { value: v }, t)))));
    for (const [key, label] of [['text', 'claim text'], ['minCost', 'cost ≥'], ['maxCost', 'cost ≤'], ['minCalls', 'LLM calls ≥'], ['maxCalls', 'LLM calls ≤']]) {
      bar.append(el('label', {}, label + ' ', el('input', { id: 'filter-' + key, size: key === 'text' ? 18 : 6, onchange: update(key) })));
    }
  }

  // Only the latest request renders (an earlier, slower answer must not overwrite a newer filter);
  // body[data-claims-pending] counts the requests in flight, so a test can wait for the table to settle.
  let claimsRequest = 0;
  let claimsPending = 0;
  const setPending = (delta) => { claimsPending += delta; document.body.setAttribute('data-claims-pending', String(claimsPending)); };
  async function loadClaims() {
    const request = ++claimsRequest;
    setPending(1);
    try {
      await renderClaims(request);
    } finally {
      setPending(-1);
    }
  }

  // ---- charts of the filtered verifications ----------------------------------------------
  // Drawn by the server as SVG (the report's chart code, markup escaped there); parsed in an inert
  // document (DOMParser runs no script) and imported, never assigned to innerHTML.
  // body[data-charts-pending] counts chart requests in flight, as data-claims-pending does for the table.
  let chartsRequest = 0;
  let chartsPending = 0;
  const setChartsPending = (delta) => { chartsPending += delta; document.body.setAttribute('data-charts-pending', String(chartsPending)); };
  async function loadCharts() {
    const request = ++chartsRequest;
    setChartsPending(1);
    try {
      await renderCharts(request);
    } catch (err) {
      if (request === chartsRequest) $('charts').replaceChildren(el('p', { class: 'error' }, 'charts: ' + err.message));
    } finally {
      setChartsPending(-1);
    }
  }
  function svgNode(markup) {
    const svg = new DOMParser().parseFromString(markup, 'text/html').querySelector('body > svg');
    return svg ? document.importNode(svg, true) : el('p', { class: 'error' }, 'chart could not be drawn');
  }
  function chartFigure(chart) {
    const table = el('table', { class: 'chart-table', hidden: true },
      el('thead', {}, el('tr', {}, ...chart.table.columns.map((column) => el('th', {}, column)))),
      el('tbody', {}, ...chart.table.rows.map((row) => el('tr', {}, ...row.map((value) => el('td', { class: typeof value === 'number' ? 'num' : '' }, value))))));
    const toggle = el('button', { class: 'chart-numbers', type: 'button', 'aria-expanded': 'false' }, 'numbers');
    toggle.addEventListener('click', () => { table.hidden = !table.hidden; toggle.setAttribute('aria-expanded', String(!table.hidden)); toggle.textContent = table.hidden ? 'numbers' : 'hide numbers'; });
    return el('figure', { class: 'chart-figure', 'data-chart': chart.id }, el('figcaption', {}, chart.title, toggle), svgNode(chart.svg), table);
  }
  async function renderCharts(request) {
    if (!source.charts) return;
    const { from, size, ...filter } = state.filter;
    const answer = await source.charts(filter);
    if (request !== chartsRequest) return;
    $('charts-info').textContent = answer.charts.length === 0 ? '· ' + (answer.note || 'no verifications to draw') : '· ' + answer.verifications + ' verifications' +
      (answer.truncated ? ' (the first ones; more match)' : '') + (answer.note ? ' · ' + answer.note : '');
    $('charts').replaceChildren(...answer.charts.map(chartFigure));
  }

  async function renderClaims(request) {
    const { total, rows } = await source.claims(state.filter);
    if (request !== claimsRequest) return;
    state.total = total;
    const body = $('claims-body');
    body.replaceChildren(...rows.map((row) => el('tr', { class: 'claim-row' + (row.failure ? ' failed' : ''), 'data-workflow-id': row.workflowId, onclick: () => (row.failure ? openFailure(row) : openClaim(row.workflowId)) },
      el('td', {}, row.claimId), el('td', {}, row.dataset || ''), el('td', {}, row.method), el('td', {}, row.model),
      el('td', { class: 'claim-text' }, row.claim),
      el('td', { class: 'label' + (row.failure ? ' error' : '') }, row.failure ? 'FAILED' + (row.failure.type ? ' · ' + row.failure.type : '') : row.label + (row.invalidLlmCalls > 0 ? ' (' + row.invalidLlmCalls + ' invalid)' : '')),
      el('td', {}, row.gold || '—'),
      el('td', { class: row.correct === true ? 'ok' : row.correct === false ? 'bad' : '' }, row.correct === true ? '✓' : row.correct === false ? '✗' : ''),
      el('td', { class: 'num' }, row.llmCalls), el('td', { class: 'num' }, row.toolCalls), el('td', { class: 'num' }, row.totalTokens),
      el('td', { class: 'num' }, usd(row.costUsd)), el('td', { class: 'num' }, humanDuration(row.durationMs)))));
    const from = Number(state.filter.from);
    $('page-info').textContent = total === 0 ? 'no verifications match' : (from + 1) + '–' + (from + rows.length) + ' of ' + total;
    $('prev').disabled = from === 0;
    $('next').disabled = from + rows.length >= total;
  }

  // ---- one claim's transcript -------------------------------------------------------------
  const section = (title, ...content) => el('section', { class: 'block' }, el('h3', {}, title), ...content);
  const pre = (text, cls) => el('pre', { class: cls || '' }, text);
  const kv = (pairs) => el('dl', { class: 'kv' }, ...pairs.filter(([, v]) => v !== undefined && v !== null && v !== '').flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]));

  function traceSteps(trace) {
    if (!trace) return [el('p', {}, 'no trace recorded')];
    if (trace.method === 'mermaid') {
      const parts = [];
      if (trace.decomposition) parts.push(el('div', { class: 'step' }, el('b', {}, 'decomposition '), pre(json(trace.decomposition))));
      if (trace.memory) {
        parts.push(el('div', { class: 'step memory' }, el('b', {}, 'memory (' + trace.memory.mode + ', scope ' + trace.memory.scope + '): ' + (trace.memory.recalled || []).length + ' hits'),
          ...(trace.memory.lines || []).map((line) => pre(line)), trace.memory.written !== undefined ? el('div', {}, 'written after the claim: ' + trace.memory.written) : null));
      }
      for (const step of trace.steps || []) {
        parts.push(el('div', { class: 'step' }, el('b', {}, 'step ' + step.step + ' · ' + step.kind), el('div', { class: 'thought' }, 'Thought: ' + step.thought),
          step.action ? el('div', { class: 'action' }, 'Action: ' + step.action.tool + ' ' + JSON.stringify(step.action.args || step.action.input)) : null,
          step.observation !== undefined ? pre('Observation: ' + step.observation, step.isError ? 'error' : '') : null,
          step.answer ? el('div', { class: 'answer' }, 'Answer: ' + step.answer) : null));
      }
      parts.push(el('div', {}, 'forced: ' + trace.forced + ' · fallback: ' + trace.fallback + ' · answer: ' + (trace.answer || '')));
      return parts;
    }
    if (trace.method === 'tool-mad' && Array.isArray(trace.rounds)) {
      return trace.rounds.map((round) => el('div', { class: 'step' }, el('b', {}, 'round ' + round.round + (round.labelsAgree ? ' · labels agree' : '') + (round.gatesPassed ? ' · gates passed' : '')),
        ...(round.turns || []).map((turn) => el('div', { class: 'turn' }, el('b', {}, turn.debater + ' (' + turn.tool + ')'), ' query: ' + (turn.query || '—') + ' · label: ' + (turn.label || '—'),
          turn.scores ? ' · faithfulness ' + turn.scores.faithfulness + ' · answer relevance ' + turn.scores.answerRelevance : '', pre(turn.answer || '')))));
    }
    if (trace.method === 'toe' && trace.tree) {
      const nodes = trace.tree.nodes || {};
      const render = (id, depth) => {
        const node = nodes[id];
        if (!node) return [];
        const line = el('div', { class: 'tree-node', style: 'margin-left:' + depth * 1.5 + 'em' }, el('b', {}, 'node ' + id), ' ' + node.claim + ' · v ' + (node.v ?? node.vSelf ?? '—') + ' · r ' + (node.r ?? node.rSelf ?? '—') + ' · ' + (node.status || ''));
        return [line, ...(node.children || []).flatMap((child) => render(child, depth + 1))];
      };
      return [...render(trace.tree.rootId ?? '0', 0), el('details', {}, el('summary', {}, 'full trace'), pre(json(trace)))];
    }
    return [pre(json(trace))];
  }

  function llmCalls(claim) {
    const calls = (claim.verdict.transcript && claim.verdict.transcript.llmCalls) || [];
    if (calls.length === 0) return [el('p', {}, 'no LLM calls recorded (verdicts stored before transcripts existed have none)')];
    return calls.map((call, i) => {
      const cached = call.requestHash ? claim.calls[call.requestHash] : undefined;
      return el('details', { class: 'llm-call' + (call.error ? ' failed' : '') },
        el('summary', {}, (i + 1) + '. ' + call.summary + (call.invalid ? ' — invalid answer' : call.error ? ' — failed' : '')),
        kv([['task', call.task], ['prompt version', call.promptVersion], ['model', call.model], ['tokens in / out', call.promptTokens !== undefined ? call.promptTokens + ' / ' + call.completionTokens : undefined],
          ['cost', call.costUsd !== undefined ? usd(call.costUsd) : undefined], ['latency', call.latencyMs !== undefined ? humanDuration(call.latencyMs) : undefined], ['attempt', call.attempt],
          ['from cache', call.cached], ['request hash', call.requestHash], ['error', call.error]]),
        cached && cached.messages ? el('div', { class: 'messages' }, ...cached.messages.map((m) => el('div', { class: 'message' }, el('b', {}, m.role), pre(m.content)))) : el('p', {}, 'rendered messages: not in the LLM cache'),
        cached && cached.rawResponse !== undefined ? el('div', {}, el('b', {}, 'raw response'), pre(cached.rawResponse, 'raw')) : null,
        // Invalid answers are never cached: the transcript keeps the start of the raw answer.
        call.rawExcerpt ? el('div', {}, el('b', {}, 'invalid answer (start)'), pre(call.rawExcerpt, 'raw')) : null);
    });
  }

  function toolCalls(claim) {
    const calls = (claim.verdict.transcript && claim.verdict.transcript.toolCalls) || [];
    if (calls.length === 0) return [el('p', {}, 'no tool calls recorded')];
    return calls.map((call, i) => el('details', { class: 'tool-call' }, el('summary', {}, (i + 1) + '. ' + call.summary + (call.error || call.isError ? ' — error' : '')),
      pre('args: ' + json(call.args)), pre(call.error ? 'failed: ' + call.error : call.observation || '', call.error || call.isError ? 'error' : '')));
  }

  async function openClaim(workflowId) {
    const claim = await source.claim(workflowId);
    const panel = $('transcript');
    panel.hidden = false;
    if (!claim) { panel.replaceChildren(el('p', {}, 'not in this page of the explorer: ' + workflowId)); return; }
    const v = claim.verdict;
    panel.replaceChildren(
      el('h2', {}, v.method + ' · ' + v.model + ' · ' + v.claimId),
      el('p', { class: 'claim' }, v.claim),
      el('p', {}, el('span', { class: 'label big' }, v.label), v.methodLabel ? ' (' + v.methodLabel + ')' : '', ' · gold: ' + (claim.gold || '—'), ' · ',
        claim.temporalUrl ? el('a', { href: claim.temporalUrl, target: '_blank', rel: 'noopener', class: 'temporal-link' }, 'open in the Temporal UI') : 'no Temporal UI configured', ' · ',
        el('button', { id: 'compare-button', onclick: () => openCompare(v.claimId) }, 'compare methods and models')),
      section('Verdict', kv([['rationale', v.rationale], ['LLM calls', v.usage.llmCalls + ' (' + v.usage.cachedLlmCalls + ' from cache)'], ['tool calls', v.usage.toolCalls], ['tokens', v.usage.totalTokens], ['cost', usd(v.usage.costUsd)], ['duration', humanDuration(v.durationMs)], ['prompt versions', v.promptVersion], ['workflow', v.workflowId]])),
      section('Trace', ...traceSteps(v.trace)),
      section('LLM calls (' + ((v.transcript && v.transcript.llmCalls.length) || 0) + ')', ...llmCalls(claim)),
      section('Tool calls (' + ((v.transcript && v.transcript.toolCalls.length) || 0) + ')', ...toolCalls(claim)),
      v.evidence && v.evidence.length ? section('Evidence', ...v.evidence.map((e) => el('div', {}, el('b', {}, e.title), pre(e.text)))) : null,
      embedded ? offlineReviews(workflowId) : null);
    panel.scrollIntoView();
  }

  /** The reviews written in verity view, read-only on the offline page. */
  function offlineReviews(workflowId) {
    const reviews = (embedded.reviews || []).filter((r) => r.workflowId === workflowId);
    if (reviews.length === 0) return null;
    return el('section', { class: 'block', id: 'offline-reviews' }, el('h3', {}, 'Reviews (' + reviews.length + ', read-only: verity view writes them)'),
      ...reviews.map((r) => el('div', { class: 'review', 'data-reviewer': r.reviewer },
        el('b', {}, r.reviewer), ' · ' + r.reviewedAt + ' · verdict: ' + (r.verdictMark || 'not marked') + (r.goldDisputed ? ' · gold label disputed: ' + r.disputeReason : ''),
        r.note ? pre(r.note) : null)));
  }

  function openFailure(row) {
    const panel = $('transcript');
    panel.hidden = false;
    panel.replaceChildren(
      el('h2', {}, row.method + ' · ' + row.model + ' · ' + row.claimId + ' · failed'),
      section('Failure', kv([['error type', row.failure.type || 'unknown'], ['reason', row.failure.reason], ['workflow', row.workflowId]])),
      row.failure.temporalUrl ? el('a', { href: row.failure.temporalUrl, target: '_blank', rel: 'noopener', class: 'temporal-link' }, 'open in the Temporal UI') : el('p', {}, 'no Temporal UI configured'));
    panel.scrollIntoView();
  }

  async function openCompare(claimId) {
    const claims = await source.compare(claimId);
    const panel = $('compare');
    panel.hidden = false;
    panel.replaceChildren(el('h2', {}, 'claim ' + claimId + ' across methods and models'), el('p', { class: 'claim' }, claims[0] ? claims[0].verdict.claim : ''),
      el('div', { class: 'side-by-side' }, ...claims.map((c) => el('div', { class: 'column', 'data-method': c.verdict.method },
        el('h3', {}, c.verdict.method + ' · ' + c.verdict.model), el('p', {}, el('span', { class: 'label big' }, c.verdict.label), ' gold: ' + (c.gold || '—')),
        kv([['LLM calls', c.verdict.usage.llmCalls], ['tool calls', c.verdict.usage.toolCalls], ['tokens', c.verdict.usage.totalTokens], ['cost', usd(c.verdict.usage.costUsd)], ['duration', humanDuration(c.verdict.durationMs)]]),
        el('p', { class: 'rationale' }, c.verdict.rationale),
        el('ol', {}, ...((c.verdict.transcript && c.verdict.transcript.llmCalls) || []).map((call) => el('li', {}, call.summary))),
        el('button', { onclick: () => openClaim(c.verdict.workflowId) }, 'transcript')))));
    panel.scrollIntoView();
  }

  // ---- checked documents (verity check) ----------------------------------------------------
  const documentsPage = { from: 0, size: 50 };
  const ratio = (v) => (v === null || v === undefined ? 'n/a' : Number(v).toFixed(3));
  const num = (v) => el('td', { class: 'num' }, v);

  async function loadDocuments() {
    const { from, size } = documentsPage;
    const { total, documents } = await source.documents(from, size);
    const all = embedded ? embedded.documents.total : total;
    $('documents-title').textContent = 'Documents (' + all + ')';
    $('documents-body').replaceChildren(...documents.map((d) => el('tr', { class: 'document-row', 'data-document-id': d.documentId, onclick: () => openDocument(d.documentId) },
      el('td', {}, d.documentId), el('td', {}, d.source || ''), el('td', {}, d.method), el('td', {}, d.model), num(d.claims), num(d.scores.supported),
      num(d.scores.notSupported + (d.scores.nei ? ' (' + d.scores.nei + ' NEI)' : '')), num(d.scores.skipped), num(d.scores.failed),
      num(ratio(d.scores.precision)), num(ratio(d.scores.f1AtK) + ' @' + d.scores.k), el('td', {}, d.finishedAt))));
    $('documents-info').textContent = total === 0 ? 'no checked documents in this run' : (from + 1) + '–' + (from + documents.length) + ' of ' + total +
      (all > total ? ' (offline page: the newest ' + total + ' of ' + all + '; verity view serves them all)' : '');
    $('documents-prev').disabled = from === 0;
    $('documents-next').disabled = from + documents.length >= total;
  }

  // What a claim makes of its sentence: its label (a repeat has the label of the claim it repeats), SKIPPED or FAILED.
  const STATUS_ORDER = ['SUPPORTED', 'REFUTED', 'NEI', 'SKIPPED', 'FAILED'];
  const claimStatus = (c) => (c.failure ? 'FAILED' : c.label ? c.label : c.skipped ? 'SKIPPED' : 'FAILED');
  const claimStatusText = (c) => c.skipped === 'duplicate' ? 'same as claim #' + (Number(c.duplicateOf) + 1) + (c.label ? ' · ' + c.label : '')
    : c.skipped ? 'skipped: ' + c.skipped : c.failure ? 'FAILED' : c.label || 'FAILED';
  // Red when any claim is refuted, amber for NEI (alone or mixed with supported), green when supported, grey when only skipped; a failed claim adds a mark.
  function sentenceClass(statuses) {
    const has = (status) => statuses.includes(status);
    const tone = has('REFUTED') ? 's-refuted' : has('NEI') ? 's-nei' : has('SUPPORTED') ? 's-supported' : has('FAILED') ? 's-failed' : 's-skipped';
    return 'sentence ' + tone + (has('FAILED') ? ' has-failed' : '');
  }

  /** The sentences that have claims, in text order, each with its claims. */
  function sentencesOf(verdict) {
    const bySentence = new Map();
    for (const c of verdict.claims || []) {
      if (!bySentence.has(c.sentence)) bySentence.set(c.sentence, { index: c.sentence, start: c.span && c.span.start, end: c.span && c.span.end, text: c.sentenceText || '', claims: [] });
      bySentence.get(c.sentence).claims.push(c);
    }
    return [...bySentence.values()].sort((a, b) => a.start - b.start || a.index - b.index);
  }

  function sentenceNode(sentence, text) {
    const statuses = STATUS_ORDER.filter((status) => sentence.claims.some((c) => claimStatus(c) === status));
    return el('span', { class: sentenceClass(statuses), 'data-sentence': sentence.index, 'data-labels': statuses.join(' '), tabindex: 0,
      title: sentence.claims.map((c) => '#' + (c.position + 1) + ' ' + claimStatusText(c)).join(' · '),
      onclick: (event) => showSentenceClaims(sentence, event.currentTarget),
      onkeydown: (event) => { if (event.key === 'Enter') showSentenceClaims(sentence, event.currentTarget); } }, text);
  }

  /** The text with each claimed sentence as an element at its span; the text between sentences is kept as it is. */
  function documentTextNodes(verdict) {
    const sentences = sentencesOf(verdict);
    const text = verdict.text;
    if (typeof text !== 'string') {
      return [el('p', { class: 'no-text' }, 'This verdict was stored before the document text was kept: its sentences with claims follow.'),
        el('div', { class: 'document-sentences' }, ...sentences.map((sentence) => el('p', {}, sentenceNode(sentence, sentence.text))))];
    }
    const body = el('div', { class: 'document-text', id: 'document-text' });
    const unplaced = [];
    let cursor = 0;
    for (const sentence of sentences) {
      const { start, end } = sentence;
      if (!Number.isInteger(start) || !Number.isInteger(end) || start < cursor || end <= start || end > text.length) { unplaced.push(sentence); continue; }
      body.append(text.slice(cursor, start), sentenceNode(sentence, text.slice(start, end)));
      cursor = end;
    }
    body.append(text.slice(cursor));
    return [body, unplaced.length ? el('div', { class: 'document-sentences' }, el('p', {}, 'sentences whose span is not in the text:'), ...unplaced.map((sentence) => el('p', {}, sentenceNode(sentence, sentence.text)))) : null];
  }

  function showSentenceClaims(sentence, node) {
    for (const other of document.querySelectorAll('#document .sentence.selected')) other.classList.remove('selected');
    node.classList.add('selected');
    $('document-claims').replaceChildren(el('h3', {}, 'Sentence ' + (sentence.index + 1) + ' · ' + sentence.claims.length + (sentence.claims.length === 1 ? ' claim' : ' claims')),
      el('ol', { class: 'sentence-claims' }, ...sentence.claims.map((c) => el('li', { class: 'document-claim', value: c.position + 1, 'data-position': c.position },
        el('b', {}, '#' + (c.position + 1) + ' '), el('span', { class: 'label' }, claimStatusText(c)),
        el('div', { class: 'claim-pair' }, el('span', { class: 'extracted' }, c.extracted), ' → ', el('span', { class: 'decontextualised' }, c.claim)),
        c.failure ? el('div', { class: 'error failure' }, 'failure: ' + c.failure) : null,
        c.workflowId ? el('button', { class: 'claim-transcript', onclick: () => openClaim(c.workflowId) }, 'verification transcript') : null))));
  }

  async function openDocument(documentId) {
    const verdict = await source.document(documentId);
    const panel = $('document');
    panel.hidden = false;
    panel.setAttribute('data-document-id', documentId);
    if (location.hash !== '#document=' + encodeURIComponent(documentId)) location.hash = 'document=' + encodeURIComponent(documentId);
    if (!verdict) {
      panel.replaceChildren(el('p', { class: 'error' }, 'no checked document ' + documentId + ' in this run' + (embedded ? ' on this offline page' : '')));
      return;
    }
    const s = verdict.scores;
    const u = verdict.stepUsage;
    panel.replaceChildren(
      el('h2', {}, 'Document ' + verdict.documentId + (verdict.source ? ' · ' + verdict.source : '')),
      section('Scores', el('dl', { class: 'kv', id: 'document-scores' }, ...[
        ['precision', ratio(s.precision)], ['F1@' + s.k, ratio(s.f1AtK)], ['recall@' + s.k, ratio(s.recallAtK)],
        ['supported', s.supported], ['not supported', s.notSupported + ' (' + s.nei + ' NEI)'], ['skipped', s.skipped], ['failed', s.failed],
        ['sentences', verdict.sentenceCount + (verdict.unreadableSentences && verdict.unreadableSentences.length ? ' (' + verdict.unreadableSentences.length + ' without readable claims)' : '')],
        ['method · model', verdict.method + ' · ' + verdict.model],
        ['document steps', u ? u.llmCalls + ' LLM calls (' + u.cachedLlmCalls + ' from cache, ' + u.invalidAnswers + ' invalid) · ' + u.totalTokens + ' tokens · ' + usd(u.costUsd) : 'not recorded'],
        ['workflow runs', verdict.runs], ['finished', verdict.finishedAt],
      ].flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]))),
      section('Text', el('p', { class: 'legend' }, el('span', { class: 's-supported' }, 'supported'), el('span', { class: 's-refuted' }, 'refuted'),
        el('span', { class: 's-nei' }, 'NEI or mixed'), el('span', { class: 's-skipped' }, 'skipped'), el('span', { class: 's-failed has-failed' }, 'failed'),
        ' · click a sentence for its claims'), ...documentTextNodes(verdict)),
      el('div', { id: 'document-claims' }));
    panel.scrollIntoView();
  }

  /** #document=<id> opens that document, #claim=<workflow id> that verification's transcript (on load and when the hash changes; the report links here). */
  async function openFromHash() {
    const claim = /^#claim=(.+)$/.exec(location.hash);
    if (claim) {
      let workflowId;
      try { workflowId = decodeURIComponent(claim[1]); } catch { return; }
      await openClaim(workflowId);
      return;
    }
    const match = /^#document=(.+)$/.exec(location.hash);
    if (!match) return;
    let documentId;
    try { documentId = decodeURIComponent(match[1]); } catch { return; }
    if ($('document').getAttribute('data-document-id') === documentId && !$('document').hidden) return;
    await openDocument(documentId);
  }

  // ---- failures and the live summary -------------------------------------------------------
  async function loadFailures() {
    const { total, failures } = await source.failures(0, 50);
    $('failures-title').textContent = 'Failures (' + total + ')';
    $('failures-body').replaceChildren(...failures.map((f) => el('tr', {}, el('td', {}, f.claimId), el('td', {}, f.method || ''), el('td', {}, f.model || ''),
      el('td', {}, f.type || ''), el('td', { class: 'claim-text' }, f.reason), el('td', {}, f.temporalUrl ? el('a', { href: f.temporalUrl, target: '_blank', rel: 'noopener' }, 'Temporal UI') : ''))));
  }

  async function loadSummary() {
    const s = await source.summary();
    $('run-title').textContent = 'verity · run ' + s.runId;
    $('run-stats').textContent = s.verdicts + ' verdicts · ' + s.failures + ' failed · ' + (s.withInvalidAnswers || 0) + ' with invalid answers · ' + s.llmCalls + ' LLM calls · ' + s.totalTokens + ' tokens · ' + usd(s.costUsd) +
      (embedded ? ' · offline page: the first ' + embedded.rows.length + ' verifications (verity view serves them all)' : '');
    return s;
  }

  async function main() {
    const summary = await loadSummary();
    renderFilters(summary);
    $('prev').addEventListener('click', () => { state.filter.from = Math.max(0, Number(state.filter.from) - Number(state.filter.size)); loadClaims(); });
    $('next').addEventListener('click', () => { state.filter.from = Number(state.filter.from) + Number(state.filter.size); loadClaims(); });
    $('documents-prev').addEventListener('click', () => { documentsPage.from = Math.max(0, documentsPage.from - documentsPage.size); loadDocuments(); });
    $('documents-next').addEventListener('click', () => { documentsPage.from += documentsPage.size; loadDocuments(); });
    await Promise.all([loadClaims(), loadCharts(), loadFailures(), loadDocuments()]);
    window.addEventListener('hashchange', () => { openFromHash().catch(showError); });
    await openFromHash().catch(showError);
    document.body.setAttribute('data-ready', 'true');
    if (!embedded) keepCurrent(summary);
  }

  // ---- live while the run goes on ----------------------------------------------------------
  // Every REFRESH_MS the summary is read; when verdicts or failures were added, the table, charts,
  // failures and documents are read again with the same filters and page. The filter controls, an open
  // transcript and the review panel are left as they are. It stops once Temporal says the run no longer
  // runs and one more read found nothing new; body[data-live] says whether it still refreshes, and
  // body[data-refreshes] counts the redraws.
  const REFRESH_MS = 5000;
  function keepCurrent(first) {
    let seen = first.verdicts + '/' + first.failures;
    let redraws = 0;
    // The charts of a redraw may come from a report read a moment before the newest verdicts: drawn once more on the next quiet tick.
    let chartsBehind = false;
    document.body.setAttribute('data-live', 'true');
    document.body.setAttribute('data-refreshes', '0');
    const timer = setInterval(() => { tick().catch(() => {}); }, REFRESH_MS);
    let ticking = false;
    async function tick() {
      if (ticking) return;
      ticking = true;
      try {
        const summary = await loadSummary();
        addFacetOptions(summary);
        const counts = summary.verdicts + '/' + summary.failures;
        if (counts !== seen) {
          seen = counts;
          await Promise.all([loadClaims(), loadCharts(), loadFailures(), loadDocuments()]);
          document.body.setAttribute('data-refreshes', String(++redraws));
          chartsBehind = true;
        } else if (chartsBehind) {
          chartsBehind = false;
          await loadCharts();
        } else if (summary.running === false) {
          clearInterval(timer);
          document.body.setAttribute('data-live', 'false');
        }
      } finally {
        ticking = false;
      }
    }
  }
  /** Values that appeared since the filters were drawn (a model that started later) join their select; what is selected stays. */
  function addFacetOptions(summary) {
    for (const key of FILTERS) {
      const select = $('filter-' + key);
      if (!select) continue;
      const present = new Set([...select.options].map((option) => option.value));
      for (const value of summary.facets[key]) if (!present.has(value)) select.append(el('option', { value }, value));
    }
  }
  function showError(err) { document.body.prepend(el('p', { class: 'error' }, 'explorer: ' + err.message)); }
  main().catch(showError);
})();
`;
