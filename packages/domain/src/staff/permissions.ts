/**
 * What each role may do: the one permission table. Admin may do everything; the seed's access classes
 * (any authenticated user for menu, floor, orders and invoices; admin only for the rest of the wallet)
 * are the floor under it.
 */
export const ROLES = ['admin', 'manager', 'waiter', 'kitchen'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  /** Any signed-in member of staff: their own profile and session. */
  'profile:read': ['admin', 'manager', 'waiter', 'kitchen'],
  'users:manage': ['admin', 'manager'],
  /** Creating, changing or removing an admin, or making anyone admin: managers manage the rest of the staff. */
  'users:admins': ['admin'],
  /** The devices' sessions (GET /sessions) and ending one from the back office (issue 59). */
  'sessions:manage': ['admin', 'manager'],
  /** Everyone's hours on the time clock, and correcting a shift (issue 60); one's own punches need only the PIN. */
  'time-clock:manage': ['admin', 'manager'],
  'menu:read': ['admin', 'manager', 'waiter', 'kitchen'],
  'menu:write': ['admin', 'manager'],
  'floor:read': ['admin', 'manager', 'waiter', 'kitchen'],
  'floor:write': ['admin', 'manager'],
  'orders:read': ['admin', 'manager', 'waiter', 'kitchen'],
  'orders:write': ['admin', 'manager', 'waiter'],
  /** Moving an order through the kitchen states (preparing, ready). */
  'orders:status': ['admin', 'manager', 'waiter', 'kitchen'],
  'orders:delete': ['admin', 'manager'],
  /**
   * Deciding an exception that moves money on one's own authority, or approving a colleague's with name
   * and PIN: a price override, a discount past the waiter's limit, a void of a fired line, an order
   * handed to another waiter (staff/approval.ts).
   */
  'approvals:give': ['admin', 'manager'],
  /** The audit trail (GET /audit): every exception with who, who approved and why. */
  'audit:read': ['admin', 'manager'],
  'sales:read': ['admin', 'manager'],
  /** The owner's reports (GET /reports/{name}): sales, product mix, waiters, payments, tables, kitchen, cancellations, discounts. */
  'reports:read': ['admin', 'manager'],
  /** Bills: waiters issue tickets and take payments at the table; refunds, cancels and the till are managers'. */
  'bills:read': ['admin', 'manager', 'waiter'],
  'bills:write': ['admin', 'manager', 'waiter'],
  'bills:refund': ['admin', 'manager'],
  'bills:cancel': ['admin', 'manager'],
  /** Lowering or waiving a party's automatic service charge, or taking one off an issued bill. */
  'bills:service-charge': ['admin', 'manager'],
  /** That a shift is open, and what one took oneself in it. */
  'shifts:read': ['admin', 'manager', 'waiter'],
  /** The drawer's expected cash and the shift's totals (the X and Z reports): who runs the till. */
  'shifts:figures': ['admin', 'manager'],
  'shifts:manage': ['admin', 'manager'],
  /** The restaurant's settings (issue 60): every screen reads what it shows (name, footer, limits); managers change them. */
  'settings:read': ['admin', 'manager', 'waiter', 'kitchen'],
  'settings:write': ['admin', 'manager'],
  'currencies:read': ['admin', 'manager', 'waiter', 'kitchen'],
  'currencies:write': ['admin'],
  /** The kitchen screens: read tickets, start, mark lines done, bump, recall. */
  'kitchen:act': ['admin', 'manager', 'kitchen'],
  /** Adding, changing and removing the restaurant's printers, a test print (issue 61). */
  'printers:manage': ['admin', 'manager'],
  /** The whole print queue (bills and receipts too): the back office's. A station's screen reads its own through kitchen:act. */
  'printers:queue': ['admin', 'manager'],
  /** Printing a bill or a receipt on the till's printer, and reprinting it. */
  'printers:bills': ['admin', 'manager', 'waiter'],
  'wallet:invoice': ['admin', 'manager', 'waiter', 'kitchen'],
  'wallet:admin': ['admin'],
  /** Payments received that need a manager's eye (unmatched, late, after deletion). */
  'wallet:review': ['admin', 'manager'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

export const may = (role: Role, permission: Permission): boolean =>
  (PERMISSIONS[permission] as readonly Role[]).includes(role);
