/**
 * The application layer: one plain function per use case that spans streams or needs lookups
 * (placeOrder, setUpTable, settleLightningCheckout…). Each takes its dependencies as parameters and
 * is called by routes and process managers alike; see docs/architecture.md, "Layers".
 */
export * from './checkout/ports.js';
export * from './checkout/checkoutTicket.js';
export * from './checkout/settleLightningPayment.js';
export * from './checkout/refund-destination.js';
export * from './checkout/refundLightningPayment.js';
