import { type StoredRate, type TaxRateEvent, percentOf, ratePpmOf, versionAfter } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';
import { bump } from './versioned.js';

/** A tax rate as the menu screens show it: `rate` a percent with at most four decimals. */
export type TaxRateView = Tracked & { id: string; name: string; rate: number; version: number };

export const TAX_RATES = 'tax_rates';

// Parts per million read as a percent (88,750 → 8.875); events from before issue 57 carry basis points.
const fields = (d: { name: string } & StoredRate) => ({ name: d.name, rate: percentOf(ratePpmOf(d)) });

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
