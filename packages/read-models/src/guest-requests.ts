import type { GuestRequestEvent, GuestRequestStatus } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';

/** A guest's request from the table's QR (issue 63) as the waiters' floor lists it and the guest's phone follows it. */
export type GuestRequestView = Tracked & {
  id: string; table_id: string;
  lines: Array<{ dish_id: string; quantity: number; notes: string }>;
  at: number; status: GuestRequestStatus;
  order_id: string | null; by: string | null; reason: string | null; answered_at: number | null;
};

export const GUEST_REQUESTS = 'guest_requests';

export const guestRequestsProjection = projectionOf<GuestRequestEvent>({
  name: 'guest-requests',
  handles: ['GuestDishesRequested', 'GuestRequestAccepted', 'GuestRequestDeclined'],
  collections: { [GUEST_REQUESTS]: [{ status: 1, at: 1 }, { table_id: 1, at: 1 }] },
  async apply(e, store) {
    const d = e.data;
    await updateDocument(store.collection<GuestRequestView>(GUEST_REQUESTS), d.requestId, e, (r) => {
      switch (e.type) {
        case 'GuestDishesRequested':
          return {
            _id: d.requestId, id: d.requestId, table_id: d.tableId, at: e.data.at, status: 'open', order_id: null, by: null, reason: null, answered_at: null,
            lines: e.data.lines.map((l) => ({ dish_id: l.dishId, quantity: l.quantity, notes: l.notes })),
          };
        case 'GuestRequestAccepted':
          return r ? { ...r, status: 'accepted', order_id: e.data.orderId, by: e.data.by, answered_at: e.data.at } : undefined;
        case 'GuestRequestDeclined':
          return r ? { ...r, status: 'declined', by: e.data.by, reason: e.data.reason, answered_at: e.data.at } : undefined;
      }
    });
  },
});
