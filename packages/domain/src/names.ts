import type { FieldError } from './errors.js';

/** Names staff type for things in the restaurant (dishes, categories, spaces, tables). */
export const NAME_MAX_LENGTH = 100;

/**
 * Problems with a name as given, for a 'Validation failed' answer; callers pass names already
 * trimmed, and the check is repeated here so that no path into a decider can store a blank name.
 */
export function nameErrors(name: string, field = 'name'): FieldError[] {
  if (typeof name !== 'string' || name.trim() === '') return [{ field, message: 'must not be blank' }];
  if (name !== name.trim()) return [{ field, message: 'must not start or end with spaces' }];
  if (name.length > NAME_MAX_LENGTH) return [{ field, message: `must be at most ${NAME_MAX_LENGTH} characters` }];
  return [];
}

/** Two names a guest would read as the same ("Drinks", "DRINKS"). */
export const sameName = (a: string, b: string): boolean => a.toLocaleLowerCase('en') === b.toLocaleLowerCase('en');
