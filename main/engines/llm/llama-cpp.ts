/**
 * In-process LanguageModel on node-llama-cpp for a GGUF file the operator supplies. CPU only, with
 * the thread count set explicitly (its default of 4 threads on a 2-core machine slows generation
 * to a crawl), JSON answers constrained by a grammar built from the request's schema, and never a
 * download or a source build at run time. Prompts and answers are never logged.
 */
import { availableParallelism } from 'node:os';
import type { Llama, LlamaContext, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import type { CompletionRequest, CompletionResult, LanguageModel } from '../../services/language-model.js';
import { DomainError, engineUnavailable } from '../../services/errors.js';
import { toGrammarSchema } from './grammar-schema.js';
import { lazyModel } from '../models/lazy-model.js';

export interface LlamaCppOptions {
  /** Path to a local `.gguf` model file. Env `CLINDOC_LLM_MODEL_PATH`. */
  modelPath: string;
  /** CPU threads for evaluation. Env `CLINDOC_LLM_THREADS`; default `os.availableParallelism()`. */
  threads?: number;
  /** Context window in tokens (prompt plus answer). Env `CLINDOC_LLM_CONTEXT_SIZE`; default 8192, capped by the model's own. */
  contextSize?: number;
}

interface Loaded {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
}

const DEFAULT_MAX_TOKENS = 2048;

/** The library types schemas literally (for inference); ours are built at run time, so widen the call. */
function grammarFor(llama: Llama, schema: Record<string, unknown>): Promise<LlamaGrammar> {
  const create = llama.createGrammarForJsonSchema.bind(llama) as unknown as (s: Record<string, unknown>) => Promise<LlamaGrammar>;
  return create(schema);
}

/**
 * Creates the llama.cpp engine. Nothing is loaded until the first `complete()`; a load failure is
 * a 503 and the next call tries again. Calls run one at a time on a single context sequence.
 */
export function createLlamaCppModel(options: LlamaCppOptions): LanguageModel {
  const threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  // A missing file may appear later: a failed load is forgotten and the next call tries again.
  const loaded = lazyModel('local language model', async (): Promise<Loaded> => {
    const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
    // build 'never' + skipDownload: use the prebuilt CPU binary or fail, never fetch or compile.
    const llama = await getLlama({
      gpu: false,
      build: 'never',
      skipDownload: true,
      progressLogs: false,
      maxThreads: threads,
      logLevel: LlamaLogLevel.error,
      // llama.cpp's own messages name files and tensors, never prompt text; keep only errors.
      logger: (_level, message) => process.stderr.write(`[llama.cpp] ${message.trim()}\n`),
    });
    try {
      const model = await llama.loadModel({ modelPath: options.modelPath, gpuLayers: 0 });
      const contextSize = Math.min(options.contextSize ?? 8192, model.trainContextSize);
      const context = await model.createContext({ contextSize, threads, sequences: 1 });
      return { llama, model, context };
    } catch (err) {
      await llama.dispose().catch(() => undefined);
      throw err;
    }
  }, async (l) => {
    await l.context.dispose();
    await l.model.dispose();
    await l.llama.dispose();
  });

  const run = async (request: CompletionRequest): Promise<CompletionResult> => {
    if (closed) throw engineUnavailable('local language model is closed');
    const model = await loaded.get();
    const { LlamaChatSession } = await import('node-llama-cpp');
    const sequence = model.context.getSequence();
    const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: request.system, autoDisposeSequence: false });
    try {
      const grammar = request.jsonSchema
        ? await grammarFor(model.llama, toGrammarSchema(request.jsonSchema))
        : undefined;
      const answer = await session.promptWithMeta(request.user, {
        maxTokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
        temperature: request.temperature ?? 0,
        ...(grammar ? { grammar } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
      return {
        text: answer.responseText, finishReason: answer.stopReason === 'maxTokens' ? 'length' : 'stop',
        tokens: { completion: model.model.tokenize(answer.responseText).length },
      };
    } catch (err) {
      if (request.signal?.aborted) throw request.signal.reason ?? err;
      const tooLong = err instanceof Error && /context (size|shift)|too long/i.test(err.message);
      const message = tooLong
        ? 'the prompt does not fit the local language model\'s context window (raise CLINDOC_LLM_CONTEXT_SIZE)'
        : 'local language model failed to answer';
      throw new DomainError('engine_unavailable', message, { cause: err });
    } finally {
      session.dispose({ disposeSequence: false });
      // Not awaited (the answer is ready); a failure to free the sequence must not become an unhandled rejection.
      void sequence.dispose().catch(() => undefined);
    }
  };

  return {
    name: 'llama-cpp',
    async load(): Promise<void> {
      if (closed) throw engineUnavailable('local language model is closed');
      await loaded.get();
    },
    complete(request: CompletionRequest): Promise<CompletionResult> {
      // One generation at a time: a second sequence would double memory and halve speed on CPU.
      const result = queue.then(() => run(request));
      queue = result.catch(() => undefined);
      return result;
    },
    async close(): Promise<void> {
      closed = true;
      await queue;
      await loaded.release();
    },
  };
}
