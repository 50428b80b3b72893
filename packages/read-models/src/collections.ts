/** The collections two projections both touch, named in a leaf module so neither imports the other's values. */
export const ORDERS = 'orders';
export const KITCHEN_TICKETS = 'kitchen_tickets';
