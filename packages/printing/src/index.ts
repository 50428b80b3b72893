export * from './paper.js';
export * from './kitchen-ticket.js';
export * from './connection.js';
export * from './spooler.js';
export * from './receipt.js';
export * from './status.js';
