import { GRANT_ACCESS, GRANTEE_KINDS, MAX_GRANT_DAYS, type MemoryGrant } from '@memsvc/core';
import { shortTime } from '../../views/format.js';
import { CsrfField, type PageFrame } from '../../views/layout.js';
import { GRANT_FORM_FIELDS, type GrantFormField, type GrantFormValues } from './grant-form.js';

/** Both sides of the viewer's sharing, as the Access page shows them. */
export interface SharingView {
  /** Grants the viewer gave, live first (ended ones stay listed). */
  readonly given: readonly MemoryGrant[];
  /** Live grants naming the viewer, its organizations or the key it signed in with. */
  readonly received: readonly MemoryGrant[];
  /** Spaces (spaceKey) the viewer's reads include without naming them. */
  readonly byDefault: ReadonlySet<string>;
}

/** Words for a grantee kind on the page. */
const KIND_TEXT: Readonly<Record<string, string>> = { user: 'user', organization: 'organization', 'api-key': 'API key' };

/**
 * "Shared spaces": what the viewer shares and with whom, the form to share a space, and what is
 * shared with them. Owner ids, spaces and grantee ids are other people's text: JSX escapes them,
 * and they are never put in a URL (grant ids are the only ids in actions).
 */
export function SharedSpacesSection(props: {
  frame: PageFrame;
  now: Date;
  sharing: SharingView;
  form: GrantFormValues;
  invalidField?: GrantFormField | undefined;
  organizationNames: ReadonlyMap<string, string>;
}) {
  return (
    <section aria-labelledby="shared-title">
      <h2 id="shared-title">Shared spaces</h2>
      <p>
        Share one space (a scope) of your memories with a user, every member of an organization, or one API key, to read or to read and
        write. Revoking ends it at the grantee's next call.
      </p>
      <ShareSpaceForm frame={props.frame} values={props.form} invalidField={props.invalidField} />
      <h3 id="given-title">You share</h3>
      <GivenTable frame={props.frame} now={props.now} grants={props.sharing.given} organizationNames={props.organizationNames} />
      <h3 id="received-title">Shared with you</h3>
      <ReceivedTable frame={props.frame} sharing={props.sharing} organizationNames={props.organizationNames} />
    </section>
  );
}

/** The share-a-space form; the owner is always the viewer, so it has no owner field. */
function ShareSpaceForm(props: { frame: PageFrame; values: GrantFormValues; invalidField: GrantFormField | undefined }) {
  const { frame, values } = props;
  const invalid = (field: GrantFormField) => (props.invalidField === field ? 'true' : undefined);
  return (
    <form method="post" action={`${frame.basePath}/access/grants`} class="share-space" aria-labelledby="share-title">
      <h3 id="share-title">Share a space</h3>
      <CsrfField token={frame.csrfToken} />
      <p>
        <label>
          {GRANT_FORM_FIELDS.space.label} <small>(the scope of your memories, e.g. project:payments)</small>
          <br />
          <input name="space" value={values.space} required maxlength={256} autocomplete="off" aria-invalid={invalid('space')} />
        </label>
      </p>
      <p>
        <label>
          Share with
          <br />
          <select name="grantee_kind">
            {GRANTEE_KINDS.map((kind) => (
              <option value={kind} selected={values.granteeKind === kind}>
                {KIND_TEXT[kind]}
              </option>
            ))}
          </select>
        </label>
      </p>
      <p>
        <label>
          {GRANT_FORM_FIELDS.grantee.label} <small>(the user id, organization id or API key id)</small>
          <br />
          <input name="grantee_id" value={values.granteeId} required maxlength={128} autocomplete="off" aria-invalid={invalid('grantee')} />
        </label>
      </p>
      <p>
        <label>
          {GRANT_FORM_FIELDS.access.label}
          <br />
          <select name="access" aria-invalid={invalid('access')}>
            {GRANT_ACCESS.map((access) => (
              <option value={access} selected={values.access === access}>
                {access === 'read' ? 'read' : 'read and write'}
              </option>
            ))}
          </select>
        </label>
      </p>
      <p>
        <label>
          {GRANT_FORM_FIELDS.expiresAt.label}{' '}
          <small>(optional; access ends at 00:00 UTC that day, at most {MAX_GRANT_DAYS} days ahead)</small>
          <br />
          <input type="date" name="expires_on" value={values.expiresOn} aria-invalid={invalid('expiresAt')} />
        </label>
      </p>
      <button type="submit" class="primary">
        Share
      </button>
    </form>
  );
}

/** The grants the viewer gave: every state, a Revoke button on the live ones. */
function GivenTable(props: {
  frame: PageFrame;
  now: Date;
  grants: readonly MemoryGrant[];
  organizationNames: ReadonlyMap<string, string>;
}) {
  const { frame, now } = props;
  return (
    <table class="keys grants-given" aria-labelledby="given-title">
      <thead>
        <tr>
          <th scope="col">Space</th>
          <th scope="col">Shared with</th>
          <th scope="col">Access</th>
          <th scope="col">Expires</th>
          <th scope="col">State</th>
          <th scope="col">
            <span class="sr-only">Action</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.grants.length === 0 ? (
          <tr>
            <td colspan={6}>You share no space.</td>
          </tr>
        ) : (
          props.grants.map((grant) => {
            const state = grantStateOf(grant, now);
            return (
              <tr data-grant-id={grant.id} class={state === 'live' ? undefined : 'inactive'}>
                <td class="key-name">{grant.space}</td>
                <td class="key-name">
                  <GranteeText grant={grant} organizationNames={props.organizationNames} />
                </td>
                <td>{grant.access}</td>
                <td>{grant.expiresAt ? shortTime(grant.expiresAt) : 'never'}</td>
                <td class={`state ${state}`}>{state === 'revoked' ? `revoked ${shortTime(grant.revokedAt)}` : state}</td>
                <td>
                  {state !== 'live' ? null : (
                    <form
                      method="post"
                      action={`${frame.basePath}/access/grants/${encodeURIComponent(grant.id)}/revoke`}
                      data-confirm={`Stop sharing the space “${grant.space}” with ${KIND_TEXT[grant.grantee.kind]} ${grant.grantee.id}?`}
                    >
                      <CsrfField token={frame.csrfToken} />
                      <button type="submit" class="danger" aria-label={`Revoke the grant of ${grant.space} to ${grant.grantee.id}`}>
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
  );
}

/** The live grants that reach the viewer, each with the choice to read its space by default. */
function ReceivedTable(props: { frame: PageFrame; sharing: SharingView; organizationNames: ReadonlyMap<string, string> }) {
  const { frame } = props;
  return (
    <table class="keys grants-received" aria-labelledby="received-title">
      <thead>
        <tr>
          <th scope="col">Owner</th>
          <th scope="col">Space</th>
          <th scope="col">Through</th>
          <th scope="col">Access</th>
          <th scope="col">Expires</th>
          <th scope="col">In my reads by default</th>
        </tr>
      </thead>
      <tbody>
        {props.sharing.received.length === 0 ? (
          <tr>
            <td colspan={6}>No space is shared with you.</td>
          </tr>
        ) : (
          props.sharing.received.map((grant) => {
            const byDefault = props.sharing.byDefault.has(`${grant.owner}\n${grant.space}`);
            return (
              <tr data-grant-id={grant.id}>
                <td class="key-name">{grant.owner}</td>
                <td class="key-name">{grant.space}</td>
                <td class="key-name">
                  {grant.grantee.kind === 'user' ? 'you' : <GranteeText grant={grant} organizationNames={props.organizationNames} />}
                </td>
                <td>{grant.access}</td>
                <td>{grant.expiresAt ? shortTime(grant.expiresAt) : 'never'}</td>
                <td>
                  <form method="post" action={`${frame.basePath}/access/shared/${encodeURIComponent(grant.id)}/default`}>
                    <CsrfField token={frame.csrfToken} />
                    <input type="hidden" name="by_default" value={byDefault ? 'false' : 'true'} />
                    <span class="default-state">{byDefault ? 'yes' : 'no'}</span>{' '}
                    <button
                      type="submit"
                      aria-label={`${byDefault ? 'Stop including' : 'Include'} ${grant.space} of ${grant.owner} in my reads`}
                    >
                      {byDefault ? 'Stop including' : 'Include'}
                    </button>
                  </form>
                </td>
              </tr>
            );
          })
        )}
      </tbody>
    </table>
  );
}

/** A grantee as a person reads it: kind, and the organization's name when the viewer knows it. */
function GranteeText(props: { grant: MemoryGrant; organizationNames: ReadonlyMap<string, string> }) {
  const { kind, id } = props.grant.grantee;
  const name = kind === 'organization' ? props.organizationNames.get(id) : undefined;
  return (
    <>
      {KIND_TEXT[kind]} <code>{id}</code>
      {name !== undefined ? <small> ({name})</small> : null}
    </>
  );
}

/** A grant's state at `now`. */
export function grantStateOf(grant: MemoryGrant, now: Date): 'live' | 'revoked' | 'expired' {
  if (grant.revokedAt) return 'revoked';
  return grant.expiresAt && grant.expiresAt.getTime() <= now.getTime() ? 'expired' : 'live';
}
