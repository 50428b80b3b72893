import { type StaffEvent, versionAfter } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';

/** Staff as the user screens show them: never a PIN hash or a password hash. */
export type UserView = Tracked & { id: string; name: string; name_key: string; role: string; created_at: string; version: number };

export const USERS = 'users';

export const usersProjection = projectionOf<StaffEvent>({
  name: 'users',
  handles: ['UserCreated', 'UserRenamed', 'UserPinChanged', 'UserRoleChanged', 'UserDeleted', 'WalletPasswordSet'],
  collections: { [USERS]: [{ name_key: 1 }] },
  async apply(e, store) {
    await updateDocument(store.collection<UserView>(USERS), e.data.userId, e, (user) => {
      switch (e.type) {
        case 'UserCreated':
          return {
            _id: e.data.userId, id: e.data.userId, name: e.data.name, name_key: e.data.name.toLocaleLowerCase('en'), role: e.data.role,
            created_at: new Date(e.data.createdAt).toISOString(), version: versionAfter(null),
          };
        case 'UserDeleted':
          return null;
        default:
          if (!user) return undefined;
          return {
            ...user,
            ...(e.type === 'UserRenamed' ? { name: e.data.name, name_key: e.data.name.toLocaleLowerCase('en') } : {}),
            ...(e.type === 'UserRoleChanged' ? { role: e.data.role } : {}),
            version: versionAfter(user),
          };
      }
    });
  },
});
