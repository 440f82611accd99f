import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The rooms of docs/architecture.md, held by the code: every import of every source file is
 * read and checked against the allowed-imports table, so a service that reaches for the disk or
 * a route that reaches past the services fails here, not in a reviewer's head. The import graph
 * also has no cycles: a type both sides need lives with its owner (a port, a schema), not in
 * whichever module happened to declare it first.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Node modules and packages that do I/O or belong to one adapter; a service may use none of them. */
const IO_MODULES = [
  'node:fs', 'node:fs/promises', 'node:path', 'node:url', 'node:child_process', 'node:net', 'node:http',
  'node:https', 'node:worker_threads', 'node:os', 'fs', 'path', 'child_process',
  'express', 'better-sqlite3', 'ws', 'electron', 'onnxruntime-node', 'node-llama-cpp', 'pino', 'koffi', 'busboy',
];

/** Pure computation libraries the clinical-language core may use (anything else is a decision for review). */
const CORE_LIBRARIES = ['double-metaphone'];

interface ImportEdge {
  from: string;
  specifier: string;
  /** Repository-relative target for a relative specifier; undefined for a package. */
  target?: string;
}

/** For an edge leaving `room`: a reason when its relative target is outside `allowed` (prefixes). */
function within(e: ImportEdge, room: string, allowed: string[]): string | undefined {
  if (!e.from.startsWith(room) || !e.target) return undefined;
  return allowed.some((a) => e.target!.startsWith(a)) ? undefined : `reaches ${e.target}`;
}

/** Room rules: each returns a reason when the edge is not allowed. */
const RULES: { name: string; check(edge: ImportEdge): string | undefined }[] = [
  {
    name: 'services import only services, shared and pure libraries',
    check: (e) => {
      if (!e.from.startsWith('main/services/')) return undefined;
      if (e.target) return e.target.startsWith('main/services/') || e.target.startsWith('shared/') ? undefined : `reaches ${e.target}`;
      return IO_MODULES.includes(e.specifier) ? `does I/O through ${e.specifier}` : undefined;
    },
  },
  {
    name: 'the encounter room imports only itself, the clinical-language core, shared and pure libraries',
    check: (e) => {
      if (!e.from.startsWith('main/services/encounter/') || !e.target) return undefined;
      return /^(main\/services\/(encounter|clinical-language)|shared)\//.test(e.target) ? undefined : `reaches ${e.target}`;
    },
  },
  {
    name: 'the clinical-language core imports only itself, shared and its named pure libraries',
    check: (e) => {
      if (!e.from.startsWith('main/services/clinical-language/')) return undefined;
      if (!e.target) return CORE_LIBRARIES.includes(e.specifier) ? undefined : `imports the package ${e.specifier}`;
      return /^(main\/services\/clinical-language|shared)\//.test(e.target) ? undefined : `reaches ${e.target}`;
    },
  },
  {
    name: 'the server imports only itself, services and shared: never the store, the engines or the jobs',
    check: (e) => within(e, 'main/server/', ['main/server/', 'main/services/', 'shared/']),
  },
  {
    name: 'engines import only engines, services and shared (and ask main/app-files.ts where bundled resources are)',
    check: (e) => within(e, 'main/engines/', ['main/engines/', 'main/services/', 'shared/', 'main/app-files']),
  },
  {
    name: 'the store imports only itself, services (their storage ports) and shared',
    check: (e) => within(e, 'main/store/', ['main/store/', 'main/services/', 'shared/']),
  },
  {
    name: 'jobs import only jobs and services',
    check: (e) => within(e, 'main/jobs/', ['main/jobs/', 'main/services/']),
  },
  {
    name: 'typing imports only itself and the dictation service (its port and pure helpers)',
    check: (e) => within(e, 'main/typing/', ['main/typing/', 'main/services/dictation/']),
  },
  {
    name: 'shared imports only shared',
    check: (e) => within(e, 'shared/', ['shared/']),
  },
  {
    name: 'preload imports only itself, shared and electron',
    check: (e) => {
      if (!e.from.startsWith('preload/')) return undefined;
      if (!e.target) return e.specifier === 'electron' ? undefined : `imports the package ${e.specifier}`;
      return within(e, 'preload/', ['preload/', 'shared/']);
    },
  },
  {
    name: 'the renderer imports only itself and shared',
    check: (e) => within(e, 'renderer/', ['renderer/', 'shared/']),
  },
  {
    name: 'engines, store, jobs and typing implement ports; they do not call the server or the app',
    check: (e) => (/^main\/(engines|store|jobs|typing)\//.test(e.from) && e.target && /^main\/(server|app)\//.test(e.target) ? `reaches ${e.target}` : undefined),
  },
  {
    name: 'engines do not reach the store, and the store does not reach the engines',
    check: (e) => {
      if (!e.target) return undefined;
      if (e.from.startsWith('main/engines/') && e.target.startsWith('main/store/')) return `reaches ${e.target}`;
      if (e.from.startsWith('main/store/') && e.target.startsWith('main/engines/')) return `reaches ${e.target}`;
      return undefined;
    },
  },
  {
    name: 'engines never build services (composition does): they use ports and pure helpers only',
    check: (e) =>
      e.from.startsWith('main/engines/') && e.target && /^main\/services\/.*(-service|\/index)(\.js)?$/.test(e.target) ? `reaches ${e.target}` : undefined,
  },
  {
    name: 'main/engines/llm holds model adapters only: note planning lives with the note writers',
    check: (e) =>
      e.from.startsWith('main/engines/llm/') && e.target && /^main\/(services\/(notes|clinical-language)|engines\/text)\//.test(e.target) ? `reaches ${e.target}` : undefined,
  },
  {
    name: 'only main/app imports electron',
    check: (e) => (e.specifier === 'electron' && !e.from.startsWith('main/app/') && !e.from.startsWith('preload/') ? 'imports electron' : undefined),
  },
  {
    name: 'shared code has no I/O',
    check: (e) => (e.from.startsWith('shared/') && !e.target && IO_MODULES.includes(e.specifier) ? `does I/O through ${e.specifier}` : undefined),
  },
];

const IMPORT_RE = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every import specifier written in a source text (static, re-export, side-effect and dynamic). */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(IMPORT_RE)) found.push((m[1] ?? m[2])!);
  return found;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function edgesOf(file: string, source: string): ImportEdge[] {
  return importsOf(source).map((specifier) => {
    if (!specifier.startsWith('.')) return { from: file, specifier };
    const target = relative(ROOT, resolve(ROOT, dirname(file), specifier)).split('\\').join('/');
    return { from: file, specifier, target };
  });
}

function violations(edges: ImportEdge[]): string[] {
  const out: string[] = [];
  for (const edge of edges) {
    for (const rule of RULES) {
      const why = rule.check(edge);
      if (why) out.push(`${edge.from} ${why} (${rule.name})`);
    }
  }
  return out;
}

/** The source file a relative target names (`x.js` is `x.ts` or `x.tsx`; a folder is its index). */
function fileOf(target: string, files: ReadonlySet<string>): string | undefined {
  const stem = target.replace(/\.(js|jsx|mjs)$/, '');
  return [target, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}/index.ts`, `${stem}/index.tsx`].find((f) => files.has(f));
}

/** file -> the files it imports. Type-only imports count: a type in the wrong file is how cycles start. */
function importGraph(edges: ImportEdge[], files: ReadonlySet<string>): Map<string, string[]> {
  const graph = new Map<string, string[]>([...files].map((f) => [f, []]));
  for (const e of edges) {
    const to = e.target === undefined ? undefined : fileOf(e.target, files);
    if (to && graph.has(e.from)) graph.get(e.from)!.push(to);
  }
  return graph;
}

/**
 * One cycle per strongly connected part of the graph (Tarjan), written `a -> b -> a` along the
 * shortest way back to its first file, so a failure names the imports to change.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const parts: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1 || (graph.get(v) ?? []).includes(v)) parts.push(part);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return parts.map((part) => shortestLoop(graph, new Set(part), part.sort()[0]!).join(' -> '));
}

/** The shortest path from `start` back to itself inside `part` (breadth first). */
function shortestLoop(graph: ReadonlyMap<string, readonly string[]>, part: ReadonlySet<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    for (const w of graph.get(v) ?? []) {
      if (!part.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at = v; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

describe('rooms and their allowed imports', () => {
  const files = ['main', 'shared', 'renderer', 'preload'].flatMap(sourceFiles);
  const edges = files.flatMap((f) => edgesOf(f, readFileSync(join(ROOT, f), 'utf8')));

  it('reads the imports of the whole tree', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(edges.length).toBeGreaterThan(500);
  });

  it('finds a forbidden import when one is written', () => {
    const bad = [
      ...edgesOf('main/services/notes/x.ts', "import { readFileSync } from 'node:fs';\nimport { db } from '../../store/database.js';"),
      ...edgesOf('main/server/routes/x.ts', "export { y } from '../../engines/llm/sse.js';"),
      ...edgesOf('main/engines/x/y.ts', "import { createNoteService } from '../../services/notes/note-service.js';"),
      ...edgesOf('main/engines/llm/z.ts', "import type { NotePlan } from '../text/llm/note-plan.js';"),
      ...edgesOf('renderer/x.tsx', "const m = await import('../main/config.js');"),
      ...edgesOf('main/services/encounter/x.ts', "import { writeNoteSync } from '../notes/note-service.js';"),
      ...edgesOf('main/services/clinical-language/x.ts', "import { a } from '../notes/fidelity.js';\nimport { tokenize } from 'wink-nlp';"),
      ...edgesOf('main/jobs/x.ts', "import { createApp } from '../server/app.js';\nimport { openDatabase } from '../store/database.js';"),
      ...edgesOf('shared/x.ts', "import type { ApiClient } from '../renderer/api/client.js';"),
      ...edgesOf('main/typing/x.ts', "import type { Note } from '../services/notes/ports.js';"),
    ];
    // The rule each edge breaks is named in the message; only the file and the reason are compared here.
    expect(violations(bad).map((v) => v.replace(/ \(.*\)$/, ''))).toEqual([
      'main/services/notes/x.ts does I/O through node:fs',
      'main/services/notes/x.ts reaches main/store/database.js',
      'main/server/routes/x.ts reaches main/engines/llm/sse.js',
      'main/engines/x/y.ts reaches main/services/notes/note-service.js',
      'main/engines/llm/z.ts reaches main/engines/text/llm/note-plan.js',
      'renderer/x.tsx reaches main/config.js',
      'main/services/encounter/x.ts reaches main/services/notes/note-service.js',
      'main/services/clinical-language/x.ts reaches main/services/notes/fidelity.js',
      'main/services/clinical-language/x.ts imports the package wink-nlp',
      'main/jobs/x.ts reaches main/server/app.js',
      'main/jobs/x.ts reaches main/server/app.js',
      'main/jobs/x.ts reaches main/store/database.js',
      'shared/x.ts reaches renderer/api/client.js',
      'main/typing/x.ts reaches main/services/notes/ports.js',
    ]);
  });

  it('holds for every file', () => {
    expect(violations(edges)).toEqual([]);
  });

  it('finds an import cycle when one is written, type-only imports included', () => {
    const written = new Set(['main/a.ts', 'main/b.ts', 'main/c.tsx', 'main/d/index.ts', 'main/e.ts']);
    const cyclic = [
      ...edgesOf('main/a.ts', "import type { B } from './b.js';"),
      ...edgesOf('main/b.ts', "import { c } from './c.js';"),
      ...edgesOf('main/c.tsx', "export * from './a.js';\nimport { d } from './d/index.js';"),
      ...edgesOf('main/d/index.ts', "const e = await import('../e.js');"),
    ];
    expect(importCycles(importGraph(cyclic, written))).toEqual(['main/a.ts -> main/b.ts -> main/c.tsx -> main/a.ts']);
    const acyclic = cyclic.filter((e) => e.from !== 'main/c.tsx' || !e.specifier.includes('a.js'));
    expect(importCycles(importGraph(acyclic, written))).toEqual([]);
  });

  it('has no import cycle in main/, shared/, renderer/ or preload/', () => {
    const graph = importGraph(edges, new Set(files));
    // Every relative import names a source file (or a stylesheet), so no edge is lost to the graph.
    const lost = edges.filter((e) => e.target && !/\.css$/.test(e.target) && !fileOf(e.target, new Set(files)));
    expect(lost.map((e) => `${e.from} -> ${e.specifier}`)).toEqual([]);
    expect(importCycles(graph)).toEqual([]);
  });
});

/**
 * One queue per live session (issue 28): the session's work waits in main/services/live/session-queue.ts
 * and nowhere else. The socket layer (main/server/streaming/) once kept an inbox of messages in front
 * of a recognition queue: two queues in a row, each with its own limits and ordering. So in the live
 * path (server/streaming and services/live) only session-queue.ts may take items out of an array
 * (`shift`, `unshift`, `splice`: a FIFO's tell), and only the streaming session creates a queue, once.
 */
describe('one queue per live session', () => {
  const LIVE_PATH = /^main\/(server\/streaming|services\/live)\//;
  const withoutComments = (source: string): string => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const queueKeepers = (sources: Record<string, string>): string[] =>
    Object.entries(sources)
      .filter(([file, source]) => LIVE_PATH.test(file) && /\.(shift|unshift|splice)\(/.test(withoutComments(source)))
      .map(([file]) => file)
      .sort();
  const sources = Object.fromEntries(sourceFiles('main').map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));

  it('finds a second queue when one is written', () => {
    expect(queueKeepers({
      'main/server/streaming/session.ts': 'const inbox: ClientMessage[] = [];\nconst m = inbox.shift();',
      'main/services/live/session-queue.ts': 'items.splice(i, 1);',
      'main/services/live/notes.ts': '// an inbox.shift() in a comment is no queue',
      'main/services/notes/x.ts': 'list.shift();',
    })).toEqual(['main/server/streaming/session.ts', 'main/services/live/session-queue.ts']);
  });

  it('holds: only services/live/session-queue.ts keeps a queue, and only the streaming session creates one', () => {
    expect(queueKeepers(sources)).toEqual(['main/services/live/session-queue.ts']);
    const calls = Object.entries(sources).flatMap(([file, source]) =>
      [...withoutComments(source).matchAll(/\bcreateSessionQueue\(/g)].map(() => file).filter((f) => !f.endsWith('session-queue.ts')));
    expect(calls).toEqual(['main/server/streaming/session.ts']);
  });
});
