import { type ApiKeyRecord, checkKeyRequest, DEFAULT_KEY_SCOPES, type KeyMaker, parseScopes, SCOPES } from '@memsvc/access';
import { isMemsvcError, MemsvcError } from '@memsvc/core';
import type { CliContext } from '../cli-context.js';
import { parseExpiresInDays, parseOrganizationId, parseUserFlag, userFlagOrLiteUser } from '../operator-flags.js';
import { readOperatorConfig, withExistingOperatorRuntime, withOperatorRuntime } from '../operator-runtime.js';
import { formatInstant, formatTable, writeJsonLine } from '../text-output.js';

const APPLICATION_NAME = 'memsvc-keys';

/** The options of `memsvc keys create`, as commander hands them over. */
export interface CreateKeyOptions {
  readonly user?: string;
  readonly name: string;
  readonly org?: string;
  readonly scopes?: string;
  readonly expiresInDays?: string;
  readonly json?: boolean;
}

/**
 * An operator with the database holds every scope: the rule that bounds a key's scopes by its
 * maker's is applied here too, and grants them all.
 */
const OPERATOR: KeyMaker = { heldScopes: SCOPES };

/** The flags a refused key request names. */
const KEY_FLAGS = { name: '--name', scopes: '--scopes', expiresInDays: '--expires-in-days' } as const;

const NOT_STORED_WARNING =
  'This is the only time the key is shown: memsvc stores only its hash and cannot show it again. ' +
  'Keep it in a secret store; if it is lost, revoke it (memsvc keys revoke <id>) and create another.';

/**
 * `memsvc keys create`: mints a per-agent API key through the access service, stores its hash and
 * prints the key once. Every flag is checked before the database is opened, and on the lite
 * profile, which accepts no per-agent key (spec §5.5), nothing is minted.
 */
export async function createKeyCommand(cli: CliContext, options: CreateKeyOptions): Promise<void> {
  // On lite the request is refused below for what it is (no per-agent keys), not for a missing --user.
  const userId = userFlagOrLiteUser(cli, options.user);
  const organizationId = options.org === undefined ? undefined : parseOrganizationId(options.org, '--org');
  const scopes = options.scopes === undefined ? [...DEFAULT_KEY_SCOPES] : parseScopes(options.scopes, '--scopes');
  const days = options.expiresInDays === undefined ? undefined : parseExpiresInDays(options.expiresInDays);
  const config = readOperatorConfig(cli);
  const request = checkKeyRequest(
    config.profile,
    { userId, name: options.name, organizationId, scopes, expiresInDays: days },
    OPERATOR,
    KEY_FLAGS,
  );

  await withOperatorRuntime(
    cli,
    APPLICATION_NAME,
    async ({ access }) => {
      const { record, key } = await access.keys.create(request, OPERATOR, KEY_FLAGS);
      if (options.json) {
        cli.stderr.write(`${NOT_STORED_WARNING}\n`);
        writeJsonLine(cli, { ...keyJson(record), key });
        return;
      }
      cli.stdout.write(
        [
          `Created API key ${record.id} for ${record.userId}`,
          `  name     ${record.name}`,
          `  prefix   ${record.prefix}`,
          `  scopes   ${record.scopes.join(', ')}`,
          `  org      ${record.organizationId ?? '-'}`,
          `  expires  ${record.expiresAt ? formatInstant(record.expiresAt) : 'never'}`,
          '',
          `  ${key}`,
          '',
          NOT_STORED_WARNING,
          '',
        ].join('\n'),
      );
    },
    config,
  );
}

/** `memsvc keys list`: the keys, newest first; never a key or a hash (none is stored, and the hash is not read). */
export async function listKeysCommand(cli: CliContext, options: { readonly user?: string; readonly json?: boolean }): Promise<void> {
  const userId = options.user === undefined ? undefined : parseUserFlag(options.user);
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access, clock }) => {
    const keys = await access.keys.list(userId);
    const now = clock.now();
    if (options.json) {
      writeJsonLine(
        cli,
        keys.map((key) => ({ ...keyJson(key), state: stateOf(key, now) })),
      );
      return;
    }
    if (keys.length === 0) {
      cli.stdout.write(userId === undefined ? 'no API keys\n' : `no API keys for ${userId}\n`);
      return;
    }
    const rows = keys.map((key) => [
      key.id,
      key.prefix,
      key.name,
      key.userId,
      key.organizationId ?? '-',
      key.scopes.join(','),
      formatInstant(key.createdAt),
      key.expiresAt ? `${formatInstant(key.expiresAt)}${stateOf(key, now) === 'expired' ? ' (expired)' : ''}` : 'never',
      formatInstant(key.lastUsedAt),
      formatInstant(key.revokedAt),
    ]);
    const header = ['ID', 'PREFIX', 'NAME', 'USER', 'ORG', 'SCOPES', 'CREATED', 'EXPIRES', 'LAST USED', 'REVOKED'];
    cli.stdout.write(`${formatTable(header, rows)}\n`);
  });
}

/**
 * `memsvc keys revoke <id>`: revokes a key at once; revoking one already revoked changes nothing.
 * `memsvc keys revoke --user <userId>`: revokes every key of a user.
 */
export async function revokeKeyCommand(cli: CliContext, id: string | undefined, options: { readonly user?: string } = {}): Promise<void> {
  if ((id === undefined) === (options.user === undefined)) {
    throw new MemsvcError('INVALID_INPUT', 'give either a key id or --user <userId>, not both', { field: 'id' });
  }
  if (id === undefined) {
    const userId = parseUserFlag(options.user ?? '');
    await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
      const revoked = await access.keys.revokeAllOf(userId);
      cli.stdout.write(`revoked ${revoked} API key${revoked === 1 ? '' : 's'} of ${userId}: they are refused from now on\n`);
    });
    return;
  }
  await withExistingOperatorRuntime(cli, APPLICATION_NAME, async ({ access }) => {
    const { key, alreadyRevoked } = await access.keys.revoke(id).catch((error: unknown) => {
      throw isMemsvcError(error, 'NOT_FOUND')
        ? new MemsvcError('NOT_FOUND', `no API key with id "${id}" (memsvc keys list shows them)`, { field: 'id' })
        : error;
    });
    const what = `API key ${key.id} (${key.prefix}…, "${key.name}", user ${key.userId})`;
    cli.stdout.write(
      alreadyRevoked && key.revokedAt
        ? `${what} was already revoked at ${formatInstant(key.revokedAt)}\n`
        : `revoked ${what}: it is refused from now on\n`,
    );
  });
}

function stateOf(key: ApiKeyRecord, now: Date): 'active' | 'expired' | 'revoked' {
  if (key.revokedAt) return 'revoked';
  return key.expiresAt && key.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

/** A key record as JSON: instants as ISO strings, absent ones null. */
function keyJson(key: ApiKeyRecord) {
  return {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    userId: key.userId,
    organizationId: key.organizationId,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
