import { type KitchenTicketEvent, kitchenTicketStream } from '@comanda/domain';
import { type EventStore, type Recorded, isOneOf } from '@comanda/event-store';
import { KITCHEN_TICKET_EVENTS, type TicketFields, nextTicketView, ticketForScreens } from '@comanda/read-models';
import type { Publish } from './relay.js';

/** `pos.kitchen.<station_id>.<EventType>`: a screen subscribes to its own station, or to `pos.kitchen.>`. */
export const kitchenSubject = (stationId: string, type: string) => `pos.kitchen.${stationId}.${type}`;

const KEEP = 5_000;

/**
 * Kitchen events for screens, each message self-contained: the event and the whole ticket as it is
 * after it (table, waiter, dish names, notes, every line's status), so a screen needs no other lookup.
 * Tickets are folded as the log goes by; one not seen yet (after a restart) is folded from its stream
 * up to the event, so a republished message carries the same ticket as the first time.
 */
export function kitchenPublications(store: EventStore): Publish {
  const tickets = new Map<string, { revision: number; view: TicketFields }>();

  async function viewAt(e: Recorded<KitchenTicketEvent>, ticketId: string): Promise<TicketFields | undefined> {
    const known = tickets.get(ticketId);
    if (known && known.revision === e.revision - 1) {
      const view = nextTicketView(known.view, e);
      return view && remember(ticketId, e.revision, view);
    }
    let view: TicketFields | undefined;
    for (const past of await store.readStream(kitchenTicketStream(ticketId))) {
      if (past.revision > e.revision) break;
      if (isOneOf<KitchenTicketEvent>(past, KITCHEN_TICKET_EVENTS)) view = nextTicketView(view ?? null, past);
    }
    return view && remember(ticketId, e.revision, view);
  }

  function remember(ticketId: string, revision: number, view: TicketFields): TicketFields {
    tickets.delete(ticketId);
    tickets.set(ticketId, { revision, view });
    if (tickets.size > KEEP) tickets.delete(tickets.keys().next().value!);
    return view;
  }

  return async (e) => {
    if (!isOneOf<KitchenTicketEvent>(e, KITCHEN_TICKET_EVENTS)) return [];
    const view = await viewAt(e, e.data.ticketId);
    if (!view) return [];
    return [{
      subject: kitchenSubject(view.station_id, e.type),
      body: { id: e.id, type: e.type, position: e.position.toString(), occurred_at: new Date(Number(e.metadata.occurredAt ?? e.recordedAt)).toISOString(), data: e.data, ticket: ticketForScreens(view) },
    }];
  };
}
