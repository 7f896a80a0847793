import type { MemsvcConfig } from '@memsvc/config';

/** The five scheduled jobs of spec §1.9. */
export type ScheduledJobName = 'stm-expiry-sweep' | 'stm-promotion' | 'auth-store-sweep' | 'ltm-decay' | 'corpus-consolidation';

export interface ScheduledJob {
  readonly name: ScheduledJobName;
  readonly intervalMs: number;
  /** `0` disables a job (spec §1.9); corpus consolidation is off unless the operator opts in. */
  readonly enabled: boolean;
}

/** The job schedule a configuration asks for. */
export function scheduledJobs(config: MemsvcConfig): readonly ScheduledJob[] {
  const job = (name: ScheduledJobName, intervalMs: number): ScheduledJob => ({ name, intervalMs, enabled: intervalMs > 0 });
  return [
    job('stm-expiry-sweep', config.shortTerm.sweepIntervalMs),
    job('stm-promotion', config.shortTerm.consolidationIntervalMs),
    job('auth-store-sweep', config.authStore.sweepIntervalMs),
    job('ltm-decay', config.decay.intervalMs),
    job('corpus-consolidation', config.corpusConsolidation.intervalMs),
  ];
}
