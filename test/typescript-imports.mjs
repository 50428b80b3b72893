// Tests run their TypeScript with Node's own type stripping (tap's TAP_TYPE_STRIP_ONLY=1: no ts-node, so
// no TypeScript compiler loaded in each test process: about half the CPU of a test file's start). Our
// sources import each other as `./x.js` (what tsc emits and NodeNext resolves); Node's stripping does
// not map those to `./x.ts`, so this hook does: a relative `.js` that does not exist, whose `.ts` does.
import { register } from 'node:module';

register(new URL('./typescript-resolve.mjs', import.meta.url));
