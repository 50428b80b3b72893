import type { Projection } from './projection.js';
import { usersProjection } from './users.js';
import { categoriesProjection } from './categories.js';
import { dishesProjection } from './dishes.js';
import { menuClockProjection } from './menu-clock.js';
import { modifierGroupsProjection } from './modifier-groups.js';
import { taxRatesProjection } from './tax-rates.js';
import { spacesProjection } from './spaces.js';
import { tablesProjection } from './tables.js';
import { sectionsProjection } from './sections.js';
import { ordersProjection } from './orders.js';
import { ticketsProjection } from './tickets.js';
import { shiftsProjection } from './shifts.js';
import { stationsProjection } from './stations.js';
import { kitchenTicketsProjection, orderKitchenStatusProjection } from './kitchen-tickets.js';
import { unmatchedPaymentsProjection } from './unmatched-payments.js';
import { sessionsProjection } from './sessions.js';
import { timeShiftsProjection } from './time-shifts.js';
import { printJobsProjection, printersProjection } from './printers.js';
import { guestRequestsProjection } from './guest-requests.js';

/** Every read model the API serves, in the order the projector applies them. */
export const allProjections: Projection[] = [
  usersProjection,
  categoriesProjection,
  dishesProjection,
  menuClockProjection,
  modifierGroupsProjection,
  taxRatesProjection,
  spacesProjection,
  tablesProjection,
  sectionsProjection,
  ordersProjection,
  ticketsProjection,
  shiftsProjection,
  stationsProjection,
  kitchenTicketsProjection,
  orderKitchenStatusProjection,
  unmatchedPaymentsProjection,
  sessionsProjection,
  timeShiftsProjection,
  printersProjection,
  printJobsProjection,
  guestRequestsProjection,
];
