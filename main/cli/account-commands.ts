/**
 * `clindoc accounts …` and `clindoc keys …` (API keys): accounts, their keys, the operator role and
 * how long their data is kept, on the data folder's database or the clinic's PostgreSQL.
 */
import { JSON_OPTION, type CliCommand, type CommandInput } from './command.js';
import { fail } from './session.js';

const ACCOUNT = { flags: '--account <id>', summary: 'the account', required: true } as const;

/** The `--account` option; commander refuses the command without it, and an empty one is refused here, as a usage error (2) too. */
const accountOf = (input: CommandInput, command: string): string => input.text('account') || fail(`${command} needs --account ID`, 2);

export const ACCOUNT_COMMANDS: readonly CliCommand[] = [
  {
    name: 'accounts create',
    summary: 'create an account and its first API key; --operator gives it the operator role (backups, model installs, ICD-10-CM imports through the API)',
    options: [{ flags: '--name <name>', summary: 'the account\'s name', required: true }, { flags: '--operator', summary: 'give it the operator role' }, JSON_OPTION],
    async run(input) {
      const name = input.text('name') || fail('accounts create needs --name NAME');
      const operator = input.flag('operator');
      const created = await (await input.session.accounts()).service.createAccount(name, { operator });
      input.print(
        { accountId: created.account.id, apiKey: created.apiKey, keyId: created.keyId, operator },
        `account ${created.account.id} (${created.account.name})${operator ? ', operator' : ''}\nAPI key (shown once): ${created.apiKey}\nkey id: ${created.keyId}`,
      );
    },
  },
  {
    name: 'accounts operator',
    summary: 'grant (or with --revoke withdraw) the operator role',
    options: [ACCOUNT, { flags: '--revoke', summary: 'withdraw the role' }, JSON_OPTION],
    async run(input) {
      const account = accountOf(input, 'accounts operator');
      const revoke = input.flag('revoke');
      await (await input.session.accounts()).service.setOperator(account, !revoke);
      input.print({ accountId: account, operator: !revoke }, `${account} ${revoke ? 'no longer holds' : 'holds'} the operator role`);
    },
  },
  {
    name: 'accounts list',
    summary: 'list accounts (and which hold the operator role)',
    options: [JSON_OPTION],
    async run(input) {
      const { operatorAccounts } = input.session.config();
      const list = await (await input.session.accounts()).service.listAccounts();
      const isOperator = (a: (typeof list)[number]): boolean => a.operator === true || operatorAccounts.includes(a.id);
      input.print(
        list.map((a) => ({ accountId: a.id, name: a.name, createdAt: new Date(a.createdAt).toISOString(), operator: isOperator(a) })),
        list.map((a) => `${a.id}\t${a.name}${isOperator(a) ? '\toperator' : ''}`).join('\n'),
      );
    },
  },
  {
    name: 'accounts retention',
    summary: 'show or set how many days notes, transcriptions and audio are kept',
    options: [ACCOUNT, { flags: '--days <n>', summary: 'keep this many days (0 keeps everything)' }, { flags: '--default', summary: 'follow CLINDOC_RETENTION_DAYS again' }, JSON_OPTION],
    async run(input) {
      const account = accountOf(input, 'accounts retention');
      const { service, retention } = await input.session.accounts();
      if (!(await service.listAccounts()).some((a) => a.id === account)) fail('no such account');
      const days = input.text('days');
      if (input.flag('default')) await retention.setRetentionDays(account, null);
      else if (days !== undefined) {
        if (!/^\d{1,5}$/.test(days)) fail('--days must be a whole number of days (0 keeps everything)');
        await retention.setRetentionDays(account, Number(days));
      }
      const own = await retention.getRetentionDays(account);
      const kept = own ?? input.session.config().retentionDays;
      input.print({ accountId: account, days: kept, source: own === null ? 'default' : 'account' },
        kept === 0 ? 'kept until deleted' : `deleted ${kept} days after creation${own === null ? ' (default)' : ''}`);
    },
  },
  {
    name: 'keys create',
    summary: 'create another API key for an account',
    options: [ACCOUNT, JSON_OPTION],
    async run(input) {
      const account = accountOf(input, 'keys create');
      const key = await (await input.session.accounts()).service.createKey(account);
      input.print({ accountId: account, apiKey: key.apiKey, keyId: key.keyId }, `API key (shown once): ${key.apiKey}\nkey id: ${key.keyId}`);
    },
  },
  {
    name: 'keys list',
    summary: 'list an account\'s keys (ids, never secrets)',
    options: [ACCOUNT, JSON_OPTION],
    async run(input) {
      const keys = await (await input.session.accounts()).service.listKeys(accountOf(input, 'keys list'));
      input.print(keys, keys.map((k) => `${k.id}\t${k.revokedAt ? 'revoked' : 'active'}`).join('\n'));
    },
  },
  {
    name: 'keys revoke',
    summary: 'revoke a key; it stops working at once',
    args: [{ name: '<key-id>', summary: 'the key\'s id (keys list)' }],
    options: [JSON_OPTION],
    async run(input) {
      const keyId = input.arg(0);
      await (await input.session.accounts()).service.revokeKey(keyId);
      input.print({ revoked: keyId }, `revoked ${keyId}`);
    },
  },
];
