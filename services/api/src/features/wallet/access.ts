import { walletLogStream, walletActivity, walletUnlockOpen } from '@comanda/domain';
import type { NodeClient } from '@comanda/lightning';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import { HttpError } from '../../http/http-error.js';
import { NODE_UNAVAILABLE } from './node-failures.js';

/** The cookie POST /wallet/auth sets: the wallet unlocked for five minutes. */
export const WALLET_COOKIE = 'walletAccessToken';

/** The answers every admin wallet endpoint may give besides its own. */
export const walletErrors = {
  401: Type.Ref('Message', { description: "{message:'Unauthorized'} without an access token; {message:'Wallet authentication required'} without a walletAccessToken of the same user" }),
  403: Type.Ref('Message', { description: "{message:'Unauthorized API access'}: not an admin" }),
  502: Type.Ref('Message', { description: 'the node refused our credentials, or failed' }),
  503: Type.Ref('Message', { description: "{message:'Lightning node unavailable'}: no answer from the node" }),
};

/** The restaurant's Lightning node, or 503 when this process has none configured. */
export const nodeOf = (app: FastifyInstance) => (): NodeClient => {
  if (!app.deps.node) throw new HttpError(503, { message: NODE_UNAVAILABLE });
  return app.deps.node;
};

/**
 * The admin wallet endpoints' second guard, after the admin's access token (`permission: 'wallet:admin'`):
 * a wallet token issued to the same user, from an unlock still open in the user's wallet log: locking the wallet revokes the token
 * at once, on every replica (the handler reads only the events of that stream it has not folded yet).
 */
export function walletUnlocked(app: FastifyInstance): onRequestAsyncHookHandler {
  // openapi.ts finds this guard on a route by its name, to list the wallet cookie among its security.
  const walletUnlocked: onRequestAsyncHookHandler = async (request) => {
    const claims = app.readToken(request.cookies[WALLET_COOKIE], 'wallet');
    if (!claims || claims.sub !== request.staff?.id) throw new HttpError(401, { message: 'Wallet authentication required' });
    const { state } = await app.deps.commands.state(walletActivity, walletLogStream(request.staff!.id));
    const sessionId = typeof claims.wid === 'string' ? claims.wid : undefined;
    if (!walletUnlockOpen(state, sessionId, app.now())) throw new HttpError(401, { message: 'Wallet authentication required' });
  };
  return walletUnlocked;
}
