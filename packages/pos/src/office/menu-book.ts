import { useEffect, useState } from 'preact/hooks';
import { ApiError, direct, failure, useWrite } from '../api.js';
import { type Category, type Dish, type Listed, type ModifierGroup, loadMenu } from '../menu.js';

export type { Category, Dish, ModifierGroup };
export type TaxRate = Listed<'/tax-rates'>[number];
export type Station = Listed<'/stations'>[number];

/** Everything the menu editor shows, read together: a dish form names categories, groups, rates and stations. */
export interface MenuBook {
  categories: Category[];
  dishes: Dish[];
  groups: ModifierGroup[];
  rates: TaxRate[];
  stations: Station[];
  /** Off the menu, kept (issue 60): listed apart, each with a restore. */
  archived: Dish[];
  /** Price levels (happy hour) and the categories' and dishes' hours (issue 60). */
  levels: Listed<'/price-levels'>;
  hours: Listed<'/menu-hours'>;
}

const all = { params: { query: { all: true } } } as const;
// An empty list is a 204: no body, nothing listed.
const listed = async <T>(call: Promise<{ data?: T[]; response: Response }>): Promise<T[]> => {
  const { data, response } = await call;
  if (!response.ok) throw new Error(`The menu cannot be read now (${response.status}).`);
  return data ?? [];
};

/**
 * The menu as the back office edits it: read straight from the server (never the tablet's kept copy:
 * a manager edits what is, not what was), again after each write. Writes go straight to the network
 * too, as Devices' do: a price refused must show on this screen now, not in the outbox's refusals later.
 */
export function useMenuBook() {
  const [book, setBook] = useState<MenuBook | null>(null);
  const [readError, setReadError] = useState('');
  const w = useWrite();
  // Said once a save met another manager's change (412): the book is read again, the sheet closed.
  const [notice, setNotice] = useState('');
  const read = async () => {
    try {
      const [categories, dishes, groups, rates, stations, archived, levels, hours] = await Promise.all([
        listed(direct.GET('/categories', all)), listed(direct.GET('/dishes', all)), listed(direct.GET('/modifier-groups', all)),
        listed(direct.GET('/tax-rates', all)), listed(direct.GET('/stations', all)), listed(direct.GET('/dishes/archived')),
        listed(direct.GET('/price-levels')), direct.GET('/menu-hours'),
      ]);
      if (!hours.data) throw new Error(`The menu cannot be read now (${hours.response.status}).`);
      setBook({ categories, dishes, groups, rates, stations, archived, levels, hours: hours.data });
      setReadError('');
    } catch (e) {
      setReadError(e instanceof Error ? e.message : String(e));
    }
  };
  useEffect(() => void read(), []);
  /** A write, then the book read again (and the tablet's own menu, which its order screen shows). */
  const save = (write: () => Promise<unknown>, after?: () => void) => w.run(async () => {
    setNotice('');
    try {
      await write();
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 412)) throw e;
      setNotice('Changed by someone else — reloaded');
    }
  }, () => {
    after?.();
    void read();
    void loadMenu();
  });
  return { book, readError, notice, reload: () => void read(), busy: w.busy, error: w.error, clearError: () => w.setError(''), fail: (e: unknown) => w.setError(failure(e)), save };
}

export type Save = ReturnType<typeof useMenuBook>['save'];

/**
 * One thing of the menu as it is now, and the If-Match of that version (its ETag): a sheet shows what
 * it will save over, not the book's older copy. Null when it is gone (the book is read again).
 */
export async function current<T>(call: Promise<{ data?: T; response: Response }>): Promise<{ item: T; version: { 'if-match'?: string } } | null> {
  const { data, response } = await call;
  if (!response.ok || data === undefined) return null;
  const etag = response.headers.get('etag');
  return { item: data, version: etag ? { 'if-match': etag } : {} };
}

