// Every process logs through the same secret-safe options and one destination; they live with the
// runtime that builds loggers.
export { SECRET_FIELDS, redactDeep, secretSafeLogging, processLogDestination } from '@comanda/runtime';
