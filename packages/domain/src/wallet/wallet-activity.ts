import type { Decider } from '../decider.js';

/**
 * The audit trail of one member of staff's wallet actions (`walletlog-<userId>`): unlocking and
 * locking the wallet, failed unlocks, invoices created. Payments have their own streams
 * (`walletpayment-<id>`). Nothing secret is recorded: no password, token or preimage.
 */
export const walletLogStream = (userId: string) => `walletlog-${userId}`;

export type WalletActivityEvent =
  | { type: 'WalletUnlocked'; data: { userId: string; at: number } }
  | { type: 'WalletUnlockFailed'; data: { userId: string; at: number } }
  | { type: 'WalletLocked'; data: { userId: string; at: number } }
  | {
      type: 'WalletInvoiceCreated';
      data: { userId: string; paymentHash: string; amountSat: number; description: string; externalId: string | null; expirySeconds: number; at: number };
    };

/** Facts already happened at the node or the door; the log only records them. */
export type WalletActivityCommand = { type: 'recordActivity'; event: WalletActivityEvent };

export interface WalletActivity {
  actions: number;
}

export const walletActivity: Decider<WalletActivityCommand, WalletActivityEvent, WalletActivity> = {
  initialState: () => ({ actions: 0 }),
  decide: (command) => [command.event],
  evolve: (state) => ({ actions: state.actions + 1 }),
};
