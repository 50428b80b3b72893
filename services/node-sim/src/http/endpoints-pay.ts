import { decodeLnurl } from '@comanda/lightning';
import { lnurlAuth, lnurlPay, lnurlWithdraw } from '../lnurl/client.js';
import { payInvoice, payOffer } from '../payments.js';
import { paymentResultJson, type PaymentResult } from '../records.js';
import { missing, type Params } from './params.js';
import { json, text, type Endpoint } from './endpoint.js';

const result = (r: PaymentResult) => json(paymentResultJson(r));
const lnurl = (params: Params) => params.decoded('lnurl', 'url', decodeLnurl);

export const payEndpoints: Endpoint[] = [
  {
    path: '/payinvoice',
    methods: ['POST'],
    fullAccess: true,
    handle: ({ node, params }) => {
      const invoice = params.invoice('invoice');
      const amountSat = params.optionalSignedAmountSat('amountSat');
      const amountMsat = amountSat === undefined ? (invoice.amountMsat ?? missing('amountSat')) : amountSat * 1000;
      return result(payInvoice(node, invoice, amountMsat));
    },
  },
  {
    path: '/payoffer',
    methods: ['POST'],
    fullAccess: true,
    handle: ({ node, params }) => {
      const offer = params.offer('offer');
      const amountSat = params.optionalSignedAmountSat('amountSat');
      // An amount in another currency cannot be converted here: the payer must say how many sat.
      const offerMsat = offer.currency === undefined ? offer.amount : undefined;
      const amountMsat = amountSat === undefined ? (offerMsat ?? missing('amountSat')) : amountSat * 1000;
      return result(payOffer(node, offer, amountMsat, params.optional('message')));
    },
  },
  {
    path: '/paylnaddress',
    methods: ['POST'],
    fullAccess: true,
    handle: async ({ node, params }) => {
      const address = params.lightningAddress('address');
      return result(await lnurlPay(node, address.url, params.optionalAmountSat('amountSat'), params.optional('message')));
    },
  },
  {
    path: '/lnurlpay',
    methods: ['POST'],
    fullAccess: true,
    handle: async ({ node, params }) => {
      const url = lnurl(params);
      return result(await lnurlPay(node, url, params.optionalAmountSat('amountSat'), params.optional('message')));
    },
  },
  {
    path: '/lnurlwithdraw',
    methods: ['POST'],
    handle: async ({ node, params }) => json(await lnurlWithdraw(node, lnurl(params))),
  },
  {
    path: '/lnurlauth',
    methods: ['POST'],
    fullAccess: true,
    handle: async ({ node, params }) => {
      await lnurlAuth(node, lnurl(params));
      return text('authentication success');
    },
  },
];
