import type { ApiKeyRecord, OrganizationWithMembers, Scope } from '@memsvc/access';
import { Layout, Notice, type PageFrame } from '../../views/layout.js';
import type { AgentConfig } from './agent-configs.js';
import { ConnectAgentSection, type ConnectSettings } from './connect-agent-section.js';
import { EraseAllSection } from './erase-all-section.js';
import { GRANT_FORM_FIELDS, type GrantFormField, type GrantFormValues } from './grant-form.js';
import { SharedSpacesSection, type SharingView } from './grants-section.js';
import type { KeyFormValues } from './key-form.js';
import { CreateKeyForm, KeysTable, NewKeyPanel, RevocationNote } from './keys-section.js';
import { OrganizationsSection } from './organizations-section.js';

/** Everything the access page shows. */
export interface AccessView {
  readonly frame: PageFrame;
  readonly now: Date;
  readonly keys: readonly ApiKeyRecord[];
  /** Older keys left off the list. */
  readonly hiddenKeys: number;
  readonly organizations: readonly OrganizationWithMembers[];
  readonly form: KeyFormValues;
  readonly grantable: readonly Scope[];
  /** The key this response created: its one showing. */
  readonly created?: { readonly record: ApiKeyRecord; readonly secret: string; readonly configs: readonly AgentConfig[] } | undefined;
  readonly notice?: { readonly text: string; readonly kind: 'ok' | 'error' } | undefined;
  /** Why the key in the form was not created. */
  readonly error?: string | undefined;
  /** How long a session lives (JWT_EXPIRES_IN), when this server issues sessions. */
  readonly sessionLifetime: string | undefined;
  readonly liteProfile: boolean;
  readonly connect: ConnectSettings;
  /** What the viewer shares and what is shared with it (not on lite: one person shares with no one). */
  readonly sharing: SharingView;
  readonly grantForm: GrantFormValues;
  /** Why the share in the form was refused, and the field core named. */
  readonly grantError?: { readonly field: GrantFormField | undefined; readonly message: string } | undefined;
  /** Why "erase all my memories" erased nothing (the typed id was not the viewer's). */
  readonly eraseAllError?: string | undefined;
}

/** `/access`: the viewer's API keys, shared spaces, organizations, how to connect an agent, and erasing all their memories. */
export function AccessPage(props: AccessView) {
  const { frame } = props;
  const organizationNames = new Map(props.organizations.map(({ organization }) => [organization.id, organization.name]));
  return (
    <Layout frame={frame} title="Access" section="access">
      <Notice text={props.notice?.text} kind={props.notice?.kind} />
      <Notice text={props.error ? `The key was not created: ${props.error}.` : undefined} kind="error" />
      <Notice text={grantErrorText(props.grantError)} kind="error" />
      <Notice text={props.eraseAllError} kind="error" />
      {props.created ? <NewKeyPanel record={props.created.record} secret={props.created.secret} configs={props.created.configs} /> : null}
      {props.liteProfile ? (
        <section aria-labelledby="keys-title">
          <h2 id="keys-title">Who can connect</h2>
          <p>
            This server runs the lite profile: one person, no per-agent API keys and no organizations (the standard profile has them).{' '}
            {props.connect.credential === 'shared-key'
              ? 'Agents send the pre-shared key MEMSVC_API_KEY.'
              : 'Agents connect without a key; anyone who can reach the port can, so keep it on this machine or a trusted network.'}{' '}
            For a key per agent, run the standard profile.
          </p>
        </section>
      ) : (
        <>
          <section aria-labelledby="keys-title">
            <h2 id="keys-title">API keys</h2>
            <p>Give each agent its own key: it acts as you, with the scopes you give it, and you can revoke it alone.</p>
            <CreateKeyForm
              frame={frame}
              values={props.form}
              grantable={props.grantable}
              organizations={props.organizations.map((entry) => entry.organization)}
            />
            <KeysTable frame={frame} keys={props.keys} hidden={props.hiddenKeys} now={props.now} organizationNames={organizationNames} />
            <RevocationNote frame={frame} sessionLifetime={props.sessionLifetime} />
          </section>
          <SharedSpacesSection
            frame={frame}
            now={props.now}
            sharing={props.sharing}
            form={props.grantForm}
            invalidField={props.grantError?.field}
            organizationNames={organizationNames}
          />
          <OrganizationsSection tenant={frame.viewer.tenant} organizations={props.organizations} />
        </>
      )}
      <ConnectAgentSection settings={props.connect} />
      <EraseAllSection frame={frame} invalid={props.eraseAllError !== undefined} />
    </Layout>
  );
}

/** A refused share as the page says it: the field core named, by its label on the form, then why. */
function grantErrorText(error: AccessView['grantError']): string | undefined {
  if (!error) return undefined;
  const field = error.field ? `${GRANT_FORM_FIELDS[error.field].label}: ` : '';
  return `The space was not shared. ${field}${error.message}.`;
}
