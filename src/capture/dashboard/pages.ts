/**
 * The dashboard's two HTML pages. They are rendered, not static, because they name the path the
 * dashboard is mounted at (`app.use('/groundcheck', …)`): every URL in them starts with it.
 * Every value put in them is escaped.
 */

/** A link back to the host app in the dashboard's top bar. */
export interface HomeLink {
  href: string;
  label: string;
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => escapes[char]!);
}

/** A mount path as a prefix: `/` becomes `` so that `${prefix}/assets` never starts with `//`. */
function prefix(base: string): string {
  return base === '/' ? '' : base.replace(/\/+$/, '');
}

function head(base: string, title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(prefix(base))}/assets/dashboard.css">
</head>`;
}

/** The sign-in page: one token field, posted to `<base>/login`. */
export function loginPage(base: string, problem: string | null): string {
  return `${head(base, 'Sign in · groundcheck dashboard')}
<body class="login">
<main class="login-card">
  <h1>groundcheck dashboard</h1>
  <p>This dashboard shows captured questions and answers. Enter its token (<code>GROUNDCHECK_DASHBOARD_TOKEN</code>, or the one your app configured).</p>
  ${problem ? `<p class="login-problem" role="alert">${escapeHtml(problem)}</p>` : ''}
  <form method="post" action="${escapeHtml(prefix(base))}/login">
    <label for="token">Token</label>
    <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
    <button type="submit">Sign in</button>
  </form>
</main>
</body>
</html>
`;
}

/**
 * The dashboard page: the rates panel (live beside offline) and the capture list. Its script reads
 * the mount path from `data-base` and builds the rows, outcomes and filters from the APIs' lists.
 */
export function dashboardPage(base: string, options: { homeLink: HomeLink | null; signOut: boolean }): string {
  const root = escapeHtml(prefix(base));
  const nav = [
    options.homeLink ? `<a href="${escapeHtml(options.homeLink.href)}">${escapeHtml(options.homeLink.label)}</a>` : '',
    options.signOut ? `<form method="post" action="${root}/logout"><button type="submit" class="link-button">Sign out</button></form>` : '',
  ].join('');
  return `${head(base, 'groundcheck dashboard')}
<body class="dashboard" data-base="${root}">
<header class="topbar">
  <a class="brand" href="${root}/"><span class="logo" aria-hidden="true"></span>groundcheck dashboard</a>
  <span class="topbar-note" id="judge-info"></span>
  <nav>${nav}</nav>
</header>
<main class="dash-main">
  <div class="banner banner-error" id="paused-banner" role="alert" hidden></div>
  <section class="panel rates" aria-labelledby="rates-title">
    <div class="panel-head">
      <h2 id="rates-title">Live beside offline</h2>
      <label class="range-pick">Range
        <select id="range">
          <option value="24h">Last 24 hours (per hour)</option>
          <option value="7d">Last 7 days (per day)</option>
          <option value="30d">Last 30 days (per day)</option>
          <option value="90d">Last 90 days (per day)</option>
          <option value="all">All time</option>
        </select>
      </label>
    </div>
    <p class="rates-note" id="rates-comparison"></p>
    <div class="offline-missing" id="offline-missing" hidden>
      <p id="offline-missing-message"></p>
      <pre><code id="offline-missing-command"></code></pre>
    </div>
    <p class="rates-offline" id="rates-offline"></p>
    <div class="table-scroll"><table class="rates-table" id="rates-summary"></table></div>
    <p class="rates-states" id="rates-states"></p>
    <h3 class="over-time-title" id="over-time-title">Over time</h3>
    <div class="table-scroll"><table class="rates-table over-time" id="rates-over-time"></table></div>
  </section>
  <section class="panel" aria-labelledby="captures-title">
    <div class="panel-head"><h2 id="captures-title">Captures</h2><span class="legend">
      <span class="claim-chip verified">verified</span>
      <span class="claim-chip contradicted">contradicted</span>
      <span class="claim-chip absent">absent from sources</span>
    </span></div>
    <nav class="filters" id="filters" aria-label="Filter captures"></nav>
    <form class="list-controls" id="list-controls" role="search">
      <label>Question contains <input id="search" type="search" maxlength="500" autocomplete="off"></label>
      <label>Route <input id="route" type="text" maxlength="500" list="routes" autocomplete="off"></label>
      <datalist id="routes"></datalist>
      <span class="list-note">Counts cover the range (every route and question).</span>
    </form>
    <p class="empty" id="empty" hidden>No captures here.</p>
    <section class="capture-list" id="captures" aria-live="polite"></section>
    <nav class="pager" aria-label="Pages">
      <button type="button" id="newer" disabled>← Newer</button>
      <span id="page-note"></span>
      <button type="button" id="older" disabled>Older →</button>
    </nav>
  </section>
</main>
<script type="module" src="${root}/assets/dashboard.js"></script>
</body>
</html>
`;
}
