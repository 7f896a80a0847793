import { CsrfField, type PageFrame } from '../../views/layout.js';

/** The field the person types their user id into, to say they mean it. */
export const ERASE_ALL_CONFIRM_FIELD = 'confirm_user_id';

/**
 * "Erase all my memories": what it takes and what it leaves, and a form that erases only when
 * the person types their own user id (the tenant, shown here as text). The page offers it on
 * every profile: a lite server's one person owns memories too.
 */
export function EraseAllSection(props: { frame: PageFrame; invalid: boolean }) {
  const { frame } = props;
  const tenant = frame.viewer.tenant;
  return (
    <section aria-labelledby="erase-all-title" class="erase-all">
      <h2 id="erase-all-title">Erase all my memories</h2>
      <p>
        Erases every memory of yours for good, live and deleted alike: their content and every version, their vectors, index entries, links
        and import records. <strong>It cannot be undone</strong>, and copies outside this database (backups, exports) are not touched. Your
        API keys, shared spaces and sign-in stay; the spaces you share are then empty.
      </p>
      <form method="post" action={`${frame.basePath}/access/erase-all`}>
        <CsrfField token={frame.csrfToken} />
        <p>
          <label>
            To confirm, type your user id, <code>{tenant}</code>
            <br />
            <input
              name={ERASE_ALL_CONFIRM_FIELD}
              required
              maxlength={300}
              autocomplete="off"
              spellcheck={false}
              aria-invalid={props.invalid ? 'true' : undefined}
            />
          </label>
        </p>
        <button type="submit" class="danger">
          Erase all my memories
        </button>
      </form>
    </section>
  );
}
