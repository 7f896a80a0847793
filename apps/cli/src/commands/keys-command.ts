import { type ApiKeyRecord, checkApiKeyName, DEFAULT_KEY_SCOPES, parseScopes, SCOPES } from '@memsvc/access';
import { issueApiKey } from '@memsvc/auth';
import { MemsvcError } from '@memsvc/core';
import { systemClock } from '@memsvc/store-pg';
import type { CliContext } from '../cli-context.js';
import { parseExpiresInDays, parseOrganizationId, parseUserFlag } from '../operator-flags.js';
import { withExistingOperatorStore, withOperatorStore } from '../operator-store.js';
import { formatInstant, formatTable, writeJsonLine } from '../text-output.js';

const APPLICATION_NAME = 'memsvc-keys';

/** The options of `memsvc keys create`, as commander hands them over. */
export interface CreateKeyOptions {
  readonly user: string;
  readonly name: string;
  readonly org?: string;
  readonly scopes?: string;
  readonly expiresInDays?: string;
  readonly json?: boolean;
}

const NOT_STORED_WARNING =
  'This is the only time the key is shown: memsvc stores only its hash and cannot show it again. ' +
  'Keep it in a secret store; if it is lost, revoke it (memsvc keys revoke <id>) and create another.';

/**
 * `memsvc keys create`: mints a per-agent API key, stores its hash and prints the key once.
 * Every flag is checked before the database is opened.
 */
export async function createKeyCommand(cli: CliContext, options: CreateKeyOptions): Promise<void> {
  const userId = parseUserFlag(options.user);
  const name = checkApiKeyName(options.name, '--name');
  const organizationId = options.org === undefined ? undefined : parseOrganizationId(options.org, '--org');
  const scopes = options.scopes === undefined ? [...DEFAULT_KEY_SCOPES] : parseScopes(options.scopes, '--scopes');
  const days = options.expiresInDays === undefined ? undefined : parseExpiresInDays(options.expiresInDays);

  await withOperatorStore(cli, APPLICATION_NAME, async (store, config) => {
    if (config.profile === 'lite') {
      cli.stderr.write('warning: per-agent API keys belong to the standard profile; a lite server does not accept them (spec §5.5)\n');
    }
    // An operator with the database holds every scope: the rule that bounds a key's scopes by
    // its maker's is applied here too, and grants them all.
    const { record, key } = await issueApiKey(
      store.apiKeys,
      { userId, name, organizationId, scopes, expiresInDays: days },
      { heldScopes: SCOPES },
      systemClock,
    );
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
  });
}

/** `memsvc keys list`: the keys, newest first; never a key or a hash (none is stored, and the hash is not read). */
export async function listKeysCommand(cli: CliContext, options: { readonly user?: string; readonly json?: boolean }): Promise<void> {
  const userId = options.user === undefined ? undefined : parseUserFlag(options.user);
  await withExistingOperatorStore(cli, APPLICATION_NAME, async (store) => {
    const keys = await store.apiKeys.list({ userId });
    const now = systemClock.now();
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
    await withExistingOperatorStore(cli, APPLICATION_NAME, async (store) => {
      const revoked = await store.apiKeys.revokeAllOf(userId, systemClock.now());
      cli.stdout.write(`revoked ${revoked} API key${revoked === 1 ? '' : 's'} of ${userId}: they are refused from now on\n`);
    });
    return;
  }
  await withExistingOperatorStore(cli, APPLICATION_NAME, async (store) => {
    const now = systemClock.now();
    const revoked = await store.apiKeys.revoke(id, now);
    if (!revoked) throw new MemsvcError('NOT_FOUND', `no API key with id "${id}" (memsvc keys list shows them)`, { field: 'id' });
    const what = `API key ${revoked.id} (${revoked.prefix}…, "${revoked.name}", user ${revoked.userId})`;
    cli.stdout.write(
      revoked.revokedAt && revoked.revokedAt.getTime() !== now.getTime()
        ? `${what} was already revoked at ${formatInstant(revoked.revokedAt)}\n`
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
