import type { FieldError } from '../errors.js';

/** The 14 allergens EU Regulation 1169/2011 requires a restaurant to declare, in the API's words. */
export const ALLERGENS = [
  'gluten', 'crustaceans', 'eggs', 'fish', 'peanuts', 'soybeans', 'milk', 'nuts', 'celery', 'mustard', 'sesame', 'sulphites', 'lupin', 'molluscs',
] as const;
export type Allergen = (typeof ALLERGENS)[number];

export const isAllergen = (v: unknown): v is Allergen => (ALLERGENS as readonly unknown[]).includes(v);

/** Anything outside the 14 is refused: a misspelt allergen on a menu is a guest at risk. */
export function allergenErrors(allergens: readonly string[] | undefined): FieldError[] {
  const unknown = (allergens ?? []).filter((a) => !isAllergen(a));
  return unknown.length ? [{ field: 'allergens', message: `not one of the EU's 14 allergens: ${unknown.join(', ')}` }] : [];
}

/** The allergens in the list's own order, each once, so two ways of writing the same set compare equal. */
export const allergenSet = (allergens: readonly string[] | undefined): Allergen[] => ALLERGENS.filter((a) => (allergens ?? []).includes(a));
