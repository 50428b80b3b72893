import t from 'tap';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain .mjs tool of the repository (test/import-cycles.mjs), without declarations.
import { importCycles } from '../../../test/import-cycles.mjs';

const src = fileURLToPath(new URL('../src', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
const { values, typesOnly } = (importCycles as (dirs: string[], root: string) => { values: string[][]; typesOnly: string[][] })([src], root);

/**
 * Issue 58. In a cycle of modules that import values from each other, which one is evaluated first
 * depends on who imports the cycle first, and a constant the other reads at its top level may still be
 * uninitialised (a ReferenceError at start, in one process and not another). Shared values go to a
 * leaf module both import.
 */
t.same(values, [], 'no two domain modules import values from each other, directly or around a loop');

/** Type-only imports are erased, so such a loop is harmless at run time; the domain keeps none anyway. */
t.same(typesOnly, [], 'nor types around a loop');
