/**
 * The clustering speaker diarizer behind the SpeakerDiarizer port (no model needed). Method: 1.5 s
 * windows inside the speech segments, each described by MFCC statistics (embeddings.ts);
 * average-linkage agglomerative clustering on cosine distance down to the requested number of
 * speakers, or, when the count is unknown, the cut with the best silhouette followed by merging
 * clusters whose ΔBIC says one voice fits better (bic.ts); k-means refinement; turns merged.
 * docs/speech-models.md has the measured figures (scripts/eval-diarization.ts).
 */
import type { DiarizationOptions, SpeakerDiarizer, SpeakerTurn, SpeechSegment } from '../../services/transcriptions/ports.js';
import { mergeByBic } from './bic.js';
import { agglomerate, distanceMatrix, refine, silhouette } from './clustering.js';
import { speechWindows, windowFeatures } from './embeddings.js';

export { logMelSpectrogram, type LogMelOptions } from './log-mel.js';

export interface ClusteringDiarizerOptions {
  /** Least mean silhouette for more than one speaker when estimating. Default 0.12 (see scripts/eval-diarization.ts). */
  threshold?: number;
  /** Weight of the model-size penalty in the ΔBIC check that merges clusters of one voice. Default 3 (see scripts/eval-diarization.ts). */
  bicPenalty?: number;
  /** Window length in seconds. Default 1.5. */
  windowSec?: number;
}

/** Creates the clustering diarizer described above. */
export function createClusteringDiarizer(tuning: ClusteringDiarizerOptions = {}): SpeakerDiarizer {
  return {
    diarize: async (pcm, sampleRate, segments, options = {}) => diarizeMono(pcm, sampleRate, segments, tuning, options),
  };
}

function diarizeMono(pcm: Int16Array, sampleRate: number, segments: SpeechSegment[], tuning: ClusteringDiarizerOptions, options: DiarizationOptions): SpeakerTurn[] {
  const wins = speechWindows(segments, tuning.windowSec ?? 1.5);
  if (wins.length === 0) return [];
  const features = windowFeatures(pcm, sampleRate, wins);
  const { embeddings } = features;
  const maxK = Math.min(options.maxSpeakers ?? 4, embeddings.length);
  const k = options.numSpeakers === undefined ? undefined : Math.max(1, Math.min(options.numSpeakers, embeddings.length));
  const dist = distanceMatrix(embeddings);
  const cuts = agglomerate(dist, Math.max(maxK, k ?? 1));
  let labels: number[];
  if (k !== undefined) labels = cuts[k - 1]!;
  else {
    // The cut with the best silhouette, unless even that one is too weak to call it two voices.
    let bestK = 1;
    let bestS = tuning.threshold ?? 0.12;
    for (let c = 2; c <= maxK; c++) {
      const sc = silhouette(dist, cuts[c - 1]!);
      if (sc > bestS) [bestS, bestK] = [sc, c];
    }
    labels = mergeByBic(cuts[bestK - 1]!, features.centredFrames(), tuning.bicPenalty ?? 3);
  }
  const nClusters = Math.max(...labels) + 1;
  if (nClusters > 1) labels = refine(embeddings, labels, nClusters);
  return mergeTurns(wins.map((w, i) => ({ ...w, speaker: labels[i]! })));
}

/** Renumbers speakers by first appearance and joins touching turns of one speaker. */
function mergeTurns(turns: SpeakerTurn[]): SpeakerTurn[] {
  const sorted = [...turns].sort((a, b) => a.start - b.start);
  const rename = new Map<number, number>();
  const out: SpeakerTurn[] = [];
  for (const t of sorted) {
    if (!rename.has(t.speaker)) rename.set(t.speaker, rename.size);
    const speaker = rename.get(t.speaker)!;
    const last = out[out.length - 1];
    if (last && last.speaker === speaker && t.start - last.end < 0.05) last.end = Math.max(last.end, t.end);
    else out.push({ start: t.start, end: t.end, speaker });
  }
  return out;
}
