import type { Decider } from '../decider.js';
import { conflict, notFound, preconditionFailed } from '../errors.js';
import { versionAfter } from '../versions.js';
import type { Role } from './permissions.js';

/**
 * The staff roster: every user of one restaurant in one stream (`staff`). A roster is small (tens of
 * people), and one stream makes "names are unique" and "there is always an admin" hold under any
 * concurrency: each is checked against the roster's state inside the same append.
 */
export const STAFF_STREAM = 'staff';

export interface StaffMember {
  id: string;
  name: string;
  role: Role;
  pinHash: string;
  walletPasswordHash: string | null;
  createdAt: number;
  version: number;
}

export interface Roster {
  members: Record<string, StaffMember>;
}

export type StaffEvent =
  | { type: 'UserCreated'; data: { userId: string; name: string; role: Role; pinHash: string; createdAt: number } }
  | { type: 'UserRenamed'; data: { userId: string; name: string; pinHash: string } }
  | { type: 'UserPinChanged'; data: { userId: string; pinHash: string } }
  | { type: 'UserRoleChanged'; data: { userId: string; role: Role } }
  | { type: 'UserDeleted'; data: { userId: string } }
  | { type: 'WalletPasswordSet'; data: { userId: string; passwordHash: string } };

export type StaffCommand =
  | { type: 'createUser'; userId: string; name: string; role: Role; pinHash: string; at: number }
  | {
      type: 'bootstrapAdmin';
      userId: string;
      name: string;
      pinHash: string;
      walletPasswordHash: string;
      at: number;
    }
  | {
      type: 'updateUser';
      userId: string;
      /** A rename re-hashes the PIN, because the user name is part of the salt. */
      rename?: { name: string; pinHash: string };
      pinHash?: string;
      role?: Role;
      ifMatch?: number;
    }
  | { type: 'deleteUser'; userId: string }
  | { type: 'setWalletPassword'; userId: string; passwordHash: string };

const sameName = (a: string, b: string) => a.toLocaleLowerCase('en') === b.toLocaleLowerCase('en');

export const findByName = (roster: Roster, name: string): StaffMember | undefined =>
  Object.values(roster.members).find((m) => sameName(m.name, name));

const admins = (roster: Roster) => Object.values(roster.members).filter((m) => m.role === 'admin');

function member(roster: Roster, userId: string): StaffMember {
  const m = roster.members[userId];
  if (!m) throw notFound();
  return m;
}

function nameFree(roster: Roster, name: string, except?: string): void {
  const holder = findByName(roster, name);
  if (holder && holder.id !== except) throw conflict(`A user named ${name} already exists`);
}

export const roster: Decider<StaffCommand, StaffEvent, Roster> = {
  initialState: () => ({ members: {} }),
  snapshot: { name: 'staff', version: 1 },

  decide(command, state) {
    switch (command.type) {
      case 'createUser': {
        nameFree(state, command.name);
        const { userId, name, role, pinHash, at } = command;
        return [{ type: 'UserCreated', data: { userId, name, role, pinHash, createdAt: at } }];
      }
      case 'bootstrapAdmin': {
        // A second replica, or a restart, finds the roster already populated and does nothing.
        if (Object.keys(state.members).length > 0) return [];
        const { userId, name, pinHash, walletPasswordHash, at } = command;
        return [
          { type: 'UserCreated', data: { userId, name, role: 'admin', pinHash, createdAt: at } },
          { type: 'WalletPasswordSet', data: { userId, passwordHash: walletPasswordHash } },
        ];
      }
      case 'updateUser': {
        const m = member(state, command.userId);
        if (command.ifMatch !== undefined && command.ifMatch !== m.version) {
          throw preconditionFailed();
        }
        const events: StaffEvent[] = [];
        if (command.rename && command.rename.name !== m.name) {
          nameFree(state, command.rename.name, m.id);
          events.push({ type: 'UserRenamed', data: { userId: m.id, ...command.rename } });
        } else if (command.pinHash) {
          events.push({ type: 'UserPinChanged', data: { userId: m.id, pinHash: command.pinHash } });
        }
        if (command.role && command.role !== m.role) {
          if (m.role === 'admin' && admins(state).length === 1) throw conflict('The last admin cannot be demoted');
          events.push({ type: 'UserRoleChanged', data: { userId: m.id, role: command.role } });
        }
        return events;
      }
      case 'deleteUser': {
        const m = member(state, command.userId);
        if (m.role === 'admin' && admins(state).length === 1) throw conflict('The last admin cannot be deleted');
        return [{ type: 'UserDeleted', data: { userId: m.id } }];
      }
      case 'setWalletPassword': {
        const m = member(state, command.userId);
        if (m.role !== 'admin') throw conflict('Only an admin has a wallet password');
        return [{ type: 'WalletPasswordSet', data: { userId: m.id, passwordHash: command.passwordHash } }];
      }
    }
  },

  evolve(state, event) {
    const members = { ...state.members };
    const d = event.data;
    const bump = (changes: Partial<StaffMember>) => {
      const m = members[d.userId]!;
      members[d.userId] = { ...m, ...changes, version: versionAfter(m) };
    };
    switch (event.type) {
      case 'UserCreated':
        members[d.userId] = {
          id: event.data.userId, name: event.data.name, role: event.data.role, pinHash: event.data.pinHash,
          walletPasswordHash: null, createdAt: event.data.createdAt, version: versionAfter(null),
        };
        break;
      case 'UserRenamed':
        bump({ name: event.data.name, pinHash: event.data.pinHash });
        break;
      case 'UserPinChanged':
        bump({ pinHash: event.data.pinHash });
        break;
      case 'UserRoleChanged':
        bump({ role: event.data.role });
        break;
      case 'UserDeleted':
        delete members[d.userId];
        break;
      case 'WalletPasswordSet':
        bump({ walletPasswordHash: event.data.passwordHash });
        break;
    }
    return { members };
  },
};
