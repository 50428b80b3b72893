import type { ReplayedEvent } from '@comanda/event-store';
import type { MenuEvent, OrderEvent, TicketEvent } from '@comanda/domain';
import type { LocalClock } from '../clock.js';
import { MENU_NAME_EVENTS, MenuNames } from '../menu-names.js';
import { ORDER_BOOK_EVENTS, type OrderBook } from '../order-book.js';
import { type ReportDefinition, type Row, bucket, compareText, daysIn, eventTime, money, streamId } from '../report.js';

interface Sold { quantity: number; revenue: number }
const newSold = (): Sold => ({ quantity: 0, revenue: 0 });
interface MixState {
  clock: LocalClock;
  book: OrderBook;
  menu: MenuNames;
  /** day → dish → sold. */
  days: Map<string, Map<string, Sold>>;
  /** day → modifier option → sold (how many portions chose it; revenue: its price delta × those portions). */
  modifierDays: Map<string, Map<string, Sold>>;
  /**
   * Each modifier option's name and price delta as last charged on a line: the book keeps a line's
   * option ids only, and an option's delta changes only when the menu reprices it.
   */
  options: Map<string, { name: string; deltaCents: number }>;
  /** Lines of bills that may still be voided: ticket → line → dish, how many and the modifiers' options. */
  ticketLines: Map<string, Map<string, VoidableLine>>;
  /** Each dish's regular price as the menu last set it (cents): what a line a price level priced would have cost. */
  regular: Map<string, number>;
  /** Lines of open orders a price level priced: line → the level and the dish's regular price when ordered. */
  levelLines: Map<string, LevelLine>;
  /** day → price level → sold (revenue) and what those portions come to at the regular price (`atRegular`). */
  levelDays: Map<string, Map<string, LevelSold>>;
}

interface LevelLine { level: string; regularCents: number }
interface LevelSold extends Sold { atRegular: number }
interface VoidableLine { dishId: string; quantity: number; options: Array<{ optionId: string; deltaCents: number }>; level?: LevelLine & { priceCents: number } }

const sell = (sold: Sold, quantity: number, cents: number) => {
  sold.quantity += quantity;
  sold.revenue += cents;
};
const newLevelSold = (): LevelSold => ({ quantity: 0, revenue: 0, atRegular: 0 });
/** Portions a level priced, their revenue, and the same portions at the regular price (modifiers alike in both). */
const sellAtLevel = (s: MixState, day: string, level: LevelLine, quantity: number, amountCents: number, priceCents: number) => {
  const sold = bucket(bucket(s.levelDays, day, () => new Map<string, LevelSold>()), level.level, newLevelSold);
  sell(sold, quantity, amountCents);
  sold.atRegular += amountCents + (level.regularCents - priceCents) * quantity;
};
/** An order closed or deleted: its lines' levels are no longer needed (bills remember theirs for voids). */
const forgetLevels = (s: MixState, lineIds: Iterable<string>) => {
  for (const id of lineIds) s.levelLines.delete(id);
};

/**
 * Quantity and revenue by dish and by category: the lines of completed orders (a line counts its
 * quantity), dated at completion; a voided line is taken off (its quantity, its amount) on the day of the void.
 * Modifier options are rows of their own (`by_modifier`): the portions that chose each and the revenue
 * of its price delta, already inside its dishes' revenue (so not added to the revenue shares).
 * Lines a price level priced (happy hour) are rows by level (`by_price_level`): portions, revenue, and
 * what they would have come to at the dish's regular price then, so the level's cost shows; also
 * inside the dishes' revenue.
 */
export const productMixReport: ReportDefinition<MixState> = {
  name: 'product-mix',
  // 2: lines count their quantity and their modifiers' prices. 3: modifier options by_modifier. 4: by_price_level.
  version: 4,
  title: 'Product mix',
  handles: [...ORDER_BOOK_EVENTS, ...MENU_NAME_EVENTS, 'OrderStatusChanged', 'TicketIssued', 'TicketLineVoided', 'TicketCancelled', 'TicketPaid'],
  init: (clock, parts) => ({
    clock, book: parts.orderBook(), menu: new MenuNames(), days: new Map(), modifierDays: new Map(), options: new Map(), ticketLines: new Map(), regular: new Map(), levelLines: new Map(), levelDays: new Map(),
  }),
  apply(s, event: ReplayedEvent) {
    switch (event.type) {
      case 'OrderStatusChanged': {
        const closed = s.book.close(event);
        if (closed?.to !== 'completed') {
          if (closed) forgetLevels(s, closed.order.lines.keys());
          return;
        }
        const { order: o, at } = closed;
        const day = s.clock.day(at);
        const dishes = bucket(s.days, day, () => new Map<string, Sold>());
        for (const [lineId, l] of o.lines) {
          sell(bucket(dishes, l.dishId, newSold), l.quantity, l.amountCents);
          const level = s.levelLines.get(lineId);
          if (level) sellAtLevel(s, day, level, l.quantity, l.amountCents, l.priceCents);
          for (const optionId of l.optionIds) {
            const modifiers = bucket(s.modifierDays, day, () => new Map<string, Sold>());
            sell(bucket(modifiers, optionId, newSold), l.quantity, (s.options.get(optionId)?.deltaCents ?? 0) * l.quantity);
          }
        }
        return;
      }
      case 'TicketIssued': {
        const { data } = event as Extract<TicketEvent, { type: 'TicketIssued' }>;
        // Lines shared by an even split are never voided (the decider refuses): nothing to remember.
        if (data.share) return;
        s.ticketLines.set(streamId(event.stream), new Map(data.lines.map((l) => {
          const level = s.levelLines.get(l.lineId);
          return [l.lineId, {
            dishId: l.dishId, quantity: l.quantity ?? 1, options: (l.modifiers ?? []).map((m) => ({ optionId: m.optionId, deltaCents: m.priceDeltaCents })), ...(level ? { level: { ...level, priceCents: l.priceCents } } : {}),
          }];
        })));
        return;
      }
      case 'TicketLineVoided': {
        const { data } = event as Extract<TicketEvent, { type: 'TicketLineVoided' }>;
        const voided = s.ticketLines.get(streamId(event.stream))?.get(data.lineId);
        if (voided === undefined) return;
        const day = s.clock.day(eventTime(event, data.at));
        sell(bucket(bucket(s.days, day, () => new Map<string, Sold>()), voided.dishId, newSold), -voided.quantity, -data.amountCents);
        for (const o of voided.options) {
          sell(bucket(bucket(s.modifierDays, day, () => new Map<string, Sold>()), o.optionId, newSold), -voided.quantity, -o.deltaCents * voided.quantity);
        }
        if (voided.level) sellAtLevel(s, day, voided.level, -voided.quantity, -data.amountCents, voided.level.priceCents);
        return;
      }
      case 'TicketCancelled':
        s.ticketLines.delete(streamId(event.stream));
        return;
      case 'TicketPaid':
        return;
      case 'DishesAdded': {
        const { data } = event as Extract<OrderEvent, { type: 'DishesAdded' }>;
        for (const m of data.lines.flatMap((l) => l.modifiers ?? [])) s.options.set(m.optionId, { name: m.name, deltaCents: m.priceDeltaCents });
        for (const l of data.lines) {
          if (l.priceLevel) s.levelLines.set(l.lineId, { level: l.priceLevel, regularCents: s.regular.get(l.dishId) ?? l.priceCents });
        }
        s.book.apply(event);
        return;
      }
      case 'OrderDeleted': {
        const deleted = s.book.apply(event);
        if (deleted) forgetLevels(s, deleted.lines.keys());
        return;
      }
      case 'OrderLineRemoved':
        forgetLevels(s, [(event as Extract<OrderEvent, { type: 'OrderLineRemoved' }>).data.lineId]);
        s.book.apply(event);
        return;
      case 'OrderLinesCleared':
        forgetLevels(s, s.book.get(streamId(event.stream))?.lines.keys() ?? []);
        s.book.apply(event);
        return;
      case 'DishAdded':
      case 'DishUpdated': {
        const { data } = event as Extract<MenuEvent, { type: 'DishAdded' | 'DishUpdated' }>;
        s.regular.set(data.dishId, data.price);
        s.menu.apply(event);
        return;
      }
      default:
        if (event.type.startsWith('Order') || event.type.startsWith('Discount')) s.book.apply(event);
        else s.menu.apply(event);
    }
  },
  query(s, range) {
    const dishes = new Map<string, Sold>();
    for (const [, day] of daysIn(s.days, range)) {
      for (const [dishId, sold] of day) {
        const total = bucket(dishes, dishId, () => ({ quantity: 0, revenue: 0 }));
        total.quantity += sold.quantity;
        total.revenue += sold.revenue;
      }
    }
    const categories = new Map<string, Sold>();
    let revenue = 0;
    for (const [dishId, sold] of dishes) {
      const c = bucket(categories, s.menu.categoryOf(dishId) ?? '', () => ({ quantity: 0, revenue: 0 }));
      c.quantity += sold.quantity;
      c.revenue += sold.revenue;
      revenue += sold.revenue;
    }
    const share = (cents: number) => (revenue === 0 ? 0 : Math.round((cents / revenue) * 10000) / 100);
    const byRevenue = (a: [string, Sold, string], b: [string, Sold, string]) => b[1].revenue - a[1].revenue || b[1].quantity - a[1].quantity || compareText(a[2], b[2]) || compareText(a[0], b[0]);
    const dishRows: Row[] = [...dishes].map(([id, sold]) => [id, sold, s.menu.dish(id)] as [string, Sold, string]).sort(byRevenue).map(([id, sold, name]) => {
      const categoryId = s.menu.categoryOf(id);
      return { dish_id: id, dish: name, category: categoryId === null ? null : (s.menu.categories.get(categoryId) ?? categoryId), quantity: sold.quantity, revenue: money(sold.revenue), revenue_share: share(sold.revenue) };
    });
    const categoryRows: Row[] = [...categories].map(([id, sold]) => [id, sold, s.menu.categories.get(id) ?? (id || '(unknown)')] as [string, Sold, string]).sort(byRevenue)
      .map(([id, sold, name]) => ({ category_id: id || null, category: name, quantity: sold.quantity, revenue: money(sold.revenue), revenue_share: share(sold.revenue) }));
    const modifiers = new Map<string, Sold>();
    for (const [, day] of daysIn(s.modifierDays, range)) {
      for (const [optionId, sold] of day) sell(bucket(modifiers, optionId, newSold), sold.quantity, sold.revenue);
    }
    const modifierRows: Row[] = [...modifiers].map(([id, sold]) => [id, sold, s.options.get(id)?.name ?? id] as [string, Sold, string]).sort(byRevenue)
      .map(([id, sold, name]) => ({ option_id: id, modifier: name, quantity: sold.quantity, revenue: money(sold.revenue) }));
    const levels = new Map<string, LevelSold>();
    for (const [, day] of daysIn(s.levelDays, range)) {
      for (const [name, sold] of day) {
        const total = bucket(levels, name, newLevelSold);
        sell(total, sold.quantity, sold.revenue);
        total.atRegular += sold.atRegular;
      }
    }
    const levelRows: Row[] = [...levels].map(([name, sold]) => [name, sold, name] as [string, LevelSold, string]).sort(byRevenue).map(([name, sold]) => ({
      price_level: name, quantity: sold.quantity, revenue: money(sold.revenue), at_regular_prices: money(sold.atRegular), below_regular: money(sold.atRegular - sold.revenue),
    }));
    // Last: a menu without modifiers or levels has none, and an empty section first would open the CSV with a bare header.
    return { by_dish: dishRows, by_category: categoryRows, by_modifier: modifierRows, by_price_level: levelRows };
  },
  charts: [
    { section: 'by_dish', kind: 'bar', label: 'dish', values: ['revenue'], title: 'Revenue by dish' },
    { section: 'by_category', kind: 'pie', label: 'category', values: ['revenue'], title: 'Revenue by category' },
  ],
};
