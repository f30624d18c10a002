/**
 * Careless and hostile arguments to the ID generators. Every options object, checked in one table
 * over the public API: an unknown key (a typo such as `workerID`), `null` for an option or for the
 * whole object, and a value of the wrong type are TypeErrors naming the option; out-of-range values
 * are RangeErrors. Machine ids are never masked, malformed IDs and impossible clock readings are
 * refused with the documented errors, and callbacks that call back into the generator get a clear
 * error.
 */
import { describe, expect, it } from "vitest";
import { ClockError, SNOWFLAKE_PRESETS, Snowflake, TimestampCounterId } from "../../src/idgen/index.js";
import * as root from "../../src/index.js";

const TWITTER = { timestampBits: 41, datacenterBits: 5, workerBits: 5, sequenceBits: 12 };

const ID = 1234567890123456789n;

type Row = [what: string, call: () => unknown, type: ErrorConstructor, pattern: RegExp];

const snowflake = (options: unknown) => () => new Snowflake(options as never);

const decode = (options: unknown) => () => Snowflake.decode(ID, options as never);

const counter = (options: unknown) => () => new TimestampCounterId(options as never);

const counterDecode = (options: unknown) => () => TimestampCounterId.decode(ID, options as never);

const ROWS: Row[] = [
  // new Snowflake(options)
  [
    "Snowflake: workerID (typo)",
    snowflake({ workerID: 7 }),
    TypeError,
    /unknown option "workerID".*did you mean "workerId"/,
  ],
  ["Snowflake: datacenterID", snowflake({ datacenterID: 1 }), TypeError, /did you mean "datacenterId"/],
  ["Snowflake: an unknown key", snowflake({ precision: 12 }), TypeError, /unknown option "precision" in options/],
  ["Snowflake: null options", snowflake(null), TypeError, /options must be an object/],
  ["Snowflake: options a string", snowflake("twitter"), TypeError, /options must be an object/],
  ["Snowflake: options an array", snowflake([]), TypeError, /options must be an object/],
  ["Snowflake: null workerId", snowflake({ workerId: null }), TypeError, /workerId must be an integer/],
  ["Snowflake: null datacenterId", snowflake({ datacenterId: null }), TypeError, /datacenterId must be/],
  ["Snowflake: NaN workerId", snowflake({ workerId: Number.NaN }), RangeError, /workerId must be/],
  [
    "Snowflake: huge workerId",
    snowflake({ workerId: 2 ** 53 }),
    RangeError,
    /workerId must be an integer in \[0, 31\]/,
  ],
  ["Snowflake: null epoch", snowflake({ epoch: null }), TypeError, /epoch must be/],
  ["Snowflake: invalid Date epoch", snowflake({ epoch: new Date(Number.NaN) }), RangeError, /epoch must be/],
  ["Snowflake: null layout", snowflake({ layout: null }), TypeError, /layout must be/],
  ["Snowflake: layout an array", snowflake({ layout: [41, 5, 5, 12] }), TypeError, /layout must be/],
  ["Snowflake: null clock", snowflake({ clock: null }), TypeError, /clock must be a function/],
  ["Snowflake: null elapsed", snowflake({ elapsed: null }), TypeError, /elapsed must be a function/],
  ["Snowflake: elapsed a number", snowflake({ elapsed: 5 }), TypeError, /elapsed must be a function/],
  [
    "Snowflake: null policy",
    snowflake({ onClockBackwards: null }),
    TypeError,
    /onClockBackwards must be "throw" or "wait"/,
  ],
  ["Snowflake: boolean policy", snowflake({ onClockBackwards: true }), TypeError, /onClockBackwards/],
  ["Snowflake: unknown policy", snowflake({ onClockBackwards: "ignore" }), RangeError, /onClockBackwards/],
  ["Snowflake: null maxWaitMs", snowflake({ maxWaitMs: null }), TypeError, /maxWaitMs must be a finite number/],
  ["Snowflake: negative maxWaitMs", snowflake({ maxWaitMs: -1 }), RangeError, /maxWaitMs/],
  ["Snowflake: huge maxWaitMs", snowflake({ maxWaitMs: 1e12 }), RangeError, /maxWaitMs must be in \[0, 60000\]/],
  ["Snowflake: infinite maxWaitMs", snowflake({ maxWaitMs: Number.POSITIVE_INFINITY }), RangeError, /maxWaitMs/],
  // layout objects
  [
    "layout: unitMS (typo)",
    snowflake({ layout: { ...TWITTER, unitMS: 10 } }),
    TypeError,
    /unknown option "unitMS" in layout.*did you mean "unitMs"/,
  ],
  [
    "layout: an unknown key",
    snowflake({ layout: { ...TWITTER, epoch: 0 } }),
    TypeError,
    /unknown option "epoch" in layout/,
  ],
  ["layout: null unitMs", snowflake({ layout: { ...TWITTER, unitMs: null } }), TypeError, /layout\.unitMs/],
  ["layout: null order", snowflake({ layout: { ...TWITTER, order: null } }), TypeError, /layout\.order must be/],
  [
    "layout: null sequenceBits",
    snowflake({ layout: { ...TWITTER, sequenceBits: null } }),
    TypeError,
    /layout\.sequenceBits/,
  ],
  [
    "layout: missing timestampBits",
    snowflake({ layout: { datacenterBits: 5, workerBits: 5, sequenceBits: 12 } }),
    TypeError,
    /layout\.timestampBits/,
  ],
  [
    "layout: NaN workerBits",
    snowflake({ layout: { ...TWITTER, workerBits: Number.NaN } }),
    RangeError,
    /layout\.workerBits/,
  ],
  ["layout: huge unitMs", snowflake({ layout: { ...TWITTER, unitMs: 1e15 } }), RangeError, /layout\.unitMs/],
  // Snowflake.decode(id, options)
  [
    "Snowflake.decode: Layout (typo)",
    decode({ Layout: "discord" }),
    TypeError,
    /unknown option "Layout".*did you mean "layout"/,
  ],
  [
    "Snowflake.decode: a generator option",
    decode({ workerId: 1 }),
    TypeError,
    /unknown option "workerId" in options; known keys: epoch, layout/,
  ],
  ["Snowflake.decode: null options", decode(null), TypeError, /options must be an object/],
  ["Snowflake.decode: null epoch", decode({ epoch: null }), TypeError, /epoch must be/],
  ["Snowflake.decode: null layout", decode({ layout: null }), TypeError, /layout must be/],
  [
    "Snowflake.decode: layout typo",
    decode({ layout: { ...TWITTER, order: "sequence-machine", Order: 1 } }),
    TypeError,
    /unknown option "Order" in layout/,
  ],
  [
    "Snowflake.decode: null id",
    () => Snowflake.decode(null as never),
    TypeError,
    /id must be a bigint or a decimal string/,
  ],
  ["Snowflake.compare: null", () => Snowflake.compare(null as never, 1n), TypeError, /a must be a bigint/],
  // clock readings of the wrong type are named, not the engine's "Cannot mix BigInt and other types"
  [
    "Snowflake: a bigint clock",
    () => new Snowflake({ clock: () => 1n as never }).next(),
    TypeError,
    /clock\(\) must be a number/,
  ],
  [
    "Snowflake: an object clock",
    () => new Snowflake({ clock: () => Object.create(null) }).nextString(),
    TypeError,
    /clock\(\) must be a number/,
  ],
  [
    "Snowflake: a symbol clock",
    () => new Snowflake({ clock: () => Symbol() as never }).next(),
    TypeError,
    /clock\(\) must be a number/,
  ],
  // new TimestampCounterId(options)
  [
    "TimestampCounterId: epochseconds (typo)",
    counter({ epochseconds: 0 }),
    TypeError,
    /unknown option "epochseconds".*did you mean "epochSeconds"/,
  ],
  [
    "TimestampCounterId: epoch (wrong name)",
    counter({ epoch: 0 }),
    TypeError,
    /unknown option "epoch" in options; known keys: epochSeconds, counter, clock/,
  ],
  ["TimestampCounterId: null options", counter(null), TypeError, /options must be an object/],
  ["TimestampCounterId: null epochSeconds", counter({ epochSeconds: null }), TypeError, /epochSeconds must be/],
  ["TimestampCounterId: huge epochSeconds", counter({ epochSeconds: 1e15 }), RangeError, /epochSeconds must be/],
  ["TimestampCounterId: null counter", counter({ counter: null }), TypeError, /counter must be a function/],
  ["TimestampCounterId: null clock", counter({ clock: null }), TypeError, /clock must be a function/],
  // TimestampCounterId.decode(id, options)
  ["TimestampCounterId.decode: epoch (wrong name)", counterDecode({ epoch: 0 }), TypeError, /unknown option "epoch"/],
  ["TimestampCounterId.decode: null options", counterDecode(null), TypeError, /options must be an object/],
  ["TimestampCounterId.decode: null epochSeconds", counterDecode({ epochSeconds: null }), TypeError, /epochSeconds/],
  ["TimestampCounterId.decode: null id", () => TimestampCounterId.decode(null as never), TypeError, /id must be/],
];

describe("ID generators: every option checked", () => {
  it.each(ROWS)("%s", (_what, call, type, pattern) => {
    let error: unknown;
    try {
      call();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(type);
    const message = (error as Error).message;
    expect(message).toMatch(/^redstruct\/(Snowflake|TimestampCounterId): /);
    expect(message).toMatch(pattern);
  });

  it("undefined options and undefined option values take the defaults", () => {
    const clock = () => Date.UTC(2026, 0, 1);
    const a = new Snowflake({
      epoch: undefined,
      datacenterId: undefined,
      workerId: undefined,
      layout: undefined,
      clock,
      onClockBackwards: undefined,
      maxWaitMs: undefined,
      elapsed: undefined,
    });
    expect(a.decode(a.next())).toMatchObject({ timestamp: clock(), datacenterId: 0, workerId: 0, sequence: 0 });
    const withUnitMs = new Snowflake({ layout: { ...TWITTER, unitMs: undefined, order: undefined }, clock });
    expect(withUnitMs.layout).toEqual({ ...TWITTER, unitMs: 1, order: "machine-sequence" });
    expect(Snowflake.decode(ID, undefined)).toEqual(Snowflake.decode(ID, {}));
    expect(Snowflake.decode(ID, { layout: undefined, epoch: undefined })).toEqual(Snowflake.decode(ID));
    const tc = new TimestampCounterId({ epochSeconds: undefined, counter: undefined, clock });
    expect(tc.epochSeconds).toBe(1640995200);
    expect(TimestampCounterId.decode(ID, { epochSeconds: undefined })).toEqual(TimestampCounterId.decode(ID));
  });

  it("ClockError is exported from the root as well as from redstruct/idgen", () => {
    expect(root.ClockError).toBe(ClockError);
    expect(root.Snowflake).toBe(Snowflake);
    expect(root.TimestampCounterId).toBe(TimestampCounterId);
  });
});

describe("callbacks that call back into the generator", () => {
  it("a clock calling next() or nextString() gets a ClockError, and the generator keeps working", () => {
    for (const call of ["next", "nextString"] as const) {
      let t = 1_700_000_000_000;
      let sf: Snowflake;
      let reenter = true;
      sf = new Snowflake({
        clock: () => {
          if (reenter) {
            reenter = false;
            sf[call]();
          }
          return t++;
        },
      });
      const err = (() => {
        try {
          sf[call]();
        } catch (e) {
          return e as ClockError;
        }
      })();
      expect(err).toBeInstanceOf(ClockError);
      expect(err?.reason).toBe("reentered");
      expect(err?.message).toMatch(/called next\(\)\/nextString\(\) of the generator that is reading it/);
      const a = sf.next();
      expect(sf.next()).toBeGreaterThan(a);
      sf.checkInvariants();
    }
  });

  it("a clock or a synchronous counter calling next() gets a ClockError; an async counter may overlap", async () => {
    let tc: TimestampCounterId;
    let n = 0;
    let reenter = true;
    tc = new TimestampCounterId({
      clock: () => 1_700_000_000_000,
      counter: () => {
        if (reenter) {
          reenter = false;
          tc.next();
        }
        return ++n;
      },
    });
    expect(() => tc.next()).toThrow(ClockError);
    expect(tc.next()).toBe((BigInt(1_700_000_000 - 1_640_995_200) << 32n) | 1n);
    let m = 0;
    const slow = new TimestampCounterId({
      clock: () => 1_700_000_000_000,
      counter: async () => {
        await Promise.resolve();
        return ++m;
      },
    });
    const ids = await Promise.all([slow.next(), slow.next(), slow.next()]);
    expect(new Set(ids).size).toBe(3);
    let ts: TimestampCounterId;
    ts = new TimestampCounterId({
      clock: () => {
        ts.next();
        return 1_700_000_000_000;
      },
    });
    expect(() => ts.next()).toThrow(/clock\(\) or counter\(\) called next\(\)/);
  });
});

describe("Snowflake: arguments", () => {
  it("rejects malformed IDs with the documented errors", () => {
    const sf = new Snowflake();
    for (const bad of ["", "-1", "01", "1.5", " 1", "1e3", "0x10", "12345678901234567890123", "abc"]) {
      expect(() => sf.decode(bad)).toThrow(RangeError);
    }
    expect(() => sf.decode(-1n)).toThrow(/redstruct\/Snowflake: id must be an integer in \[0, 9223372036854775807\]/);
    expect(() => sf.decode(2n ** 63n)).toThrow(RangeError);
    expect(() => sf.decode(2n ** 63n - 1n)).not.toThrow();
    expect(() => sf.decode(42 as unknown as bigint)).toThrow(TypeError);
    expect(() => sf.decode(null as unknown as bigint)).toThrow(TypeError);
  });
  it("validates options and never masks an out-of-range machine id", () => {
    const bad: [unknown, ErrorConstructor][] = [
      [{ workerId: 32 }, RangeError],
      [{ datacenterId: -1 }, RangeError],
      [{ workerId: 1.5 }, RangeError],
      [{ workerId: "1" }, TypeError],
      [{ layout: "sonyflake", datacenterId: 1 }, RangeError],
      [{ layout: "sonyflake", workerId: 65536 }, RangeError],
      [{ layout: "snowflake" }, RangeError],
      [{ layout: 5 }, TypeError],
      [{ layout: { timestampBits: 41, datacenterBits: 5, workerBits: 5, sequenceBits: 0 } }, RangeError],
      [{ layout: { timestampBits: 41, datacenterBits: 10, workerBits: 10, sequenceBits: 13 } }, RangeError],
      [{ layout: { timestampBits: 43, datacenterBits: 5, workerBits: 5, sequenceBits: 12 } }, RangeError],
      [{ layout: { timestampBits: 41, datacenterBits: 5, workerBits: 5, sequenceBits: 12, unitMs: 0 } }, RangeError],
      [{ layout: { timestampBits: 41, datacenterBits: 5, workerBits: 5, sequenceBits: 12, order: "x" } }, RangeError],
      [{ layout: { timestampBits: 53, datacenterBits: 0, workerBits: 0, sequenceBits: 10 } }, RangeError],
      [{ epoch: -1 }, RangeError],
      [{ epoch: 8.64e15 }, RangeError],
      [{ epoch: "2020" }, TypeError],
      [{ clock: 5 }, TypeError],
      [{ onClockBackwards: "ignore" }, RangeError],
      [{ maxWaitMs: -1 }, RangeError],
      [{ maxWaitMs: Number.NaN }, RangeError],
      [null, TypeError],
    ];
    for (const [options, type] of bad) {
      expect(() => new Snowflake(options as never), JSON.stringify(options)).toThrow(type);
    }
    expect(() => new Snowflake({ workerId: 32 })).toThrow(
      "redstruct/Snowflake: workerId must be an integer in [0, 31], got 32",
    );
    const sf = new Snowflake({ epoch: new Date("2020-01-01T00:00:00Z"), workerId: 31, datacenterId: 31 });
    expect(sf.epoch).toBe(Date.UTC(2020, 0, 1));
    expect(sf.layout).toEqual(SNOWFLAKE_PRESETS.twitter.layout);
    expect(new Snowflake({ layout: "discord" }).epoch).toBe(1420070400000);
  });
  it("rejects clocks before the epoch, past the lifetime, or not finite numbers", () => {
    const epoch = 1_700_000_000_000;
    let now = epoch - 1;
    const sf = new Snowflake({ epoch, clock: () => now });
    expect(() => sf.next()).toThrow(/clock\(\) must be at or after the epoch/);
    now = epoch + 2 ** 41;
    expect(() => sf.nextString()).toThrow(/timestamp runs out/);
    now = epoch + 2 ** 41 - 1;
    expect(sf.decode(sf.next()).timestamp).toBe(epoch + 2 ** 41 - 1);
    now = Number.NaN;
    expect(() => sf.next()).toThrow(RangeError);
    expect(() => new Snowflake({ clock: () => "1" as unknown as number }).next()).toThrow(TypeError);
    sf.checkInvariants();
  });
});

describe("TimestampCounterId: arguments", () => {
  it("validates its options and the clock", () => {
    expect(() => new TimestampCounterId({ epochSeconds: -1 })).toThrow(RangeError);
    expect(() => new TimestampCounterId({ epochSeconds: 1.5 })).toThrow(RangeError);
    expect(() => new TimestampCounterId({ epochSeconds: "0" as unknown as number })).toThrow(TypeError);
    expect(() => new TimestampCounterId({ counter: 5 as never })).toThrow(TypeError);
    expect(() => new TimestampCounterId({ clock: "now" as never })).toThrow(TypeError);
    expect(() => new TimestampCounterId(null as never)).toThrow(TypeError);
    expect(() => new TimestampCounterId({ clock: () => Number.NaN }).next()).toThrow(RangeError);
    const real = new TimestampCounterId();
    const before = Math.floor(Date.now() / 1000) * 1000;
    const p = real.decode(real.next());
    expect(p.timestamp).toBeGreaterThanOrEqual(before);
    expect(p.timestamp).toBeLessThanOrEqual(Date.now());
    real.checkInvariants();
  });
});
