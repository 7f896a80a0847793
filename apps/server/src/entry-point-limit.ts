import type { Context, MiddlewareHandler } from 'hono';
import type { ClientAddresses } from './client-address.js';
import { type AddressVerdict, addressLimitMessage } from './unauthenticated-rate-limit.js';

/**
 * The per-address limit (RATE_LIMIT_IP_RPM) on the ways in that need no credential yet: minting
 * a session from a key, starting or finishing a login, signing in to the dashboard. Each writes a
 * row or checks a secret, so an address that floods them is refused with 429 and Retry-After,
 * as `/mcp` refuses one without a valid credential. `counts` picks the requests that count.
 */
export function entryPointLimit(
  limit: (address: string | undefined) => Promise<AddressVerdict>,
  addresses: ClientAddresses,
  counts: (c: Context) => boolean = () => true,
): MiddlewareHandler {
  return async (c, next) => {
    if (!counts(c)) return next();
    const verdict = await limit(addresses.ofRequest(c));
    if (verdict.admitted) return next();
    const retryAfter = String(verdict.retryAfterSeconds);
    return c.json(
      {
        error: {
          code: 'RATE_LIMITED',
          message: addressLimitMessage(verdict.retryAfterSeconds),
          retryAfterSeconds: verdict.retryAfterSeconds,
        },
      },
      429,
      { 'Retry-After': retryAfter },
    );
  };
}
