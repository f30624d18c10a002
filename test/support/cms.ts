/**
 * What the CountMinSketch test files share: weighted item streams, sketch shapes, a sketch of a
 * stream, and CMS.INFO's exact count read from the bytes.
 */
import fc from "fast-check";
import { CountMinSketch } from "../../src/cms/index.js";

export const stream = fc.array(fc.tuple(fc.string({ maxLength: 6 }), fc.integer({ min: 0, max: 1000 })), {
  maxLength: 200,
});

export const dims = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 6 }));

export const sketchOf = (w: number, d: number, pairs: [string, number][]) => {
  const s = new CountMinSketch({ width: w, depth: d });
  for (const [item, n] of pairs) s.incrBy(item, n);
  return s;
};

/** CMS.INFO's exact "count": the signed 64-bit total, read from bytes 13–20 of toBytes(). */
export function exactSize(s: CountMinSketch): bigint {
  const bytes = s.toBytes();
  return new DataView(bytes.buffer, bytes.byteOffset).getBigInt64(13, true);
}
