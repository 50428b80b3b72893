import { type NamedView, namedEntityProjection } from './named-entities.js';

/** A space (an area of the restaurant) as the seed shows it. */
export type SpaceView = NamedView;

export const SPACES = 'spaces';

export const spacesProjection = namedEntityProjection('spaces', SPACES, {
  added: 'SpaceCreated', renamed: 'SpaceRenamed', removed: 'SpaceRemoved', idField: 'spaceId',
});
