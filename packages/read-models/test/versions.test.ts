import t from 'tap';
import {
  FLOOR_STREAM, MENU_STREAM, STAFF_STREAM, floor, menu, roster, ticket, ticketStream,
  type Decider, type FloorEvent, type MenuEvent, type StaffEvent, type TicketEvent,
} from '@comanda/domain';
import type { RecordedEvent } from '@comanda/event-store';
import { MemoryReadStore } from '@comanda/read-store';
import { CATEGORIES, DISHES, MODIFIER_GROUPS, SPACES, STATIONS, TABLES, TICKETS, USERS, type Projection, allProjections } from '../src/index.js';

const id = (n: number) => `${String(n).repeat(8)}-0000-4000-8000-000000000000`;
const [DRINKS, LEMONADE, BAR, TERRACE, T1, ANA, TICKET, ORDER, SALSA] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(id) as [string, string, string, string, string, string, string, string, string];

let position = 0n;
const recorded = (stream: string, events: Array<{ type: string; data: unknown }>): RecordedEvent[] =>
  events.map((e, i) => ({ id: `${stream}-${i}`, stream, revision: i, position: ++position, type: e.type, data: e.data, metadata: {}, recordedAt: 0 }));

async function project(store: MemoryReadStore, events: RecordedEvent[]) {
  for (const event of events) {
    for (const p of allProjections.filter((p: Projection) => p.handles.includes(event.type))) await p.apply(event, store);
  }
}

const fold = <E extends { type: string }, S>(decider: Decider<unknown, E, S>, events: E[]) => events.reduce(decider.evolve, decider.initialState());
const versionIn = async (store: MemoryReadStore, collection: string, key: string) => (await store.collection<{ _id: string; version: number }>(collection).get(key))?.version;

/**
 * The ETag a GET serves (the read model's version) is the version If-Match is checked against (the
 * decider's): after every kind of event, both count the same.
 */
t.test('read models count versions as the deciders do, event by event', async (t) => {
  const store = new MemoryReadStore();
  const menuEvents: MenuEvent[] = [
    { type: 'StationAdded', data: { stationId: BAR, name: 'Bar' } },
    { type: 'CategoryAdded', data: { categoryId: DRINKS, name: 'Drinks' } },
    { type: 'DishAdded', data: { dishId: LEMONADE, name: 'Lemonade', price: 3550, categoryId: DRINKS } },
    { type: 'CategoryRenamed', data: { categoryId: DRINKS, name: 'Beverages' } },
    { type: 'CategoryStationChanged', data: { categoryId: DRINKS, stationId: BAR } },
    { type: 'CategoryDisplayOrderChanged', data: { categoryId: DRINKS, displayOrder: 4 } },
    { type: 'StationRenamed', data: { stationId: BAR, name: 'Barra' } },
    { type: 'StationMadeDefault', data: { stationId: BAR } },
    { type: 'DishUpdated', data: { dishId: LEMONADE, name: 'Lemonade', price: 1999, categoryId: DRINKS, stationId: BAR } },
    { type: 'ModifierGroupCreated', data: { groupId: SALSA, name: 'Salsa', minChoices: 0, maxChoices: 1, options: [{ id: 'o1', name: 'Verde', priceDeltaCents: 0 }] } },
    { type: 'ModifierGroupChanged', data: { groupId: SALSA, name: 'Salsas', minChoices: 0, maxChoices: 1, options: [{ id: 'o1', name: 'Verde', priceDeltaCents: 50 }] } },
    { type: 'DishUpdated', data: { dishId: LEMONADE, name: 'Lemonade', price: 1999, categoryId: DRINKS, stationId: BAR, modifierGroupIds: [SALSA], allergens: ['sulphites'] } },
  ];
  const floorEvents: FloorEvent[] = [
    { type: 'SpaceCreated', data: { spaceId: TERRACE, name: 'Terrace' } },
    { type: 'SpaceRenamed', data: { spaceId: TERRACE, name: 'Terraza' } },
    { type: 'TableAdded', data: { tableId: T1, name: 'T1', spaceId: TERRACE, status: 'available', orderId: null } },
    { type: 'TableSeated', data: { tableId: T1, orderId: ORDER } },
  ] as FloorEvent[];
  const staffEvents: StaffEvent[] = [
    { type: 'UserCreated', data: { userId: ANA, name: 'Ana', role: 'admin', pinHash: 'h', createdAt: 1 } },
    { type: 'UserPinChanged', data: { userId: ANA, pinHash: 'h2' } },
    { type: 'WalletPasswordSet', data: { userId: ANA, passwordHash: 'p' } },
    { type: 'UserRenamed', data: { userId: ANA, name: 'Anita', pinHash: 'h3' } },
  ] as StaffEvent[];
  const ticketEvents: TicketEvent[] = [
    { type: 'TicketIssued', data: { ticketId: TICKET, orderId: ORDER, billId: id(9), tableId: T1, waiter: 'Ana', currencyId: 'mxn', lines: [], share: null, subtotalCents: 1000, issuedAt: 1, issuedBy: null } },
    { type: 'LightningInvoiceCreated', data: { paymentHash: 'ab'.repeat(32), invoice: 'lnbc', amountSat: 500, billCents: 1000, tipCents: 0, rate: '2000000', rateSource: 'fixed', rateAt: 1, createdAt: 1, expiresAt: 2, excess: 'tip' } },
    { type: 'ServiceChargeRemoved', data: { amountCents: 100, chargeCents: 100, reason: 'slow', by: null, at: 2 } },
    { type: 'TicketCancelled', data: { reason: 'walked out', by: null, at: 3 } },
  ] as TicketEvent[];
  await project(store, recorded(MENU_STREAM, menuEvents));
  await project(store, recorded(FLOOR_STREAM, floorEvents));
  await project(store, recorded(STAFF_STREAM, staffEvents));
  await project(store, recorded(ticketStream(TICKET), ticketEvents));

  const m = fold(menu as Decider<unknown, MenuEvent, ReturnType<typeof menu.initialState>>, menuEvents);
  t.equal(await versionIn(store, DISHES, LEMONADE), m.dishes[LEMONADE]!.version);
  t.equal(await versionIn(store, CATEGORIES, DRINKS), m.categories[DRINKS]!.version);
  t.equal(await versionIn(store, STATIONS, BAR), m.stations[BAR]!.version);
  t.equal(await versionIn(store, MODIFIER_GROUPS, SALSA), m.modifierGroups[SALSA]!.version);
  t.equal(m.modifierGroups[SALSA]!.version, 2);
  t.equal(m.dishes[LEMONADE]!.version, 3);
  const f = fold(floor as Decider<unknown, FloorEvent, ReturnType<typeof floor.initialState>>, floorEvents);
  t.equal(await versionIn(store, SPACES, TERRACE), f.spaces[TERRACE]!.version);
  t.equal(await versionIn(store, TABLES, T1), f.tables[T1]!.version);
  const r = fold(roster as Decider<unknown, StaffEvent, ReturnType<typeof roster.initialState>>, staffEvents);
  t.equal(await versionIn(store, USERS, ANA), r.members[ANA]!.version);
  t.equal(r.members[ANA]!.version, 4);
  const k = fold(ticket as Decider<unknown, TicketEvent, ReturnType<typeof ticket.initialState>>, ticketEvents);
  t.equal(await versionIn(store, TICKETS, TICKET), k.version, 'a Lightning event moves both on');
  t.equal(k.version, 4, 'a service charge taken off moves both on too');
});
