import { MODEL_MANIFEST_FILE, ModelPackageManifest } from '@meshwork/contracts';

/** What a model package's `model.json` tells the upload form: its size in parameters and its architecture. */
export interface PackageFacts {
  parameters: string;
  architecture: string;
}

/** The package's manifest among the chosen files, or null when the upload is not a model package. */
export const manifestFile = <F extends { name: string }>(files: readonly F[]): F | null =>
  files.find((file) => file.name === MODEL_MANIFEST_FILE) ?? null;

/**
 * The parameters a package's weights hold. A manifest may state them (`parameters`); otherwise
 * they are worked out from its shape and its blocks' `work` (multiply-adds per token, which
 * count every matrix once, the output head included, but not the embedding lookup), plus the
 * norms' weights. The embedding is counted once, as the output head that shares it in llama
 * models that tie them (SmolLM2, Llama 3.2): a model with a separate head holds vocabulary ×
 * hidden more. Null when the manifest states nothing and a block does not record its work.
 */
export function parameterCount(manifest: ModelPackageManifest, stated?: unknown): number | null {
  if (typeof stated === 'number' && Number.isSafeInteger(stated) && stated > 0) return stated;
  let work = 0;
  for (const block of manifest.blocks) {
    if (block.work === undefined) return null;
    work += block.work;
  }
  const norms = (2 * manifest.layers + 1) * manifest.hidden;
  return work + norms;
}

const SCALES = [
  { size: 1e12, suffix: 'T' },
  { size: 1e9, suffix: 'B' },
  { size: 1e6, suffix: 'M' },
  { size: 1e3, suffix: 'K' },
] as const;

/** 134515008 as "134.5M", 7241732096 as "7.2B": how model sizes are named. */
export function formatParameterCount(count: number): string {
  const scale = SCALES.find(({ size }) => count >= size);
  if (!scale) return String(count);
  return `${Number.parseFloat((count / scale.size).toFixed(1))}${scale.suffix}`;
}

/** The facts of a `model.json`'s text, or null when it is not a Meshwork model package's manifest. */
export function packageFacts(json: string): PackageFacts | null {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return null;
  }
  const parsed = ModelPackageManifest.safeParse(raw);
  if (!parsed.success) return null;
  const count = parameterCount(parsed.data, (raw as { parameters?: unknown }).parameters);
  return { parameters: count === null ? '' : formatParameterCount(count), architecture: parsed.data.architecture };
}
