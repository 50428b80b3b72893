import { DEFAULT_EXPIRY_SECONDS } from '@comanda/lightning';
import { ParamError } from './params.js';
import { json, text, type Endpoint } from './endpoint.js';

export const receiveEndpoints: Endpoint[] = [
  {
    path: '/createinvoice',
    methods: ['POST'],
    handle: ({ node, params }) => {
      const description = params.optionalDescription('description');
      const descriptionHash = params.optionalHex32('descriptionHash');
      if ((description === undefined) === (descriptionHash === undefined)) throw new ParamError('Must provide either a description or descriptionHash');
      const amountSat = params.optionalAmountSat('amountSat');
      return json(
        node.createInvoice({
          description,
          descriptionHash,
          amountMsat: amountSat === undefined ? undefined : amountSat * 1000,
          expirySeconds: params.optionalAtLeast('expirySeconds', 1) ?? DEFAULT_EXPIRY_SECONDS,
          externalId: params.optional('externalId'),
          webhookUrl: params.optionalUrl('webhookUrl'),
        }),
      );
    },
  },
  {
    path: '/createoffer',
    methods: ['POST'],
    handle: ({ node, params }) => {
      const description = params.optionalDescription('description');
      const amountSat = params.optionalAmountSat('amountSat');
      if (amountSat !== undefined && description === undefined) throw new ParamError('Must provide a description if an amount is specified');
      return text(node.createOffer({ description, amountMsat: amountSat === undefined ? undefined : amountSat * 1000 }));
    },
  },
  // Deprecated in the real node, kept because clients still call it: always the same offer.
  { path: '/getoffer', methods: ['GET'], handle: ({ node }) => text(node.defaultOffer()) },
  {
    path: '/getlnaddress',
    methods: ['GET'],
    handle: ({ node }) => text(node.state.channel?.state === 'Normal' ? node.lnAddress() : 'must have one channel'),
  },
];
