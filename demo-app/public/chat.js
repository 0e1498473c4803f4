// The chat page: ask, show the answer with its sources, then poll /api/traces/:id until the live
// judge's verdict is in. Text from the server is only ever set with textContent.

const form = document.getElementById('ask-form');
const input = document.getElementById('question');
const send = document.getElementById('send');
const ragToggle = document.getElementById('rag-toggle');
const ragLabel = document.getElementById('rag-label');
const statusLine = document.getElementById('status');
const conversation = document.getElementById('conversation');
const intro = document.getElementById('intro');

const POLL_MS = 700;
const VISIBLE_SOURCES = 3;
const POLL_LIMIT_MS = 90_000;

// The verdict's words and tone come from the server (one outcome table for every page and report).
const PENDING = { verdict: 'pending', tone: 'neutral', text: 'Checking the answer against its sources…' };
const NOT_JUDGED = { verdict: 'not_judged', tone: 'neutral', text: 'Not checked by a judge' };

function plural(count, word) {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function setStatus(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle('error', isError);
}

function updateRagLabel() {
  ragLabel.textContent = ragToggle.checked ? 'Use the handbook (RAG on)' : 'No handbook (RAG off)';
}

function autosize() {
  input.style.height = 'auto';
  input.style.height = `${Math.min(input.scrollHeight, 160)}px`;
}

function renderSources(answer, sources, mode) {
  const box = element('div', 'sources');
  if (mode === 'norag') {
    box.append(element('p', 'no-sources', 'RAG off: no sources were given to the model.'));
    return box;
  }
  if (sources.length === 0) {
    box.append(element('p', 'no-sources', 'No passage in the handbook was relevant enough to answer from.'));
    return box;
  }
  box.append(element('h3', '', 'Sources'));
  const list = element('ol');
  for (const source of sources) {
    const item = element('li');
    item.dataset.chunkId = source.chunkId;
    // A crawled page links to itself; only http(s), whatever the index holds.
    const crawled = typeof source.url === 'string' && /^https?:\/\//i.test(source.url);
    const title = element(crawled ? 'a' : 'span', 'source-title', source.title);
    if (crawled) {
      title.href = source.url;
      title.rel = 'noopener noreferrer';
      title.target = '_blank';
    }
    item.append(title);
    if (source.section) {
      item.append(document.createTextNode(' › '));
      item.append(element('span', 'source-section', source.section));
    }
    item.append(element('span', 'source-date', source.updated ? `updated ${source.updated}` : 'date unknown'));
    if (list.children.length >= VISIBLE_SOURCES) item.hidden = true;
    list.append(item);
  }
  box.append(list);
  const hiddenCount = sources.length - VISIBLE_SOURCES;
  if (hiddenCount > 0) {
    const more = element('button', 'more-sources', `Show ${hiddenCount} more source${hiddenCount === 1 ? '' : 's'}`);
    more.type = 'button';
    more.addEventListener('click', () => {
      for (const item of list.children) item.hidden = false;
      more.remove();
    });
    box.append(more);
  }
  return box;
}

function renderVerdict(container, view) {
  const verdict = container.querySelector('.verdict');
  verdict.dataset.verdict = view.verdict;
  verdict.dataset.tone = view.tone;
  verdict.textContent = view.text;
  const old = container.querySelector('.claims');
  if (old) old.remove();
  const claims = view.judgment?.claims ?? [];
  if (claims.length === 0) return;
  const details = element('details', 'claims');
  details.append(element('summary', '', `Show the ${plural(claims.length, 'claim')} the judge checked`));
  const list = element('ul');
  for (const claim of claims) {
    const item = element('li', `claim ${claim.verdict}`);
    item.append(element('span', 'claim-label', claim.verdict === 'absent' ? 'not in sources' : claim.verdict));
    item.append(document.createTextNode(claim.text));
    if (claim.note) item.append(element('span', 'claim-note', claim.note));
    list.append(item);
  }
  details.append(list);
  verdict.after(details);
}

async function pollVerdict(container, traceId) {
  const started = Date.now();
  let missing = 0;
  while (Date.now() - started < POLL_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    let response;
    try {
      response = await fetch(`/api/traces/${encodeURIComponent(traceId)}`, { headers: { accept: 'application/json' } });
    } catch {
      continue; // the server restarted or the network blinked: keep trying
    }
    if (response.status === 401) {
      // The server protects the trace API with the dashboard's token: verdicts are on the dashboard.
      renderVerdict(container, { ...NOT_JUDGED, text: 'The verdict is on the dashboard (this server keeps traces behind its token).', judgment: null });
      return;
    }
    if (response.status === 404) {
      // The capture is written just after the response; give it a moment before giving up.
      if (++missing >= 6) {
        renderVerdict(container, { ...NOT_JUDGED, judgment: null });
        return;
      }
      continue;
    }
    if (!response.ok) continue;
    const view = await response.json();
    if (view.verdict !== 'pending') {
      renderVerdict(container, view);
      return;
    }
  }
  const verdict = container.querySelector('.verdict');
  verdict.dataset.verdict = 'not_judged';
  verdict.dataset.tone = 'neutral';
  verdict.textContent = 'The judge has not finished yet; see the dashboard later.';
}

async function ask(question) {
  const mode = ragToggle.checked ? 'rag' : 'norag';
  intro.classList.add('compact');
  const exchange = element('li', 'exchange');
  const bubble = element('div', 'bubble question', question);
  if (mode === 'norag') bubble.append(element('span', 'mode-tag', 'RAG off'));
  const answer = element('article', 'bubble answer loading');
  answer.append(element('p', 'answer-text', 'Looking it up…'));
  exchange.append(bubble, answer);
  conversation.append(exchange);
  answer.scrollIntoView({ behavior: 'smooth', block: 'end' });

  send.disabled = true;
  setStatus('');
  try {
    const response = await fetch('/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ message: question, mode }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const message = body?.error?.message ?? `the server answered ${response.status}`;
      answer.className = 'bubble answer failed';
      answer.querySelector('.answer-text').textContent = `Sorry, that did not work: ${message}.`;
      return;
    }
    answer.className = 'bubble answer';
    answer.dataset.traceId = body.traceId;
    if (body.refused) answer.classList.add('refused');
    answer.querySelector('.answer-text').textContent = body.answer;
    answer.append(renderSources(answer, body.sources, mode));
    const verdict = element('div', 'verdict', PENDING.text);
    verdict.dataset.verdict = PENDING.verdict;
    verdict.dataset.tone = PENDING.tone;
    answer.append(verdict);
    answer.scrollIntoView({ behavior: 'smooth', block: 'end' });
    void pollVerdict(answer, body.traceId);
  } catch {
    answer.className = 'bubble answer failed';
    answer.querySelector('.answer-text').textContent = 'Sorry, the server could not be reached.';
  } finally {
    send.disabled = false;
    input.focus();
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const question = input.value.trim();
  if (question === '') {
    setStatus('Type a question first.', true);
    return;
  }
  if (question.length > 2000) {
    setStatus('Questions are limited to 2,000 characters.', true);
    return;
  }
  input.value = '';
  autosize();
  void ask(question);
});

input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  }
});
input.addEventListener('input', autosize);
ragToggle.addEventListener('change', updateRagLabel);
for (const button of document.querySelectorAll('.suggestion')) {
  button.addEventListener('click', () => {
    input.value = button.textContent;
    form.requestSubmit();
  });
}

fetch('/api/health')
  .then((response) => response.json())
  .then((health) => {
    const judge = health.judge ? `judge: ${health.judge.kind === 'llm' ? health.judge.model : 'offline heuristic'}` : 'no live judge';
    document.getElementById('provider').textContent = `model: ${health.provider} · ${judge}`;
  })
  .catch(() => {});

updateRagLabel();
input.focus();
