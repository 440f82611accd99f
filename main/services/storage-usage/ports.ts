/** What one kind of stored object costs an account: how many, and the bytes they take on disk. */
export interface KindUsage {
  count: number;
  bytes: number;
}

/** Everything an account keeps, by kind. Audio counts the stored (encrypted) audio files. */
export interface AccountUsage {
  notes: KindUsage;
  transcriptions: KindUsage;
  audio: KindUsage;
  templates: KindUsage;
  macros: KindUsage;
  webhooks: KindUsage;
  visits: KindUsage;
}

/**
 * Measures an account's stored data. `main/store` implements it with SQL sums over the
 * account's own rows and the sizes of its audio files, so one account never sees another's.
 */
export interface StorageUsageReader {
  usage(accountId: string): Promise<AccountUsage>;
}
