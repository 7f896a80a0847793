import type { Hono } from 'hono';

/** A form's fields: a repeated field is a list. */
export type Form = Record<string, string | readonly string[]>;

/**
 * A person at the dashboard, in process (`app.request`): keeps the cookies the dashboard sets,
 * sends forms from this origin with the CSRF token of the last page it read.
 */
export function person(app: Hono<never>) {
  const jar = new Map<string, string>();
  let csrf = '';
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const remember = async (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (pair.slice(at + 1) === '' || /Max-Age=0/i.test(line)) jar.delete(pair.slice(0, at));
      else jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const body = await response.text();
    csrf = /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? csrf;
    return { status: response.status, headers: response.headers, body };
  };
  return {
    /** Carries a cookie as a browser that was given it elsewhere would. */
    setCookie: (name: string, value: string) => jar.set(name, value),
    get: async (path: string) => remember(await app.request(path, { headers: { cookie: cookie() } })),
    post: async (path: string, form: Form, token = csrf, origin = 'http://localhost') => {
      const body = new URLSearchParams({ _csrf: token });
      for (const [name, value] of Object.entries(form)) for (const one of [value].flat()) body.append(name, one);
      return remember(
        await app.request(path, {
          method: 'POST',
          headers: { cookie: cookie(), origin, 'content-type': 'application/x-www-form-urlencoded' },
          body: body.toString(),
        }),
      );
    },
  };
}
