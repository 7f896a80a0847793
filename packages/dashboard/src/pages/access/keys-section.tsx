import { API_KEY_MAX_LIFETIME_DAYS, API_KEY_NAME_MAX_LENGTH, type ApiKeyRecord, type OrganizationRecord, type Scope } from '@memsvc/access';
import { shortTime } from '../../views/format.js';
import { CsrfField, type PageFrame } from '../../views/layout.js';
import type { AgentConfig } from './agent-configs.js';
import { ConfigBlock } from './connect-agent-section.js';
import type { KeyFormValues } from './key-form.js';

/** What each scope lets a key do, in a person's words. */
const SCOPE_TEXT: Readonly<Record<Scope, string>> = {
  'memories:read': 'recall, list and read memories',
  'memories:write': 'create, update, promote and restore memories',
  'memories:delete': 'delete and forget memories',
  'keys:manage': 'make and revoke keys, and end sessions, on this page (after a recent sign-in)',
  admin: 'operator tools, and acting on the operator tenants',
};

/** A key just created: the key itself, shown this once, and the HTTP configurations with it filled in. */
export function NewKeyPanel(props: { record: ApiKeyRecord; secret: string; configs: readonly AgentConfig[] }) {
  return (
    <section class="new-key" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Your new key “{props.record.name}”</h2>
      <p>
        <strong>Copy it now:</strong> this is the only time it is shown. memsvc keeps only its hash and cannot show it again; if it is lost,
        revoke it and create another.
      </p>
      <pre class="secret" id="new-key-secret">
        <code>{props.secret}</code>
      </pre>
      <details>
        <summary>Show the HTTP configurations with this key filled in</summary>
        <div class="configs">
          {props.configs.map((config) => (
            <ConfigBlock config={config} idPrefix="filled" />
          ))}
        </div>
      </details>
    </section>
  );
}

/** The create-key form: name, scopes the viewer holds, one of their organizations, an optional expiry. */
export function CreateKeyForm(props: {
  frame: PageFrame;
  values: KeyFormValues;
  grantable: readonly Scope[];
  organizations: readonly OrganizationRecord[];
}) {
  const { frame, values } = props;
  return (
    <form method="post" action={`${frame.basePath}/access/keys`} class="create-key" aria-labelledby="create-key-title">
      <h3 id="create-key-title">Create a key</h3>
      <CsrfField token={frame.csrfToken} />
      <p>
        <label>
          Name <small>(who or what will use it, up to {API_KEY_NAME_MAX_LENGTH} characters)</small>
          <br />
          <input name="name" value={values.name} required maxlength={API_KEY_NAME_MAX_LENGTH} autocomplete="off" />
        </label>
      </p>
      <fieldset>
        <legend>Scopes</legend>
        {props.grantable.map((scope) => (
          <label class="scope">
            <input type="checkbox" name="scopes" value={scope} checked={values.scopes.includes(scope)} /> <code>{scope}</code>:{' '}
            {SCOPE_TEXT[scope]}
          </label>
        ))}
        <small>A key can have only scopes you hold yourself.</small>
      </fieldset>
      <p>
        <label>
          Organization <small>(optional)</small>
          <br />
          <select name="organization">
            <option value="">none</option>
            {props.organizations.map((organization) => (
              <option value={organization.id} selected={values.organizationId === organization.id}>
                {organization.name} ({organization.slug})
              </option>
            ))}
          </select>
        </label>
      </p>
      <p>
        <label>
          Expires after <small>(days, 1 to {API_KEY_MAX_LIFETIME_DAYS}; empty for when this sign-in ends)</small>
          <br />
          <input
            name="expires_in_days"
            value={values.expiresInDays}
            inputmode="numeric"
            pattern="[0-9]*"
            maxlength={4}
            autocomplete="off"
          />
        </label>
      </p>
      <button type="submit" class="primary">
        Create key
      </button>
    </form>
  );
}

/** The viewer's keys, newest first: never a key or a hash, only what tells them apart. */
export function KeysTable(props: {
  frame: PageFrame;
  keys: readonly ApiKeyRecord[];
  hidden: number;
  now: Date;
  organizationNames: ReadonlyMap<string, string>;
}) {
  const { frame, now } = props;
  return (
    <>
      <table class="keys">
        <caption class="sr-only">Your API keys, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Scopes</th>
            <th scope="col">Organization</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">State</th>
            <th scope="col">
              <span class="sr-only">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.keys.length === 0 ? (
            <tr>
              <td colspan={9}>You have no API keys yet.</td>
            </tr>
          ) : (
            props.keys.map((key) => {
              const state = stateOf(key, now);
              return (
                <tr data-key-id={key.id} class={state === 'active' ? undefined : 'inactive'}>
                  <td class="key-name">{key.name}</td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>{key.scopes.join(', ')}</td>
                  <td>{key.organizationId ? (props.organizationNames.get(key.organizationId) ?? key.organizationId) : '—'}</td>
                  <td>{shortTime(key.createdAt)}</td>
                  <td>{key.lastUsedAt ? shortTime(key.lastUsedAt) : 'never'}</td>
                  <td>{key.expiresAt ? shortTime(key.expiresAt) : 'never'}</td>
                  <td class={`state ${state}`}>{state === 'revoked' ? `revoked ${shortTime(key.revokedAt)}` : state}</td>
                  <td>
                    {state === 'revoked' ? null : (
                      <form
                        method="post"
                        action={`${frame.basePath}/access/keys/${key.id}/revoke`}
                        data-confirm={`Revoke the key “${key.name}”? Agents using it are refused from their next call.`}
                      >
                        <CsrfField token={frame.csrfToken} />
                        <button type="submit" class="danger" aria-label={`Revoke the key ${key.name}`}>
                          Revoke
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              );
            })
          )}
        </tbody>
      </table>
      {props.hidden > 0 ? (
        <p>
          <small>
            {props.hidden} older {props.hidden === 1 ? 'key is' : 'keys are'} not shown here; <code>memsvc keys list --user</code> lists
            them all.
          </small>
        </p>
      ) : null}
    </>
  );
}

/**
 * What revoking does, as the server does it: the key is read afresh on every call, so it is
 * refused at once everywhere; the sessions exchanged for it go on the logout denylist in the same
 * transaction, so they end at once too.
 */
export function RevocationNote(props: { frame: PageFrame; sessionLifetime: string | undefined }) {
  if (props.sessionLifetime === undefined) {
    return (
      <p class="note">
        A revoked key is refused from the very next call, on every replica. This server issues no sessions (they need the standard profile
        and a <code>JWT_SECRET</code>), so nothing made from a key outlives it.
      </p>
    );
  }
  return (
    <div class="note">
      <p>
        A revoked key is refused from the very next call, on every replica, and so is every session exchanged for it (
        <code>POST /auth/session</code>, or signing in to this dashboard with it). Other sessions (GitHub, Google) last until they expire,
        up to {props.sessionLifetime} after they began (<code>JWT_EXPIRES_IN</code>), or are logged out.
      </p>
      <p>
        A key made on this page lasts no longer than the sign-in it was made in, and is revoked when that sign-in ends (signing out, ending
        all sessions, or revoking the key it was made with). A key meant to outlive a sign-in is made by an operator with{' '}
        <code>memsvc keys create</code>.
      </p>
      <form
        method="post"
        action={`${props.frame.basePath}/access/sessions/end`}
        data-confirm="End every session of yours, on every device? You are signed out here too."
      >
        <CsrfField token={props.frame.csrfToken} />
        <button type="submit" class="danger">
          End all my sessions
        </button>{' '}
        <small>ends those sessions and the keys made in them, and signs you out here</small>
      </form>
    </div>
  );
}

/** A key's state at `now`. */
export function stateOf(key: ApiKeyRecord, now: Date): 'active' | 'expired' | 'revoked' {
  if (key.revokedAt) return 'revoked';
  return key.expiresAt && key.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}
