export { fireOrder, type FireRequest, type Fired } from './firing.js';
export { reconcileKitchen, type KitchenCommands } from './reconcile.js';
export { startTicket, markLineDone, bumpTicket, recallTicket, orderFollowsKitchen } from './actions.js';
export { autoBumpTicket } from './auto-bump.js';
