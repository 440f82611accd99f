/**
 * A worker that dies between a note's final write and anything after it (the fault-injection seam
 * of the outbox test): it writes one note with the embedded writer on the data folder DATA_DIR (and
 * CLINDOC_DATABASE_URL when set), and is killed with SIGKILL the moment the note service reports the
 * note finished, as a crash or an OOM kill at that instant would. Before the outbox, the webhook
 * event was queued from that very report, so it was lost.
 */
import pino from 'pino';
import { loadConfig } from '../../main/config.js';
import { composeStores } from '../../main/compose-stores.js';
import { createNoteService } from '../../main/services/notes/note-service.js';
import { createEmbeddedNoteWriter } from '../../main/engines/text/embedded/note-writer.js';

const dataDir = process.env.DATA_DIR!;
const config = loadConfig({ ...process.env, CLINDOC_DATA_DIR: dataDir, CLINDOC_LOG_LEVEL: 'silent' }, dataDir);
const { stores } = await composeStores(config, pino({ level: 'silent' }));
const notes = createNoteService({
  notes: stores.notes, templates: stores.templates, writer: async () => createEmbeddedNoteWriter(),
  enqueue: async () => undefined, // the job is run right here
  events: {
    noteFinished: () => {
      process.stdout.write('written\n');
      process.kill(process.pid, 'SIGKILL');
    },
  },
});
const { noteId } = await notes.create(process.env.ACCOUNT_ID!, { transcript: '[doctor] Any chest pain? [patient] No, just a cough for three days.' });
process.stdout.write(`note ${noteId}\n`);
await notes.generate(noteId);
process.stdout.write('survived\n');
