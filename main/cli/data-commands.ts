/**
 * The data folder from a terminal: the local credentials, code sets, backups and restores, and the
 * data-encryption key (rotation and re-encryption). Backups, restores and re-encryption work on
 * the SQLite data folder; a clinic's PostgreSQL has its own tools (docs/deploy.md).
 */
import { JSON_OPTION, type CliCommand, type CommandInput } from './command.js';
import { fail } from './session.js';

/** Refuses a command that works on the SQLite data folder when the data is in PostgreSQL, saying what to do there instead. */
function onlySqlite(input: CommandInput, what: string, instead = "use the database's own tools"): void {
  if (input.session.config().databaseUrl) fail(`${what} works on the SQLite data folder; on PostgreSQL (CLINDOC_DATABASE_URL) ${instead} (docs/deploy.md)`);
}

export const DATA_COMMANDS: readonly CliCommand[] = [
  {
    name: 'credentials',
    summary: 'show the local account id and API key again (from local-credentials.json)',
    options: [JSON_OPTION],
    async run(input) {
      const { localCredentialsPath, readLocalCredentials } = await import('../local-credentials.js');
      const { dataDir } = input.session.config();
      const creds = readLocalCredentials(dataDir) ?? fail(`no local credentials in ${localCredentialsPath(dataDir)}: the first \`npm run serve\` (or app start) creates them`);
      // The same two lines the first start printed, ready to paste into the connect form or a client.
      input.print(creds, `X-ACCOUNT-ID: ${creds.accountId}\nX-API-KEY: ${creds.apiKey}`);
    },
  },
  {
    name: 'codes import',
    summary: 'load a newer CMS ICD-10-CM release (plain or .gz) into the data folder',
    args: [{ name: '<order-file>', summary: 'the release\'s order file (icd10cm-order-2026.txt)' }, { name: '[tabular-xml]', summary: 'its tabular list (icd10cm-tabular-2026.xml): notes and inclusion terms' }],
    options: [{ flags: '--edition <edition>', summary: 'the edition to record (FY2025); default from the file name' }, JSON_OPTION],
    async run(input) {
      const { dataDir } = input.session.config();
      const { importCodeSet } = await import('../engines/coding/import.js');
      const [order = '', tabular] = input.args; // commander refuses the command without its <order-file>
      try {
        const done = importCodeSet(dataDir, order, tabular, input.text('edition'));
        input.print(done, `${done.system} ${done.edition}: ${done.billable} billable codes -> ${done.path}`);
      } catch (err) {
        fail((err as Error).message);
      }
    },
  },
  {
    name: 'backup',
    summary: 'write a consistent, encrypted backup of the data folder (safe while Clindoc runs)',
    args: [{ name: '<file>', summary: 'where to write the backup (one tar file)' }],
    options: [JSON_OPTION],
    async run(input) {
      const file = input.arg(0);
      onlySqlite(input, 'clindoc backup');
      const { writeBackup } = await import('../store/backup-write.js');
      const { VERSION } = await import('../composition.js');
      const { session } = input;
      // Another process may be writing: copy the database in one step under one read snapshot.
      const { manifest, bytes } = await writeBackup({ db: session.database(), dataDir: session.config().dataDir, ring: session.protection().ring, appVersion: VERSION, pagesPerStep: Infinity }, file);
      input.print({ file, bytes, createdAt: manifest.createdAt, counts: manifest.counts },
        `backup written to ${file} (${bytes} bytes): ${manifest.counts.accounts} accounts, ${manifest.counts.notes} notes, ` +
          `${manifest.counts.transcriptions} transcriptions, ${manifest.counts.audioFiles} audio files`);
    },
  },
  {
    name: 'restore',
    summary: 'restore a backup into the data folder (Clindoc stopped); refuses a damaged or foreign backup; --replace moves an existing database aside',
    args: [{ name: '<file>', summary: 'the backup' }],
    options: [
      { flags: '--replace', summary: 'move an existing database aside instead of refusing' },
      { flags: '--key-file <key>', summary: 'the encryption.key of the installation that made the backup' },
      { flags: '--data-dir <dir>', summary: 'restore into this folder instead of the data folder' },
      JSON_OPTION,
    ],
    async run(input) {
      onlySqlite(input, 'clindoc restore', 'restore with pg_restore');
      const config = input.session.config();
      const file = input.arg(0);
      const { BackupError, restoreBackup, restoreMasterKey } = await import('../store/backup-restore.js');
      const dataDir = input.text('dataDir') ?? config.dataDir;
      const keyFile = input.text('keyFile');
      try {
        const masterKey = restoreMasterKey({ dataDir, ...(config.encryptionKey ? { environmentKey: config.encryptionKey } : {}), ...(keyFile ? { keyFile } : {}) });
        const done = await restoreBackup(file, { dataDir, masterKey, replace: input.flag('replace'), ...(keyFile ? { keyFile } : {}) });
        input.print(done,
          `restored the backup of ${done.createdAt} into ${done.dataDir}: ${done.counts.accounts} accounts, ${done.counts.notes} notes, ` +
            `${done.counts.transcriptions} transcriptions, ${done.counts.audioFiles} audio files${done.previous ? `\nthe previous data folder was moved to ${done.previous}` : ''}`);
      } catch (err) {
        if (err instanceof BackupError) fail(`restore refused: ${err.message}`);
        throw err;
      }
    },
  },
  {
    name: 'keys rotate-encryption',
    summary: 'new data-encryption key for new writes; old data stays readable',
    options: [JSON_OPTION],
    run(input) {
      const { ring } = input.session.protection();
      const previous = ring.activeKeyId;
      const id = ring.rotate();
      input.print({ activeKeyId: id, previousKeyId: previous, keyIds: ring.keyIds() },
        `new writes now use encryption key ${id}; data under ${previous} stays readable. Run \`clindoc data reencrypt\` to move it.`);
    },
  },
  {
    name: 'data reencrypt',
    summary: 're-encrypt every stored value and audio file under the active key; --prune then drops retired keys no longer in use',
    options: [{ flags: '--prune', summary: 'then drop retired keys no longer in use' }, JSON_OPTION],
    async run(input) {
      onlySqlite(input, 'clindoc data');
      const { openBlobStore } = await import('../store/shared-blob-store.js');
      const { reencryptAll } = await import('../store/crypto/reencrypt.js');
      const { session } = input;
      const { ring, cipher } = session.protection();
      const report = await reencryptAll(session.database(), cipher, openBlobStore(session.config(), ring));
      const pruned = input.flag('prune') ? ring.prune((id) => report.keysInUse.includes(id)) : [];
      input.print({ ...report, activeKeyId: ring.activeKeyId, pruned },
        `re-encrypted ${report.values} values and ${report.blobs} audio files under ${ring.activeKeyId}` + (pruned.length ? `; dropped retired keys ${pruned.join(', ')}` : ''));
    },
  },
];
