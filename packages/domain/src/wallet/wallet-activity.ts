import type { Decider } from '../decider.js';

/**
 * The audit trail of one member of staff's wallet actions (`walletlog-<userId>`): unlocking and
 * locking the wallet, failed unlocks, invoices created. Payments have their own streams
 * (`walletpayment-<id>`). Nothing secret is recorded: no password, token or preimage.
 *
 * It is also where a wallet unlock lives: a wallet token names the unlock it came from
 * (`sessionId`), and a token is honoured only while that unlock is open in this stream, so locking
 * the wallet takes effect at once on every API replica, not when the token expires.
 */
export const walletLogStream = (userId: string) => `walletlog-${userId}`;

export type WalletActivityEvent =
  | { type: 'WalletUnlocked'; data: { userId: string; at: number; sessionId?: string; expiresAt?: number } }
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
  /** Open unlocks: session id → when its token expires (ms). Locking closes all of them. */
  unlocks: Record<string, number>;
}

/** Whether a wallet token from unlock `sessionId` may still be used at `now`. */
export const walletUnlockOpen = (state: WalletActivity, sessionId: string | undefined, now: number): boolean =>
  sessionId !== undefined && (state.unlocks[sessionId] ?? 0) > now;

export const walletActivity: Decider<WalletActivityCommand, WalletActivityEvent, WalletActivity> = {
  initialState: () => ({ actions: 0, unlocks: {} }),
  decide: (command) => [command.event],
  evolve: (state, event) => {
    const actions = state.actions + 1;
    switch (event.type) {
      case 'WalletUnlocked': {
        const { sessionId, expiresAt, at } = event.data;
        if (!sessionId || !expiresAt) return { ...state, actions };
        // Expired unlocks are dropped as new ones come, so the state stays as small as the open ones.
        const open = Object.fromEntries(Object.entries(state.unlocks).filter(([, until]) => until > at));
        return { actions, unlocks: { ...open, [sessionId]: expiresAt } };
      }
      case 'WalletLocked':
        return { actions, unlocks: {} };
      default:
        return { ...state, actions };
    }
  },
};
