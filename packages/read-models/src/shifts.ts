import type { ShiftEvent, ZReport } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';

/** Every shift, open or closed; a closed one carries the Z report recorded when it closed. */
export type ShiftView = Tracked & {
  id: string; number: number; status: 'open' | 'closed'; cash_float_cents: number; opened_at: number; opened_by: string | null;
  closed_at: number | null; closed_by: string | null; counted_cash_cents: number | null; report: ZReport | null;
};

export const SHIFTS = 'shifts';

export const shiftsProjection = projectionOf<ShiftEvent>({
  name: 'shifts',
  handles: ['ShiftOpened', 'ShiftClosed'],
  collections: { [SHIFTS]: [{ opened_at: -1 }, { status: 1 }] },
  async apply(e, store) {
    if (e.stream !== 'shifts') return;
    await updateDocument(store.collection<ShiftView>(SHIFTS), e.data.shiftId, e, (s) => {
      if (e.type === 'ShiftOpened') {
        const d = e.data;
        return {
          _id: d.shiftId, id: d.shiftId, number: d.number, status: 'open', cash_float_cents: d.cashFloatCents, opened_at: d.openedAt, opened_by: d.openedBy,
          closed_at: null, closed_by: null, counted_cash_cents: null, report: null,
        };
      }
      if (!s) return undefined;
      const d = e.data;
      return { ...s, status: 'closed', closed_at: d.closedAt, closed_by: d.closedBy, counted_cash_cents: d.countedCashCents, report: d.report };
    });
  },
});
