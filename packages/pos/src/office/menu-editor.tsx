import { useState } from 'preact/hooks';
import { direct, newKey, ok } from '../api.js';
import { money } from '../money.js';
import { CategorySheet } from './category-sheet.js';
import { DishSheet } from './dish-sheet.js';
import { GroupSheet, deltaNote } from './group-sheet.js';
import { HoursSheet, type PriceLevel, PriceLevelSheet } from './hours-sheets.js';
import { type Category, type Dish, type MenuBook, type ModifierGroup, type Station, type TaxRate, current, useMenuBook } from './menu-book.js';
import { StationSheet } from './station-sheet.js';
import { TaxRateSheet, percent } from './tax-rate-sheet.js';

type Tab = 'dishes' | 'groups' | 'rates' | 'stations' | 'hours';
const TABS: { tab: Tab; name: string }[] = [
  { tab: 'dishes', name: 'Dishes' }, { tab: 'groups', name: 'Modifier groups' }, { tab: 'rates', name: 'Tax rates' }, { tab: 'stations', name: 'Stations' }, { tab: 'hours', name: 'Hours & prices' },
];
type Hours = MenuBook['hours']['dishes'][number];

/** The sheet open over the editor, and what it edits (null: a new one). */
type Open =
  | { kind: 'category'; category: Category | null }
  | { kind: 'dish'; dish: Dish | null }
  | { kind: 'group'; group: ModifierGroup | null }
  | { kind: 'rate'; rate: TaxRate | null }
  | { kind: 'station'; station: Station | null }
  | { kind: 'hours'; what: 'dish' | 'category'; id: string; name: string; windows: Hours['windows'] }
  | { kind: 'level'; level: PriceLevel | null };

/**
 * The menu editor (issue 60, managers and admins): categories and their dishes, modifier groups with
 * their options' prices, tax rates. Each change is the API's own write (it records who made it, and
 * refuses what breaks the menu's rules with a message shown on the sheet).
 */
export function MenuEditor() {
  const m = useMenuBook();
  const [tab, setTab] = useState<Tab>('dishes');
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [open, setOpenSheet] = useState<{ sheet: Open; version: { 'if-match'?: string } } | null>(null);
  const show = (o: Open | null) => {
    m.clearError();
    if (!o) return setOpenSheet(null);
    // Gone since the book was read (another manager deleted it): the book is read again.
    // Offline, the sheet cannot show what is now: the editor says so rather than open nothing.
    void latest(o).then((found) => (found ? setOpenSheet(found) : m.reload()), m.fail);
  };
  const close = () => show(null);
  const { book } = m;
  if (!book) return <main class="menu-editor">{m.readError ? <p class="error" role="alert">{m.readError}</p> : <p class="muted">Loading…</p>}</main>;
  const sheet = { save: m.save, busy: m.busy, error: m.error, onClose: close, version: open?.version ?? {} };
  const o = open?.sheet;
  const category = book.categories.find((c) => c.id === categoryId) ?? book.categories[0];
  return (
    <main class="menu-editor">
      <h2>Menu</h2>
      <div class="segmented menu-tabs">
        {TABS.map((t) => <button type="button" key={t.tab} id={`menu-tab-${t.tab}`} class={tab === t.tab ? 'active' : ''} onClick={() => setTab(t.tab)}>{t.name}</button>)}
      </div>
      {!open && m.error && <p class="error" role="alert">{m.error}</p>}
      {m.notice && <p class="notice" id="menu-stale" role="status">{m.notice}</p>}
      {m.readError && <p class="error" role="alert">{m.readError}</p>}
      {tab === 'dishes' && <Dishes book={book} category={category} pick={setCategoryId} show={show} />}
      {tab === 'dishes' && book.archived.length > 0 && <Archived dishes={book.archived} restore={(id) => void m.save(() => ok(direct.POST('/dishes/{id}/restore', { params: { path: { id } }, headers: { 'idempotency-key': newKey() } })))} busy={m.busy} />}
      {tab === 'groups' && (
        <Rows add="+ Modifier group" addId="add-group" empty="No modifier groups yet: “Extras” or “Salsa”, chosen on a dish." onAdd={() => show({ kind: 'group', group: null })}
          rows={book.groups.map((g) => ({
            id: g.id, name: g.name, open: () => show({ kind: 'group', group: g }),
            facts: `${g.min_choices === 0 ? 'optional' : `at least ${g.min_choices}`}, at most ${g.max_choices} · ${g.options.map((o) => `${o.name} ${deltaNote(o.price_delta)}`).join(', ')}`,
          }))} />
      )}
      {tab === 'rates' && (
        <Rows add="+ Tax rate" addId="add-tax-rate" empty="No tax rates yet: a category's dishes are untaxed until it names one." onAdd={() => show({ kind: 'rate', rate: null })}
          rows={book.rates.map((r) => ({ id: r.id, name: r.name, end: percent(r.rate), open: () => show({ kind: 'rate', rate: r }) }))} />
      )}
      {tab === 'stations' && (
        <Rows add="+ Station" addId="add-station" empty="No kitchen stations yet: every line goes to one kitchen screen. Add the Grill, the Bar… and route categories to them." onAdd={() => show({ kind: 'station', station: null })}
          rows={book.stations.map((s) => ({ id: s.id, name: s.name, end: s.is_default ? 'default' : '', open: () => show({ kind: 'station', station: s }) }))} />
      )}
      {tab === 'hours' && <HoursAndPrices book={book} show={show} />}
      {o?.kind === 'hours' && <HoursSheet {...o} {...sheet} />}
      {o?.kind === 'level' && <PriceLevelSheet level={o.level} dishes={book.dishes} {...sheet} />}
      {o?.kind === 'category' && <CategorySheet book={book} category={o.category} {...sheet} onAdded={setCategoryId} />}
      {o?.kind === 'dish' && <DishSheet book={book} dish={o.dish} categoryId={category?.id ?? ''} {...sheet} />}
      {o?.kind === 'group' && <GroupSheet group={o.group} {...sheet} />}
      {o?.kind === 'rate' && <TaxRateSheet rate={o.rate} {...sheet} />}
      {o?.kind === 'station' && <StationSheet station={o.station} {...sheet} />}
    </main>
  );
}

/**
 * The sheet to open with what it edits as it is now and that version's If-Match (issue 60): two
 * managers at once, the second save is 412 rather than a silent overwrite. A new one needs no version.
 */
async function latest(o: Open): Promise<{ sheet: Open; version: { 'if-match'?: string } } | null> {
  const path = (id: string) => ({ params: { path: { id } } });
  switch (o.kind) {
    case 'category': return now(o.category, (id) => direct.GET('/categories/{id}', path(id)), (category) => ({ kind: 'category', category }));
    case 'dish': return now(o.dish, (id) => direct.GET('/dishes/{id}', path(id)), (dish) => ({ kind: 'dish', dish }));
    case 'group': return now(o.group, (id) => direct.GET('/modifier-groups/{id}', path(id)), (group) => ({ kind: 'group', group }));
    case 'rate': return now(o.rate, (id) => direct.GET('/tax-rates/{id}', path(id)), (rate) => ({ kind: 'rate', rate }));
    case 'station': return now(o.station, (id) => direct.GET('/stations/{id}', path(id)), (station) => ({ kind: 'station', station }));
    case 'level': return now(o.level, (id) => direct.GET('/price-levels/{id}', path(id)), (level) => ({ kind: 'level', level }));
    // Hours have a version of their own (not the dish's): read again, as another manager may have set them.
    case 'hours': {
      const r = await current(o.what === 'dish' ? direct.GET('/dishes/{id}/availability', path(o.id)) : direct.GET('/categories/{id}/availability', path(o.id)));
      return r && { sheet: { ...o, windows: r.item.windows }, version: r.version };
    }
  }
}

/** A new one as it is; an existing one read again (null: gone since the book was read). */
async function now<T extends { id: string }>(item: T | null, read: (id: string) => Promise<{ data?: T; response: Response }>, sheet: (item: T | null) => Open) {
  if (!item) return { sheet: sheet(null), version: {} };
  const r = await current(read(item.id));
  return r && { sheet: sheet(r.item), version: r.version };
}

/** The categories as chips, then the chosen one's dishes with their prices. */
function Dishes(props: { book: MenuBook; category: Category | undefined; pick: (id: string) => void; show: (o: Open) => void }) {
  const { book, category: c, show } = props;
  const rate = book.rates.find((r) => r.id === c?.tax_rate_id);
  const station = book.stations.find((s) => s.id === c?.station_id);
  const groupName = (id: string) => book.groups.find((g) => g.id === id)?.name ?? '';
  const dishes = book.dishes.filter((d) => d.category_id === c?.id);
  return (
    <>
      <div class="chips category-chips">
        {book.categories.map((x) => (
          <button type="button" key={x.id} data-category-id={x.id} class={x.id === c?.id ? 'chip active' : 'chip'} onClick={() => props.pick(x.id)}>{x.name}</button>
        ))}
        <button type="button" class="secondary" id="add-category" onClick={() => show({ kind: 'category', category: null })}>+ Category</button>
      </div>
      {c ? (
        <>
          <div class="category-head">
            <div><h3>{c.name}</h3><small class="muted">{rate ? `${rate.name} ${percent(rate.rate)}` : 'untaxed'} · {station?.name ?? 'default station'} · place {c.display_order}</small></div>
            <button type="button" class="secondary" id="edit-category" onClick={() => show({ kind: 'category', category: c })}>Change</button>
          </div>
          <Rows add="+ Dish" addId="add-dish" empty="No dishes in this category yet." onAdd={() => show({ kind: 'dish', dish: null })}
            rows={dishes.map((d) => ({
              id: d.id, name: d.name, end: money(d.price), open: () => show({ kind: 'dish', dish: d }),
              facts: [d.modifier_group_ids.map(groupName).join(', '), d.allergens.join(', ')].filter(Boolean).join(' · '),
            }))} />
        </>
      ) : <p class="muted">No categories yet. Add a tax rate first if the dishes are taxed, then a category (Starters, Drinks), then its dishes.</p>}
    </>
  );
}

/** When each category and dish is served (tap to set its hours), then the price levels (happy hour). */
function HoursAndPrices(props: { book: MenuBook; show: (o: Open) => void }) {
  const { book, show } = props;
  const hoursOf = (list: Hours[], id: string) => list.find((h) => h.id === id);
  const row = (what: 'dish' | 'category', x: { id: string; name: string }, prefix: string) => {
    const h = hoursOf(what === 'dish' ? book.hours.dishes : book.hours.categories, x.id);
    return { id: x.id, name: `${prefix}${x.name}`, facts: h ? `served ${h.hours}` : 'always', open: () => show({ kind: 'hours', what, id: x.id, name: x.name, windows: h?.windows ?? [] }) };
  };
  return (
    <>
      <h3>Price levels</h3>
      <Rows add="+ Price level" addId="add-price-level" empty="No price levels yet: “Happy hour”, its hours and its prices." onAdd={() => show({ kind: 'level', level: null })}
        rows={book.levels.map((l) => ({ id: l.id, name: l.name, facts: `${l.hours} · ${l.prices.length} dish${l.prices.length === 1 ? '' : 'es'}`, open: () => show({ kind: 'level', level: l }) }))} />
      <h3>Hours</h3>
      <Rows add="" addId="" empty="" onAdd={() => undefined}
        rows={[...book.categories.map((c) => row('category', c, 'All of ')), ...book.dishes.map((d) => row('dish', d, ''))]} />
    </>
  );
}

/** The archived dishes, apart from the menu: waiters no longer see them; each comes back with Restore. */
function Archived(props: { dishes: Dish[]; restore: (id: string) => void; busy: boolean }) {
  return (
    <section class="archived-dishes" id="archived-dishes">
      <h3>Archived</h3>
      <ul class="menu-rows">
        {props.dishes.map((d) => (
          <li key={d.id} class="archived-row" data-archived-id={d.id}>
            <span class="row-name">{d.name}<small class="muted">{money(d.price)}</small></span>
            <button type="button" class="secondary" data-restore={d.id} disabled={props.busy} onClick={() => props.restore(d.id)}>Restore</button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A list of the menu's things, each a row to tap open, and a button to add one. */
function Rows(props: { rows: { id: string; name: string; facts?: string; end?: string; open: () => void }[]; add: string; addId: string; empty: string; onAdd: () => void }) {
  return (
    <>
      {props.rows.length === 0 ? <p class="muted">{props.empty}</p> : (
        <ul class="menu-rows">
          {props.rows.map((r) => (
            <li key={r.id}>
              <button type="button" class="menu-row" data-row-id={r.id} onClick={r.open}>
                <span class="row-name">{r.name}{r.facts && <small class="muted">{r.facts}</small>}</span>
                {r.end && <span class="row-end">{r.end}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      {props.add && <button type="button" id={props.addId} class="add-row" onClick={props.onAdd}>{props.add}</button>}
    </>
  );
}
