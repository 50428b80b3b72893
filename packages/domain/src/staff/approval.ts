import { forbidden, validationFailed } from '../errors.js';
import { type Role, may } from './permissions.js';

/**
 * Who asks for a change that moves money, as the request carries it: the signed-in member of staff,
 * the manager who approved this very request with name and PIN (checked at the edge, throttled like a
 * login), and why. Deciders take it whole, so each rule says itself what needs a manager.
 */
export interface Authority {
  userId: string | null;
  role: Role;
  /** A manager or admin who approved this request; null: nobody did. */
  approvedBy: string | null;
  /** Why, as the request says it; null: not said. */
  reason: string | null;
}

/**
 * What an event records of an exception (a price override, a discount past the waiter's limit, a void
 * of a fired line, an order handed to another waiter): who did it, who approved it and why. A manager
 * acting on their own session approves their own action.
 */
export interface Approval {
  by: string | null;
  approvedBy: string;
  reason: string | null;
}

export const REASON_MAX = 200;

/** Whether this authority may decide an exception itself (its own role, or a manager's approval). */
export const managerial = (a: Authority): boolean => may(a.role, 'approvals:give') || a.approvedBy !== null;

/**
 * The approval an exception is recorded with, or the refusal that says what is needed. A waiter's
 * request needs a manager's approval and a reason; a manager's own request needs neither (the seed's
 * clients send no reason), and records the manager as approver.
 */
export function approve(exception: string, a: Authority): Approval {
  const reason = a.reason?.trim() || null;
  if (reason !== null && reason.length > REASON_MAX) throw validationFailed([{ field: 'reason', message: `must be at most ${REASON_MAX} characters` }]);
  if (a.userId !== null && may(a.role, 'approvals:give')) return { by: a.userId, approvedBy: a.userId, reason };
  if (a.approvedBy === null) throw forbidden(`Needs a manager's approval: ${exception}`);
  if (reason === null) throw validationFailed([{ field: 'reason', message: `a ${exception} approved by a manager needs a reason` }]);
  return { by: a.userId, approvedBy: a.approvedBy, reason };
}

/** An authority for a manager's (or admin's) own request: what tests and tools that act as one use. */
export const ownAuthority = (userId: string | null, role: Role, reason: string | null = null): Authority => ({ userId, role, approvedBy: null, reason });
