/** A Web Storage stand-in (sessionStorage/localStorage) for renderer stores under test. */
export class MemoryStorage {
  private map = new Map<string, string>();
  getItem = (k: string): string | null => this.map.get(k) ?? null;
  setItem = (k: string, v: string): void => void this.map.set(k, v);
  removeItem = (k: string): void => void this.map.delete(k);
}
