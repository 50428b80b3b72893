import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, comanda, signedOut, signedOutByManager, useSignal } from './api.js';
import { OfflineBanner as Banner, Refusals } from './banner.js';
import { BillScreen } from './bill.js';
import { Cashier } from './cashier.js';
import { Floor } from './floor.js';
import { Login, type Member } from './login.js';
import { isManager } from './manager.js';
import { loadMenu, menu, priceNow } from './menu.js';
import { loadCurrency } from './money.js';
import { Office } from './office/office.js';
import { dismiss, signedInAs, useDishNames } from './offline/outbox.js';
import { usePrices } from './offline/overlay.js';
import { keep, prune } from './offline/reads.js';
import { keepUpToDate } from './offline/updates.js';
import { OrderScreen } from './order.js';
import { ReceiptScreen } from './receipt.js';
import { go, useRoute } from './route.js';
import './base.css';
import './pos.css';

function App() {
  const [me, setMe] = useState<Member | null | undefined>(undefined);
  const ended = useSignal(signedOut);
  const byManager = useSignal(signedOutByManager);
  const route = useRoute();
  useEffect(() => {
    void api.GET('/auth/me').then((r) => setMe(r.data ?? null), () => setMe(null));
  }, []);
  useEffect(() => {
    if (ended > 0) setMe(null);
  }, [ended]);
  useEffect(() => {
    if (me) void Promise.all([loadCurrency(), loadMenu()]);
    // The outbox sends only the writes of who is signed in (a PIN pad meanwhile: they wait, kept).
    if (me !== undefined) signedInAs(me);
    // Who is signed in, as GET /auth/me answers it: a reload with no network opens their floor.
    if (me) void keep('/auth/me', me);
  }, [me]);

  if (me === undefined) return <Banner />;
  // A new sign-in starts on the floor, never on the screen the last member left open (a manager's till).
  // What was waiting in the outbox stays there and is sent once its member signs in again.
  const notice = byManager ? 'This tablet was signed out by a manager. Sign in again: nothing waiting to be sent is lost.' : undefined;
  if (me === null) return <><Banner /><Login notice={notice} onSignedIn={(m) => { signedOutByManager.set(false); go('/floor'); setMe(m); }} /></>;
  const [screen, id] = route;
  // Screens follow the role: the till (the shift's figures, the drawer's cash) and the back office are for managers and admins.
  const till = isManager(me);
  const signOut = async () => {
    await comanda.signOut().catch(() => undefined);
    await prune({ session: true });
    setMe(null);
  };
  return (
    <>
      <Banner />
      <Refusals onDismiss={(id) => void dismiss(id)} />
      <header class="top">
        <button type="button" class={screen === 'floor' || !screen ? 'nav active' : 'nav'} onClick={() => go('/floor')}>Floor</button>
        {till && <button type="button" class={screen === 'cashier' ? 'nav active' : 'nav'} id="nav-cashier" onClick={() => go('/cashier')}>Cashier</button>}
        {till && <button type="button" class={screen === 'office' ? 'nav active' : 'nav'} id="nav-office" onClick={() => go('/office')}>Office</button>}
        <span class="who">{me.name} <small>{me.role}</small></span>
        <button type="button" class="nav" id="sign-out" onClick={() => void signOut()}>Sign out</button>
      </header>
      {screen === 'order' && id ? <OrderScreen me={me} orderId={id} />
        : screen === 'bill' && id ? <BillScreen orderId={id} />
        : screen === 'receipt' && id ? <ReceiptScreen ticketId={id} />
        : screen === 'cashier' && till ? <Cashier me={me} />
        : screen === 'office' && till ? <Office page={id} />
        : <Floor me={me} />}
    </>
  );
}

// An order seated offline is priced from the menu as the tablet last read it (the server's own price wins once sent).
usePrices((dishId, optionIds) => {
  const m = menu.get();
  const options = Object.values(m.groups).flatMap((g) => g.options.map((o) => ({ group_id: g.id, option_id: o.id, name: o.name, price_delta: o.price_delta })));
  const dish = m.dishById[dishId];
  return { price: dish ? priceNow(dish) : 0, modifiers: options.filter((o) => optionIds.includes(o.option_id)) };
});
// A write keeps the names of its dishes: a refusal names a dish even once it is off the menu.
useDishNames((dishId) => menu.get().dishById[dishId]?.name);
void prune();
keepUpToDate();

render(<App />, document.getElementById('app')!);
