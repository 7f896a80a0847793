import { createHash, randomBytes } from 'node:crypto';

/** Every memsvc API key starts with this, so a leaked key is recognisable (and secret scanners can match it). */
export const API_KEY_PREFIX = 'msk_';

/** Bytes of randomness in a key: 256 bits, 43 base64url characters. */
const SECRET_BYTES = 32;

/** Characters of a key kept in the clear, so a person can tell their keys apart in a list. */
export const API_KEY_VISIBLE_LENGTH = 12;

const API_KEY_PATTERN = /^msk_[A-Za-z0-9_-]{43}$/;

/** A freshly minted key: the key to hand over once, and what is stored of it. */
export interface MintedApiKey {
  /** The whole key. Shown once to whoever asked for it; never stored. */
  readonly key: string;
  /** The first 12 characters (`msk_` and 8 of the secret), stored and listed. */
  readonly prefix: string;
  /** SHA-256 of the whole key, hex: the stored lookup value. */
  readonly keyHash: string;
}

/** Mints a new API key: `msk_` and 43 base64url characters of 32 random bytes. */
export function mintApiKey(random: (size: number) => Uint8Array = randomBytes): MintedApiKey {
  const key = `${API_KEY_PREFIX}${Buffer.from(random(SECRET_BYTES)).toString('base64url')}`;
  return { key, prefix: key.slice(0, API_KEY_VISIBLE_LENGTH), keyHash: hashApiKey(key) };
}

/**
 * The stored form of a key: SHA-256, hex. A fast hash is enough here, unlike for passwords: a
 * key is 256 random bits, not something a person chose, so there is no dictionary to try and a
 * brute force of the hash is as hopeless as one of the key. A slow or salted hash would also
 * rule out the lookup by a unique hash that makes authenticating one indexed read.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Whether a bearer token has the exact shape of a memsvc API key (`msk_` and 43 base64url
 * characters), so a JWT or a stray string is told apart without a database read.
 */
export function looksLikeApiKey(token: string): boolean {
  return API_KEY_PATTERN.test(token);
}
