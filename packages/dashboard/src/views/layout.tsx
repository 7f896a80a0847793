import type { Child } from 'hono/jsx';
import { isAdmin, type Viewer } from '../auth/viewer.js';
import { CSRF_FIELD } from '../security/csrf.js';

export type Section = 'memories' | 'review' | 'operations' | 'access';

export interface PageFrame {
  readonly basePath: string;
  readonly viewer: Viewer;
  readonly csrfToken: string;
}

/** The hidden field every state-changing form carries. */
export function CsrfField(props: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.token} />;
}

/**
 * Every signed-in page: a skip link, the navigation, who is signed in with a sign-out button, and
 * the page. Text is escaped by JSX; memory content only ever appears as text.
 */
export function Layout(props: { frame: PageFrame; title: string; section: Section; children?: Child }) {
  const { basePath, viewer, csrfToken } = props.frame;
  const link = (section: Section, label: string) => (
    <a href={`${basePath}/${section}`} aria-current={props.section === section ? 'page' : undefined}>
      {label}
    </a>
  );
  return (
    <html lang="en">
      <Head basePath={basePath} title={props.title} withScript />
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <span class="brand">memsvc</span>
          <nav aria-label="Sections">
            {link('memories', 'Memories')}
            {link('review', 'Review')}
            {isAdmin(viewer) ? link('operations', 'Operations') : null}
            {viewer.scopes.has('keys:manage') ? link('access', 'Access') : null}
          </nav>
          <form method="post" action={`${basePath}/sign-out`} class="who">
            <span>
              {viewer.tenant} <small>({viewer.via})</small>
            </span>
            <CsrfField token={csrfToken} />
            <button type="submit">Sign out</button>
          </form>
        </header>
        <main id="main">
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** Every page's head: the title, the stylesheet and, on signed-in pages, the enhancement script (both from the dashboard itself, as the CSP requires). */
function Head(props: { basePath: string; title: string; withScript?: boolean }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${props.title} · memsvc`}</title>
      <link rel="stylesheet" href={`${props.basePath}/assets/dashboard.css`} />
      {props.withScript ? <script src={`${props.basePath}/assets/dashboard.js`} defer /> : null}
    </head>
  );
}

/** A page outside the signed-in frame (sign-in, errors). */
export function BarePage(props: { basePath: string; title: string; children?: Child }) {
  return (
    <html lang="en">
      <Head basePath={props.basePath} title={props.title} />
      <body>
        <main id="main" class="bare">
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** A message at the top of a page after an action (`?notice=`): text only. */
export function Notice(props: { text: string | undefined; kind?: 'ok' | 'error' }) {
  if (!props.text) return null;
  return (
    <p class={`notice ${props.kind ?? 'ok'}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.text}
    </p>
  );
}
