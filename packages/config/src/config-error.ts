import { MemsvcError } from '@memsvc/core';

/** One problem with one variable. */
export interface ConfigIssue {
  readonly variable: string;
  readonly message: string;
}

/**
 * Every problem found in the environment at once, each naming its variable, plus the profile
 * that was active, so an operator fixes the whole file in one pass (spec §7).
 */
export class ConfigError extends MemsvcError {
  constructor(
    readonly issues: readonly ConfigIssue[],
    readonly profile: string,
  ) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    const lines = issues.map((issue) => `  - ${issue.variable}: ${issue.message}`);
    super('INVALID_CONFIG', `memsvc configuration is invalid (profile: ${profile}, ${count}):\n${lines.join('\n')}`, {
      issues,
      profile,
    });
  }
}
