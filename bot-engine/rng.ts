// Seeded randomness, identical on every machine: integer-only arithmetic, no Math.random.
//
// Seeding: the seed string's UTF-8 bytes are hashed with 32-bit FNV-1a; that hash feeds
// splitmix32, whose first four outputs are the state of sfc32 (Chris Doty-Humphrey's Small Fast
// Counter). sfc32 is then stepped 12 times to mix. `below(n)` maps a 32-bit output to [0, n) by
// the multiply-shift `floor(u32 * n / 2^32)`, exact in doubles for n < 2^21.

export class Rng {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  constructor(seed: string | number) {
    this.reseed(seed);
  }

  reseed(seed: string | number): void {
    let h = typeof seed === 'number' ? seed >>> 0 : fnv1a(seed);
    const next = () => {
      h = (h + 0x9e3779b9) | 0;
      let z = h;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A uniform integer in [0, n). */
  below(n: number): number {
    return Math.floor((this.nextU32() * n) / 4294967296);
  }

  /** Shuffles `xs` in place: Fisher–Yates from the last slot down, one `below` per slot (the bag's
   * order, so records replay, depends on exactly this sequence). */
  shuffle<T>(xs: T[]): void {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const t = xs[i];
      xs[i] = xs[j];
      xs[j] = t;
    }
  }

  /** A uniform double in [0, 1). */
  unit(): number {
    return this.nextU32() / 4294967296;
  }
}

export function fnv1a(text: string): number {
  const bytes = new TextEncoder().encode(text);
  let h = 0x811c9dc5;
  for (const byte of bytes) h = Math.imul(h ^ byte, 0x01000193);
  return h >>> 0;
}

/** Mixes several integers into one 32-bit seed (for per-turn, per-seat bot seeds). */
export function mixSeed(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x01000193);
    h ^= h >>> 15;
  }
  return h >>> 0;
}
