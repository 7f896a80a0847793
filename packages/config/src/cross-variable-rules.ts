import { isLoopbackHost } from '@memsvc/access';
import { DEFAULT_EMBEDDING_MODEL, HNSW_MAX_DIMENSIONS, isValidTenantId, knownModelDimensions } from '@memsvc/core';
import type { ConfigIssue } from './config-error.js';
import type { EnvVariable, ParsedEnv } from './env-schema.js';

/** `AUTH_REQUIRED=true` needs an HMAC secret at least this long (spec §5.3). */
export const JWT_SECRET_MIN_LENGTH = 32;
/**
 * Below this, MCP_ADMIN_TOKEN gets a warning, not an error: spec §2.5 sets no minimum, and a
 * short token in a working deployment must not stop it at the next boot.
 */
const ADMIN_TOKEN_ADVISED_LENGTH = 16;

/**
 * The rules that tie variables together (spec §2.5 and §5): each issue names the variable to
 * change. Run after every variable was parsed alone, so a value is checked once, here or there.
 */
export function checkCrossVariableRules(parsed: Partial<ParsedEnv>, issues: ConfigIssue[], warnings: string[]): void {
  const has = (variable: EnvVariable) => variable in parsed;

  if (parsed.AUTH_REQUIRED === true && has('JWT_SECRET')) {
    const secret = parsed.JWT_SECRET?.reveal();
    if (secret === undefined) {
      issues.push({
        variable: 'JWT_SECRET',
        message: `is required when AUTH_REQUIRED=true (at least ${JWT_SECRET_MIN_LENGTH} characters)`,
      });
    } else if (secret.length < JWT_SECRET_MIN_LENGTH) {
      issues.push({
        variable: 'JWT_SECRET',
        message: `must be at least ${JWT_SECRET_MIN_LENGTH} characters when AUTH_REQUIRED=true (got ${secret.length})`,
      });
    }
  } else if (parsed.JWT_SECRET !== undefined && parsed.JWT_SECRET.reveal().length < JWT_SECRET_MIN_LENGTH) {
    warnings.push(`JWT_SECRET is shorter than ${JWT_SECRET_MIN_LENGTH} characters; it would be rejected with AUTH_REQUIRED=true`);
  }

  const adminTokenLength = parsed.MCP_ADMIN_TOKEN?.reveal().length;
  if (adminTokenLength !== undefined && adminTokenLength < ADMIN_TOKEN_ADVISED_LENGTH) {
    warnings.push(
      `MCP_ADMIN_TOKEN is ${adminTokenLength} characters: a token this short can be guessed; use at least ${ADMIN_TOKEN_ADVISED_LENGTH} random characters (openssl rand -base64 32)`,
    );
  }

  const merge = parsed.MEMORY_CONSOLIDATION_MERGE_THRESHOLD;
  const duplicate = parsed.MEMORY_DUPLICATE_THRESHOLD;
  if (merge !== undefined && duplicate !== undefined && !(merge < duplicate)) {
    issues.push({
      variable: 'MEMORY_CONSOLIDATION_MERGE_THRESHOLD',
      message: `must be strictly below MEMORY_DUPLICATE_THRESHOLD (${merge} is not below ${duplicate})`,
    });
  }

  const low = parsed.MEMORY_CONTRADICTION_THRESHOLD;
  const high = parsed.MEMORY_CONTRADICTION_THRESHOLD_MAX;
  if (low !== undefined && high !== undefined && !(low < high)) {
    issues.push({
      variable: 'MEMORY_CONTRADICTION_THRESHOLD',
      message: `must be below MEMORY_CONTRADICTION_THRESHOLD_MAX: the band [${low}, ${high}) would be empty`,
    });
  }

  const efConstruction = parsed.PGVECTOR_HNSW_EF_CONSTRUCTION;
  const m = parsed.PGVECTOR_HNSW_M;
  if (efConstruction !== undefined && efConstruction < 2 * (m ?? 16)) {
    issues.push({
      variable: 'PGVECTOR_HNSW_EF_CONSTRUCTION',
      message: `must be at least twice PGVECTOR_HNSW_M (${2 * (m ?? 16)}), as pgvector requires`,
    });
  }

  if (has('EMBEDDING_MODEL') && has('EMBEDDING_PROVIDER') && parsed.VECTOR_DIMENSIONS === undefined && has('VECTOR_DIMENSIONS')) {
    const model = parsed.EMBEDDING_MODEL ?? (parsed.EMBEDDING_PROVIDER && DEFAULT_EMBEDDING_MODEL[parsed.EMBEDDING_PROVIDER]);
    const dimensions = model ? knownModelDimensions(model) : undefined;
    if (dimensions !== undefined && dimensions > HNSW_MAX_DIMENSIONS) {
      issues.push({
        variable: 'EMBEDDING_MODEL',
        message:
          `${model} produces ${dimensions}-dimensional vectors, above pgvector's HNSW limit of ${HNSW_MAX_DIMENSIONS}; ` +
          `set VECTOR_DIMENSIONS to ${HNSW_MAX_DIMENSIONS} or less (the provider is asked for shortened vectors)`,
      });
    }
  }

  if (parsed.MEMSVC_DEFAULT_USER_ID !== undefined && !isValidTenantId(parsed.MEMSVC_DEFAULT_USER_ID)) {
    issues.push({
      variable: 'MEMSVC_DEFAULT_USER_ID',
      message: 'must be 1 to 128 letters, digits or . _ : @ / + - characters, starting with a letter or digit',
    });
  }

  if (parsed.MEMSVC_DASHBOARD_DEV_AUTH === true && parsed.HOST !== undefined && !isLoopbackHost(parsed.HOST)) {
    warnings.push(
      `MEMSVC_DASHBOARD_DEV_AUTH signs every visitor in with the admin scope, and HOST ${parsed.HOST} is not loopback: ` +
        'anyone who reaches the port gets the dashboard; bind HOST=127.0.0.1 unless something in front of it decides who may',
    );
  }
  if (parsed.MEMSVC_DASHBOARD_DEV_AUTH === true && parsed.NODE_ENV === 'production') {
    issues.push({
      variable: 'MEMSVC_DASHBOARD_DEV_AUTH',
      message: 'is a development-only relaxation and is refused when NODE_ENV=production',
    });
  }
}

/**
 * A GitHub or Google login needs somewhere to come back to and a way to hand out a session:
 * enabling a provider without OAUTH_REDIRECT_BASE_URL or a JWT_SECRET would leave a login route
 * that can only fail, so the configuration is refused instead, naming what is missing.
 */
export function checkLoginRules(parsed: Partial<ParsedEnv>, issues: ConfigIssue[]): void {
  const providers = [
    parsed.GITHUB_CLIENT_ID !== undefined && parsed.GITHUB_CLIENT_SECRET !== undefined ? 'GitHub' : undefined,
    parsed.GOOGLE_CLIENT_ID !== undefined && parsed.GOOGLE_CLIENT_SECRET !== undefined ? 'Google' : undefined,
  ].filter((provider) => provider !== undefined);
  if (providers.length === 0) return;
  const enabled = `${providers.join(' and ')} login ${providers.length > 1 ? 'are' : 'is'} enabled`;
  if (parsed.OAUTH_REDIRECT_BASE_URL === undefined) {
    issues.push({
      variable: 'OAUTH_REDIRECT_BASE_URL',
      message: `is required when ${enabled}: the provider sends the browser back to <OAUTH_REDIRECT_BASE_URL>/auth/<provider>/callback`,
    });
  }
  const secret = parsed.JWT_SECRET?.reveal();
  if ((secret === undefined || secret.length < JWT_SECRET_MIN_LENGTH) && !issues.some((issue) => issue.variable === 'JWT_SECRET')) {
    issues.push({
      variable: 'JWT_SECRET',
      message: `is required (at least ${JWT_SECRET_MIN_LENGTH} characters) when ${enabled}: a login yields a session JWT`,
    });
  }
}
