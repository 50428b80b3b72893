import type { Projection } from './projection.js';
import { usersProjection } from './users.js';

/** Every read model the API serves, in the order the projector applies them. */
export const allProjections: Projection[] = [usersProjection];
