/**
 * The login form of a listening server, as a function that submits it over HTTP like a browser:
 * the CSRF cookie and token come from one GET of the page, the Origin is the server's own.
 */
export async function httpLoginForm(origin: string): Promise<(username: string, password: string, init?: { signal?: AbortSignal }) => Promise<Response>> {
  const page = await fetch(`${origin}/accounts/login/`);
  await page.arrayBuffer();
  const csrf = /csrftoken=([^;]+)/.exec(page.headers.getSetCookie().join('\n'))![1]!;
  return (username, password, init = {}) =>
    fetch(`${origin}/accounts/login/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${csrf}`, origin },
      body: new URLSearchParams({ csrfmiddlewaretoken: csrf, username, password }),
      ...init,
    });
}
