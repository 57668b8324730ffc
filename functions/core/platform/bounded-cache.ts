/**
 * A map held in this process only, of at most `capacity` entries (the oldest goes first):
 * where verified credentials live, by the SHA-256 digest of their secret, so bcrypt runs
 * once per key per warm process (the record itself is still read on every request, so
 * revocation and expiry take effect at once); and what failed recently (failed-authentications.ts).
 */
export class BoundedCache<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly capacity = 10_000) {}

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: T): void {
    if (!this.entries.has(key) && this.entries.size >= this.capacity) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, value);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
