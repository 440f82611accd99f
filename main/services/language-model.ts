/**
 * Provider-neutral port for language-model engines (OpenAI-compatible servers, in-process
 * llama.cpp). Each vendor's wire format lives in one file under `main/engines/`; services only
 * see this shape. Prompts and answers are patient data: engines must never log them.
 */
export interface CompletionRequest {
  /** System prompt (task instructions). */
  system: string;
  /** User content (transcript, text to extract from...). */
  user: string;
  /** When set, the engine constrains its answer to JSON matching this schema where it can. */
  jsonSchema?: Record<string, unknown>;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface CompletionResult {
  text: string;
  /** Engine-reported reason the answer stopped (`stop`, `length`...), when known. */
  finishReason?: string;
  /** Tokens of the answer, when the engine counts them (`clindoc models bench` divides by its time). */
  tokens?: { completion: number };
}

export interface LanguageModel {
  /** Stable engine name for logs and metrics (`openai-compatible`, `llama-cpp`). */
  readonly name: string;
  complete(request: CompletionRequest): Promise<CompletionResult>;
  /** Loads the model now instead of on the first completion; throws why it cannot load. */
  load?(): Promise<void>;
  /** Releases native resources (model weights, contexts). */
  close?(): Promise<void>;
}
