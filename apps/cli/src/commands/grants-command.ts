import {
  type CallContext,
  GRANT_ACCESS,
  type GrantAccess,
  type Grantee,
  type GranteeKind,
  type MemoryGrant,
  MemsvcError,
} from '@memsvc/core';
import type { CliContext } from '../cli-context.js';
import { parseUserFlag } from '../operator-flags.js';
import { withExistingOperatorRuntime } from '../operator-runtime.js';
import { formatInstant, formatTable, writeJsonLine } from '../text-output.js';

const APPLICATION_NAME = 'memsvc-grants';

/**
 * The owner, as whom grants go through the access service and the engine's rules, like the
 * tools (core's grant-access.ts), audited as `operator:cli`.
 */
function ownerContext(owner: string): CallContext {
  return { tenant: parseUserFlag(owner, '--owner'), actor: { id: 'operator:cli' } };
}

/** `memsvc grants create`: shares one space of an owner's memories. */
export async function createGrantCommand(
  cli: CliContext,
  options: {
    readonly owner: string;
    readonly space: string;
    readonly user?: string;
    readonly org?: string;
    readonly key?: string;
    readonly access?: string;
    readonly expires?: string;
    readonly json?: boolean;
  },
): Promise<void> {
  const grantees = (
    [
      ['user', options.user],
      ['organization', options.org],
      ['api-key', options.key],
    ] as const
  ).filter((entry): entry is readonly [GranteeKind, string] => entry[1] !== undefined);
  if (grantees.length !== 1 || grantees[0] === undefined) {
    throw new MemsvcError('INVALID_INPUT', 'name exactly one grantee: --user, --org or --key', { field: '--user' });
  }
  const [kind, id] = grantees[0];
  const grantAccess = (options.access ?? 'read') as GrantAccess;
  if (!GRANT_ACCESS.includes(grantAccess))
    throw new MemsvcError('INVALID_INPUT', `--access must be ${GRANT_ACCESS.join(' or ')}`, { field: '--access' });
  const expiresAt = options.expires === undefined ? undefined : new Date(options.expires);
  if (expiresAt && Number.isNaN(expiresAt.getTime())) {
    throw new MemsvcError('INVALID_INPUT', '--expires must be an ISO 8601 date or date-time', { field: '--expires' });
  }
  const context = ownerContext(options.owner);
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const grant = await access.grants.create(context, {
      space: options.space,
      grantee: { kind, id },
      access: grantAccess,
      expiresAt,
    });
    // The tools answer the same for a grantee nobody has yet (R-GRANT-NO-ENUMERATION); the
    // operator, who reads the database anyway, is told, on stderr, in case it is a typo.
    if (!(await access.grants.isKnown(grant.grantee))) {
      cli.stderr.write(
        `warning: no ${grant.grantee.kind} ${JSON.stringify(grant.grantee.id)} is known to memsvc yet; ${howGranteeComesToExist(grant.grantee)}. ` +
          'The grant is made and reaches it from then on (revoke it if the id is a typo)\n',
      );
    }
    if (options.json) return writeJsonLine(cli, grantJson(grant));
    cli.stdout.write(`granted ${grant.access} on ${grant.owner}'s space ${grant.space} to ${describeGrantee(grant)} (grant ${grant.id})\n`);
  });
}

/** `memsvc grants revoke`: ends one of an owner's grants now. */
export async function revokeGrantCommand(cli: CliContext, grantId: string, options: { readonly owner: string; readonly json?: boolean }) {
  const context = ownerContext(options.owner);
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const grant = await access.grants.revoke(context, grantId);
    if (options.json) return writeJsonLine(cli, grantJson(grant));
    cli.stdout.write(`revoked grant ${grant.id}: ${describeGrantee(grant)} no longer reads ${grant.owner}'s space ${grant.space}\n`);
  });
}

/** `memsvc grants list`: what a user shared (ended grants too) and what is shared with it now. */
export async function listGrantsCommand(cli: CliContext, options: { readonly user: string; readonly json?: boolean }): Promise<void> {
  const context = { ...ownerContext(options.user), tenant: parseUserFlag(options.user) };
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const { given, received } = await access.grants.list(context);
    if (options.json) return writeJsonLine(cli, { given: given.map(grantJson), received: received.map(grantJson) });
    const row = (grant: MemoryGrant) => [
      grant.id,
      grant.owner,
      grant.space,
      describeGrantee(grant),
      grant.access,
      grant.expiresAt ? formatInstant(grant.expiresAt) : '-',
      grant.revokedAt ? `revoked ${formatInstant(grant.revokedAt)}` : 'live',
    ];
    const headings = ['ID', 'OWNER', 'SPACE', 'GRANTEE', 'ACCESS', 'EXPIRES', 'STATE'];
    cli.stdout.write(`given:\n${given.length > 0 ? formatTable(headings, given.map(row)) : 'none'}\n`);
    cli.stdout.write(`received:\n${received.length > 0 ? formatTable(headings, received.map(row)) : 'none'}\n`);
  });
}

/**
 * memsvc has no sign-up: a user id is known once something acts as it or belongs to it, so the
 * warning names the step that makes the grantee exist (docs/team.md makes keys before grants).
 */
function howGranteeComesToExist(grantee: Grantee): string {
  if (grantee.kind === 'organization') return 'an organization exists once `memsvc orgs create` made it';
  if (grantee.kind === 'api-key') return 'an API key counts while it is live (`memsvc keys list` shows it)';
  return (
    `a user comes to exist with its first API key (\`memsvc keys create --user ${grantee.id} --name …\`), ` +
    'GitHub or Google login, organization membership or memory'
  );
}

function describeGrantee(grant: MemoryGrant): string {
  return `${grant.grantee.kind} ${grant.grantee.id}`;
}

function grantJson(grant: MemoryGrant) {
  return {
    id: grant.id,
    owner: grant.owner,
    space: grant.space,
    grantee: grant.grantee,
    access: grant.access,
    grantedBy: grant.grantedBy,
    createdAt: grant.createdAt.toISOString(),
    expiresAt: grant.expiresAt?.toISOString() ?? null,
    revokedAt: grant.revokedAt?.toISOString() ?? null,
  };
}
