import type { Scope } from '@memsvc/access';
import type { CallContext, TenantId } from '@memsvc/core';

/** Who is looking: the signed-in person's tenant, scopes and the actor their changes are audited as. */
export interface Viewer {
  readonly tenant: TenantId;
  readonly scopes: ReadonlySet<Scope>;
  /** The audit actor (`session:<jti>` or `dashboard-dev`), never a credential. */
  readonly actor: string;
  /** How they signed in: `dev`, `github`, `google`, `api-key`. */
  readonly via: string;
  /** The session's id, when there is one (sign-out revokes it). */
  readonly sessionId?: string;
  /** When the session was signed in, when there is one: managing keys asks for a recent sign-in. */
  readonly signedInAt?: Date;
  /** The API key the session was opened with (`via: 'api-key'`): a key made in it expires no later. */
  readonly keyId?: string;
  /** The organization the session counts against for rate limits, when it has one. */
  readonly organizationId?: string;
}

/** The engine's view of a viewer's call. */
export function callContextOf(viewer: Viewer): CallContext {
  return { tenant: viewer.tenant, actor: { id: viewer.actor } };
}

/** Whether the viewer may run the service (operations pages, reindex). */
export function isAdmin(viewer: Viewer): boolean {
  return viewer.scopes.has('admin');
}
