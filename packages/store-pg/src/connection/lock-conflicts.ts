/** deadlock_detected and serialization_failure: the server aborted one transaction of a lock conflict. */
const LOCK_CONFLICT_SQLSTATES = new Set(['40P01', '40001']);

/** Attempts of a transaction that keeps losing lock conflicts before its error reaches the caller. */
export const LOCK_CONFLICT_ATTEMPTS = 3;

/**
 * Whether PostgreSQL aborted the transaction to break a lock conflict with another one. Such a
 * transaction changed nothing (it was rolled back whole) and succeeds when run again.
 */
export function isLockConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && LOCK_CONFLICT_SQLSTATES.has(code);
}

/**
 * Runs `transaction` again when the server aborted it to break a lock conflict. Writes lock rows
 * in id order, so a deadlock should not happen; this is the safety net for the orders no single
 * statement controls (a promotion holds its own row before it locks its neighbours). The whole
 * transaction reruns, reading again what it decides on.
 */
export async function retryingLockConflicts<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!isLockConflict(error) || attempt >= LOCK_CONFLICT_ATTEMPTS) throw error;
    }
  }
}
