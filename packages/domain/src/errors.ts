/**
 * Domain rejections. The API maps each kind to one HTTP status, so deciders stay free of HTTP.
 */
export type FieldError = { field: string; message: string };

export class DomainError extends Error {
  readonly kind: 'not_found' | 'conflict' | 'validation' | 'precondition' | 'forbidden' | 'unauthorized';
  readonly details?: { errors?: FieldError[]; [k: string]: unknown };
  constructor(
    kind: 'not_found' | 'conflict' | 'validation' | 'precondition' | 'forbidden' | 'unauthorized',
    message: string,
    details?: { errors?: FieldError[]; [k: string]: unknown },
  ) {
    super(message);
    this.kind = kind;
    this.details = details;
    this.name = 'DomainError';
  }
}

export const notFound = (message = 'Resource not found') => new DomainError('not_found', message);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new DomainError('conflict', message, details);
export const validationFailed = (errors: FieldError[]) =>
  new DomainError('validation', 'Validation failed', { errors });
export const preconditionFailed = (message = 'The resource was changed by someone else (stale If-Match)') =>
  new DomainError('precondition', message);
export const forbidden = (message = 'Unauthorized API access') => new DomainError('forbidden', message);
