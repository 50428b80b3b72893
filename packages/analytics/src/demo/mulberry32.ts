/**
 * mulberry32: a small, fast seeded generator giving the same sequence for the same seed on every
 * machine (numbers in [0, 1)). The demo restaurant and the API's OpenAPI fuzzer both draw from it.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
