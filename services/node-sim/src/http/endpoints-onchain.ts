import { bumpFee, closeChannel, sendToAddress, type OnchainResult } from '../onchain.js';
import { text, type Endpoint } from './endpoint.js';

const answer = (result: OnchainResult) => text(result.ok ? result.txId : result.message);

export const onchainEndpoints: Endpoint[] = [
  {
    path: '/sendtoaddress',
    methods: ['POST'],
    fullAccess: true,
    handle: ({ node, params }) => {
      const amountSat = params.amountSat('amountSat');
      const address = params.required('address');
      return answer(sendToAddress(node, amountSat, address, params.atLeast('feerateSatByte', 1)));
    },
  },
  {
    path: '/bumpfee',
    methods: ['POST'],
    fullAccess: true,
    handle: ({ node, params }) => answer(bumpFee(node, params.atLeast('feerateSatByte', 1))),
  },
  {
    path: '/closechannel',
    methods: ['POST'],
    fullAccess: true,
    handle: ({ node, params }) => {
      const channelId = params.hex32('channelId');
      const address = params.required('address');
      return answer(closeChannel(node, channelId, address, params.atLeast('feerateSatByte', 1)));
    },
  },
];
