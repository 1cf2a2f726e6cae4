export interface LoginAttemptState {
  failures: number;
  lockedUntil: number | null;
}

export const MAX_FAILURES = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;

export function isLocked(state: LoginAttemptState, now: number): boolean {
  return state.lockedUntil !== null && now < state.lockedUntil;
}

export function recordFailure(state: LoginAttemptState, now: number): LoginAttemptState {
  const failures = state.failures + 1;
  if (failures <= MAX_FAILURES) {
    return { failures, lockedUntil: null };
  }
  return { failures: 0, lockedUntil: now + LOCKOUT_MS };
}

export function recordSuccess(): LoginAttemptState {
  return { failures: 0, lockedUntil: null };
}

export function remainingAttempts(state: LoginAttemptState): number {
  return Math.max(0, MAX_FAILURES - state.failures);
}
