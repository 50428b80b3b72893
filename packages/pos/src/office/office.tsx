import type { ComponentType } from 'preact';
import { go } from '../route.js';
import { Bills } from './bills.js';
import { Devices } from './devices.js';
import { FloorPlan } from './floor-plan.js';
import { Hours } from './hours.js';
import { Printers } from './printers.js';
import { Staff } from './staff.js';
import { MenuEditor } from './menu-editor.js';
import { Reports } from './reports.js';
import { SoldOutSheet } from './sold-out.js';
import { SettingsScreen } from './settings.js';

/** One screen of the back office: its tile on the hub and its route, /office/<path>. */
export interface OfficeTile {
  path: string;
  name: string;
  /** What the manager finds there, in a few words under the name. */
  note: string;
  screen: ComponentType;
}

/**
 * The back office's screens, in the order of their tiles. One array in one file: a new screen
 * (staff, floor, settings, reports, printers) is one line here, and its route and tile follow.
 */
export const OFFICE_TILES: OfficeTile[] = [
  { path: 'menu', name: 'Menu', note: 'Categories, dishes, options, tax rates', screen: MenuEditor },
  { path: '86', name: 'Sold out (86)', note: 'Dishes off for today, portions left', screen: SoldOutSheet },
  { path: 'devices', name: 'Devices', note: 'Tablets signed in, sign one out', screen: Devices },
  { path: 'reports', name: 'Reports', note: 'Sales, dishes, waiters, payments, exceptions', screen: Reports },
  { path: 'staff', name: 'Staff', note: 'Add, change a role or a PIN, remove', screen: Staff },
  { path: 'printers', name: 'Printers', note: 'Kitchen and till printers, the print queue', screen: Printers },
  { path: 'hours', name: 'Hours', note: 'Time clock: who worked when, corrections', screen: Hours },
  { path: 'floor-plan', name: 'Floor plan', note: 'Spaces, tables on a grid, sections and their waiters', screen: FloorPlan },
  { path: 'settings', name: 'Settings', note: 'Name, receipt, tax, discount limit, service charge, kitchen', screen: SettingsScreen },
  { path: 'bills', name: 'Bills', note: 'Closed bills: refund, reprint, reopen', screen: Bills },
];

/**
 * The manager's back office (managers and admins: main.tsx routes only them here). /office shows the
 * tiles; /office/<path> the tile's screen under a way back to them.
 */
export function Office(props: { page: string | undefined }) {
  const tile = OFFICE_TILES.find((t) => t.path === props.page);
  if (tile) {
    const Screen = tile.screen;
    return (
      <div class="office-screen">
        <nav class="office-back">
          <button type="button" class="secondary" id="office-back" onClick={() => go('/office')}>‹ Back office</button>
        </nav>
        <Screen />
      </div>
    );
  }
  return (
    <main class="office">
      <h2>Back office</h2>
      <div class="office-tiles">
        {OFFICE_TILES.map((t) => (
          <button type="button" key={t.path} class="office-tile" id={`office-${t.path}`} onClick={() => go(`/office/${t.path}`)}>
            <span class="office-tile-name">{t.name}</span>
            <span class="office-tile-note">{t.note}</span>
          </button>
        ))}
      </div>
    </main>
  );
}
