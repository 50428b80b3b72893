import { STAFF_STREAM, type Role, forbidden, may, notFound, roster, validationFailed } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

/** Hashes a PIN; the user's name is part of the salt, so a rename hashes the PIN again. */
export type HashPin = (pin: string, name: string) => Promise<string>;

interface Actor {
  /** The role of who asks: touching an admin needs `users:admins`. */
  actorRole: Role;
  context: CommandContext;
}

/** Managers manage staff but cannot create, change or remove admins, nor make anyone admin. */
function guardAdmins(actor: Actor, touches: Array<Role | undefined>) {
  if (touches.includes('admin') && !may(actor.actorRole, 'users:admins')) throw forbidden();
}

const member = async (commands: CommandHandler, userId: string) => {
  const m = (await commands.state(roster, STAFF_STREAM)).state.members[userId];
  if (!m) throw notFound();
  return m;
};

export async function addStaff(
  commands: CommandHandler, hashPin: HashPin,
  cmd: Actor & { userId: string; name: string; pin: string; role: Role; at: number },
): Promise<{ userId: string; position: Position | null }> {
  guardAdmins(cmd, [cmd.role]);
  const name = cmd.name.trim();
  const result = await commands.handle(roster, STAFF_STREAM, {
    type: 'createUser', userId: cmd.userId, name, role: cmd.role, pinHash: await hashPin(cmd.pin, name), at: cmd.at,
  }, cmd.context);
  const created = result.events[0]!.data as { userId: string };
  return { userId: created.userId, position: result.position };
}

/** Renames (with the PIN again), changes the PIN or the role of a member of staff. */
export async function changeStaff(
  commands: CommandHandler, hashPin: HashPin,
  cmd: Actor & { userId: string; name?: string; pin?: string; role?: Role; ifMatch?: number },
): Promise<{ position: Position | null }> {
  const current = await member(commands, cmd.userId);
  guardAdmins(cmd, [current.role, cmd.role]);
  const name = cmd.name?.trim();
  const renaming = name !== undefined && name !== current.name;
  if (renaming && !cmd.pin) throw validationFailed([{ field: 'pin', message: 'is required to rename a user (the name is part of the PIN salt)' }]);
  const pinHash = cmd.pin ? await hashPin(cmd.pin, renaming ? name! : current.name) : undefined;
  const result = await commands.handle(roster, STAFF_STREAM, {
    type: 'updateUser', userId: cmd.userId, ifMatch: cmd.ifMatch, role: cmd.role,
    ...(renaming ? { rename: { name: name!, pinHash: pinHash! } } : { pinHash }),
  }, cmd.context);
  return { position: result.position };
}

/** Removes a member of staff; their sessions end at once (the auth hook reads the roster). */
export async function removeStaff(commands: CommandHandler, cmd: Actor & { userId: string }): Promise<{ position: Position | null }> {
  const current = await member(commands, cmd.userId);
  guardAdmins(cmd, [current.role]);
  const result = await commands.handle(roster, STAFF_STREAM, { type: 'deleteUser', userId: cmd.userId }, cmd.context);
  return { position: result.position };
}
