/**
 * Snowflake under injected clocks: strictly increasing and never a duplicate under arbitrary clock
 * traces (stalls, backward steps, bursts past the sequence), for random layouts and in both the
 * bigint and decimal-string forms; every wait bounded by the number of polls, never by the machine's
 * speed; layouts, presets and decoding as @sapphire/snowflake and Discord's documentation decode.
 */
import { DiscordSnowflake, TwitterSnowflake } from "@sapphire/snowflake";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ClockError, SNOWFLAKE_PRESETS, Snowflake, type SnowflakeLayout } from "../../src/idgen/index.js";

/**
 * A fake wall clock. The test sets `now`; within one call of the generator the first
 * `advanceAfter` reads return it unchanged, and every later read moves it `step` ms forward —
 * which is what a real clock does while the generator spins. `advanceAfter = Infinity` is a clock
 * that has stopped. `reads` records the readings of the current call.
 *
 * With it comes a fake monotonic clock, `elapsed`, for the generator's wait bound: each reading
 * moves it `elapsedStep` ms on. So whether a wait gives up depends on the number of polls alone,
 * never on how fast the machine runs.
 */
class FakeClock {
  reads: number[] = [];
  elapsedNow = 0;
  elapsedReads = 0;
  constructor(
    public now: number,
    public advanceAfter = 1,
    public step = 1,
    public elapsedStep = 0.5,
  ) {}
  readonly elapsed = (): number => {
    this.elapsedReads++;
    this.elapsedNow += this.elapsedStep;
    return this.elapsedNow;
  };
  readonly read = (): number => {
    if (this.reads.length >= this.advanceAfter) this.now += this.step;
    this.reads.push(this.now);
    return this.now;
  };
  startCall(): void {
    this.reads = [];
  }
  get lastRead(): number {
    const r = this.reads[this.reads.length - 1];
    if (r === undefined) throw new Error("the generator did not read the clock");
    return r;
  }
}

type FullLayout = Required<SnowflakeLayout>;

/** The ID the layout defines for these fields, composed with BigInt straight from the bit order. */
function composeModel(l: FullLayout, tick: number, dc: number, worker: number, seq: number): bigint {
  const fields: [number, number][] =
    l.order === "machine-sequence"
      ? [
          [dc, l.datacenterBits],
          [worker, l.workerBits],
          [seq, l.sequenceBits],
        ]
      : [
          [seq, l.sequenceBits],
          [dc, l.datacenterBits],
          [worker, l.workerBits],
        ];
  let id = BigInt(tick);
  for (const [value, bits] of fields) id = (id << BigInt(bits)) | BigInt(value);
  return id;
}

/** The ClockError `f` throws (fails the test if it throws anything else or nothing). */
function clockErrorOf(f: () => unknown): ClockError {
  let error: unknown;
  try {
    f();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ClockError);
  return error as ClockError;
}

function check(condition: boolean, message: () => string): void {
  if (!condition) throw new Error(message());
}

const layoutArb: fc.Arbitrary<FullLayout> = fc
  .record({
    timestampBits: fc.integer({ min: 12, max: 44 }),
    datacenterBits: fc.integer({ min: 0, max: 5 }),
    workerBits: fc.integer({ min: 0, max: 10 }),
    sequenceBits: fc.integer({ min: 1, max: 14 }), // past 12: the no-table path of next()
    unitMs: fc.constantFrom(1, 1, 10),
    order: fc.constantFrom("machine-sequence" as const, "sequence-machine" as const),
  })
  .filter((l) => l.timestampBits + l.datacenterBits + l.workerBits + l.sequenceBits <= 64);

type Step =
  | { kind: "calls"; n: number }
  | { kind: "forward"; ms: number }
  | { kind: "jump"; ms: number }
  | { kind: "back"; ms: number };

const stepArb = (burstMax: number): fc.Arbitrary<Step> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant("calls" as const), n: fc.integer({ min: 1, max: 20 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("calls" as const), n: fc.integer({ min: 1, max: burstMax }) }),
    },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("forward" as const), ms: fc.integer({ min: 1, max: 30 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("jump" as const), ms: fc.integer({ min: 1, max: 2 ** 36 }) }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("back" as const), ms: fc.integer({ min: 1, max: 2500 }) }) },
  );

/**
 * Drives a generator along a clock trace and checks every ID against the model: each ID's tick is
 * the tick of the last clock reading of its call, its sequence is 0 in a new tick and the previous
 * one plus 1 otherwise, its machine fields are the generator's, and it is larger than every ID
 * before it. Errors must be the documented ones, exactly when the model says.
 */
function drive(options: {
  layout: FullLayout;
  epoch: number;
  start: number;
  datacenterId: number;
  workerId: number;
  policy: "throw" | "wait";
  maxWaitMs: number;
  steps: Step[];
  strings: boolean;
}): { issued: number; errors: number } {
  const { layout, epoch } = options;
  const clock = new FakeClock(options.start);
  const sf = new Snowflake({
    layout,
    epoch,
    datacenterId: options.datacenterId,
    workerId: options.workerId,
    clock: clock.read,
    elapsed: clock.elapsed,
    onClockBackwards: options.policy,
    maxWaitMs: options.maxWaitMs,
  });
  const tickOf = (ms: number) => Math.floor((ms - epoch) / layout.unitMs);
  const tickLimit = 2 ** layout.timestampBits;
  let prevId = -1n;
  let prevTick = -1;
  let prevSeq = -1;
  let issued = 0;
  let errors = 0;
  for (const step of options.steps) {
    if (step.kind === "forward" || step.kind === "jump") clock.now += step.ms;
    else if (step.kind === "back") clock.now = Math.max(epoch, clock.now - step.ms);
    else {
      for (let i = 0; i < step.n; i++) {
        clock.startCall();
        let id: bigint;
        try {
          id = options.strings ? BigInt(sf.nextString()) : sf.next();
        } catch (e) {
          errors++;
          const first = clock.reads[0]!;
          if (e instanceof ClockError) {
            const behind = epoch + prevTick * layout.unitMs - first;
            check(tickOf(first) < prevTick, () => `ClockError without a backward clock: ${e.message}`);
            check(
              options.policy === "throw" || behind > options.maxWaitMs,
              () => `"wait" gave up on a clock ${behind} ms behind (max ${options.maxWaitMs}): ${e.message}`,
            );
          } else if (e instanceof RangeError) {
            check(tickOf(clock.lastRead) >= tickLimit, () => `RangeError before the end of the layout: ${e.message}`);
          } else throw e;
          break; // the rest of the burst would fail the same way
        }
        const first = clock.reads[0]!;
        check(
          options.policy === "wait" || tickOf(first) >= prevTick,
          () => `no error on a backward clock under "throw"`,
        );
        const tick = tickOf(clock.lastRead);
        const seq = tick === prevTick ? prevSeq + 1 : 0;
        check(tick >= prevTick && tick < tickLimit, () => `tick ${tick} after ${prevTick}`);
        const expected = composeModel(layout, tick, options.datacenterId, options.workerId, seq);
        check(id === expected, () => `id ${id} ≠ model ${expected} (tick ${tick}, seq ${seq})`);
        check(id > prevId, () => `id ${id} not above ${prevId}`);
        const parts = sf.decode(id);
        check(
          parts.timestamp === epoch + tick * layout.unitMs &&
            parts.sequence === seq &&
            parts.datacenterId === options.datacenterId &&
            parts.workerId === options.workerId,
          () => `decode(${id}) = ${JSON.stringify(parts)}`,
        );
        prevId = id;
        prevTick = tick;
        prevSeq = seq;
        issued++;
      }
      sf.checkInvariants();
    }
  }
  return { issued, errors };
}

describe("Snowflake: strictly increasing, never a duplicate, under arbitrary clock traces", () => {
  it("default Twitter layout, bursts past 4096 per ms, both clock policies, bigint and string forms", () => {
    const tw = SNOWFLAKE_PRESETS.twitter;
    let issued = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 0, max: 31 }),
        fc.integer({ min: 0, max: 31 }),
        fc.constantFrom("throw" as const, "wait" as const),
        fc.boolean(),
        fc.array(stepArb(9000), { minLength: 1, maxLength: 25 }),
        (offset, dc, worker, policy, strings, steps) => {
          issued += drive({
            layout: tw.layout,
            epoch: tw.epoch,
            start: tw.epoch + offset,
            datacenterId: dc,
            workerId: worker,
            policy,
            maxWaitMs: 1000,
            steps,
            strings,
          }).issued;
        },
      ),
      { seed: 7, numRuns: 150 },
    );
    expect(issued).toBeGreaterThan(10_000);
  });

  it("random small layouts (exhaustion every few calls, overflow of short lifetimes, Sonyflake order)", () => {
    let errors = 0;
    fc.assert(
      fc.property(
        layoutArb,
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom("throw" as const, "wait" as const),
        fc.boolean(),
        fc.array(stepArb(300), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (layout, epoch, where, policy, strings, steps, machine) => {
          const lifetime = 2 ** layout.timestampBits * layout.unitMs;
          errors += drive({
            layout,
            epoch,
            start: epoch + Math.floor(where * lifetime),
            datacenterId: machine % 2 ** layout.datacenterBits,
            workerId: Math.floor(machine / 32) % 2 ** layout.workerBits,
            policy,
            maxWaitMs: 1000,
            steps,
            strings,
          }).errors;
        },
      ),
      { seed: 11, numRuns: 500 },
    );
    expect(errors).toBeGreaterThan(0); // backward clocks and overflows did happen
  });

  it("nextString() is the decimal form of the ID next() returns, for every layout and tick", () => {
    fc.assert(
      fc.property(
        layoutArb,
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 200 }),
        (layout, epoch, where, machine, advances) => {
          const lifetime = 2 ** layout.timestampBits * layout.unitMs;
          const start = epoch + Math.floor(where * (lifetime - 1000 * layout.unitMs));
          const options = {
            layout,
            epoch,
            datacenterId: machine % 2 ** layout.datacenterBits,
            workerId: (machine >>> 5) % 2 ** layout.workerBits,
          };
          const c1 = new FakeClock(start);
          const c2 = new FakeClock(start);
          const a = new Snowflake({ ...options, clock: c1.read, elapsed: c1.elapsed });
          const b = new Snowflake({ ...options, clock: c2.read, elapsed: c2.elapsed });
          for (const dt of advances) {
            c1.now += dt;
            c2.now += dt;
            c1.startCall();
            c2.startCall();
            const big = a.next();
            const str = b.nextString();
            expect(str).toBe(big.toString());
            expect(Snowflake.decode(str, { layout, epoch })).toEqual(Snowflake.decode(big, { layout, epoch }));
          }
          a.checkInvariants();
          b.checkInvariants();
        },
      ),
      { seed: 5, numRuns: 500 },
    );
  });

  it("the largest IDs of a 64-bit layout (Discord, top bit set) come out right in both forms", () => {
    const discord = SNOWFLAKE_PRESETS.discord;
    const lastTickStart = discord.epoch + 2 ** 42 - 1;
    const c = new FakeClock(lastTickStart, Number.POSITIVE_INFINITY);
    const sf = new Snowflake({ layout: "discord", datacenterId: 31, workerId: 31, clock: c.read, elapsed: c.elapsed });
    expect(sf.lifetimeEnd).toBe(discord.epoch + 2 ** 42);
    let prev = 0n;
    for (let seq = 0; seq < 4096; seq++) {
      const s = sf.nextString();
      const id = BigInt(s);
      expect(id).toBe((BigInt(2 ** 42 - 1) << 22n) | (31n << 17n) | (31n << 12n) | BigInt(seq));
      expect(id > prev).toBe(true);
      prev = id;
    }
    expect(prev).toBe(2n ** 64n - 1n);
    // The sequence is exhausted in the layout's last tick: the next tick does not fit.
    c.advanceAfter = 0;
    expect(() => sf.next()).toThrow(RangeError);
    expect(() => sf.next()).toThrow(/timestamp runs out/);
    sf.checkInvariants();
  });

  it("sequences past 4096 in one tick, shifted above the machine bits, in both forms", () => {
    const layout: FullLayout = {
      timestampBits: 30,
      datacenterBits: 2,
      workerBits: 3,
      sequenceBits: 14,
      unitMs: 1,
      order: "sequence-machine",
    };
    const epoch = 1_600_000_000_000;
    const c1 = new FakeClock(epoch + 777, Number.POSITIVE_INFINITY);
    const c2 = new FakeClock(epoch + 777, Number.POSITIVE_INFINITY);
    const a = new Snowflake({ layout, epoch, datacenterId: 2, workerId: 5, clock: c1.read, elapsed: c1.elapsed });
    const b = new Snowflake({ layout, epoch, datacenterId: 2, workerId: 5, clock: c2.read, elapsed: c2.elapsed });
    for (let seq = 0; seq < 2 ** 14; seq++) {
      const id = a.next();
      const text = b.nextString();
      if (id !== composeModel(layout, 777, 2, 5, seq) || text !== String(id)) {
        expect([id, text]).toEqual([composeModel(layout, 777, 2, 5, seq), String(id)]);
      }
    }
    expect(a.decode(composeModel(layout, 777, 2, 5, 2 ** 14 - 1)).sequence).toBe(2 ** 14 - 1);
    a.checkInvariants();
    b.checkInvariants();
  });

  it("generators with distinct worker ids never mint the same ID on the same clock", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 1023 }), { minLength: 2, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 300 }),
        (machines, advances) => {
          const clock = new FakeClock(SNOWFLAKE_PRESETS.twitter.epoch + 123_456_789, 1);
          const gens = machines.map(
            (m) => new Snowflake({ datacenterId: m >> 5, workerId: m & 31, clock: clock.read, elapsed: clock.elapsed }),
          );
          const seen = new Set<bigint>();
          let count = 0;
          for (const dt of advances) {
            clock.now += dt;
            for (const g of gens) {
              clock.startCall();
              seen.add(g.next());
              count++;
            }
          }
          expect(seen.size).toBe(count);
        },
      ),
      { seed: 3, numRuns: 100 },
    );
  });
});

describe("Snowflake: waiting is bounded", () => {
  it("waits for the next millisecond when 4096 IDs were issued in one", () => {
    const clock = new FakeClock(SNOWFLAKE_PRESETS.twitter.epoch + 5000, 3);
    const sf = new Snowflake({ clock: clock.read, elapsed: clock.elapsed, workerId: 1 });
    const ids: bigint[] = [];
    for (let i = 0; i < 4096 * 3 + 5; i++) {
      clock.startCall();
      ids.push(sf.next());
    }
    const parts = ids.map((id) => sf.decode(id));
    expect(parts[4095]).toMatchObject({ timestamp: SNOWFLAKE_PRESETS.twitter.epoch + 5000, sequence: 4095 });
    // The 4097th ID had to wait: the clock was read until it moved to the next millisecond.
    expect(parts[4096]).toMatchObject({ timestamp: SNOWFLAKE_PRESETS.twitter.epoch + 5001, sequence: 0 });
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
  });

  it("a clock that stops throws a 'stalled' ClockError once the wait bound has elapsed, then recovers", () => {
    const clock = new FakeClock(SNOWFLAKE_PRESETS.twitter.epoch + 5000, Number.POSITIVE_INFINITY);
    const sf = new Snowflake({ clock: clock.read, elapsed: clock.elapsed, maxWaitMs: 2 });
    let last = 0n;
    for (let i = 0; i < 4096; i++) last = sf.next();
    expect(clock.elapsedReads).toBe(0); // no wait so far: the monotonic clock is read only to bound one
    for (let attempt = 0; attempt < 2; attempt++) {
      clock.startCall();
      clock.elapsedReads = 0;
      expect(clockErrorOf(() => sf.next()).reason).toBe("stalled");
      // Bound maxWaitMs + 1 tick = 3 ms; elapsed reads 0.5 ms apart: the first sets the deadline,
      // the 8th (3.5 ms after it) is past it; one more wall-clock read, then the error.
      expect(clock.elapsedReads).toBe(8);
      expect(clock.reads.length).toBe(9);
    }
    sf.checkInvariants();
    clock.now += 1;
    const next = sf.next();
    expect(next > last).toBe(true);
    expect(sf.decode(next).sequence).toBe(0);
  });

  it("a wait ends even when the injected monotonic clock does not advance (the pauses count)", () => {
    const clock = new FakeClock(SNOWFLAKE_PRESETS.twitter.epoch + 5000, Number.POSITIVE_INFINITY, 1, 0);
    const sf = new Snowflake({ clock: clock.read, elapsed: clock.elapsed, maxWaitMs: 1 });
    for (let i = 0; i < 4096; i++) sf.next();
    clock.startCall();
    expect(clockErrorOf(() => sf.next()).reason).toBe("stalled");
    // Each poll counts as the least time its pause can take (0.1 ms asleep, 10 ns spinning), so
    // the number of polls is bounded: 2 ms / 0.1 ms where the thread may sleep, 2 ms / 10 ns otherwise.
    expect(clock.reads.length).toBeGreaterThan(20);
    expect(clock.reads.length).toBeLessThanOrEqual(200_002);
    const backwards = new FakeClock(SNOWFLAKE_PRESETS.twitter.epoch + 5000, Number.POSITIVE_INFINITY, 1, 0);
    const waiter = new Snowflake({
      clock: backwards.read,
      elapsed: backwards.elapsed,
      onClockBackwards: "wait",
      maxWaitMs: 1,
    });
    waiter.next();
    backwards.now -= 1;
    expect(clockErrorOf(() => waiter.next()).reason).toBe("backwards");
  });

  it('"throw" policy: a backward step throws at once, and IDs resume above the last one', () => {
    const clock = new FakeClock(SNOWFLAKE_PRESETS.twitter.epoch + 10_000, Number.POSITIVE_INFINITY);
    const sf = new Snowflake({ clock: clock.read, elapsed: clock.elapsed });
    const a = sf.next();
    clock.now -= 1;
    clock.startCall();
    expect(() => sf.next()).toThrow(ClockError);
    expect(clock.reads.length).toBe(1); // no waiting
    expect(clock.elapsedReads).toBe(0);
    expect(() => sf.next()).toThrow(/clock moved backwards by 1 ms/);
    clock.now += 1; // back in the last tick: the sequence continues
    const b = sf.next();
    expect(b).toBe(a + 1n);
  });

  it('"wait" policy: waits out a small step back, throws at once for a large one', () => {
    const clock = new FakeClock(SNOWFLAKE_PRESETS.twitter.epoch + 10_000, 2);
    const sf = new Snowflake({ clock: clock.read, elapsed: clock.elapsed, onClockBackwards: "wait", maxWaitMs: 5 });
    clock.startCall();
    const a = sf.next();
    clock.now -= 4;
    clock.startCall();
    const b = sf.next();
    expect(b).toBe(a + 1n); // same tick, after the clock caught up
    // Two unchanged reads, then 1 ms per read: back in the last tick at the 6th read, after 5
    // monotonic readings (2.5 ms of the 6 ms bound).
    expect(clock.reads.length).toBe(6);
    expect(clock.elapsedReads).toBe(5);
    clock.now -= 50;
    clock.startCall();
    const error = clockErrorOf(() => sf.next());
    expect(error.reason).toBe("backwards");
    expect(error.behindMs).toBe(50);
    expect(clock.reads.length).toBe(1);
  });

  it('"wait" policy: gives up when the wait bound elapses before the clock catches up', () => {
    // 5 ms behind (within maxWaitMs) but catching up at 0.25 ms per read, while the monotonic clock
    // moves 0.5 ms per reading: the 6 ms bound elapses first.
    const clock = new FakeClock(SNOWFLAKE_PRESETS.twitter.epoch + 10_000, 1, 0.25);
    const sf = new Snowflake({ clock: clock.read, elapsed: clock.elapsed, onClockBackwards: "wait", maxWaitMs: 5 });
    clock.startCall();
    const a = sf.next();
    clock.now -= 5;
    clock.startCall();
    clock.elapsedReads = 0;
    const error = clockErrorOf(() => sf.next());
    expect(error.reason).toBe("backwards");
    expect(error.message).toMatch(/still [0-9.]+ ms behind the last ID after waiting 6 ms/);
    expect(clock.elapsedReads).toBe(14); // 0.5 sets the deadline 6.5; 7.0 is past it
    // the same step back waited out when the monotonic clock is slower than the catching-up wall clock
    clock.now += 10;
    expect(sf.next() > a).toBe(true);
    const fast = new FakeClock(SNOWFLAKE_PRESETS.twitter.epoch + 10_000, 1, 0.25, 0.1);
    const patient = new Snowflake({ clock: fast.read, elapsed: fast.elapsed, onClockBackwards: "wait", maxWaitMs: 5 });
    const c = patient.next();
    fast.now -= 5;
    fast.startCall();
    expect(patient.next()).toBe(c + 1n);
  });

  it('"wait" policy: a clock that stays behind throws after the bound instead of hanging', () => {
    const clock = new FakeClock(SNOWFLAKE_PRESETS.twitter.epoch + 10_000, Number.POSITIVE_INFINITY);
    const sf = new Snowflake({ clock: clock.read, elapsed: clock.elapsed, onClockBackwards: "wait", maxWaitMs: 3 });
    const a = sf.next();
    clock.now -= 2;
    clock.startCall();
    expect(() => sf.next()).toThrow(/still 2 ms behind/);
    expect(clock.reads.length).toBe(11); // bound 4 ms: elapsed readings 0.5 … 5.0, then one more read
    clock.now += 2;
    expect(sf.next()).toBe(a + 1n);
  });

  it("checks every reading of the injected monotonic clock", () => {
    const cases: [unknown[], ErrorConstructor, RegExp][] = [
      [[0, Number.NaN], RangeError, /elapsed\(\) must be a finite number/],
      [[0, "1"], TypeError, /elapsed\(\) must be a number/],
      [[undefined], TypeError, /elapsed\(\) must be a number/],
      [[5, 4], RangeError, /elapsed\(\) must be monotonic/],
      [[0, Number.POSITIVE_INFINITY], RangeError, /elapsed\(\) must be a finite number/],
    ];
    for (const [readings, type, pattern] of cases) {
      const clock = new FakeClock(SNOWFLAKE_PRESETS.twitter.epoch + 10_000, Number.POSITIVE_INFINITY);
      let i = 0;
      const sf = new Snowflake({ clock: clock.read, elapsed: () => readings[i++ % readings.length] as number });
      for (let k = 0; k < 4096; k++) sf.next();
      expect(() => sf.next(), String(readings)).toThrow(type);
      expect(() => sf.next(), String(readings)).toThrow(pattern);
    }
    // negative readings are fine: any origin
    const clock = new FakeClock(SNOWFLAKE_PRESETS.twitter.epoch + 10_000, 3);
    let t = -1000;
    const sf = new Snowflake({ clock: clock.read, elapsed: () => (t += 0.5) });
    for (let k = 0; k < 5000; k++) {
      clock.startCall();
      sf.next();
    }
    sf.checkInvariants();
  });
});

describe("Snowflake: layouts, presets and decoding", () => {
  it("decodes IDs exactly like @sapphire/snowflake for the Twitter and Discord layouts", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }), (id) => {
        const ours = Snowflake.decode(id);
        const theirs = TwitterSnowflake.deconstruct(id);
        expect(BigInt(ours.timestamp)).toBe(theirs.timestamp);
        expect(BigInt(ours.datacenterId)).toBe(theirs.workerId);
        expect(BigInt(ours.workerId)).toBe(theirs.processId);
        expect(BigInt(ours.sequence)).toBe(theirs.increment);
        const d = Snowflake.decode(String(id), { layout: "discord" });
        const dt = DiscordSnowflake.deconstruct(id);
        expect([BigInt(d.timestamp), BigInt(d.datacenterId), BigInt(d.workerId), BigInt(d.sequence)]).toEqual([
          dt.timestamp,
          dt.workerId,
          dt.processId,
          dt.increment,
        ]);
      }),
      { seed: 21, numRuns: 500 },
    );
  });
  it("decodes Discord's documented example ID", () => {
    // discord.com/developers/docs/reference#snowflakes: 175928847299117063.
    expect(Snowflake.decode("175928847299117063", { layout: "discord" })).toEqual({
      timestamp: 1462015105796,
      date: new Date("2016-04-30T11:18:25.796Z"),
      datacenterId: 1,
      workerId: 0,
      sequence: 7,
    });
  });
  it("Sonyflake preset: 10 ms units, sequence above a 16-bit machine id", () => {
    const epoch = SNOWFLAKE_PRESETS.sonyflake.epoch;
    expect(epoch).toBe(Date.UTC(2014, 8, 1));
    const clock = new FakeClock(epoch + 123_456_789, 1, 1);
    const sf = new Snowflake({ layout: "sonyflake", workerId: 0xbeef, clock: clock.read, elapsed: clock.elapsed });
    const ids: bigint[] = [];
    for (let i = 0; i < 600; i++) {
      clock.startCall();
      ids.push(sf.next());
    }
    const first = sf.decode(ids[0]!);
    expect(first).toMatchObject({ timestamp: epoch + 123_456_780, workerId: 0xbeef, datacenterId: 0, sequence: 0 });
    expect(ids[0]).toBe((12_345_678n << 24n) | 0xbeefn);
    expect(ids[1]).toBe((12_345_678n << 24n) | (1n << 16n) | 0xbeefn);
    // 256 per 10 ms: the 257th ID is in the next unit.
    expect(sf.decode(ids[256]!)).toMatchObject({ timestamp: epoch + 123_456_790, sequence: 0 });
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
  });
  it("round-trips every in-range ID of random layouts, rejects every out-of-range one", () => {
    fc.assert(
      fc.property(layoutArb, fc.bigInt({ min: 0n, max: 2n ** 70n }), (layout, id) => {
        const total = layout.timestampBits + layout.datacenterBits + layout.workerBits + layout.sequenceBits;
        const options = { layout, epoch: 1_000_000 };
        if (id >= 1n << BigInt(total)) {
          expect(() => Snowflake.decode(id, options)).toThrow(RangeError);
          expect(() => Snowflake.decode(String(id), options)).toThrow(RangeError);
          return;
        }
        const p = Snowflake.decode(id, options);
        const tick = (p.timestamp - 1_000_000) / layout.unitMs;
        expect(Number.isInteger(tick)).toBe(true);
        expect(composeModel(layout, tick, p.datacenterId, p.workerId, p.sequence)).toBe(id);
        expect(p.date.getTime()).toBe(p.timestamp);
      }),
      { seed: 9, numRuns: 1000 },
    );
  });
  it("a tight loop past 4096 IDs per ms stays strictly increasing, waiting for each next millisecond", () => {
    // A clock that moves 1 ms every 4100 reads: each millisecond's 4096 IDs, then a short wait.
    const start = SNOWFLAKE_PRESETS.twitter.epoch + 987_654_321;
    let reads = 0;
    let t = 0;
    const sf = new Snowflake({
      datacenterId: 2,
      workerId: 9,
      clock: () => start + Math.floor(reads++ / 4100),
      elapsed: () => (t += 0.5),
    });
    const before = start;
    const ids = new Array<bigint>(50_000);
    for (let i = 0; i < ids.length; i++) ids[i] = sf.next();
    const after = start + Math.floor(reads / 4100);
    let increasing = true;
    for (let i = 1; i < ids.length; i++) if (!(ids[i]! > ids[i - 1]!)) increasing = false;
    expect(increasing).toBe(true);
    const first = sf.decode(ids[0]!);
    const last = sf.decode(ids[ids.length - 1]!);
    expect(first.timestamp).toBeGreaterThanOrEqual(before);
    expect(last.timestamp).toBeLessThanOrEqual(after);
    expect(last.timestamp - first.timestamp).toBeGreaterThanOrEqual(Math.ceil(ids.length / 4096) - 1);
    expect([last.datacenterId, last.workerId]).toEqual([2, 9]);
    sf.checkInvariants();
  });
  it("uses the real clock by default, fractional clocks are floored", () => {
    const sf = new Snowflake({ workerId: 3 });
    const before = Date.now();
    const p = sf.decode(sf.next());
    expect(p.timestamp).toBeGreaterThanOrEqual(before);
    expect(p.timestamp).toBeLessThanOrEqual(Date.now());
    const frac = new Snowflake({ epoch: 0, clock: () => 1234.9 });
    expect(frac.decode(frac.next()).timestamp).toBe(1234);
  });
  it("compare orders bigints and decimal strings numerically, mixed or not", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (a, b) => {
        const expected = a === b ? 0 : a < b ? -1 : 1;
        expect(Snowflake.compare(a, b)).toBe(expected);
        expect(Snowflake.compare(String(a), String(b))).toBe(expected);
        expect(Snowflake.compare(a, String(b))).toBe(expected);
        expect(Snowflake.compare(String(a), b)).toBe(expected);
      }),
      { seed: 13, numRuns: 500 },
    );
    const ids = ["737141877803057244", "1056191128120082432", "254360814063058944", "9"];
    expect(ids.sort(Snowflake.compare)).toEqual([
      "9",
      "254360814063058944",
      "737141877803057244",
      "1056191128120082432",
    ]);
    expect(() => Snowflake.compare("01", "1")).toThrow(RangeError);
    expect(() => Snowflake.compare(1 as unknown as bigint, 2n)).toThrow(TypeError);
  });
});
