import type { ReportDefinition } from '../report.js';
import { salesReport } from './sales.js';
import { productMixReport } from './product-mix.js';
import { waitersReport } from './waiters.js';
import { paymentsReport } from './payments.js';
import { tablesReport } from './tables.js';
import { kitchenReport } from './kitchen.js';
import { cancellationsReport } from './cancellations.js';
import { discountsReport } from './discounts.js';
import { auditReport } from './audit.js';

/** Every report, in the order they are printed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const ALL_REPORTS: ReadonlyArray<ReportDefinition<any>> = [
  salesReport, productMixReport, waitersReport, paymentsReport, tablesReport, kitchenReport, cancellationsReport, discountsReport, auditReport,
];

export const reportNames = (): string[] => ALL_REPORTS.map((r) => r.name);
export const findReport = (name: string) => ALL_REPORTS.find((r) => r.name === name);

export { salesReport, productMixReport, waitersReport, paymentsReport, tablesReport, kitchenReport, cancellationsReport, discountsReport, auditReport };
export { AUDIT_KINDS, type AuditKind } from './audit.js';
