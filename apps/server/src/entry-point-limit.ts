import { type AddressVerdict, addressLimitMessage, type ClientAddresses, httpStatusOf } from '@memsvc/runtime';
import type { MiddlewareHandler } from 'hono';

/**
 * The per-address limit (RATE_LIMIT_IP_RPM) on the ways in that need no credential yet: minting
 * a session from a key, starting or finishing a login (`/auth/*`). Each writes a row or checks a
 * secret, so an address that floods them is refused with 429 and Retry-After, as `/mcp` refuses
 * one without a valid credential. (The dashboard limits its own sign-in the same way.)
 */
export function entryPointLimit(
  limit: (address: string | undefined) => Promise<AddressVerdict>,
  addresses: ClientAddresses,
): MiddlewareHandler {
  return async (c, next) => {
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
      httpStatusOf('RATE_LIMITED'),
      { 'Retry-After': retryAfter },
    );
  };
}
