/**
 * The explorer page's browser script (plain ES2020, no dependencies). It reads through `source`:
 * the served JSON API (`verity view`), or the page embedded in explorer.html (`verity report`).
 * Everything is rendered with textContent, never innerHTML, so stored text cannot inject markup.
 */
export const EXPLORER_SCRIPT = String.raw`
(() => {
  'use strict';
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
  };
  const source = offline || served;

  // ---- claims table ------------------------------------------------------------------------
  const FILTERS = ['method', 'model', 'dataset', 'predicted', 'gold'];
  function renderFilters(summary) {
    const bar = $('filters');
    bar.replaceChildren();
    const update = (key) => (event) => { state.filter[key] = event.target.value || undefined; state.filter.from = 0; loadClaims(); };
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
      el('td', { class: 'num' }, usd(row.costUsd)), el('td', { class: 'num' }, (row.durationMs / 1000).toFixed(1) + ' s'))));
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
          ['cost', call.costUsd !== undefined ? usd(call.costUsd) : undefined], ['latency', call.latencyMs !== undefined ? call.latencyMs + ' ms' : undefined], ['attempt', call.attempt],
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
      section('Verdict', kv([['rationale', v.rationale], ['LLM calls', v.usage.llmCalls + ' (' + v.usage.cachedLlmCalls + ' from cache)'], ['tool calls', v.usage.toolCalls], ['tokens', v.usage.totalTokens], ['cost', usd(v.usage.costUsd)], ['duration', v.durationMs + ' ms'], ['prompt versions', v.promptVersion], ['workflow', v.workflowId]])),
      section('Trace', ...traceSteps(v.trace)),
      section('LLM calls (' + ((v.transcript && v.transcript.llmCalls.length) || 0) + ')', ...llmCalls(claim)),
      section('Tool calls (' + ((v.transcript && v.transcript.toolCalls.length) || 0) + ')', ...toolCalls(claim)),
      v.evidence && v.evidence.length ? section('Evidence', ...v.evidence.map((e) => el('div', {}, el('b', {}, e.title), pre(e.text)))) : null);
    panel.scrollIntoView();
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
        kv([['LLM calls', c.verdict.usage.llmCalls], ['tool calls', c.verdict.usage.toolCalls], ['tokens', c.verdict.usage.totalTokens], ['cost', usd(c.verdict.usage.costUsd)], ['duration', c.verdict.durationMs + ' ms']]),
        el('p', { class: 'rationale' }, c.verdict.rationale),
        el('ol', {}, ...((c.verdict.transcript && c.verdict.transcript.llmCalls) || []).map((call) => el('li', {}, call.summary))),
        el('button', { onclick: () => openClaim(c.verdict.workflowId) }, 'transcript')))));
    panel.scrollIntoView();
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
    await Promise.all([loadClaims(), loadFailures()]);
    document.body.setAttribute('data-ready', 'true');
    if (!embedded) setInterval(() => { loadSummary().catch(() => {}); loadFailures().catch(() => {}); }, 5000);
  }
  main().catch((err) => { document.body.prepend(el('p', { class: 'error' }, 'explorer: ' + err.message)); });
})();
`;
