import { DEFAULT_NODES, startNetwork, type SimNetwork } from '@comanda/node-sim';
import { type Part, lightningNode } from '@comanda/runtime';
import { join } from 'node:path';

export interface SimulatedNodePart extends Part {
  /** The network, once started (absent when a node is configured). */
  network?: SimNetwork;
}

/**
 * The built-in simulated Lightning network (restaurant and customer nodes) when no COMANDA_NODE_URL
 * is configured: its restaurant node is the process's node, and signs its webhooks with our secret.
 */
export function simulatedNode(): SimulatedNodePart {
  const part: SimulatedNodePart = {
    name: 'simulated node',
    async start(rt) {
      if (rt.node) return;
      const webhookSecret = rt.secret('webhook-secret', rt.config.webhookSecret);
      const network = await startNetwork({
        dataDir: join(rt.config.dataDir, 'node-sim'),
        logger: rt.logger.child({ service: 'node-sim' }),
        nodes: DEFAULT_NODES.map((n) => ({ ...n, host: '127.0.0.1', port: 0, ...(n.name === 'restaurant' ? { webhookSecret } : {}) })),
      });
      part.network = network;
      const restaurant = network.node('restaurant');
      rt.node = lightningNode({ url: restaurant.url, password: restaurant.password });
      return {
        listening(_url, port) {
          // In process, so loopback reaches us whatever address we listen on.
          restaurant.addWebhook(`http://127.0.0.1:${port}/webhooks/node`);
          const customer = network.node('customer');
          rt.announcements.info({ event: 'simulated-network', customerUrl: customer.url }, `Simulated Lightning network: a customer wallet at ${customer.url} (Basic auth, empty user, password ${customer.password}) can pay invoices by hand: POST /payinvoice invoice=<serialized>`);
        },
        stop: () => network.close(),
      };
    },
  };
  return part;
}
