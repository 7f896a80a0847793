import { createHash, randomBytes } from 'node:crypto';
import { Secret, type SessionStore } from '@memsvc/access';
import { toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { type MemsvcStore, openStore } from '@memsvc/store-pg';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import type {} from '../../../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../../../tooling/vitest/test-databases.ts';
import { testTemplates } from '../../../../../tooling/vitest/test-templates.ts';
import { AuthorizationServer, type ConsentSigner, OAuthRefusal, SessionTokens, type TokenResponse } from '../../../src/index.js';

const ISSUER = 'https://memory.example.test';
/** The redirect URI of the harness's client. */
export const REDIRECT = 'https://app.example.com/callback';

/** Alice, signed in with an API key-less login, holding every scope a client may ask for. */
const ALICE: ConsentSigner = {
  userId: toTenantId('alice'),
  organizationId: null,
  scopes: ['memories:read', 'memories:write', 'memories:delete'],
  origin: 'github',
  apiKeyId: null,
  notAfter: null,
  signInJti: null,
};

/** A token request's outcome: the tokens, or the OAuth error code it was refused with. */
export type TokenOutcome = { readonly tokens: TokenResponse } | { readonly refused: string };

/**
 * The authorization server on a real store of one engine, with a client registered, and a way
 * to hold a token request at a known point: `pauseBeforeNextSession` runs a step (another
 * request, to completion) just before the next access token's session is recorded, which is the
 * window between a code's (or a refresh token's) use and the tokens it yields.
 */
export interface AuthorizationHarness {
  readonly clock: ManualClock;
  readonly store: MemsvcStore;
  readonly server: AuthorizationServer;
  readonly sessions: SessionTokens;
  readonly clientId: string;
  /** Runs `step` to completion just before the next session is recorded (once). */
  pauseBeforeNextSession(step: () => Promise<unknown>): void;
  /** Goes through authorize and consent (granting `scope`), returning the code and its verifier. */
  newCode(scope?: string): Promise<{ code: string; verifier: string }>;
  /** The token endpoint with this form (client_id added unless given), settled. */
  token(form: Record<string, string>): Promise<TokenOutcome>;
  /** Exchanges a code as the client would. */
  exchange(code: { code: string; verifier: string }): Promise<TokenOutcome>;
  /** Refreshes with a refresh token as the client would, with extra form fields. */
  refresh(refreshToken: string, extra?: Record<string, string>): Promise<TokenOutcome>;
}

/** The store's session port, holding `create` at the point a test names: the rest is the store's own. */
function pausableSessions(store: MemsvcStore, pending: { step?: (() => Promise<unknown>) | undefined }): SessionStore {
  const real = store.sessions;
  return {
    create: async (session) => {
      const step = pending.step;
      pending.step = undefined;
      if (step) await step();
      return real.create(session);
    },
    isDenied: (jti, now) => real.isDenied(jti, now),
    deny: (jti, expiresAt, now) => real.deny(jti, expiresAt, now),
    denyAll: (userId, now) => real.denyAll(userId, now),
    listActive: (userId, now) => real.listActive(userId, now),
  };
}

async function settle(request: Promise<TokenResponse>): Promise<TokenOutcome> {
  try {
    return { tokens: await request };
  } catch (error) {
    if (error instanceof OAuthRefusal) return { refused: error.code };
    throw error;
  }
}

async function openHarness(databaseUrl: string): Promise<AuthorizationHarness> {
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  const store = await openStore({ database: databaseUrl, clock, ...testTemplates() });
  const pending: { step?: (() => Promise<unknown>) | undefined } = {};
  const sessions = new SessionTokens({
    secret: new Secret('s'.repeat(40)),
    expiresInSeconds: 3600,
    sessions: pausableSessions(store, pending),
    clock,
    resourceAudience: `${ISSUER}/mcp`,
  });
  const server = new AuthorizationServer({
    issuer: ISSUER,
    clients: store.oauthClients,
    authorizations: store.oauthAuthorizations,
    refresh: store.oauthRefresh,
    sessions,
    clock,
  });
  const clientId = String((await server.register({ redirect_uris: [REDIRECT] })).client_id);
  const token = (form: Record<string, string>) => settle(server.token(new URLSearchParams({ client_id: clientId, ...form }), {}));
  return {
    clock,
    store,
    server,
    sessions,
    clientId,
    pauseBeforeNextSession: (step) => {
      pending.step = step;
    },
    async newCode(scope = 'memories:read memories:write') {
      const verifier = randomBytes(32).toString('base64url');
      const { handle } = await server.authorize(
        new URLSearchParams({
          client_id: clientId,
          redirect_uri: REDIRECT,
          response_type: 'code',
          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
          code_challenge_method: 'S256',
          scope,
        }),
      );
      const location = await server.decide(handle, ALICE);
      return { code: new URL(location ?? 'about:blank').searchParams.get('code') ?? '', verifier };
    },
    token,
    exchange: ({ code, verifier }) => token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }),
    refresh: (refreshToken, extra = {}) => token({ grant_type: 'refresh_token', refresh_token: refreshToken, ...extra }),
  };
}

/**
 * Runs `suite` against the authorization server on embedded PGlite and on the real PostgreSQL
 * (when the test run has one), each on a fresh database.
 */
export function describeWithAuthorizationServer(title: string, suite: (harness: () => AuthorizationHarness) => void): void {
  const pgvectorTestUrl = inject('pgvectorTestUrl');
  const engines: { name: string; url: () => Promise<string>; drop: () => Promise<void> }[] = [
    { name: 'pglite', url: async () => 'pglite://memory', drop: async () => undefined },
  ];
  if (pgvectorTestUrl) {
    let database: TestDatabase | undefined;
    engines.push({
      name: 'postgres',
      url: async () => {
        database = await createTestDatabase(pgvectorTestUrl);
        return database.url;
      },
      drop: async () => {
        await database?.drop();
      },
    });
  } else {
    describe.skip(`${title} [postgres] (skipped: no real PostgreSQL — set PGVECTOR_TEST_URL)`, () => {
      it('runs on PostgreSQL', () => undefined);
    });
  }
  for (const engine of engines) {
    describe(`${title} [${engine.name}]`, () => {
      let harness: AuthorizationHarness | undefined;
      beforeAll(async () => {
        harness = await openHarness(await engine.url());
      });
      afterAll(async () => {
        await harness?.store.close();
        await engine.drop();
      });
      suite(() => {
        if (!harness) throw new Error('the harness is not open yet');
        return harness;
      });
    });
  }
}
