/**
 * A bounded least-recently-used cache (a Map keeps insertion order: a hit is moved to the
 * end, the first key is the oldest). Compiled statements are keyed by URL text and
 * permission set; values reach SQL as parameters, so the SQL itself never depends on who
 * asks beyond their permission set.
 */
export class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
  }
}
