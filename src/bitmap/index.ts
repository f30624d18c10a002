/**
 * `redstruct/bitmap` — Redis's string bitmaps, exact with redis-server 7.0: SETBIT, GETBIT, BITCOUNT,
 * BITPOS, BITOP, BITFIELD and STRLEN with Redis's replies, and the string itself in and out; and
 * RoaringBitmap, a compressed set of 32-bit integers in the Roaring portable format, which converts
 * to and from the string bitmap.
 * @module
 */
export { RedstructFormatError } from "../internal/errors.js";
export type {
  BitfieldGet,
  BitfieldIncrBy,
  BitfieldOffset,
  BitfieldOp,
  BitfieldOptions,
  BitfieldOverflow,
  BitfieldOverflowOp,
  BitfieldSet,
  BitfieldType,
} from "./bitfield.js";
export { BITMAP_MAX_BYTES, BITMAP_MAX_OFFSET, Bitmap, type BitmapRangeOptions } from "./bitmap.js";
export type { BitmapOp } from "./bitop.js";
export { RoaringBitmap } from "./roaring.js";
