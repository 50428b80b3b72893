import type { IncomingPayment, OutgoingPayment } from './records.js';

// List queries of the node API: both ends of [from, to] inclusive, newest first, then offset and limit.

export interface ListQuery {
  from: number;
  to: number;
  limit: number;
  offset: number;
  all: boolean;
}

export function listIncoming(payments: readonly IncomingPayment[], query: ListQuery & { externalId?: string }): IncomingPayment[] {
  // Received payments are dated by when they were received; with `all`, invoices by creation.
  const when = (p: IncomingPayment): number | undefined => (query.all ? p.createdAt : p.completedAt);
  return page(
    payments.filter((p) => query.externalId === undefined || p.externalId === query.externalId),
    when,
    query,
  );
}

export function listOutgoing(payments: readonly OutgoingPayment[], query: ListQuery): OutgoingPayment[] {
  return page(
    payments.filter((p) => query.all || p.status === 'succeeded'),
    (p) => p.createdAt,
    query,
  );
}

function page<T>(items: readonly T[], when: (item: T) => number | undefined, query: ListQuery): T[] {
  const dated = items
    .map((item, index) => ({ item, index, at: when(item) }))
    .filter((x): x is { item: T; index: number; at: number } => x.at !== undefined && x.at >= query.from && x.at <= query.to);
  // Newest first; among equal times the later record first, so the order is total and stable.
  dated.sort((a, b) => b.at - a.at || b.index - a.index);
  return dated.slice(query.offset, query.offset + query.limit).map((x) => x.item);
}
