import { ROLES, STAFF_STREAM, DomainError, findByName, newId, roster, type Role } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';
import { hashSecret } from '@comanda/api';

/** A command line mistake: printed as it is, exit code 1, nothing written. */
export class AdminRefused extends Error {
  override name = 'AdminRefused';
}

export interface AdminDeps {
  commands: CommandHandler;
  masterKey: string;
  now?: () => number;
}

// The same rules as the API's schemas (services/api/src/routes/users.ts).
const checkName = (name: string | undefined): string => {
  const trimmed = (name ?? '').trim();
  if (!trimmed || trimmed.length > 64) throw new AdminRefused('NAME must be 1 to 64 characters');
  return trimmed;
};
const checkPin = (pin: string): string => {
  if (!/^[0-9]{4,12}$/.test(pin)) throw new AdminRefused('the PIN must be 4 to 12 digits');
  return pin;
};
const checkWalletPassword = (password: string): string => {
  if (password.length < 8 || password.length > 128) throw new AdminRefused('the wallet password must be 8 to 128 characters');
  return password;
};

/** Who appended an event: offline tools leave no user, and say so in the causation. */
const CONTEXT = { userId: null, causationId: 'admin-cli' };

async function memberNamed(deps: AdminDeps, name: string) {
  const { state } = await deps.commands.state(roster, STAFF_STREAM);
  const member = findByName(state, name);
  if (!member) throw new AdminRefused(`no user named ${name}`);
  return member;
}

/**
 * The admin command line's use cases: each goes through the staff roster decider, as the API's
 * /users routes do, so every rule (unique names, the last admin) holds offline too.
 */
export async function createUser(deps: AdminDeps, nameArg: string | undefined, roleArg: string | undefined, pin: string) {
  const name = checkName(nameArg);
  if (!ROLES.includes(roleArg as Role)) throw new AdminRefused(`ROLE must be one of ${ROLES.join(', ')}`);
  const result = await deps.commands.handle(roster, STAFF_STREAM, {
    type: 'createUser', userId: newId(), name, role: roleArg as Role,
    pinHash: await hashSecret(checkPin(pin), deps.masterKey, name), at: (deps.now ?? Date.now)(),
  }, CONTEXT);
  const created = result.events[0]!.data as { userId: string };
  return `created ${roleArg} ${name} (id ${created.userId})`;
}

export async function resetPin(deps: AdminDeps, nameArg: string | undefined, pin: string) {
  const member = await memberNamed(deps, checkName(nameArg));
  await deps.commands.handle(roster, STAFF_STREAM, {
    type: 'updateUser', userId: member.id, pinHash: await hashSecret(checkPin(pin), deps.masterKey, member.name),
  }, CONTEXT);
  return `new PIN set for ${member.name}`;
}

export async function setWalletPassword(deps: AdminDeps, nameArg: string | undefined, password: string) {
  const member = await memberNamed(deps, checkName(nameArg));
  await deps.commands.handle(roster, STAFF_STREAM, {
    type: 'setWalletPassword', userId: member.id, passwordHash: await hashSecret(checkWalletPassword(password), deps.masterKey, member.name),
  }, CONTEXT);
  return `new wallet password set for ${member.name}`;
}

export async function listUsers(deps: AdminDeps): Promise<string> {
  const { state } = await deps.commands.state(roster, STAFF_STREAM);
  const members = Object.values(state.members).sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return members.map((m) => `${m.name}\t${m.role}\t${m.id}`).join('\n') || '(no users yet)';
}

/** A refusal from the decider (duplicate name, last admin…) as one line. */
export const explain = (error: unknown): string | null =>
  error instanceof AdminRefused || error instanceof DomainError ? error.message : null;
