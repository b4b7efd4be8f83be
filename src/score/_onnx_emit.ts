/**
 * A minimal ONNX model writer: just the protobuf messages a one-node graph
 * needs. Like src/common/wasm_emit.ts, emitting the bytes from TypeScript keeps the
 * native scoring path free of any extra tool (no python onnx, no protobuf
 * library); onnxruntime parses and validates the model when a session is made.
 *
 * Field numbers follow onnx/onnx.proto (ModelProto, GraphProto, NodeProto,
 * AttributeProto, ValueInfoProto, TypeProto, TensorShapeProto,
 * OperatorSetIdProto).
 */

const VARINT = 0, BYTES = 2;

/** Protobuf base-128 varint of a non-negative integer below 2⁵³. */
export function varint(n: number): number[] {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`varint: ${n} is not a safe integer ≥ 0`);
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

const tag = (field: number, wire: number) => varint(field * 8 + wire);
const int = (field: number, n: number) => [...tag(field, VARINT), ...varint(n)];
const bytes = (
  field: number,
  body: number[],
) => [...tag(field, BYTES), ...varint(body.length), ...body];
const str = (field: number, s: string) => bytes(field, [...new TextEncoder().encode(s)]);

/** TensorProto.DataType FLOAT. */
const FLOAT = 1;
/** AttributeProto.AttributeType INT. */
const ATTR_INT = 2;

/** A float tensor input or output whose dimensions are named (symbolic), so one model fits every shape. */
function tensorValue(name: string, dims: string[]): number[] {
  const shape = dims.flatMap((d) => bytes(1, str(2, d))); // TensorShapeProto.dim{dim_param}
  const tensorType = [...int(1, FLOAT), ...bytes(2, shape)]; // elem_type, shape
  return [...str(1, name), ...bytes(2, bytes(1, tensorType))]; // name, type{tensor_type}
}

/**
 * Serialized ONNX model computing `Y = A · Bᵀ` for float32 `A` [nq × dims]
 * and `B` [nd × dims]: a single `Gemm` node (opset 13) with `transB = 1`, so
 * the document matrix is passed row-major as stored and never transposed in
 * JavaScript (MatMul would need `Bᵀ` materialised first).
 *
 * Pass the bytes to `ort.InferenceSession.create(model)`.
 */
export function gemmTransBModel(): Uint8Array {
  const attr = [...str(1, "transB"), ...int(3, 1), ...int(20, ATTR_INT)]; // name, i, type
  const node = [
    ...str(1, "A"),
    ...str(1, "B"),
    ...str(2, "Y"),
    ...str(3, "scores"),
    ...str(4, "Gemm"),
    ...bytes(5, attr),
  ];
  const graph = [
    ...bytes(1, node),
    ...str(2, "dot_scores"),
    ...bytes(11, tensorValue("A", ["nq", "dims"])),
    ...bytes(11, tensorValue("B", ["nd", "dims"])),
    ...bytes(12, tensorValue("Y", ["nq", "nd"])),
  ];
  const opset = [...str(1, ""), ...int(2, 13)]; // default domain, version 13
  const model = [
    ...int(1, 8), // ir_version 8
    ...str(2, "execret"), // producer_name
    ...bytes(7, graph),
    ...bytes(8, opset),
  ];
  return Uint8Array.from(model);
}
