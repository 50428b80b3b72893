import { type Authority, may, validationFailed } from '@comanda/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { HttpError } from '../http/http-error.js';
import { staffSessions } from './sessions.js';
import { IdempotencyHeaders } from '../http/resources.js';

/**
 * A manager's approval on a waiter's request: the manager types name and PIN on the waiter's tablet and
 * they travel with that one request, in headers (the seed's bodies, arrays among them, have no room for
 * them): `X-Approval-Name`, `X-Approval-Pin`, and `X-Approval-Reason` — name and reason
 * percent-encoded UTF-8 (encodeURIComponent), so any name or reason fits a header. The PIN is checked
 * and throttled as a sign-in is (one lock for every use of a PIN) and never logged.
 */
export const ApprovalHeaders = Type.Object({
  'x-approval-name': Type.Optional(Type.String({ maxLength: 400, description: "the approving manager's name, percent-encoded UTF-8" })),
  'x-approval-pin': Type.Optional(Type.String({ maxLength: 64, description: "the approving manager's PIN (never logged)" })),
  'x-approval-reason': Type.Optional(Type.String({ maxLength: 1000, description: 'why, percent-encoded UTF-8 (at most 200 characters decoded)' })),
});

/** The headers of a write that may carry an approval: its Idempotency-Key and the approval's. */
export const ApprovedWriteHeaders = Type.Object({ ...IdempotencyHeaders.properties, ...ApprovalHeaders.properties });

const header = (request: FastifyRequest, name: string): string | undefined => {
  const raw = request.headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value.trim() === '') return undefined;
  try {
    return decodeURIComponent(value).trim();
  } catch {
    throw validationFailed([{ field: name, message: 'must be percent-encoded UTF-8' }]);
  }
};

/**
 * Who asks, and who approved: the signed-in member of staff, with the manager whose name and PIN came
 * with the request (403 when they are wrong or not a manager's, 429 while that name is locked).
 * `reason`: the route's own field for it (a discount's reason, a void's `reason` query), used when
 * the approval header gives none.
 */
export async function authorityOf(app: FastifyInstance, request: FastifyRequest, reason?: string | null): Promise<Authority> {
  const staff = request.staff!;
  const name = header(request, 'x-approval-name');
  const pin = request.headers['x-approval-pin'];
  const said = header(request, 'x-approval-reason') ?? (reason?.trim() || null);
  const authority: Authority = { userId: staff.id, role: staff.role, approvedBy: null, reason: said };
  if (name === undefined && pin === undefined) return authority;
  if (name === undefined || typeof pin !== 'string' || pin === '') {
    throw validationFailed([{ field: name === undefined ? 'x-approval-name' : 'x-approval-pin', message: "a manager's approval needs both name and PIN" }]);
  }
  const sessions = await staffSessions(app);
  const approver = await sessions.checkPin(request, name, pin);
  if (approver && 'retryAfter' in approver) {
    throw new HttpError(429, { message: 'Too many failed attempts; try again later', retryAfter: approver.retryAfter }, { 'retry-after': String(approver.retryAfter) });
  }
  if (!approver) throw new HttpError(403, { message: "Manager's approval refused: wrong name or PIN" });
  if (!may(approver.role, 'approvals:give')) throw new HttpError(403, { message: `Manager's approval refused: ${approver.name} is not a manager` });
  return { ...authority, approvedBy: approver.id };
}
