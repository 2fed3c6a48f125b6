/**
 * What a GGUF says about its model beyond its shape: the name to show people, and the sampling
 * its authors recommend.
 */
import { basename } from 'node:path';
import { GenerationDefaults } from '@meshwork/contracts';
import { metaNumber, type GgufFile } from './gguf';

const MAX_NAME = 200;
/** A quantisation or precision tag at the end of a file name: `.Q4_1`, `-Q4_K_M`, `-f16`, `.BF16`. */
const ENCODING = /[-.](?:I?Q\d\w*|B?F16|F32)$/i;
const SHARD = /-\d{5}-of-\d{5}$/;

function text(file: GgufFile, key: string): string | undefined {
  const value = file.metadata.get(key);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

const words = (value: string) => value.split(/[-_\s]+/).filter((word) => word !== '');
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The model's name for people. `general.name` is often a converter's title-cased training run
 * ("Smollm2 135M 8k Lc100K Mix1 Ep2"), so the name is made as llama.cpp names files: base name,
 * size label, fine-tune, version. A file already named that way (`SmolLM2-135M-Instruct.Q4_1.gguf`)
 * is taken as it is: it keeps the casing the metadata lowercases, and the fine-tune people know.
 */
export function displayName(file: GgufFile): string {
  const base = text(file, 'general.basename');
  const size = text(file, 'general.size_label');
  const stem = basename(file.path)
    .replace(/\.gguf$/i, '')
    .replace(SHARD, '')
    .replace(ENCODING, '');
  let name: string;
  if (base) {
    const fileWords = words(stem);
    const baseWords = words(base);
    const namedByConvention =
      baseWords.every((word, i) => fileWords[i] !== undefined && same(word, fileWords[i])) &&
      (!size || fileWords.some((word) => same(word, size)));
    if (namedByConvention) name = fileWords.join(' ');
    else {
      const [first = '', ...rest] = baseWords;
      const capitalised = first === first.toLowerCase() ? first.charAt(0).toUpperCase() + first.slice(1) : first;
      const finetune = text(file, 'general.finetune');
      const version = text(file, 'general.version');
      name = [capitalised, ...rest, size, ...words(finetune ?? ''), version].filter(Boolean).join(' ');
    }
  } else {
    name = text(file, 'general.name') ?? (words(stem).join(' ') || 'model');
  }
  return name.slice(0, MAX_NAME);
}

/** Each default and the GGUF key that states it (llama.cpp's). */
const SAMPLING_KEYS: Record<keyof GenerationDefaults, string> = {
  temperature: 'general.sampling.temp',
  topP: 'general.sampling.top_p',
  topK: 'general.sampling.top_k',
  repeatPenalty: 'general.sampling.penalty_repeat',
  repeatLastN: 'general.sampling.penalty_last_n',
};

/** The sampling the model's authors recommend, as far as the file states it; undefined when it states none. */
export function generationDefaults(file: GgufFile): GenerationDefaults | undefined {
  const stated: Record<string, number> = {};
  for (const [field, key] of Object.entries(SAMPLING_KEYS)) {
    // float32 in the file: 0.2 reads as 0.20000000298, so keep the digits its authors wrote.
    if (file.metadata.has(key)) stated[field] = Number(metaNumber(file, key).toPrecision(6));
  }
  if (Object.keys(stated).length === 0) return undefined;
  const parsed = GenerationDefaults.safeParse(stated);
  if (!parsed.success) {
    const field = parsed.error.issues[0]!.path[0] as keyof GenerationDefaults;
    throw new Error(`The model's ${SAMPLING_KEYS[field]} is ${stated[field]}, which no sampler takes`);
  }
  return parsed.data;
}
