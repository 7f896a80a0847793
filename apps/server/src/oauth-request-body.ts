import { OAuthRefusal } from '@memsvc/auth';
import type { Context } from 'hono';
import { readBoundedBody } from './bounded-body.js';

/** A registration request, a token request or a consent form: a few kilobytes at most. */
export const OAUTH_BODY_MAX_BYTES = 16 * 1024;

/** A body read in full and within the cap, or an OAuth error saying it was not. */
export async function formOrJsonBody(c: Context): Promise<{ text: string } | { refusal: OAuthRefusal; status: 413 }> {
  const body = await readBoundedBody(c.req.raw.body, c.req.header('content-length'), OAUTH_BODY_MAX_BYTES);
  if (body.refused)
    return { refusal: new OAuthRefusal('invalid_request', `the request body exceeds ${OAUTH_BODY_MAX_BYTES} bytes`), status: 413 };
  return { text: body.bytes.toString('utf8') };
}

/** The media type of a request, without parameters, lower-cased. */
export function mediaType(c: Context): string | undefined {
  return c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
}
