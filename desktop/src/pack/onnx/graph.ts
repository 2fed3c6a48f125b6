/**
 * Builds an ONNX model (the ModelProto schema of onnx/onnx.proto3, only the fields a decoder
 * block uses) and writes it to a file. Field numbers are the schema's; names of intermediate
 * values are generated, so graph code reads like the computation it describes.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ExternalWeights } from './external-weights';
import { Message } from './protobuf';

export enum DataType {
  FLOAT = 1,
  UINT8 = 2,
  INT8 = 3,
  INT32 = 6,
  INT64 = 7,
  FLOAT16 = 10,
}

export interface Tensor {
  dataType: DataType;
  dims: readonly number[];
  /** Little-endian element bytes, as TensorProto.raw_data holds them. */
  data: Uint8Array | Float32Array | Int32Array | BigInt64Array | Uint16Array;
}

/** Attribute values say their kind, because ONNX tells an int from a float by field. */
export type Attribute = { i: number } | { f: number } | { s: string } | { ints: readonly number[] } | { floats: readonly number[] };

/** A dimension is a fixed size or a symbolic name (batch, sequence...). */
export type Dim = number | string;

const MICROSOFT = 'com.microsoft';

function bytesOf(tensor: Tensor): Uint8Array {
  return new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
}

/** Where an external initializer's bytes are in the weights file. */
interface Placement {
  location: string;
  offset: number;
  length: number;
}

/** An initializer: its bytes in the graph, or where they are in the weights file. */
function tensorProto(name: string, header: Pick<Tensor, 'dataType' | 'dims'>, body: Uint8Array | Placement): Message {
  const message = new Message().packedInts(1, header.dims).int(2, header.dataType).string(8, name);
  if (body instanceof Uint8Array) return message.bytes(9, body);
  const entry = (key: string, value: string) => new Message().string(1, key).string(2, value);
  message.message(13, entry('location', body.location));
  message.message(13, entry('offset', String(body.offset)));
  message.message(13, entry('length', String(body.length)));
  return message.int(14, 1); // data_location: EXTERNAL
}

// Weights go to the external file; small tensors (shapes, norms) stay in the graph.
const EXTERNAL_MIN_BYTES = 4096;

function valueInfo(name: string, dataType: DataType, dims: readonly Dim[]): Message {
  const shape = new Message();
  for (const dim of dims) shape.message(1, typeof dim === 'number' ? new Message().int(1, dim) : new Message().string(2, dim));
  const tensorType = new Message().int(1, dataType).message(2, shape);
  return new Message().string(1, name).message(2, new Message().message(1, tensorType));
}

function attributeProto(name: string, value: Attribute): Message {
  const message = new Message().string(1, name);
  if ('i' in value) return message.int(3, value.i).int(20, 2);
  if ('f' in value) return message.float(2, value.f).int(20, 1);
  if ('s' in value) return message.string(4, value.s).int(20, 3);
  if ('ints' in value) return message.packedInts(8, value.ints).int(20, 7);
  return message.packedFloats(7, value.floats).int(20, 6);
}

export class GraphBuilder {
  private readonly graph = new Message();
  private readonly names = new Set<string>();
  /** Where each external initializer's bytes are, for `alias`. */
  private readonly placed = new Map<string, { header: Pick<Tensor, 'dataType' | 'dims'>; placement: Placement }>();
  private counter = 0;

  /** With `external`, large initializers are written to that file as they are added, not kept. */
  constructor(
    private readonly name: string,
    private readonly external?: ExternalWeights,
  ) {}

  input(name: string, dataType: DataType, dims: readonly Dim[]): string {
    this.graph.message(11, valueInfo(this.claim(name), dataType, dims));
    return name;
  }

  output(name: string, dataType: DataType, dims: readonly Dim[]): void {
    this.graph.message(12, valueInfo(name, dataType, dims));
  }

  initializer(name: string, tensor: Tensor): string {
    if (!this.external || tensor.data.byteLength < EXTERNAL_MIN_BYTES) {
      this.graph.message(5, tensorProto(this.claim(name), tensor, bytesOf(tensor)));
      return name;
    }
    const offset = this.external.append(bytesOf(tensor));
    const placement = { location: this.external.location, offset, length: tensor.data.byteLength };
    const header = { dataType: tensor.dataType, dims: tensor.dims };
    this.graph.message(5, tensorProto(this.claim(name), header, placement));
    this.placed.set(name, { header, placement });
    return name;
  }

  /**
   * A second initializer over the same external bytes as `of` (the file holds them once), or
   * over `part` of them (a range of a table's rows, with dims of its own); undefined when `of` is
   * stored in the graph. onnxruntime maps each external initializer on its own and unmaps one
   * that a kernel has prepacked, so a table both prepacked (a tied head) and looked up (the
   * embedding) is read through two names: the prepack's mapping goes, and the lookup's keeps
   * only the rows it has touched resident.
   */
  alias(name: string, of: string, part?: { at: number; length: number; dataType: DataType; dims: readonly number[] }): string | undefined {
    const placed = this.placed.get(of);
    if (!placed) return undefined;
    const { at, length, dataType, dims } = part ?? { at: 0, length: placed.placement.length, ...placed.header };
    if (at < 0 || at + length > placed.placement.length) throw new Error(`unreachable: a part outside ${of}`);
    const placement = { ...placed.placement, offset: placed.placement.offset + at, length };
    this.graph.message(5, tensorProto(this.claim(name), { dataType, dims }, placement));
    return name;
  }

  /** Writes the graph to `directory` as `file` (its external weights are written already). */
  write(directory: string, file: string): void {
    writeParts(join(directory, file), this.model().parts);
  }

  /**
   * Adds a node and answers its outputs' names: `outputs` names them (a string names a graph
   * value, a number asks for that many generated names). An empty input name skips an optional input.
   */
  node(
    opType: string,
    inputs: readonly string[],
    attributes: Record<string, Attribute> = {},
    options: { outputs?: number | readonly string[]; domain?: 'microsoft' } = {},
  ): string[] {
    const outputs =
      typeof options.outputs === 'object'
        ? options.outputs.map((name) => this.claim(name))
        : Array.from({ length: options.outputs ?? 1 }, (_, i) => this.claim(`${opType}_${this.counter}.${i}`));
    const node = new Message();
    for (const input of inputs) node.string(1, input);
    for (const output of outputs) node.string(2, output);
    node.string(3, `${opType}_${this.counter++}`).string(4, opType);
    for (const [attribute, value] of Object.entries(attributes)) node.message(5, attributeProto(attribute, value));
    if (options.domain === 'microsoft') node.string(7, MICROSOFT);
    this.graph.message(1, node);
    return outputs;
  }

  /** The one-output form of `node`. */
  op(opType: string, inputs: readonly string[], attributes: Record<string, Attribute> = {}, domain?: 'microsoft'): string {
    return this.node(opType, inputs, attributes, { domain })[0]!;
  }

  /** The finished ModelProto. */
  model(): Message {
    this.graph.string(2, this.name);
    const opset = (domain: string, version: number) => new Message().string(1, domain).int(2, version);
    return new Message()
      .int(1, 10) // IR version 10 (ONNX 1.16), read by onnxruntime 1.17 and later
      .string(2, 'meshwork')
      .message(8, opset('', 21))
      .message(8, opset(MICROSOFT, 1))
      .message(7, this.graph);
  }

  private claim(name: string): string {
    if (this.names.has(name)) throw new Error(`ONNX graph ${this.name}: the value name ${name} is used twice`);
    this.names.add(name);
    return name;
  }
}

/** Writes a message's parts to a file without joining them in memory first. */
export function writeMessage(path: string, message: Message): void {
  writeParts(path, message.parts);
}

function writeParts(path: string, parts: readonly Uint8Array[]): void {
  const fd = openSync(path, 'w');
  try {
    for (const part of parts) {
      for (let written = 0; written < part.byteLength;) written += writeSync(fd, part, written);
    }
  } finally {
    closeSync(fd);
  }
}
