// The rates panel: live outcome rates per hour or day beside the newest offline eval's rates for
// the same judge version. Rows, labels and tones come from the API (built from the contract's
// outcome table): this script knows none of the outcomes. Text is only set with textContent.

const HOUR = 3_600_000;

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

/**
 * The time range of a range choice, in the browser's time zone: the last 24 hours to the next full
 * hour, or N days to the next local midnight (days of 24 hours from there), or all time.
 */
export function rangeOf(choice, now = new Date()) {
  if (choice === 'all') return { from: 0, to: null };
  if (choice === '24h') {
    const to = Math.ceil((now.getTime() + 1) / HOUR) * HOUR;
    return { from: to - 24 * HOUR, to };
  }
  const days = Number.parseInt(choice, 10);
  const end = new Date(now);
  end.setHours(24, 0, 0, 0);
  return { from: end.getTime() - days * 24 * HOUR, to: end.getTime() };
}

/** A share as the page shows it: one decimal of a percent, or a dash when nothing was judged. */
export function formatRate(rate) {
  return rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(1)}%`;
}

/** Live minus offline, in percentage points. */
export function formatDifference(live, offline) {
  if (live === null || offline === null || live === undefined || offline === undefined) return '—';
  const points = (live - offline) * 100;
  return `${points > 0 ? '+' : points < 0 ? '−' : '±'}${Math.abs(points).toFixed(1)} pp`;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function bucketLabel(start, bucket) {
  const date = new Date(start);
  if (bucket === 'hour') return date.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  if (bucket === 'day') return date.toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
  return 'All time';
}

function cell(tag, className, text, title) {
  const node = element(tag, className, text);
  if (title) node.title = title;
  return node;
}

function summaryTable(table, data) {
  const head = element('thead');
  const headRow = element('tr');
  for (const title of ['Outcome', 'Live', 'judgments', 'Offline', 'judgments', 'Live − offline']) headRow.append(element('th', '', title));
  head.append(headRow);
  const body = element('tbody');
  for (const row of data.outcomes) {
    const live = data.live.outcomes[row.outcome];
    const offline = data.offline ? data.offline.outcomes[row.outcome] : null;
    const tr = element('tr');
    tr.dataset.outcome = row.outcome;
    tr.dataset.tone = row.tone;
    const name = cell('th', 'outcome-name', row.label, row.description);
    name.scope = 'row';
    tr.append(
      name,
      cell('td', 'live-rate', formatRate(live.rate)),
      cell('td', 'live-count', String(live.count)),
      cell('td', 'offline-rate', offline ? formatRate(offline.rate) : '—'),
      cell('td', 'offline-count', offline ? String(offline.count) : '—'),
      cell('td', 'difference', offline ? formatDifference(live.rate, offline.rate) : '—'),
    );
    body.append(tr);
  }
  const foot = element('tfoot');
  const total = element('tr');
  total.append(element('th', '', 'Judged'), element('td'), cell('td', 'live-judged', String(data.live.judged)), element('td'), cell('td', 'offline-judged', data.offline ? String(data.offline.judged) : '—'), element('td'));
  foot.append(total);
  table.replaceChildren(head, body, foot);
}

/** Rows of buckets, oldest first: the time, captures, judged, a bar of the outcomes, and each outcome's rate. */
function overTimeTable(table, data) {
  const head = element('thead');
  const headRow = element('tr');
  headRow.append(element('th', '', data.range.bucket === 'day' ? 'Day' : data.range.bucket === 'hour' ? 'Hour' : 'Range'), element('th', '', 'Captures'), element('th', '', 'Judged'), element('th', 'bar-head', 'Outcomes'));
  for (const row of data.outcomes) {
    const th = cell('th', 'outcome-head', row.label, row.description);
    th.dataset.tone = row.tone;
    headRow.append(th);
  }
  head.append(headRow);
  const body = element('tbody');
  for (const bucket of data.buckets) {
    const tr = element('tr');
    tr.dataset.start = String(bucket.start);
    const bar = element('div', 'outcome-bar');
    for (const row of data.outcomes) {
      const share = bucket.outcomes[row.outcome].rate;
      if (!share) continue;
      const segment = element('span', 'segment');
      segment.dataset.tone = row.tone;
      segment.title = `${row.label}: ${formatRate(share)} (${bucket.outcomes[row.outcome].count})`;
      // CSSOM, not a style attribute: the page's Content-Security-Policy allows it.
      segment.style.width = `${share * 100}%`;
      bar.append(segment);
    }
    const barCell = element('td', 'bar-cell');
    barCell.append(bar);
    tr.append(cell('th', 'bucket-time', bucketLabel(bucket.start, data.range.bucket)), cell('td', 'bucket-captures', String(bucket.captures)), cell('td', 'bucket-judged', String(bucket.judged)), barCell);
    for (const row of data.outcomes) {
      const value = bucket.outcomes[row.outcome];
      const td = cell('td', 'bucket-rate', formatRate(value.rate), `${value.count} of ${bucket.judged}`);
      td.dataset.outcome = row.outcome;
      tr.append(td);
    }
    body.append(tr);
  }
  table.replaceChildren(head, body);
}

/** Render `GET <mount>/api/rates` into the rates panel. */
export function renderRates(data) {
  document.getElementById('rates-comparison').textContent = data.comparison;
  const missing = document.getElementById('offline-missing');
  missing.hidden = !data.missingOffline;
  document.getElementById('offline-missing-message').textContent = data.missingOffline?.message ?? '';
  document.getElementById('offline-missing-command').textContent = data.missingOffline?.command ?? '';
  document.getElementById('rates-offline').textContent = data.offline
    ? `Offline: ${data.offline.suite}, run ${new Date(data.offline.startedAt).toLocaleString()} (${plural(data.offline.runs, 'run')}, ${plural(data.offline.judged, 'judgment')}, ${data.offline.file}).`
    : '';
  summaryTable(document.getElementById('rates-summary'), data);
  const live = data.live;
  document.getElementById('rates-states').textContent =
    `Live, ${data.judgeVersion ?? 'no judge'}: ${plural(live.captures, 'capture')} in the range, ${live.judged} judged, ${live.pending} pending, ${live.notJudged} not judged, ${live.aborted} aborted.`;
  document.getElementById('over-time-title').textContent = data.range.bucket === 'hour' ? 'Over time, per hour' : data.range.bucket === 'day' ? 'Over time, per day' : 'Over the whole range';
  overTimeTable(document.getElementById('rates-over-time'), data);
}
