/**
 * A worker process for the kill -9 test: works `test_job` jobs from the queue at PG_URL, in the
 * pg-boss schema PG_SCHEMA. Every run is written to `job_runs` before and after its work, so the
 * test sees what each process did even after it was killed. MODE=block never finishes a job.
 */
import pg from 'pg';
import pino from 'pino';
import { createPgJobQueue } from '../../main/jobs/pg-job-queue.js';

const url = process.env.PG_URL!;
const schema = process.env.PG_SCHEMA!;
const block = process.env.MODE === 'block';
const pool = new pg.Pool({ connectionString: url, max: 3 });

const queue = createPgJobQueue({
  connectionString: url,
  schema,
  logger: pino({ level: 'warn' }, pino.destination(2)),
  concurrency: Number(process.env.CONCURRENCY ?? 1),
  expireInSeconds: 2,
  heartbeatSeconds: 0.5,
  pollingIntervalSeconds: 0.2,
  maintenanceIntervalSeconds: 1,
  retryDelaySeconds: 1,
  handlers: {
    test_job: {
      async run(resourceId) {
        await pool.query('INSERT INTO job_runs (resource_id, pid, event) VALUES ($1, $2, $3)', [resourceId, process.pid, 'start']);
        process.stdout.write(`started ${resourceId}\n`);
        if (block) await new Promise<void>(() => undefined);
        await pool.query('INSERT INTO job_runs (resource_id, pid, event) VALUES ($1, $2, $3)', [resourceId, process.pid, 'done']);
      },
      giveUp() {
        process.stdout.write('gave up\n');
      },
    },
  },
});

await queue.start();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void queue.stop(5000).then(() => pool.end()).then(() => process.exit(0));
});
