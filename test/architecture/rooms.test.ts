import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The rooms of docs/architecture.md, held by the code: every import of every source file is
 * read and checked against the allowed-imports table, so a service that reaches for the disk or
 * a route that reaches past the services fails here, not in a reviewer's head.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Node modules and packages that do I/O or belong to one adapter; a service may use none of them. */
const IO_MODULES = [
  'node:fs', 'node:fs/promises', 'node:path', 'node:url', 'node:child_process', 'node:net', 'node:http',
  'node:https', 'node:worker_threads', 'node:os', 'fs', 'path', 'child_process',
  'express', 'better-sqlite3', 'ws', 'electron', 'onnxruntime-node', 'node-llama-cpp', 'pino', 'koffi', 'busboy',
];

interface ImportEdge {
  from: string;
  specifier: string;
  /** Repository-relative target for a relative specifier; undefined for a package. */
  target?: string;
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
    name: 'the server talks to services, never to the store or the engines',
    check: (e) => (e.from.startsWith('main/server/') && e.target && /^main\/(store|engines|jobs)\//.test(e.target) ? `reaches ${e.target}` : undefined),
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
    name: 'the renderer, preload and shared never import main/',
    check: (e) => (/^(renderer|preload|shared)\//.test(e.from) && e.target?.startsWith('main/') ? `reaches ${e.target}` : undefined),
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
    ];
    expect(violations(bad)).toHaveLength(7);
  });

  it('holds for every file', () => {
    expect(violations(edges)).toEqual([]);
  });
});
