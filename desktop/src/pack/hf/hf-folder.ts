/**
 * A Hugging Face checkpoint folder read as the GGUF llama.cpp's converter would make of it:
 * GGUF metadata from `config.json` and the tokenizer files, GGUF tensor names, shapes and types,
 * and each tensor's GGUF bytes made when the packer reads it (converted to float32, laid out as
 * llama.cpp lays it out, then kept as F32 or quantised to Q8_0 or Q4_0). The packer runs on the
 * result unchanged; nothing is written besides the package.
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { GgufFile, GgufTensorInfo, GgufValue } from '../gguf';
import { GgmlType, tensorBytes } from '../quant';
import { hfConfig, llama3RopeFactors } from './hf-config';
import { ggufTensorName, toGgufLayout } from './hf-tensors';
import { hfTokenizerMetadata } from './hf-tokenizer';
import { f32Bytes, QUANT_TYPES, quantizeBlocks, type PackQuant } from './quantize';
import { readSafetensorsHeader, readSafetensorsValues, type SafetensorsTensor } from './safetensors';

const INDEX = 'model.safetensors.index.json';

async function readJson(folder: string, name: string, required: boolean): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(join(folder, name), 'utf8');
  } catch (error) {
    if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`${folder} is not a Hugging Face model folder: ${name} cannot be read (${(error as Error).message})`);
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new Error(`${join(folder, name)} is not a JSON object`);
}

/** The shard files: those the index names (inside the folder only), or every `.safetensors` file. */
async function shardFiles(folder: string): Promise<string[]> {
  const names = await readdir(folder);
  if (names.includes(INDEX)) {
    const map = (await readJson(folder, INDEX, true)).weight_map;
    if (typeof map !== 'object' || map === null) throw new Error(`${INDEX} has no weight_map`);
    const files = new Set(Object.values(map as Record<string, unknown>));
    for (const file of files) {
      if (typeof file !== 'string' || basename(file) !== file || !names.includes(file))
        throw new Error(`${INDEX} names a shard ${String(file)} that is not a file in ${folder}`);
    }
    return [...files] as string[];
  }
  const found = names.filter((name) => name.endsWith('.safetensors')).sort();
  if (found.length === 0) throw new Error(`${folder} holds no .safetensors weights`);
  return found;
}

async function optionalText(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
}

/** Reads `folder` as a GGUF file whose tensors are made on reading; `quant` quantises every matrix. */
export async function readHfFolder(folder: string, quant?: PackQuant): Promise<GgufFile> {
  const config = await readJson(folder, 'config.json', true);
  const { architecture, text, metadata } = hfConfig(config);
  const tokenizerMetadata = hfTokenizerMetadata({
    tokenizer: await readJson(folder, 'tokenizer.json', true),
    tokenizerConfig: await readJson(folder, 'tokenizer_config.json', false),
    config,
    chatTemplateFile: await optionalText(join(folder, 'chat_template.jinja')),
  });
  for (const [key, value] of tokenizerMetadata) metadata.set(key, value);
  metadata.set('general.name', basename(folder));
  const vocab = (tokenizerMetadata.get('tokenizer.ggml.tokens') as GgufValue[]).length;
  const hidden = text.hidden_size as number;
  const heads = text.num_attention_heads as number;
  const shape = { heads, kvHeads: (text.num_key_value_heads as number | undefined) ?? heads, hidden };

  const sources = new Map<string, SafetensorsTensor>();
  const tensors = new Map<string, GgufTensorInfo>();
  for (const file of await shardFiles(folder)) {
    for (const tensor of await readSafetensorsHeader(join(folder, file))) {
      const name = ggufTensorName(tensor.name, architecture);
      if (!name) continue;
      if (sources.has(name)) throw new Error(`${folder}: the tensor ${tensor.name} appears twice`);
      const dims = [...tensor.shape].reverse();
      if (dims.length !== 1 && dims.length !== 2)
        throw new Error(`${folder}: tensor ${tensor.name} has shape [${tensor.shape.join(', ')}]`);
      // Embedding and head rows beyond the vocabulary are padding no token reaches (llama.cpp drops them).
      if (name === 'token_embd.weight' || name === 'output.weight') {
        if (dims[1]! < vocab) throw new Error(`${folder}: ${tensor.name} has ${dims[1]} rows for a vocabulary of ${vocab}`);
        dims[1] = vocab;
      }
      const type = quant && dims.length === 2 && dims[0]! % 32 === 0 ? QUANT_TYPES[quant] : GgmlType.F32;
      const elements = dims.reduce((a, b) => a * b, 1);
      sources.set(name, tensor);
      tensors.set(name, { name, dims, type, offset: 0, byteLength: tensorBytes(type, elements) });
    }
  }
  const headDim = (text.head_dim as number | undefined) ?? hidden / heads;
  const ropeFactors = architecture === 'llama' ? llama3RopeFactors(text, headDim) : undefined;
  if (ropeFactors)
    tensors.set('rope_freqs.weight', {
      name: 'rope_freqs.weight',
      dims: [ropeFactors.length],
      type: GgmlType.F32,
      offset: 0,
      byteLength: 4 * ropeFactors.length,
    });

  const readTensor = (info: GgufTensorInfo): Buffer => {
    if (info.name === 'rope_freqs.weight' && ropeFactors) return f32Bytes(ropeFactors);
    const source = sources.get(info.name);
    if (!source) throw new Error(`${folder} has no tensor for ${info.name}`);
    const elements = info.dims.reduce((a, b) => a * b, 1);
    const values = toGgufLayout(info.name, readSafetensorsValues(source).subarray(0, elements), architecture, shape);
    return info.type === GgmlType.F32 ? f32Bytes(values) : quantizeBlocks(info.type as GgmlType.Q8_0 | GgmlType.Q4_0, values);
  };
  return { path: folder, version: 3, alignment: 32, dataOffset: 0, metadata, tensors, readTensor };
}
