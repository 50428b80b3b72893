import { useEffect, useState } from 'preact/hooks';
import type { paths } from '@comanda/client';
import { ApiError, accepted, direct, newKey, ok, useWrite } from '../api.js';

type Settings = paths['/settings']['get']['responses'][200]['content']['application/json'];
type Body = paths['/settings']['put']['requestBody']['content']['application/json'];
type Field = 'restaurant_name' | 'receipt_footer' | 'prices_include_tax' | 'waiter_discount_max_percent' | 'service_charge_percent' | 'service_charge_min_party' | 'service_charge_taxable' | 'kitchen_auto_bump_minutes';
/** The form as typed: text for numbers (a half-typed "12." must survive), booleans as they are. */
type Form = Record<Field, string | boolean>;

const NUMBERS: Field[] = ['waiter_discount_max_percent', 'service_charge_percent', 'service_charge_min_party', 'kitchen_auto_bump_minutes'];
const formOf = (s: Settings): Form => ({
  restaurant_name: s.restaurant_name, receipt_footer: s.receipt_footer, prices_include_tax: s.prices_include_tax,
  waiter_discount_max_percent: String(s.waiter_discount_max_percent), service_charge_percent: String(s.service_charge_percent),
  service_charge_min_party: String(s.service_charge_min_party), service_charge_taxable: s.service_charge_taxable,
  kitchen_auto_bump_minutes: String(s.kitchen_auto_bump_minutes),
});

/** Only what the manager changed, numbers as numbers (the API names a bad one field by field). */
function changesOf(form: Form, from: Settings): Body {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(form) as [Field, string | boolean][]) {
    const value = NUMBERS.includes(k) ? (String(v).trim() === '' ? Number.NaN : Number(v)) : v;
    if (value !== from[k]) body[k] = Number.isNaN(value) ? String(v) : value;
  }
  return body as Body;
}

/**
 * The restaurant's settings, for managers and admins (issue 60): name and footer, tax mode, the
 * waiter's discount limit, the service charge, auto-bump. Saved with the version read (If-Match), so
 * two managers never overwrite each other unseen: a 412 reloads what the other saved and says so.
 * Straight to the network, as the other back office screens: the manager sees it applied or refused.
 */
export function SettingsScreen() {
  const [read, setRead] = useState<Settings | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [reason, setReason] = useState('');
  // What the last save said; `alert` when it did not save (another manager's change was reloaded).
  const [said, setSaid] = useState({ text: '', alert: false });
  const [key, setKey] = useState(newKey);
  const w = useWrite();
  const load = async (message = '') => {
    const s = await ok(direct.GET('/settings'));
    setRead(s);
    setForm(formOf(s));
    setSaid({ text: message, alert: Boolean(message) });
  };
  useEffect(() => void load().catch((e: Error) => w.setError(e.message)), []);
  if (!read || !form) return <main class="settings"><h2>Settings</h2>{w.error ? <p class="error" role="alert">{w.error}</p> : <p class="muted">Loading…</p>}</main>;

  const changes = changesOf(form, read);
  const save = () => w.run(async () => {
    try {
      const saved = await ok(direct.PUT('/settings', {
        body: { ...changes, ...(reason.trim() ? { reason: reason.trim() } : {}) }, headers: { 'if-match': `"${read.version}"`, 'idempotency-key': key },
      }));
      setReason('');
      setKey(newKey());
      if (accepted(saved)) return void (await load().then(() => setSaid({ text: 'Saved: in force on every tablet now', alert: false })));
      setRead(saved);
      setForm(formOf(saved));
      setSaid({ text: 'Saved: in force on every tablet now', alert: false });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 412) throw e;
      setKey(newKey());
      await load('Changed by someone else — reloaded. Check the values and save again.');
    }
  });
  const set = (k: Field) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [k]: e.currentTarget.value });
  const yesNo = (k: Field, yes: string, no: string) => (
    <select id={`setting-${k}`} value={form[k] ? 'yes' : 'no'} onChange={(e) => setForm({ ...form, [k]: e.currentTarget.value === 'yes' })}>
      <option value="yes">{yes}</option><option value="no">{no}</option>
    </select>
  );
  const number = (k: Field, max: number, step = '1') => (
    <input id={`setting-${k}`} type="number" inputMode="decimal" min={0} max={max} step={step} value={String(form[k])} onInput={set(k)} />
  );
  return (
    <main class="settings">
      <h2>Settings</h2>
      <form onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <fieldset>
          <legend>Restaurant</legend>
          <label>Name on bills and receipts<input id="setting-restaurant_name" maxLength={80} value={String(form.restaurant_name)} onInput={set('restaurant_name')} /></label>
          <label>Receipt footer<input id="setting-receipt_footer" maxLength={200} value={String(form.receipt_footer)} onInput={set('receipt_footer')} /></label>
          <p class="muted">Amounts are shown in {read.currency} (an admin changes the base currency).</p>
        </fieldset>
        <fieldset>
          <legend>Tax</legend>
          <label>Menu prices{yesNo('prices_include_tax', 'include tax', 'are before tax: tax added on the bill')}</label>
        </fieldset>
        <fieldset>
          <legend>Discounts</legend>
          <label>A waiter gives without a manager up to (%){number('waiter_discount_max_percent', 100)}</label>
        </fieldset>
        <fieldset>
          <legend>Service charge</legend>
          <label>Automatic service charge (%; 0 = none){number('service_charge_percent', 100, '0.01')}</label>
          <label>For parties of at least (guests){number('service_charge_min_party', 99)}</label>
          <label>Taxed{yesNo('service_charge_taxable', 'yes, at the bill\'s rates', 'no')}</label>
        </fieldset>
        <fieldset>
          <legend>Kitchen</legend>
          <label>Bump a ready ticket nobody bumped after (minutes; 0 = never){number('kitchen_auto_bump_minutes', 1440)}</label>
        </fieldset>
        <label>Why (kept in the audit trail)<input id="setting-reason" maxLength={200} autocomplete="off" value={reason} onInput={(e) => setReason(e.currentTarget.value)} /></label>
        <p class="muted">A change applies to bills issued after it; bills already issued keep their figures.</p>
        {said.text && <p class={said.alert ? 'error' : 'muted'} role={said.alert ? 'alert' : 'status'} id="settings-said">{said.text}</p>}
        {w.error && <p class="error" role="alert" id="settings-error">{w.error}</p>}
        <div class="actions">
          <button type="button" class="secondary" disabled={w.busy || !Object.keys(changes).length} onClick={() => { setForm(formOf(read)); setSaid({ text: '', alert: false }); w.setError(''); }}>Undo changes</button>
          <button type="submit" id="save-settings" disabled={w.busy || !Object.keys(changes).length}>Save</button>
        </div>
      </form>
    </main>
  );
}
