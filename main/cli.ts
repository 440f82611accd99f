import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './store/database.js';
import { createAccountStore } from './store/account-store.js';
import { createAccountService } from './services/accounts/account-service.js';
import { DomainError } from './services/errors.js';
import { openDataProtection, KeyRingError } from './store/crypto/index.js';
import { openBlobStore } from './store/shared-blob-store.js';
import { reencryptAll } from './store/crypto/reencrypt.js';
import { createRetentionStore } from './store/audit-store.js';

const USAGE = `Usage: clindoc <command>

  accounts create --name NAME [--operator] [--json]
                                         create an account and its first API key; --operator gives it the
                                         operator role (backups, model installs, ICD-10-CM imports through the API)
  accounts operator --account ID [--revoke] [--json]
                                         grant (or with --revoke withdraw) the operator role
  accounts list [--json]                 list accounts (and which hold the operator role)
  keys create --account ID [--json]      create another API key for an account
  keys list --account ID [--json]        list an account's keys (ids, never secrets)
  keys revoke KEY_ID                     revoke a key; it stops working at once
  keys rotate-encryption [--json]        new data-encryption key for new writes; old data stays readable
  data reencrypt [--prune] [--json]      re-encrypt every stored value and audio file under the active key;
                                         --prune then drops retired keys no longer in use
  accounts retention --account ID [--days N|--default] [--json]
                                         show or set how many days notes, transcriptions and audio are kept
  serve [--role api|worker|all]          run the API and background jobs (as npm run serve); SIGTERM drains it.
                                         On a clinic server: api answers requests, worker runs jobs (default all)
  stream FILE [--url ws://127.0.0.1:8080] [--account ID] [--key KEY | --token TOKEN]
              [--encoding ENC] [--sample-rate N] [--dictation] [--fast]
                                         stream an audio file at real-time pace and print partial and final lines
  credentials [--json]                   show the local account id and API key again (from local-credentials.json)
  codes import ORDER_FILE [TABULAR_XML] [--edition FY2025] [--json]
                                         load a newer CMS ICD-10-CM release (plain or .gz) into the data folder
  backup FILE [--json]                   write a consistent, encrypted backup of the data folder (safe while Clindoc runs)
  restore FILE [--replace] [--key-file KEY] [--data-dir DIR] [--json]
                                         restore a backup into the data folder (Clindoc stopped); refuses a damaged or
                                         foreign backup; --replace moves an existing database aside
  models list [--json]                   recommended speech and language models and those installed here
  models pull ID [--json]                download a catalog model with a progress bar (Ctrl-C cancels; run again to resume)
  models import PATH [--id ID] [--json]  install a .gguf file or a model folder from this computer (USB stick, share)
  models verify ID [--json]              check an installed model's files against their recorded SHA-256
  models bench ID [--audio FILE] [--json] measure an installed model here: tokens/s (language), real-time factor on FILE (speech), memory
  models rm ID                           remove an installed model


Environment: CLINDOC_DATA_DIR selects the data folder (see README).`;

function fail(message: string, code = 1): never {
  process.stderr.write(`clindoc: ${message}\n`);
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' }, account: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' },
      url: { type: 'string' }, key: { type: 'string' }, token: { type: 'string' }, encoding: { type: 'string' }, 'sample-rate': { type: 'string' },
      dictation: { type: 'boolean', default: false }, fast: { type: 'boolean', default: false },
      prune: { type: 'boolean', default: false }, days: { type: 'string' }, default: { type: 'boolean', default: false },
      edition: { type: 'string' }, id: { type: 'string' }, role: { type: 'string' }, audio: { type: 'string' },
      operator: { type: 'boolean', default: false }, revoke: { type: 'boolean', default: false },

      replace: { type: 'boolean', default: false }, 'key-file': { type: 'string' }, 'data-dir': { type: 'string' },
    },
  });
  const [group, action, arg] = positionals;
  if (values.help || !group) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (group === 'serve') {
    // The same program as `npm run serve`: configuration, start, signals and drain are headless.ts's.
    if (values.role !== undefined) process.env.CLINDOC_ROLE = values.role;
    await import('./headless.js');
    return;
  }
  if (group === 'stream') {
    if (!action) fail('stream needs a FILE');
    const { streamFile } = await import('./cli/stream-command.js');
    const accountId = values.account ?? process.env.CLINDOC_ACCOUNT_ID;
    if (!accountId) fail('stream needs --account (or CLINDOC_ACCOUNT_ID)');
    const apiKey = values.key ?? process.env.CLINDOC_API_KEY;
    await streamFile({
      file: action, url: values.url ?? `ws://127.0.0.1:${process.env.CLINDOC_PORT ?? '8080'}`, accountId,
      ...(apiKey ? { apiKey } : {}), ...(values.token ? { token: values.token } : {}), ...(values.encoding ? { encoding: values.encoding } : {}),
      ...(values['sample-rate'] ? { sampleRate: Number(values['sample-rate']) } : {}), dictation: values.dictation, realtime: !values.fast,
      out: (line) => process.stdout.write(`${line}\n`),
    });
    return;
  }
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(`configuration error: ${err.message}`, 2);
    throw err;
  }
  if (group === 'credentials') {
    const { localCredentialsPath, readLocalCredentials } = await import('./composition.js');
    const creds = readLocalCredentials(config.dataDir);
    if (!creds) fail(`no local credentials in ${localCredentialsPath(config.dataDir)}: the first \`npm run serve\` (or app start) creates them`);
    // The same two lines the first start printed, ready to paste into the connect form or a client.
    process.stdout.write(values.json ? `${JSON.stringify(creds)}\n` : `X-ACCOUNT-ID: ${creds.accountId}\nX-API-KEY: ${creds.apiKey}\n`);
    return;
  }
  if (group === 'codes') {
    if (action !== 'import' || !arg) fail('usage: clindoc codes import ORDER_FILE [TABULAR_XML] [--edition FY2025]', 2);
    const { importCodeSet } = await import('./engines/coding/import.js');
    try {
      const done = importCodeSet(config.dataDir, arg, positionals[3], values.edition);
      process.stdout.write(values.json ? `${JSON.stringify(done)}\n` : `${done.system} ${done.edition}: ${done.billable} billable codes -> ${done.path}\n`);
    } catch (err) {
      fail((err as Error).message);
    }
    return;
  }
  if (group === 'restore') {
    if (!action) fail('usage: clindoc restore FILE [--replace] [--key-file KEY] [--data-dir DIR]', 2);
    if (config.databaseUrl) fail('clindoc restore works on the SQLite data folder; on PostgreSQL (CLINDOC_DATABASE_URL) restore with pg_restore (docs/deploy.md)');
    const { BackupError, restoreBackup, restoreMasterKey } = await import('./store/backup-restore.js');
    const dataDir = values['data-dir'] ?? config.dataDir;
    try {
      const masterKey = restoreMasterKey({ dataDir, ...(config.encryptionKey ? { environmentKey: config.encryptionKey } : {}), ...(values['key-file'] ? { keyFile: values['key-file'] } : {}) });
      const done = await restoreBackup(action, { dataDir, masterKey, replace: values.replace, ...(values['key-file'] ? { keyFile: values['key-file'] } : {}) });
      process.stdout.write(values.json ? `${JSON.stringify(done)}\n`
        : `restored the backup of ${done.createdAt} into ${done.dataDir}: ${done.counts.accounts} accounts, ${done.counts.notes} notes, ` +
          `${done.counts.transcriptions} transcriptions, ${done.counts.audioFiles} audio files${done.previous ? `\nthe previous data folder was moved to ${done.previous}` : ''}\n`);
    } catch (err) {
      if (err instanceof BackupError) fail(`restore refused: ${err.message}`);
      throw err;
    }
    return;
  }
  const db = openDatabase(join(config.dataDir, 'clindoc.db'));
  if (group === 'models') {
    const { composeModelManager } = await import('./compose-models.js');
    const { runModelsCommand } = await import('./cli/models-command.js');
    const warn = (message: string): void => void process.stderr.write(`clindoc: warning: ${message}\n`);
    try {
      const { service } = composeModelManager(config, db, { warn });
      const { benchModel, readBench } = await import('./cli/models-bench.js');
      const { modelsFolder } = await import('./compose-models.js');
      const folderOf = (id: string): string => join(modelsFolder(config.dataDir), id);
      process.exitCode = await runModelsCommand(service, action, arg, { ...(values.id ? { id: values.id } : {}), ...(values.audio ? { audio: values.audio } : {}) }, {
        json: values.json, out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`clindoc: ${line}\n`),
        benchOf: (id) => readBench(folderOf(id)),
        bench: async (id, audio) => {
          await service.refreshInstalled();
          const model = service.installed().find((m) => m.id === id);
          if (!model) throw new DomainError('not_found', `${id.slice(0, 40)} is not installed: nothing to measure (clindoc models list)`);
          return benchModel(config, model, folderOf(id), audio);
        },
      });
    } catch (err) {
      fail((err as Error).message, err instanceof DomainError ? 1 : 2);
    } finally {
      db.close();
    }
    return;
  }
  // On a clinic server accounts live in its PostgreSQL; the data folder keeps only this machine's records.
  const clinic = config.databaseUrl ? await (await import('./store/pg/index.js')).openPostgresAccounts(config.databaseUrl) : undefined;
  const accounts = createAccountService({ store: clinic?.accounts ?? createAccountStore(db) });
  const onlySqlite = (what: string): void => {
    if (clinic) fail(`${what} works on the SQLite data folder; on PostgreSQL (CLINDOC_DATABASE_URL) use the database's own tools (docs/deploy.md)`);
  };

  const print = (json: unknown, text: string): void => void process.stdout.write(values.json ? `${JSON.stringify(json)}\n` : `${text}\n`);
  // Opened only by the commands that need it, so account commands work without touching keys.
  const protection = () => {
    try {
      return openDataProtection({
        dataDir: config.dataDir, ...(config.sharedDir ? { ringDir: config.sharedDir } : {}), ...(config.encryptionKey ? { environmentKey: config.encryptionKey } : {}),
        warn: (message) => process.stderr.write(`clindoc: warning: ${message}\n`),
      });
    } catch (err) {
      if (err instanceof KeyRingError) fail(err.message);
      throw err;
    }
  };
  try {
    if (group === 'backup' || group === 'data') onlySqlite(`clindoc ${group}`);
    if (group === 'backup') {
      if (!action) fail('usage: clindoc backup FILE');
      const { writeBackup } = await import('./store/backup-write.js');
      const { VERSION } = await import('./composition.js');
      // Another process may be writing: copy the database in one step under one read snapshot.
      const { manifest, bytes } = await writeBackup({ db, dataDir: config.dataDir, ring: protection().ring, appVersion: VERSION, pagesPerStep: Infinity }, action);
      print({ file: action, bytes, createdAt: manifest.createdAt, counts: manifest.counts },
        `backup written to ${action} (${bytes} bytes): ${manifest.counts.accounts} accounts, ${manifest.counts.notes} notes, ` +
          `${manifest.counts.transcriptions} transcriptions, ${manifest.counts.audioFiles} audio files`);
      return;
    }
    if (group === 'keys' && action === 'rotate-encryption') {
      const { ring } = protection();
      const previous = ring.activeKeyId;
      const id = ring.rotate();
      print({ activeKeyId: id, previousKeyId: previous, keyIds: ring.keyIds() },
        `new writes now use encryption key ${id}; data under ${previous} stays readable. Run \`clindoc data reencrypt\` to move it.`);
      return;
    }
    if (group === 'data' && action === 'reencrypt') {
      const { ring, cipher } = protection();
      const blobs = openBlobStore(config, ring);
      const report = await reencryptAll(db, cipher, blobs);
      const pruned = values.prune ? ring.prune((id) => report.keysInUse.includes(id)) : [];
      print({ ...report, activeKeyId: ring.activeKeyId, pruned },
        `re-encrypted ${report.values} values and ${report.blobs} audio files under ${ring.activeKeyId}` +
          (pruned.length ? `; dropped retired keys ${pruned.join(', ')}` : ''));
      return;
    }
    if (group === 'accounts' && action === 'retention') {
      if (!values.account) fail('accounts retention needs --account ID');
      if (!(await accounts.listAccounts()).some((a) => a.id === values.account)) fail('no such account');
      const store = clinic?.retention ?? createRetentionStore(db);
      if (values.default) await store.setRetentionDays(values.account, null);
      else if (values.days !== undefined) {
        if (!/^\d{1,5}$/.test(values.days)) fail('--days must be a whole number of days (0 keeps everything)');
        await store.setRetentionDays(values.account, Number(values.days));
      }
      const own = await store.getRetentionDays(values.account);
      const days = own ?? config.retentionDays;
      print({ accountId: values.account, days, source: own === null ? 'default' : 'account' },
        days === 0 ? 'kept until deleted' : `deleted ${days} days after creation${own === null ? ' (default)' : ''}`);
      return;
    }
    if (group === 'accounts' && action === 'create') {
      if (!values.name) fail('accounts create needs --name NAME');
      const created = await accounts.createAccount(values.name, { operator: values.operator });
      print(
        { accountId: created.account.id, apiKey: created.apiKey, keyId: created.keyId, operator: values.operator },
        `account ${created.account.id} (${created.account.name})${values.operator ? ', operator' : ''}\nAPI key (shown once): ${created.apiKey}\nkey id: ${created.keyId}`,
      );
    } else if (group === 'accounts' && action === 'operator') {
      if (!values.account) fail('accounts operator needs --account ID');
      await accounts.setOperator(values.account, !values.revoke);
      print({ accountId: values.account, operator: !values.revoke }, `${values.account} ${values.revoke ? 'no longer holds' : 'holds'} the operator role`);
    } else if (group === 'accounts' && action === 'list') {
      const list = await accounts.listAccounts();
      print(
        list.map((a) => ({ accountId: a.id, name: a.name, createdAt: new Date(a.createdAt).toISOString(), operator: a.operator === true || config.operatorAccounts.includes(a.id) })),
        list.map((a) => `${a.id}\t${a.name}${a.operator === true || config.operatorAccounts.includes(a.id) ? '\toperator' : ''}`).join('\n'),
      );
    } else if (group === 'keys' && action === 'create') {
      if (!values.account) fail('keys create needs --account ID');
      const key = await accounts.createKey(values.account);
      print({ accountId: values.account, apiKey: key.apiKey, keyId: key.keyId }, `API key (shown once): ${key.apiKey}\nkey id: ${key.keyId}`);
    } else if (group === 'keys' && action === 'list') {
      if (!values.account) fail('keys list needs --account ID');
      const keys = await accounts.listKeys(values.account);
      print(keys, keys.map((k) => `${k.id}\t${k.revokedAt ? 'revoked' : 'active'}`).join('\n'));
    } else if (group === 'keys' && action === 'revoke') {
      if (!arg) fail('keys revoke needs KEY_ID');
      await accounts.revokeKey(arg);
      print({ revoked: arg }, `revoked ${arg}`);
    } else {
      fail(`unknown command "${positionals.join(' ')}"\n${USAGE}`, 2);
    }
  } catch (err) {
    if (err instanceof DomainError) fail(err.message);
    throw err;
  } finally {
    db.close();
    await clinic?.close();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => fail((err as Error).message));
