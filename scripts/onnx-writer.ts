// A minimal ONNX ModelProto writer: just the protobuf fields a small inference graph needs
// (field numbers from onnx/onnx.proto). Written by hand so the LLM fixture needs no Python and
// no protobuf dependency; output is byte-for-byte deterministic for the same graph.

/** ONNX TensorProto.DataType values used here. */
export const DataType = { FLOAT: 1, INT64: 7 } as const;
export type DataType = (typeof DataType)[keyof typeof DataType];

/** A dimension: a fixed size or a symbolic name (e.g. `batch_size`). */
export type Dim = number | string;

export interface ValueInfo {
  name: string;
  type: DataType;
  shape: readonly Dim[];
}

export interface Tensor {
  name: string;
  type: DataType;
  dims: readonly number[];
  /** Little-endian raw data, as ONNX's `raw_data` field stores it. */
  data: Uint8Array;
}

/** An integer attribute, the only kind the fixture graphs use. */
export interface Attribute {
  name: string;
  int: number;
}

export interface Node {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  attributes?: readonly Attribute[];
}

export interface Graph {
  name: string;
  doc: string;
  nodes: readonly Node[];
  initializers: readonly Tensor[];
  inputs: readonly ValueInfo[];
  outputs: readonly ValueInfo[];
}

export interface Model {
  graph: Graph;
  opset: number;
  producer: string;
}

/** IR version 8 (ONNX 1.10): understood by every onnxruntime since 1.10. */
const IR_VERSION = 8;

/** AttributeProto.AttributeType.INT */
const ATTR_INT = 2;

// Protobuf wire types.
const VARINT = 0;
const LEN = 2;

/** Appends protobuf fields to a growing byte list. */
class Writer {
  private readonly bytes: number[] = [];

  private varint(value: number | bigint): void {
    // Negative int64 values are encoded as their 64-bit two's complement.
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.bytes.push(Number(v));
  }

  private key(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, value: number): this {
    this.key(field, VARINT);
    this.varint(value);
    return this;
  }

  bytesField(field: number, data: Uint8Array): this {
    this.key(field, LEN);
    this.varint(data.length);
    for (const b of data) this.bytes.push(b);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytesField(field, new TextEncoder().encode(value));
  }

  message(field: number, build: (w: Writer) => void): this {
    const inner = new Writer();
    build(inner);
    return this.bytesField(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

function writeValueInfo(w: Writer, v: ValueInfo): void {
  w.string(1, v.name).message(2, (type) =>
    type.message(1, (tensor) =>
      tensor.int(1, v.type).message(2, (shape) => {
        for (const d of v.shape) {
          shape.message(1, (dim) => (typeof d === 'number' ? dim.int(1, d) : dim.string(2, d)));
        }
      }),
    ),
  );
}

function writeTensor(w: Writer, t: Tensor): void {
  for (const d of t.dims) w.int(1, d);
  w.int(2, t.type).string(8, t.name).bytesField(9, t.data);
}

function writeNode(w: Writer, n: Node, index: number): void {
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  w.string(3, `${n.op}_${index}`).string(4, n.op);
  for (const a of n.attributes ?? []) {
    w.message(5, (attr) => attr.string(1, a.name).int(3, a.int).int(20, ATTR_INT));
  }
}

/** Serialises a model to the bytes of an `.onnx` file. */
export function encodeModel(model: Model): Uint8Array {
  const { graph } = model;
  return new Writer()
    .int(1, IR_VERSION)
    .string(2, model.producer)
    .message(7, (g) => {
      graph.nodes.forEach((n, i) => g.message(1, (w) => writeNode(w, n, i)));
      g.string(2, graph.name);
      for (const t of graph.initializers) g.message(5, (w) => writeTensor(w, t));
      g.string(10, graph.doc);
      for (const v of graph.inputs) g.message(11, (w) => writeValueInfo(w, v));
      for (const v of graph.outputs) g.message(12, (w) => writeValueInfo(w, v));
    })
    .message(8, (op) => op.string(1, '').int(2, model.opset))
    .finish();
}

/** Raw little-endian bytes of a float32 tensor. */
export function float32Data(values: Float32Array): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return out;
}

/** Raw little-endian bytes of an int64 tensor. */
export function int64Data(values: readonly number[]): Uint8Array {
  const out = new Uint8Array(values.length * 8);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setBigInt64(i * 8, BigInt(v), true));
  return out;
}
