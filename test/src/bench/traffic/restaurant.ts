import { randomUUID } from 'node:crypto';
import { Client } from '../../http-client.js';
import { posRestaurant } from '../../pos-setup.js';

export interface Member { name: string; pin: string }

/** The restaurant a replay serves: whose tablets, which tables each keeps, the menu as the waiters tap it. */
export interface DiningRoom {
  /** Two tables a tablet seats its guests at (its section of the floor). */
  sections: string[][];
  waiters: Member[];
  managers: Member[];
  cook: Member;
  stations: { kitchen: string; bar: string };
  /** The dishes in the order the waiters take them, each with the options a required choice needs. */
  dishes: Array<{ id: string; modifiers: string[] }>;
}

/**
 * The e2e dinner's restaurant (pos-setup: taxes, a kitchen and a bar, the menu with its modifier groups,
 * the Salón and the Terraza), grown for a whole dining room over HTTP: a Patio of two tables per tablet,
 * a waiter per tablet, the managers, and the shift open (cash is taken into it).
 */
export async function diningRoom(url: string, tablets: number, managers: number): Promise<DiningRoom> {
  const r = await posRestaurant(url);
  const ok = (res: { status: number; body: unknown }, what: string) => {
    if (res.status !== 201 && res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string };
  };
  const patio = ok(await r.admin.post('/spaces', { name: 'Patio' }), 'patio').id;
  const sections: string[][] = [];
  for (let t = 0; t < tablets; t++) {
    const section: string[] = [];
    for (const side of ['A', 'B']) section.push(ok(await r.admin.post('/tables', { name: `P${t + 1}${side}`, status: 'available', space_id: patio, order_id: null }), 'table').id);
    sections.push(section);
  }
  const waiters = Array.from({ length: tablets }, (_, i) => ({ name: `Mesero ${i + 1}`, pin: String(5000 + i) }));
  for (const w of waiters) ok(await r.admin.post('/users', { ...w, role: 'waiter' }), w.name);
  const team: Member[] = [{ name: 'Lupita', pin: '1357' }];
  for (let m = 1; m < managers; m++) {
    const manager = { name: `Gerente ${m + 1}`, pin: String(7000 + m) };
    ok(await r.admin.post('/users', { ...manager, role: 'manager' }), manager.name);
    team.push(manager);
  }
  const lupita = new Client(url);
  await lupita.login('Lupita', '1357');
  ok(await lupita.post('/shifts/open', { cash_float: 500 }, { 'idempotency-key': randomUUID() }), 'shift');
  const m = r.menu;
  const dishes = [
    { id: m.guacamole, modifiers: [] }, { id: m.sopa, modifiers: [] }, { id: m.agua, modifiers: [] },
    { id: m.arrachera, modifiers: [r.term[0]!, r.extras[1]!] }, { id: m.mole, modifiers: [] }, { id: m.tacos, modifiers: [r.extras[0]!] }, { id: m.cerveza, modifiers: [] },
  ];
  return { sections, waiters, managers: team, cook: { name: 'Chef', pin: '3690' }, stations: r.stations, dishes };
}
