// Every process logs through the same secret-safe options; they live with the runtime that builds loggers.
export { REDACT, SECRET_FIELDS, redactDeep, secretSafeLogging } from '@comanda/runtime';
