/** The dashboard's sign-in page: a single token field that submits to `/dashboard?token=…`. */
export function loginPage(problem: string | null): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · groundcheck dashboard</title>
<link rel="stylesheet" href="/assets/app.css">
</head>
<body class="login">
<main class="login-card">
  <h1>groundcheck dashboard</h1>
  <p>This dashboard shows captured questions and answers. Enter the token set in <code>GROUNDCHECK_DASHBOARD_TOKEN</code>.</p>
  ${problem ? `<p class="login-problem" role="alert">${problem}</p>` : ''}
  <form method="get" action="/dashboard">
    <label for="token">Token</label>
    <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
    <button type="submit">Sign in</button>
  </form>
</main>
</body>
</html>
`;
}
