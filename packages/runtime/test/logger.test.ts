import { Writable } from 'node:stream';
import { Secret } from '@memsvc/access';
import { describe, expect, it } from 'vitest';
import { auditLog, createLogger } from '../src/index.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

describe('the server logger', () => {
  it('never prints secrets: Secret values, tokens, keys and authorization headers are redacted', () => {
    const { lines, stream } = capture();
    const logger = createLogger('debug', stream);
    logger.info(
      {
        adminToken: 'admin-123',
        req: { headers: { authorization: 'Bearer abc-456', cookie: 'sid=789' } },
        config: { key: new Secret('key-000') },
      },
      'call',
    );
    logger.warn(new Secret('lonely-secret') as unknown as string);
    logger.info({ params: { apiKey: 'api-key-1', password: 'pw-2', token: 't-3' } }, 'nested');
    const output = lines.join('');
    for (const secret of ['admin-123', 'abc-456', 'sid=789', 'key-000', 'lonely-secret', 'api-key-1', 'pw-2', 't-3'])
      expect(output).not.toContain(secret);
    expect(output).toContain('[REDACTED]');
    expect(lines.every((line) => JSON.parse(line).service === 'memsvc')).toBe(true);
  });

  it("keeps audit lines at any LOG_LEVEL, with the logger's redaction, and leaves the rest to the level", () => {
    const { lines, stream } = capture();
    const logger = createLogger('error', stream);
    const audit = auditLog(logger);
    audit.info({ tool: 'reindex_memories', adminToken: 'never-printed' }, 'admin_auth_ok');
    audit.warn({ tool: 'reindex_memories', reason: 'wrong-token' }, 'admin_auth_denied');
    audit.debug('below info: dropped');
    logger.info('an ordinary info line: dropped at error');
    logger.warn('an ordinary warning: dropped at error');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['admin_auth_ok', 'admin_auth_denied']);
    expect(lines.join('')).not.toContain('never-printed');
  });
});
