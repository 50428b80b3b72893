import { type TaxRateDetails, type TaxRateEvent, fromCents, versionAfter } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';
import { bump } from './versioned.js';

/** A tax rate as the menu screens show it: `rate` a percent with at most two decimals. */
export type TaxRateView = Tracked & { id: string; name: string; rate: number; version: number };

export const TAX_RATES = 'tax_rates';

// Basis points read as a percent exactly as cents read as money (1650 → 16.5).
const fields = (d: TaxRateDetails) => ({ name: d.name, rate: fromCents(d.rateBp) });

export const taxRatesProjection = projectionOf<TaxRateEvent>({
  name: 'tax-rates',
  handles: ['TaxRateCreated', 'TaxRateChanged', 'TaxRateRemoved'],
  collections: { [TAX_RATES]: [{ name: 1 }] },
  async apply(e, store) {
    const id = e.data.taxRateId;
    await updateDocument(store.collection<TaxRateView>(TAX_RATES), id, e, (current) => {
      switch (e.type) {
        case 'TaxRateCreated':
          return { _id: id, id, ...fields(e.data), version: versionAfter(null) };
        case 'TaxRateChanged':
          return bump(current, fields(e.data));
        case 'TaxRateRemoved':
          return null;
      }
    });
  },
});
