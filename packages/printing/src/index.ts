export * from './paper.js';
export * from './kitchen-ticket.js';
