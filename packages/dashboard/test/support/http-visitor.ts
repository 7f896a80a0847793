/** A browser without a browser: keeps the cookies a dashboard sets and sends them back, follows nothing on its own. */
export interface Visitor {
  get(path: string): Promise<Response>;
  post(path: string, form: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  /** Every Set-Cookie line received, in order. */
  readonly setCookies: string[];
  cookieHeader(): string;
  /** The CSRF cookie's value (what a same-site form would carry). */
  csrfCookie(): string;
}

export function visitor(baseUrl: string): Visitor {
  const origin = new URL(baseUrl).origin;
  const base = new URL(baseUrl).pathname.replace(/\/$/, '');
  const jar = new Map<string, string>();
  const setCookies: string[] = [];
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      setCookies.push(line);
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '' || /Max-Age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const url = (path: string) => (path.startsWith(base) && base !== '' ? `${origin}${path}` : `${origin}${base}${path}`);
  return {
    setCookies,
    cookieHeader,
    csrfCookie: () => jar.get('memsvc_csrf') ?? '',
    get: async (path) => remember(await fetch(url(path), { headers: { cookie: cookieHeader() }, redirect: 'manual' })),
    post: async (path, form, headers = {}) =>
      remember(
        await fetch(url(path), {
          method: 'POST',
          headers: { cookie: cookieHeader(), origin, 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body: new URLSearchParams(form).toString(),
          redirect: 'manual',
        }),
      ),
  };
}

/** The CSRF token a page's forms carry. */
export function csrfOf(html: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
}
