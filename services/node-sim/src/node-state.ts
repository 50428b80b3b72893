import type { Channel } from './channel.js';
import type { IncomingPayment, OutgoingPayment } from './records.js';

/** A LUD-03 withdraw link this node serves: another wallet may withdraw once within the bounds. */
export interface WithdrawLink {
  k1: string;
  minWithdrawableMsat: number;
  maxWithdrawableMsat: number;
  description: string;
  usedAt?: number;
}

/** A LUD-04 login challenge this node serves, and the linking key that answered it. */
export interface LoginChallenge {
  k1: string;
  createdAt: number;
  linkingKey?: string;
}

/** Everything a node persists. Plain JSON so the state file is readable and diffable. */
export interface NodeState {
  name: string;
  privateKey: string;
  password: string;
  limitedPassword: string;
  webhookSecret: string;
  webhookUrls: string[];
  /** User part of the node's lightning address. */
  lnAddressUser: string;
  channel: Channel | null;
  /** Closing transaction of a channel in state Closing; the channel goes once it confirms. */
  closingTxId?: string;
  feeCreditMsat: number;
  /** Balance of the channel the node started with, the first row of its CSV export. */
  openingBalanceMsat: number;
  openedAt: number;
  /** Metadata of the fixed offer of the deprecated getoffer. */
  offerMetadata: string;
  incoming: IncomingPayment[];
  outgoing: OutgoingPayment[];
  withdrawLinks: WithdrawLink[];
  loginChallenges: LoginChallenge[];
}
