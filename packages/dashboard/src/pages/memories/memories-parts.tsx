import { CsrfField } from '../../views/layout.js';

/** The two lists of the memories section: what agents see, and what was deleted and can be restored. */
export function ViewSwitch(props: { basePath: string; current: 'live' | 'deleted' }) {
  const link = (view: 'live' | 'deleted', label: string, href: string) => (
    <a href={href} aria-current={props.current === view ? 'page' : undefined}>
      {label}
    </a>
  );
  return (
    <nav class="view-switch" aria-label="Which memories">
      {link('live', 'Memories', `${props.basePath}/memories`)}
      {link('deleted', 'Deleted memories', `${props.basePath}/memories?view=deleted`)}
    </nav>
  );
}

/**
 * Why the action beside it did nothing, where the person pressed it: the page comes back scrolled
 * to the action (`#bulk-actions`), and a screen reader announces it.
 */
export function ActionProblem(props: { text: string | undefined }) {
  if (!props.text) return null;
  return (
    <p class="notice error action-problem" role="alert">
      {props.text}
    </p>
  );
}

/** "N deleted." with the form that restores exactly those memories. */
export function UndoNotice(props: { basePath: string; csrfToken: string; deleted: number; undo: readonly string[] }) {
  return (
    <div class="notice ok">
      <form method="post" action={`${props.basePath}/memories/restore`} class="actions undo">
        {/* An output is a live status: a screen reader says what was deleted. */}
        <output>
          {props.deleted} deleted.{props.undo.length > 0 ? ' Agents no longer see them.' : ''}
        </output>
        <CsrfField token={props.csrfToken} />
        <input type="hidden" name="from" value="undo" />
        {props.undo.map((id) => (
          <input type="hidden" name="ids" value={id} />
        ))}
        {props.undo.length > 0 ? <button type="submit">Undo</button> : null}
      </form>
    </div>
  );
}
