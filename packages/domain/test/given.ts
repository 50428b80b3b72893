import { type Decider, DomainError, fold, ownAuthority } from '../src/index.js';

/**
 * Given past events, when a command is decided: the new events, or the DomainError it was rejected
 * with. Both come back as plain values so a test states the whole outcome in one `t.same`.
 */
export function given<C, E, S>(decider: Decider<C, E, S>, past: E[]) {
  const state = fold(decider, past);
  return {
    state,
    when(command: C): { events: E[] } | { error: { kind: DomainError['kind']; message: string; details?: unknown } } {
      try {
        return { events: decider.decide(command, state) };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return { error: { kind: error.kind, message: error.message, ...(error.details ? { details: error.details } : {}) } };
      }
    },
  };
}

/** A waiter's own request (u1), and a manager's (m1): who asks, as the order's deciders take it. */
export const WAITER = ownAuthority('u1', 'waiter');
export const MANAGER = ownAuthority('m1', 'manager');
