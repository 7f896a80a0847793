import { expect, it } from 'vitest';
import { verifies } from '../../../core/test/requirements.js';
import { describeWithAuthorizationServer } from './support/authorization-harness.js';

/** Finding 8d of issue 51: a refusable refresh request must not spend the token it carries. */
describeWithAuthorizationServer('OAuth refresh requests checked before the token is used', (harness) => {
  it(
    verifies(
      'OAUTH-REFRESH-VALIDATE-FIRST',
      'a refresh asking for a wider scope or another resource is refused without using the token; the client retries with it and the grant lives on',
    ),
    async () => {
      const h = harness();
      const grant = await h.exchange(await h.newCode('memories:read'));
      if (!('tokens' in grant)) throw new Error(`the exchange was refused: ${grant.refused}`);
      const { refresh_token: refreshToken, access_token: accessToken } = grant.tokens;

      expect(await h.refresh(refreshToken, { scope: 'memories:read memories:write' })).toEqual({ refused: 'invalid_scope' });
      expect(await h.refresh(refreshToken, { resource: 'https://other.example.test/mcp' })).toEqual({ refused: 'invalid_target' });
      const used = await h.store.connection.db
        .selectFrom('oauth_refresh_tokens')
        .select('used_at')
        .where('used_at', 'is not', null)
        .execute();
      expect(used).toEqual([]);

      const retried = await h.refresh(refreshToken, { scope: 'memories:read' });
      expect(retried).toMatchObject({ tokens: { scope: 'memories:read' } });
      // The family was not revoked: the first access token and the new one both work.
      expect(await h.sessions.verify(accessToken, ['access-token'])).toBeDefined();
      if (!('tokens' in retried)) throw new Error('the retry was refused');
      expect(await h.sessions.verify(retried.tokens.access_token, ['access-token'])).toBeDefined();
      const families = await h.store.connection.db.selectFrom('oauth_refresh_families').select('revoked_at').execute();
      expect(families).toEqual([{ revoked_at: null }]);
    },
  );
});
