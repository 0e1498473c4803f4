// The dashboard: live rates beside offline ones (rates.js), then every capture with its verdict,
// paged and filtered by the server, and each capture's claims highlighted against the evidence
// chunk the judge used. Text from the server is only set with textContent. Mounted anywhere:
// every URL starts with the mount path the page names in data-base. The filters (names, labels,
// tones, counts) come from the API, which builds them from the contract's outcome table: this
// script knows none of the outcomes.
import { rangeOf, renderRates } from './rates.js';

const base = document.body.dataset.base ?? '';
const list = document.getElementById('captures');
const empty = document.getElementById('empty');
const banner = document.getElementById('paused-banner');
const judgeInfo = document.getElementById('judge-info');
const filterBar = document.getElementById('filters');
const rangePick = document.getElementById('range');
const search = document.getElementById('search');
const route = document.getElementById('route');
const routes = document.getElementById('routes');
const newer = document.getElementById('newer');
const older = document.getElementById('older');
const pageNote = document.getElementById('page-note');

const REFRESH_MS = 5000;
const PAGE = 50;
const params = new URLSearchParams(location.search);
let filter = params.get('filter') ?? 'all';
rangePick.value = params.get('range') ?? '24h';
if (!rangePick.value) rangePick.value = '24h';
search.value = params.get('q') ?? '';
route.value = params.get('route') ?? '';
/** Cursors of the pages before the one shown (empty: the first page), and the next page's. */
let cursors = [];
let nextCursor = null;
const open = new Set();
const seenRoutes = new Set();

const CLAIM_LABEL = { verified: 'verified', contradicted: 'contradicted', absent: 'absent from sources' };
const STOP = new Set('the and for that with this from have are was were will your you our not but any all can may must per into than then them they their there which when what who how its his her been also only each such more most other some'.split(' '));

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Words worth highlighting: numbers and content words of 3+ letters. */
function keyWords(text) {
  const words = text.toLowerCase().match(/[\p{L}\p{N}£$€%.,]+/gu) ?? [];
  return new Set(
    words
      .map((word) => word.replace(/^[.,]+|[.,]+$/g, ''))
      .filter((word) => (/\d/.test(word) ? word.length > 0 : word.length >= 3 && !STOP.has(word))),
  );
}

/** The evidence text as DOM nodes, with the claim's key words wrapped in <mark>. */
function highlighted(evidenceText, claimText) {
  const fragment = document.createDocumentFragment();
  const wanted = keyWords(claimText);
  const pattern = /[\p{L}\p{N}£$€%]+(?:[.,][\p{N}]+)*/gu;
  let last = 0;
  for (const match of evidenceText.matchAll(pattern)) {
    const word = match[0].toLowerCase();
    const stemMatch = [...wanted].some((candidate) => candidate === word || (candidate.length >= 5 && word.startsWith(candidate.slice(0, 5))));
    if (!stemMatch) continue;
    fragment.append(document.createTextNode(evidenceText.slice(last, match.index)));
    fragment.append(element('mark', '', match[0]));
    last = match.index + match[0].length;
  }
  fragment.append(document.createTextNode(evidenceText.slice(last)));
  return fragment;
}

function formatTime(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

function renderClaims(view) {
  const body = document.createDocumentFragment();
  const judgment = view.judgment;
  if (view.verdict === 'aborted') {
    body.append(element('p', 'empty', 'The client hung up before the answer finished: the answer above is the part it received, and it is not judged.'));
    return body;
  }
  if (!judgment) {
    body.append(element('p', 'empty', view.verdict === 'pending' ? 'The judge has not looked at this yet.' : 'Not judged (no live judge, or the capture hit the size caps).'));
    return body;
  }
  if (judgment.status === 'error') {
    body.append(element('p', 'judge-error', `Judge error after ${plural(judgment.attempts, 'attempt')}: ${judgment.error}`));
    return body;
  }
  if (judgment.claims.length === 0) {
    body.append(element('p', 'empty', judgment.flags?.refused ? 'The answer is a refusal: no claim to check.' : 'No checkable claim.'));
    return body;
  }
  const chunks = new Map(view.capture.chunks.map((chunk) => [chunk.chunkId, chunk]));
  const items = element('ul', 'claim-list');
  for (const claim of judgment.claims) {
    const item = element('li', `claim ${claim.verdict}`);
    item.append(element('span', 'claim-label', CLAIM_LABEL[claim.verdict] ?? claim.verdict));
    item.append(document.createTextNode(claim.text));
    if (claim.note) item.append(element('span', 'claim-note', claim.note));
    const chunk = claim.evidenceChunkId ? chunks.get(claim.evidenceChunkId) : undefined;
    if (chunk) {
      const evidence = element('div', 'evidence');
      evidence.append(element('span', 'evidence-head', `Evidence: ${chunk.title}${chunk.section ? ` › ${chunk.section}` : ''} (${chunk.chunkId})`));
      evidence.append(highlighted(chunk.text, claim.text));
      item.append(evidence);
    } else if (claim.verdict === 'absent') {
      item.append(element('span', 'claim-note', 'No passage the model was given says this.'));
    }
    items.append(item);
  }
  body.append(items);
  return body;
}

function renderCapture(view) {
  const { capture, judgment } = view;
  const card = element('details', 'capture');
  card.dataset.traceId = view.traceId;
  card.dataset.verdict = view.verdict;
  if (open.has(view.traceId)) card.open = true;
  card.addEventListener('toggle', () => (card.open ? open.add(view.traceId) : open.delete(view.traceId)));

  const summary = element('summary');
  summary.append(element('span', 'capture-time', formatTime(capture.capturedAt)));
  summary.append(element('span', 'capture-query', capture.query));
  const badges = element('span');
  const badge = element('span', 'badge', view.label);
  badge.dataset.tone = view.tone;
  badges.append(badge);
  if (view.drift.length > 0) badges.append(document.createTextNode(' '), element('span', 'badge drift', 'drifted'));
  summary.append(badges);
  const counts = judgment?.status === 'ok' ? ` · claims ${judgment.counts.verified}✓ ${judgment.counts.contradicted}✗ ${judgment.counts.absent}?` : '';
  summary.append(
    element(
      'span',
      'capture-meta',
      `${capture.mode === 'norag' ? 'RAG off' : plural(capture.chunks.length, 'chunk')} · ${Math.round(capture.latencyMs)} ms${capture.firstTokenMs === null || capture.firstTokenMs === undefined ? '' : ` (first token ${Math.round(capture.firstTokenMs)} ms)`} · ${capture.models.chat}${counts}${judgment ? ` · judge ${judgment.judge.kind}` : ''}`,
    ),
  );
  card.append(summary);

  const body = element('div', 'capture-body');
  body.append(element('h4', '', 'Answer'));
  body.append(element('p', 'capture-answer', capture.answer));
  body.append(element('h4', '', 'Claims against the evidence'));
  body.append(renderClaims(view));
  if (capture.chunks.length > 0) {
    body.append(element('h4', '', 'Chunks in the prompt'));
    const chunks = element('ol', 'chunk-list');
    for (const chunk of capture.chunks) chunks.append(element('li', '', `${chunk.chunkId} (similarity ${chunk.score.toFixed(3)})`));
    body.append(chunks);
  }
  if (capture.withheldChunks && capture.withheldChunks.length > 0) {
    body.append(element('h4', '', 'Chunks the gate withheld (never shown to the model; the judge read them to grade the refusal)'));
    const withheld = element('ol', 'chunk-list');
    for (const chunk of capture.withheldChunks) withheld.append(element('li', '', `${chunk.chunkId} (similarity ${chunk.score.toFixed(3)})`));
    body.append(withheld);
  }
  if (view.drift.length > 0) {
    const note = element('div', 'drift-note');
    note.textContent = `The evidence changed since this was captured: ${view.drift.map((entry) => `${entry.chunkId} ${entry.change}`).join(', ')}. The verdict refers to the text shown here, not to the current handbook.`;
    body.append(note);
  }
  card.append(body);
  return card;
}

/** The page's state in its address, so a reload or a shared link shows the same list. */
function remember() {
  const url = new URL(location.href);
  for (const [name, value, fallback] of [['filter', filter, 'all'], ['range', rangePick.value, '24h'], ['q', search.value.trim(), ''], ['route', route.value.trim(), '']]) {
    if (value === fallback) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  }
  history.replaceState(null, '', url);
}

/** Back to the newest page (a filter, the range, the search or the route changed). */
function restart() {
  cursors = [];
  remember();
  void refresh();
}

/** The filter buttons: all, the selected one, and every filter with captures in it (or not counted), in the API's order. */
function renderFilters(filters) {
  const shown = filters.filter((entry) => entry.name === 'all' || entry.name === filter || entry.count === null || entry.count > 0);
  filterBar.replaceChildren(
    ...shown.map((entry) => {
      const button = element('button', '', entry.label);
      button.type = 'button';
      button.dataset.filter = entry.name;
      button.dataset.tone = entry.tone;
      button.setAttribute('aria-pressed', String(entry.name === filter));
      if (entry.count !== null) button.append(' ', element('span', 'count', String(entry.count)));
      button.addEventListener('click', () => {
        filter = entry.name;
        restart();
      });
      return button;
    }),
  );
}

async function getJson(path) {
  let response;
  try {
    response = await fetch(`${base}${path}`, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  } catch {
    return { ok: false, status: 0 };
  }
  if (response.status === 401) {
    location.href = `${base}/`;
    return { ok: false, status: 401 };
  }
  return { ok: response.ok, status: response.status, data: response.ok ? await response.json() : null };
}

function query(values) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== null && value !== undefined && value !== '') search.set(name, String(value));
  return search.toString();
}

async function refresh() {
  const range = rangeOf(rangePick.value);
  const [rates, captures] = await Promise.all([
    getJson(`/api/rates?${query({ from: range.from, to: range.to })}`),
    getJson(`/api/captures?${query({ filter, from: range.from || null, to: range.to, q: search.value.trim(), route: route.value.trim(), cursor: cursors.at(-1), limit: PAGE })}`),
  ]);
  if (rates.ok) renderRates(rates.data);
  if (captures.status === 400 && (filter !== 'all' || cursors.length > 0)) {
    // A filter that no longer exists (the outcome table changed), or a stale cursor: back to the first page of all.
    filter = 'all';
    restart();
    return;
  }
  if (!captures.ok) return;
  const data = captures.data;
  renderFilters(data.filters ?? []);
  judgeInfo.textContent = data.judge ? `live judge: ${data.judge.kind} ${data.judge.model} (${data.judge.promptVersion})` : data.judgeVersion ? `judge: ${data.judgeVersion}` : 'no live judge in this process';
  banner.hidden = !data.workerPaused;
  banner.textContent = data.workerPaused ? `The live judge is paused: ${data.pauseReason ?? 'authentication or billing error'}. Fix the API key or billing; it retries by itself.` : '';
  list.replaceChildren(...data.captures.map(renderCapture));
  empty.hidden = data.captures.length > 0;
  for (const view of data.captures) {
    if (seenRoutes.has(view.capture.route)) continue;
    seenRoutes.add(view.capture.route);
    routes.append(element('option', '', view.capture.route));
  }
  nextCursor = data.nextCursor;
  older.disabled = nextCursor === null;
  newer.disabled = cursors.length === 0;
  pageNote.textContent = data.captures.length === 0 ? '' : `page ${cursors.length + 1}`;
}

rangePick.addEventListener('change', restart);
for (const input of [search, route]) {
  let timer;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(restart, 300);
  });
}
document.getElementById('list-controls').addEventListener('submit', (event) => {
  event.preventDefault();
  restart();
});
older.addEventListener('click', () => {
  if (nextCursor === null) return;
  cursors.push(nextCursor);
  void refresh();
});
newer.addEventListener('click', () => {
  cursors.pop();
  void refresh();
});

void refresh();
setInterval(refresh, REFRESH_MS);
