import { createHash } from 'node:crypto';

const INITIAL_SLOTS = 1 << 16;

/**
 * A set of strings kept as 64-bit fingerprints in one typed array (open addressing): a corpus of
 * millions of document ids costs 16 bytes an id instead of a JS string each. Two ids share a
 * fingerprint with odds about n²/2⁶⁵ (below 10⁻⁶ for 5 million ids).
 */
export class FingerprintSet {
  private slots = new Uint32Array(INITIAL_SLOTS * 2);
  private size = 0;

  /** Adds `value`; false when it was already there. */
  add(value: string): boolean {
    const digest = createHash('sha1').update(value).digest();
    // Zero marks an empty slot: a fingerprint's low word is never zero.
    const high = digest.readUInt32BE(0);
    const low = digest.readUInt32BE(4) | 1;
    if (this.size * 2 >= this.slots.length / 2) this.grow();
    if (!this.insert(high, low)) return false;
    this.size += 1;
    return true;
  }

  private insert(high: number, low: number): boolean {
    const capacity = this.slots.length / 2;
    for (let slot = high % capacity; ; slot = (slot + 1) % capacity) {
      const storedLow = this.slots[slot * 2 + 1];
      if (storedLow === 0) {
        this.slots[slot * 2] = high;
        this.slots[slot * 2 + 1] = low;
        return true;
      }
      if (storedLow === low >>> 0 && this.slots[slot * 2] === high) return false;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    for (let i = 0; i < old.length; i += 2) if (old[i + 1] !== 0) this.insert(old[i]!, old[i + 1]!);
  }
}
