import { MENU_STREAM, type FieldError, type NewLine, chooseModifiers, conflict, dishArchived, dishNow, isUuid, menu, portionError, toCents, validationFailed } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';

/** A dish a waiter asks for: the menu's dish, an optional price of its own, optional notes, how many, which course and seat. */
export interface DishRequest {
  dishId: string;
  priceAtOrder?: number;
  notes?: string;
  quantity?: number;
  course?: number;
  seat?: number | null;
  /** Modifier option ids, from the groups the dish carries. */
  modifiers?: readonly string[];
}

const notServed = (name: string, hours: string) => `${name} is not served now (served ${hours})`;
const unservedConflict = (unserved: readonly string[]) => conflict([...new Set(unserved)].join('; '), { unavailable: [...new Set(unserved)] });

/**
 * More portions of a dish already on an order (a line's quantity raised) are ordered now: outside the
 * dish's hours they are refused as a new line would be (409 naming the hours), nothing written.
 */
export async function refuseIfNotServed(commands: CommandHandler, dishId: string, clock: { at: number; timezone: string }): Promise<void> {
  const { state } = await commands.state(menu, MENU_STREAM);
  const now = dishNow(state, dishId, clock.at, clock.timezone);
  if (now && !now.available) throw unservedConflict([notServed(state.dishes[dishId]!.name, now.hours)]);
}

/**
 * Order lines from a request: every dish must be on the menu, every price valid and every dish's
 * modifier groups chosen within their bounds, or the whole request is rejected with one error per
 * offending field (`<field>[i].dish_id`, `….price_at_order`, `….modifiers` naming the group); a
 * price of the line's own must cover what its modifiers take off (`….price_at_order`).
 * Prices and modifiers' deltas are copied into the line, so a later menu change never rewrites an order.
 * Each line carries the menu's price beside its own: the order's decider tells an override from it.
 */
export async function linesFrom(
  commands: CommandHandler,
  dishes: readonly DishRequest[],
  lineId: (index: number) => string,
  /** When the dishes are ordered, in the restaurant's time zone: their hours and price levels then. */
  clock: { at: number; timezone: string },
  field = 'dishes',
): Promise<NewLine[]> {
  const { state } = await commands.state(menu, MENU_STREAM);
  const errors: FieldError[] = [];
  const unserved: string[] = [];
  const lines = dishes.map((d, i) => {
    const at = `${field}[${i}]`;
    const now = isUuid(d.dishId) ? dishNow(state, d.dishId, clock.at, clock.timezone) : null;
    if (now === null) errors.push({ field: `${at}.dish_id`, message: 'must be a dish on the menu' });
    else if (!now.available) unserved.push(notServed(state.dishes[d.dishId]!.name, now.hours));
    const menuPrice = now?.priceCents ?? null;
    let priceCents = menuPrice ?? 0;
    if (d.priceAtOrder !== undefined) {
      const cents = toCents(d.priceAtOrder);
      if (cents === null || cents <= 0) errors.push({ field: `${at}.price_at_order`, message: 'must be a positive amount with at most two decimals' });
      // The dish's regular price from a client that read the menu before the level began (a seed
      // client, a tablet between polls) is the level's price, not an override to charge more.
      else if (!(now?.level && cents === state.dishes[d.dishId]!.price)) priceCents = cents;
    }
    const chosen = menuPrice === null ? { modifiers: [], errors: [] } : chooseModifiers(state, d.dishId, d.modifiers ?? [], at);
    errors.push(...chosen.errors);
    // The menu keeps its own prices above what options take off; a price of the line's own may not be.
    const belowZero = chosen.errors.length ? null : portionError({ priceCents, modifiers: chosen.modifiers }, `${at}.price_at_order`);
    if (belowZero) errors.push(belowZero);
    const level = now?.level && priceCents === menuPrice ? { priceLevel: now.level.name } : {};
    return {
      lineId: lineId(i), dishId: d.dishId, priceCents, menuPriceCents: menuPrice ?? 0, notes: (d.notes ?? '').trim(), quantity: d.quantity ?? 1, course: d.course ?? 1, seat: d.seat ?? null, modifiers: chosen.modifiers, ...level,
    };
  });
  if (errors.length) throw validationFailed(errors);
  // Like a sold-out dish: refused by name with when it is served, nothing written (409).
  if (unserved.length) throw unservedConflict(unserved);
  // An archived dish is known (old bills name it) but no longer served: a tablet with an old menu hears so.
  const archived = [...new Set(dishes.filter((d) => dishArchived(state, d.dishId)).map((d) => state.dishes[d.dishId]!.name))];
  if (archived.length) throw conflict(`No longer on the menu (archived): ${archived.join(', ')}`, { archived });
  return lines;
}
