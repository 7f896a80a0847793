import { isMemsvcError } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../../core/test/requirements.js';
import { applySecretsPolicy, type ImportSection, parseSecretsPolicy, SECRET_PATTERNS, scanSecrets } from '../../src/index.js';

// Secret-shaped strings are assembled at run time so no scanner flags this repository.
const join = (...parts: string[]) => parts.join('');
const base62 = 'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xYz';
const SAMPLES: Record<string, string> = {
  'private-key': join('-----BEGIN RSA ', 'PRIVATE KEY-----\nMIIEow', base62, '\n-----END RSA ', 'PRIVATE KEY-----'),
  'aws-access-key-id': join('AK', 'IA', 'Q3EGRZ7XK2LMNOPQ'),
  'github-token': join('gh', 'p_', base62, 'abc'),
  'anthropic-api-key': join('sk', '-ant-', 'api03-', base62),
  'openai-api-key': join('sk', '-proj-', base62),
  'slack-token': join('xo', 'xb-', '1234567890-', 'abcdEFGHijkl'),
  'stripe-key': join('sk', '_live_', base62),
  'google-api-key': join('AI', 'za', 'Sy', base62.slice(0, 33)),
  'memsvc-api-key': join('ms', 'k_', base62, 'QRSTUVWXY1'),
  jwt: join('ey', 'JhbGciOiJIUzI1NiJ9', '.', 'ey', 'JzdWIiOiIxMjM0NTY3ODkwIn0', '.', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'),
  'connection-string-password': join('postgres://app:', 'S3cr', 'etPa55', '@db.example.com:5432/app'),
  'bearer-token': join('Authorization: Bear', 'er ', base62),
  'secret-assignment': join('DB_PASS', 'WORD=', 'h7Kq2', 'Lx9Vw'),
};

const section = (content: string, overrides: Partial<ImportSection> = {}): ImportSection => ({
  sourceFile: 'AGENTS.md',
  sectionPath: ['Deploy'],
  title: 'Deploy',
  content,
  tags: ['codex'],
  metadata: {},
  provenance: { source: 'codex', file: 'AGENTS.md', section: 'deploy', line: 1 },
  ...overrides,
});

describe('secrets scanner', () => {
  it(verifies('IMPORT-SECRETS', 'every documented pattern has a sample that it, and only it, finds'), () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(SECRET_PATTERNS.map((pattern) => pattern.name).sort());
    for (const [name, sample] of Object.entries(SAMPLES)) {
      const text = `before ${sample} after`;
      const findings = scanSecrets(text);
      expect(
        findings.map((finding) => finding.pattern),
        name,
      ).toEqual([name]);
    }
  });

  it(verifies('IMPORT-SECRETS', 'findings carry offsets, not values; URL and assignment findings cover only the secret part'), () => {
    const text = `use ${SAMPLES['connection-string-password']}`;
    const [finding] = scanSecrets(text);
    expect(Object.keys(finding ?? {}).sort()).toEqual(['end', 'pattern', 'start']);
    expect(text.slice(finding?.start, finding?.end)).toBe(join('S3cr', 'etPa55'));
    const assignment = SAMPLES['secret-assignment'] ?? '';
    const [value] = scanSecrets(assignment);
    expect(assignment.slice(value?.start, value?.end)).toBe(join('h7Kq2', 'Lx9Vw'));
  });

  it(
    verifies(
      'IMPORT-SECRETS',
      'near misses are not flagged: bare words, placeholders, env var names, references, prose and type annotations',
    ),
    () => {
      const nearMisses = [
        'Never commit the password to the repo.',
        'password: stored in the vault',
        'password=changeme',
        // A shell variable reference, written as text.
        ['DB_PASSWORD=$', '{DB_PASSWORD}'].join(''),
        'token: GITHUB_TOKEN',
        'secret: process.env.SESSION_SECRET',
        'postgres://user:password@localhost/db',
        'postgres://localhost:5432/db',
        'token: Promise<string>',
        'api_key = <your-api-key>',
        'sk-learn-compatible-estimators-and-friends',
        'See AKIA docs for the key format.',
        'ghp_ tokens are classic tokens.',
      ];
      for (const text of nearMisses) expect(scanSecrets(text), text).toEqual([]);
    },
  );

  it(verifies('IMPORT-SECRETS', 'an Anthropic key is named as such, not as an OpenAI key; a long text scans quickly'), () => {
    expect(scanSecrets(SAMPLES['anthropic-api-key'] ?? '').map((finding) => finding.pattern)).toEqual(['anthropic-api-key']);
    const hostile = `${'password'.repeat(20_000)} ${'a'.repeat(200_000)} ${'sk-'.repeat(20_000)}`;
    const started = performance.now();
    scanSecrets(hostile);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('secrets policies', () => {
  const leaky = section(`Deploy with ${SAMPLES['github-token']} then restart.`);
  const clean = section('Nothing to hide.', { provenance: { source: 'codex', file: 'AGENTS.md', section: 'clean', line: 9 } });

  it(
    verifies('IMPORT-SECRETS-POLICY', 'redact (the default) replaces every finding in every field and renames a redacted heading anchor'),
    () => {
      const headed = section('body', {
        title: `Key ${SAMPLES['aws-access-key-id']}`,
        sectionPath: ['Ops', `Key ${SAMPLES['aws-access-key-id']}`],
        tags: ['codex', `glob:${SAMPLES['openai-api-key']}`],
        metadata: { description: `uses ${SAMPLES['slack-token']}` },
        provenance: { source: 'codex', file: 'AGENTS.md', section: 'x-2', line: 3 },
      });
      const { sections, findings, fail } = applySecretsPolicy([leaky, clean, headed]);
      expect(fail).toBeUndefined();
      expect(sections[0]?.content).toBe('Deploy with [REDACTED:github-token] then restart.');
      expect(sections[1]).toBe(clean);
      expect(sections[2]?.title).toBe('Key [REDACTED:aws-access-key-id]');
      expect(sections[2]?.tags).toEqual(['codex', 'glob:[REDACTED:openai-api-key]']);
      expect(sections[2]?.metadata).toEqual({ description: 'uses [REDACTED:slack-token]' });
      expect(JSON.stringify(sections)).not.toContain(SAMPLES['aws-access-key-id']);
      expect(findings.map((entry) => [entry.section, entry.findings.map((finding) => `${finding.field}:${finding.pattern}`)])).toEqual([
        ['deploy', ['content:github-token']],
        [
          'x-2',
          ['title:aws-access-key-id', 'sectionPath.1:aws-access-key-id', 'tags.1:openai-api-key', 'metadata.description:slack-token'],
        ],
      ]);
      expect(JSON.stringify(findings)).not.toContain(SAMPLES['github-token']);
    },
  );

  it(verifies('IMPORT-SECRETS-POLICY', 'redacting a heading renames its anchor from the redacted trail, keeping the suffix'), () => {
    const trail = ['Ops', `Key ${SAMPLES['aws-access-key-id']}`];
    const [redacted] = applySecretsPolicy([
      section('x', {
        sectionPath: trail,
        provenance: {
          source: 'codex',
          file: 'AGENTS.md',
          section: `ops-key-${(SAMPLES['aws-access-key-id'] ?? '').toLowerCase()}-part-2`,
          line: 1,
        },
      }),
    ]).sections;
    expect(redacted?.provenance.section).toBe('ops-key-redacted-aws-access-key-id-part-2');
  });

  it(
    verifies(
      'IMPORT-SECRETS-POLICY',
      'flag keeps the text and names the patterns; skip drops the section; fail returns nothing and fail: true',
    ),
    () => {
      const flagged = applySecretsPolicy([leaky, clean], 'flag');
      expect(flagged.sections[0]?.content).toBe(leaky.content);
      expect(flagged.sections[0]?.secretsFound).toEqual(['github-token']);
      expect(flagged.sections[1]?.secretsFound).toBeUndefined();
      const skipped = applySecretsPolicy([leaky, clean], 'skip');
      expect(skipped.sections).toEqual([clean]);
      expect(skipped.findings).toHaveLength(1);
      const failed = applySecretsPolicy([leaky, clean], 'fail');
      expect(failed).toMatchObject({ sections: [], fail: true });
      expect(failed.findings).toHaveLength(1);
      expect(applySecretsPolicy([clean], 'fail')).toEqual({ sections: [clean], findings: [] });
    },
  );

  it(verifies('IMPORT-SECRETS-POLICY', 'the policy defaults to redact; an unknown one is INVALID_INPUT naming secretsPolicy'), () => {
    expect(parseSecretsPolicy(undefined)).toBe('redact');
    expect(parseSecretsPolicy('skip')).toBe('skip');
    try {
      parseSecretsPolicy('ignore');
      expect.fail('accepted');
    } catch (error) {
      expect(isMemsvcError(error, 'INVALID_INPUT') && error.data.field).toBe('secretsPolicy');
    }
  });
});
