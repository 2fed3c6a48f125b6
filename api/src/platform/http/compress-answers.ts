import compression from 'compression';
import type { Request, Response } from 'express';

/** Smaller bodies gain less than compressing them costs. */
const THRESHOLD_BYTES = 1024;

/**
 * Compresses api JSON and the sites' pages (brotli or gzip, as the client prefers) once
 * they pass 1 KB. Nothing else: static files come precompressed (static-sites.ts), file
 * downloads are already compressed or are model weights, and an event stream must reach
 * the client event by event, never held in a compressor's buffer.
 */
export const compressAnswers = compression({
  threshold: THRESHOLD_BYTES,
  filter: (_request: Request, response: Response) =>
    /^(application\/json|text\/html)\b/.test(String(response.getHeader('Content-Type') ?? '')),
});
