/**
 * Where a credential this process has verified lives, by the SHA-256 digest of the full
 * secret. Held in memory only, so bcrypt runs once per key per warm process; the stored
 * record is still read on every request, so revocation and expiry take effect at once.
 */
export class LocationCache<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly capacity = 10_000) {}

  get(digest: string): T | undefined {
    return this.entries.get(digest);
  }

  set(digest: string, location: T): void {
    if (!this.entries.has(digest) && this.entries.size >= this.capacity) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(digest, location);
  }

  delete(digest: string): void {
    this.entries.delete(digest);
  }
}
