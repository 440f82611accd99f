import type { Request, Response } from 'express';
import { DomainError, invalidRequest } from '../services/errors.js';

/**
 * Optimistic concurrency over HTTP: objects that change in place (drafts, visits) carry a version
 * that is sent as the ETag and must come back as If-Match, so two windows cannot overwrite each
 * other's changes without knowing.
 */

/** `"3"`, `W/"3"` or a bare `3`. */
const VERSION = /^(?:W\/)?"?(\d{1,15})"?$/;

/**
 * The version named by If-Match. Missing: a 428 when `required`, else undefined. `*` (any
 * version) is undefined too. Anything else that is not one of our ETags is a 400.
 */
export function ifMatchVersion(req: Request, required: true): number;
export function ifMatchVersion(req: Request, required: boolean): number | undefined;
export function ifMatchVersion(req: Request, required: boolean): number | undefined {
  const raw = req.get('If-Match')?.trim();
  if (raw === undefined || raw === '') {
    if (required) throw new DomainError('precondition_required', 'If-Match: required; send the ETag of your last read of this object');
    return undefined;
  }
  if (raw === '*') return undefined;
  const m = VERSION.exec(raw);
  if (!m) throw invalidRequest('If-Match: must be the ETag of this object (for example "3")');
  return Number(m[1]);
}

/** Sets the ETag of an object at `version`. */
export function setEtag(res: Response, version: number): void {
  res.set('ETag', `"${version}"`);
}
