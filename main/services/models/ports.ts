/**
 * Ports of the model manager. The service decides (what to fetch, which hash a file must have,
 * whether there is room, what is installed); the store keeps that in SQLite; the downloader speaks
 * HTTP; the file adapter owns the models folder. Model files hold no patient data, but paths and
 * URLs still stay out of error messages shown to other accounts beyond what they need.
 */
import type { ModelEngine, ModelInspection, ModelTask } from '../../../shared/api/models.js';

/** One file of an installed model, as it was hashed when it was installed. */
export interface InstalledFile {
  /** Path inside the model folder. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface InstalledModelRecord {
  id: string;
  task: ModelTask;
  engine: ModelEngine;
  title: string;
  /** `catalog`: downloaded or imported as a catalog entry; `import`: a model the catalog does not list. */
  origin: 'catalog' | 'import';
  files: InstalledFile[];
  bytes: number;
  installedAt: number;
  verifiedAt: number | null;
}

export type ModelPullStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface ModelPullRecord {
  id: string;
  modelId: string;
  /** The account that asked for it (the model itself belongs to the device). */
  accountId: string;
  status: ModelPullStatus;
  receivedBytes: number;
  totalBytes: number | null;
  /** The file being fetched, while running. */
  file: string | null;
  error: string | null;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
}

export interface ModelStore {
  listInstalled(): Promise<InstalledModelRecord[]>;
  getInstalled(id: string): Promise<InstalledModelRecord | undefined>;
  putInstalled(record: InstalledModelRecord): Promise<void>;
  deleteInstalled(id: string): Promise<void>;
  markVerified(id: string, at: number): Promise<void>;
  /** Hashes pinned at a model's first download, by file path; kept when the model is removed. */
  pins(modelId: string): Promise<Record<string, string>>;
  pin(modelId: string, path: string, sha256: string, at: number): Promise<void>;
  /**
   * Records a new pull unless the model already has one queued or running (one conditional
   * write, so two racing requests cannot both start a download). True when recorded.
   */
  insertPull(record: ModelPullRecord): Promise<boolean>;
  getPull(id: string): Promise<ModelPullRecord | undefined>;
  /** The newest pull of a model, finished or not. */
  latestPull(modelId: string): Promise<ModelPullRecord | undefined>;
  updatePull(id: string, changes: Partial<Omit<ModelPullRecord, 'id' | 'modelId' | 'accountId' | 'createdAt'>>): Promise<void>;
}

/** Size and SHA-256 of a file as it lies on disk. */
export interface FileDigest {
  bytes: number;
  sha256: string;
}

/** Why a download stopped; `retryable` failures are tried again later and resume where they stopped. */
export class DownloadError extends Error {
  /** `offline`: the host could not be reached at all (no network, no name resolution, refused). */
  constructor(message: string, readonly retryable: boolean, readonly kind: 'http' | 'network' | 'offline' | 'disk_full' | 'size' = retryable ? 'network' : 'http') {
    super(message);
    this.name = 'DownloadError';
  }
}

export interface DownloadRequest {
  url: string;
  /** Partial file to append to (an HTTP Range request asks for the rest). */
  partFile: string;
  signal?: AbortSignal;
  /** Bytes in the partial file so far, as they arrive. */
  onBytes?(bytes: number): void;
}

/** Fetches one file over HTTP(S), resuming a partial file; throws DownloadError. */
export interface ModelDownloader {
  download(request: DownloadRequest): Promise<{ bytes: number }>;
}

/** A file or folder offered for import, as listed before anything is copied. */
export interface ImportListing {
  kind: 'file' | 'folder';
  /** File or folder name without extension, a hint for the model's id. */
  name: string;
  files: Array<{ path: string; bytes: number }>;
}

/**
 * The models folder. Downloads and copies go to a staging folder beside the installed models and
 * move into place in one rename once every file is checked, so an engine never sees a half model.
 */
export interface ModelFiles {
  /** Free bytes on the disk holding the models folder. */
  freeBytes(): Promise<number>;
  /** The partial file for one model file (created folders as needed) and its current size. */
  part(modelId: string, path: string): Promise<{ file: string; bytes: number }>;
  /** Flushes a complete partial file to disk, hashes it and gives it its final name in staging. */
  finishPart(modelId: string, path: string): Promise<FileDigest>;
  /** Digest of a file already finished in staging (an earlier attempt), if there is one. */
  staged(modelId: string, path: string): Promise<FileDigest | undefined>;
  /** Removes one staged file (finished or partial), or the whole staging folder when `path` is absent. */
  discardStaged(modelId: string, path?: string): Promise<void>;
  /**
   * Copies a local file into staging (import), flushed and hashed: `file` inside the folder `source`
   * offered for import, or `source` itself when `file` is ''.
   */
  stageCopy(modelId: string, path: string, source: string, file: string, signal?: AbortSignal): Promise<FileDigest>;
  /** Writes a small text file into staging (the folder's clindoc.json). */
  stageText(modelId: string, path: string, text: string): Promise<FileDigest>;
  /** Moves the staging folder into place as the installed model, atomically. */
  install(modelId: string): Promise<void>;
  /** Deletes an installed model's folder and anything staged for it. */
  remove(modelId: string): Promise<void>;
  /** Digest of an installed file, or undefined when it is missing. */
  installedDigest(modelId: string, path: string): Promise<FileDigest | undefined>;
  /** The staging folder of a model being downloaded or imported (where its checked files wait). */
  stagedLocation(modelId: string): string;
  /** Where an installed model lies: its folder, or for a one-file model the file itself. */
  location(modelId: string, file?: string): string;
  /** Lists a local file or folder offered for import (regular files only). */
  listImport(source: string): Promise<ImportListing>;
}

/** Why an offered file is not a model its engine can run (its header does not parse). */
export class UnusableModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnusableModelError';
  }
}

/**
 * Reads a model's own header before it is accepted (GGUF metadata, an ONNX graph loaded by
 * onnxruntime), so a file that merely ends in `.gguf` is refused at import, not when an account
 * chooses it. Throws UnusableModelError naming what is wrong.
 */
export interface ModelInspector {
  inspect(engine: ModelEngine, folder: string, files: string[]): Promise<ModelInspection>;
}
